"""A link to a view: the Train page's settings and step in the URL's query parameters, and back.

:func:`settings_to_params` writes a view as query parameters; :func:`settings_from_params` and
:func:`step_from_params` read them back from any mapping of parameter name to value (a plain dict
in tests), defensively, since a link is anyone's text: what a link cannot restore is left at the
preset's value and said in ``notes``, one sentence each, quoting the link's value as plain text (the
page escapes it). Only :func:`read_url` and :func:`sync_url` touch ``st.query_params``.
A pasted or uploaded corpus that is in the corpus store (``server/corpus_store.py``) is named by its
digest (``corpus=<64 hex>``), whatever its size; one the store could not take is put in the link only
if it is short (MAX_URL_CORPUS_CHARS), else the link says so instead (``corpus=text``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

import streamlit as st

import bpe
from bpe.presets import DEFAULT_PRESET, PRESETS
from server import corpus_form, corpus_store, stored_text
from server.stored_text import StoredText
from ui.settings import Settings, preset_settings

MAX_URL_CORPUS_CHARS = 1_500  # a pasted corpus longer than this is not put in the URL
URL_CHOICES = {
    "pre_tokenizer": bpe.PRE_TOKENIZERS,
    "limit": ("num_merges", "vocab_size", "none"),
    "tie_break": bpe.TIE_RULES,
    "algorithm": bpe.ALGORITHMS,
}
MAX_LIMIT_VALUE = 100_000  # the sidebar's number input goes up to this
MAX_FORCED_CHARS = 20_000  # a link's what-if merges, as JSON
MAX_FORCED_MERGES = 1_000
MAX_SHOWN_CHARS = 80  # a link value quoted in a note is cut to this
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,30}")  # [0-9], not \d: \d matches every script's digits


# -- writing ------------------------------------------------------------------------------------
def corpus_digest(settings: Settings) -> str | None:
    """The digest of a pasted, uploaded or word-count corpus (None for a preset or no corpus)."""
    if settings.source == "text" and settings.stored is not None:
        return settings.stored.digest
    corpus = {"text": settings.text, "counts": settings.counts}.get(settings.source)
    return corpus_form.digest(settings.source, corpus) if corpus else None


def settings_to_params(settings: Settings, step: int, stored: Collection[str] = ()) -> dict[str, str]:
    """Query parameters that restore this view: a corpus in ``stored`` (digests the store holds) by its
    digest, another one itself only if it is short."""
    base = preset_settings(settings.preset) if settings.source == "preset" else Settings(source=settings.source)
    params: dict[str, str] = {"step": str(step)}
    if settings.source == "preset":
        params["preset"] = settings.preset
    elif stored and (key := corpus_digest(settings)) in stored:
        params["corpus"] = key
    elif not corpus_fits_url(settings):
        params["corpus"] = settings.source  # a marker: the link cannot carry the corpus itself
    elif settings.source == "text":
        params["text"] = settings.text
    elif settings.source == "counts":
        params["counts"] = settings.counts
    for name in (
        "pre_tokenizer",
        "limit",
        "limit_value",
        "tie_break",
        "min_frequency",
        "algorithm",
        "full_byte_alphabet",
    ):
        value = getattr(settings, name)
        if value != getattr(base, name):
            params[name] = str(int(value) if isinstance(value, bool) else value)
    if settings.special_tokens != base.special_tokens:
        params["special"] = ",".join(settings.special_tokens)
    if settings.forced != base.forced:
        # JSON, not "a b": tokens may contain spaces (space-suffix) or any other character.
        params["forced"] = json.dumps([[k, a, b] for k, (a, b) in settings.forced], ensure_ascii=False)
    return params


def corpus_fits_url(settings: Settings) -> bool:
    if settings.source == "text":
        return settings.text_chars() <= MAX_URL_CORPUS_CHARS
    if settings.source == "counts":
        return len(settings.counts) <= MAX_URL_CORPUS_CHARS
    return True


# -- reading ------------------------------------------------------------------------------------
def shown(value: str) -> str:
    """A value from a link, cut to a readable length for a note (the note is escaped where it is drawn)."""
    value = str(value)
    return value if len(value) <= MAX_SHOWN_CHARS else value[:MAX_SHOWN_CHARS] + f"… ({len(value):,} characters)"


def _whole_number(name: str, raw: str, notes: list[str], low: int, high: int) -> int | None:
    """A link's whole number, kept within [low, high]; None (and a note) when it is not one.

    Only ASCII digits, an optional leading minus: ``str.isdigit`` also accepts ``²`` or ``①``, which
    ``int()`` rejects, and ``int()`` reads ``٣`` or ``𝟗``, which a link writer never means as a number.

    >>> notes = []
    >>> _whole_number("step", "²", notes, 0, 9), notes[0]
    (None, "The link's step “²” is not a whole number; it is left out.")
    """
    raw = raw.strip()
    if not _WHOLE_NUMBER.fullmatch(raw):
        notes.append(f"The link's {name} “{shown(raw)}” is not a whole number; it is left out.")
        return None
    value = int(raw)
    kept = max(low, min(value, high))
    if kept != value:
        notes.append(f"The link's {name} {value:,} is out of range; using {kept:,}.")
    return kept


def forced_from_url(raw: str, notes: list[str]) -> tuple[tuple[int, tuple[str, str]], ...] | None:
    """A link's what-if merges (JSON ``[[step, a, b], ...]``), or None and a note saying what is wrong.
    Read defensively: a link is anyone's text (a number like 1e999, brackets nested thousands deep)."""
    problem = None
    if len(raw) > MAX_FORCED_CHARS:
        problem = f"is {len(raw):,} characters long, over the {MAX_FORCED_CHARS:,} a link may carry"
    else:
        try:
            items = json.loads(raw)
        except (ValueError, RecursionError):
            items, problem = None, "is not readable JSON"
        if problem is None and not isinstance(items, list):
            problem = "is not a list of [step, token, token] entries"
        elif problem is None and len(items) > MAX_FORCED_MERGES:
            problem = f"has {len(items):,} entries, more than {MAX_FORCED_MERGES:,}"
        elif problem is None:
            forced = []
            for item in items:
                ok = (
                    isinstance(item, list)
                    and len(item) == 3
                    and type(item[0]) is int
                    and 1 <= item[0] <= MAX_LIMIT_VALUE
                    and all(isinstance(t, str) and t for t in item[1:])
                )
                if not ok:
                    problem = (
                        f"has an entry that is not [step, token, token] with a step from 1 to {MAX_LIMIT_VALUE:,}: "
                        f"“{shown(json.dumps(item, ensure_ascii=False) if _shallow(item) else '…')}”"
                    )
                    break
                forced.append((item[0], (item[1], item[2])))
            else:
                return tuple(sorted(dict(forced).items()))
    notes.append(f"The link's what-if merges (forced=) {problem}, so the run leaves them out.")
    return None


def _shallow(item) -> bool:
    return not isinstance(item, (list, dict)) or all(not isinstance(x, (list, dict)) for x in item)


CORPUS_GONE = (
    "The corpus this link points to is no longer on the server (old corpora are removed to make room): "
    "paste or upload it again in the sidebar. The link's settings are applied."
)


def _corpus_from_store(key: str, fetch: Callable[[str], tuple[str, Any] | None], notes: list[str]) -> Settings:
    """The settings of a ``corpus=<digest>`` link (a long text held by its digest: ``server/stored_text.py``); an
    empty text corpus (the paste box) and a note if it is gone."""
    try:
        found = fetch(key)
    except corpus_store.StoreUnavailable as exc:
        notes.append(f"{exc} This link's corpus cannot be opened now: reload in a moment, or paste it in the sidebar.")
        return Settings(source="text")
    if found is None:
        notes.append(CORPUS_GONE)
        return Settings(source="text")
    kind, corpus = found
    if isinstance(corpus, StoredText):
        return Settings(source="text", stored=corpus)
    return Settings(source="text", text=corpus) if kind == "text" else Settings(source="counts", counts=corpus)


def _fetch(key: str) -> tuple[str, str | StoredText] | None:
    return stored_text.open_stored(key)


def settings_from_params(
    q: Mapping[str, str], notes: list[str], fetch: Callable[[str], tuple[str, Any] | None] = _fetch
) -> Settings:
    """Settings from a link's query parameters ``q``. What a link cannot restore is left at the
    preset's value and said in ``notes`` (a sentence each, quoting the link's value as plain text:
    the page escapes it). A ``corpus=<64 hex>`` is looked up with ``fetch`` (the corpus store).

    >>> notes = []
    >>> settings_from_params({"preset": "hug", "tie_break": "hf"}, notes).tie_break, notes
    ('hf', [])
    """
    if "text" in q:
        s = Settings(source="text", text=q["text"])
    elif "counts" in q:
        s = Settings(source="counts", counts=q["counts"])
    elif corpus_form.DIGEST.fullmatch(q.get("corpus", "")):
        s = _corpus_from_store(q["corpus"], fetch, notes)
    elif q.get("corpus") in ("text", "counts"):
        s = Settings(source=q["corpus"])
        notes.append(
            f"This link was made from a corpus too long to fit in a link (over {MAX_URL_CORPUS_CHARS:,} "
            "characters), so it does not carry the text: paste or upload it again in the sidebar. "
            "The link's settings are applied."
        )
    else:
        if "corpus" in q:
            notes.append(
                f"The link's corpus “{shown(q['corpus'])}” is not a corpus address (64 hexadecimal digits); "
                "it is left out."
            )
        preset = q.get("preset", DEFAULT_PRESET)
        if preset not in PRESETS:
            notes.append(f"The link names a preset that does not exist ({shown(preset)}); showing {DEFAULT_PRESET}.")
            preset = DEFAULT_PRESET
        s = preset_settings(preset)
    changes: dict = {}
    for name, choices in URL_CHOICES.items():
        if name in q and q[name] in choices:
            changes[name] = q[name]
        elif name in q:
            notes.append(
                f"The link's {name} “{shown(q[name])}” is not one of {', '.join(choices)}; using {getattr(s, name)}."
            )
    for name, top in (("limit_value", MAX_LIMIT_VALUE), ("min_frequency", bpe.MAX_WORD_COUNT)):
        if name in q:
            value = _whole_number(name, q[name], notes, 0, top)
            if value is not None:
                changes[name] = value
    if "full_byte_alphabet" in q:
        changes["full_byte_alphabet"] = q["full_byte_alphabet"] == "1"
    if "special" in q:
        changes["special_tokens"] = tuple(dict.fromkeys(t for t in q["special"].split(",") if t))
    if "forced" in q:
        forced = forced_from_url(q["forced"], notes)
        if forced is not None:
            changes["forced"] = forced
    s = replace(s, **changes)
    if s.full_byte_alphabet and s.pre_tokenizer not in bpe.BYTE_LEVEL:
        s = replace(s, full_byte_alphabet=False)
    return s


def step_from_params(q: Mapping[str, str], notes: list[str]) -> int:
    """The link's step (the page clamps it to the run's last step).

    >>> step_from_params({"step": "7"}, []), step_from_params({}, [])
    (7, 0)
    """
    if "step" not in q:
        return 0
    step = _whole_number("step", q["step"], notes, 0, MAX_LIMIT_VALUE)
    return 0 if step is None else step


# -- the page's own URL -------------------------------------------------------------------------
def read_url(notes: list[str]) -> tuple[Settings, int]:
    """The settings and step of the page's URL (``st.query_params``), what it cannot restore said in ``notes``."""
    return settings_from_params(st.query_params, notes), step_from_params(st.query_params, notes)


def sync_url(
    settings: Settings, step: int, stored: Collection[str] = (), also: Mapping[str, str] | None = None
) -> None:
    """Write the view into the URL, on every run. Not only when the server's copy differs: a run cut
    short (a Play tick interrupted by Pause) can leave the browser's address bar ahead of that copy.
    Stepping changes the URL on every click anyway, so this sends nothing more then. ``also``: other
    parameters the URL keeps (a live class's code), in the same message (each write of the URL is one)."""
    st.query_params.from_dict({**settings_to_params(settings, step, stored), **(also or {})})
