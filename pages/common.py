"""What the pages share: the session's corpus and settings, cached training, the URL.

All of the app's state lives in ``st.session_state[STATE_KEY]`` (one namespaced
dict), so the encode page uses the tokenizer trained on the training page and
nothing resets when the user switches pages. Training is cached with
``st.cache_resource`` keyed by corpus and settings: it runs once, and every
session that trains the same thing shares the (immutable) history.
"""

from __future__ import annotations

import gc
import html
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

import streamlit as st

import bpe
from bpe import display
from bpe.presets import DEFAULT_PRESET, PRESETS

STATE_KEY = "bpe_explorer"
MAX_CORPUS_BYTES = 5_000_000  # pasted or uploaded text; stated in the UI and README
MAX_URL_CORPUS_CHARS = 1_500  # a pasted corpus longer than this is not put in the URL



def _leave_folder_pages_mode() -> None:
    """Make the first run after a server start go through ``app.py``'s router.

    Streamlit 1.67 decides when a server starts whether a folder named ``pages/`` beside the
    entry script means its old multipage API, and only ``st.navigation`` (in ``app.py``) turns
    that off. So until some session has run ``app.py``, a direct link such as
    ``/train?step=7`` runs ``pages/train.py`` alone (no page config, no CSS) and the sidebar
    lists every module here as a page. Every page imports this module first: if that mode is
    still on, turn it off exactly as ``st.navigation`` does and run again, now through the router.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        PagesManager.uses_pages_directory = False
        st.rerun()


_leave_folder_pages_mode()


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run (hashable: it is part of the cache key)."""

    source: str = "preset"  # preset | text | counts
    preset: str = DEFAULT_PRESET
    text: str = ""
    counts: str = ""
    pre_tokenizer: str = "whitespace"
    limit: str = "num_merges"  # num_merges | vocab_size | none
    limit_value: int = 10
    special_tokens: tuple[str, ...] = ()
    tie_break: str = "first"
    min_frequency: int = 0
    algorithm: str = "bpe"
    full_byte_alphabet: bool = False
    forced: tuple[tuple[int, tuple[str, str]], ...] = ()

    def options(self) -> dict:
        """Keyword arguments for ``bpe.train_steps``."""
        opts = dict(
            pre_tokenizer=self.pre_tokenizer, special_tokens=self.special_tokens, tie_break=self.tie_break,
            min_frequency=self.min_frequency, algorithm=self.algorithm, full_byte_alphabet=self.full_byte_alphabet,
            forced_merges=dict(self.forced),
        )
        if self.limit in ("num_merges", "vocab_size"):
            opts[self.limit] = self.limit_value
        return opts


def preset_settings(key: str) -> Settings:
    """The settings that reproduce a preset exactly."""
    p = PRESETS[key]
    o = p.options
    limit = "vocab_size" if "vocab_size" in o else "num_merges" if "num_merges" in o else "none"
    return Settings(
        source="preset", preset=key, pre_tokenizer=o.get("pre_tokenizer", "whitespace"), limit=limit,
        limit_value=o.get(limit, 10) if limit != "none" else 10, special_tokens=tuple(o.get("special_tokens", ())),
        tie_break=o.get("tie_break", "first"), forced=tuple(sorted(p.forced_merges.items())),
    )


def app_state() -> dict:
    """The session's one namespaced dict, created on first use (from the URL if it has one)."""
    if STATE_KEY not in st.session_state:
        notes: list[str] = []
        settings = settings_from_url(notes)
        # link_notes: what the link could not restore, shown until the user changes these settings
        st.session_state[STATE_KEY] = {"settings": settings, "step": step_from_url(), "error": None,
                                       "link_notes": (settings, notes)}
    return st.session_state[STATE_KEY]


def keep_widgets(store: dict, keys) -> None:
    """Keep the values of a page's widgets in ``store`` (part of our state) and set them back.

    Streamlit forgets a widget's value when a run does not draw it (another page is shown, or the
    page stopped early), and the browser then shows it empty while the server may still hold the
    old value. Setting each value by script before the widgets are drawn sends it to the browser
    with the widget, every run, so the two always agree."""
    for key in keys:
        if key in st.session_state:
            store[key] = st.session_state[key]
        if key in store:
            st.session_state[key] = store[key]


# -- corpus and training -------------------------------------------------------------------------
def corpus_of(settings: Settings):
    """The corpus a setting describes, or raise ValueError with what to fix."""
    if settings.source == "preset":
        if settings.preset not in PRESETS:
            raise ValueError(f"There is no preset called {settings.preset!r}.")
        return PRESETS[settings.preset].corpus()
    if settings.source == "counts":
        return bpe.parse_word_counts(settings.counts, line_name="Row")  # the page shows them as a table
    if len(settings.text.encode("utf-8")) > MAX_CORPUS_BYTES:
        raise ValueError(f"The corpus is larger than {MAX_CORPUS_BYTES // 1_000_000} MB; paste or upload less text.")
    if not settings.text.strip():
        raise ValueError("The corpus is empty: paste some text, upload a .txt file, or pick a preset.")
    return settings.text.splitlines() or [settings.text]


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's reach (``gc.freeze``).

    Streamlit, pandas, Altair and a trained history are hundreds of thousands of long-lived
    objects; without this, Python's full collections re-scan them all during a click and
    triple its latency (measured in benchmarks/bench_pages.py). Garbage is collected first,
    so only live objects are frozen. Called once at start-up and after each training.
    """
    gc.collect()
    gc.freeze()


_started = False


def freeze_once_at_startup() -> None:
    global _started
    if not _started:
        _started = True
        freeze_heap()


@st.cache_resource
def _run_store() -> tuple[OrderedDict, threading.Lock]:
    """Finished training runs shared by every session: settings -> History (newest last)."""
    return OrderedDict(), threading.Lock()


MAX_RUNS_KEPT = 12


def train(settings: Settings) -> bpe.History:
    """Train once per corpus and settings (shared across sessions); ValueError on bad input.

    Not ``st.cache_resource`` on the training itself because a cached function's elements
    are replayed on every hit: here the progress bar shows only when training really runs
    and takes over a second.
    """
    store, lock = _run_store()
    with lock:
        if settings in store:
            store.move_to_end(settings)
            return store[settings]
    states = bpe.train_steps(corpus_of(settings), **settings.options())
    first = next(states)
    total = settings.limit_value if settings.limit == "num_merges" else None
    started, bar = time.perf_counter(), None
    for state in states:
        if state.step % 50:
            continue
        if bar is None and time.perf_counter() - started > 1.0:
            bar = st.progress(0.0, text="Training…")
        if bar is not None:
            frac = min(state.step / total, 1.0) if total else 0.5
            bar.progress(frac, text=f"Training… merge {state.step:,}" + (f" of {total:,}" if total else ""))
    if bar is not None:
        bar.empty()
    with lock:
        store[settings] = first.history
        while len(store) > MAX_RUNS_KEPT:
            store.popitem(last=False)
    freeze_heap()  # the new history is long-lived: keep it out of every later collection
    return first.history


@st.cache_resource(max_entries=16, show_spinner=False)
def tokenizer_for(settings: Settings, step: int) -> bpe.Tokenizer:
    return bpe.Tokenizer.from_state(train(settings).state(step))


def current_tokenizer() -> bpe.Tokenizer | None:
    """The tokenizer the training page last trained (its final step), or None if training failed."""
    s = app_state()
    try:
        history = train(s["settings"])
    except ValueError:
        return None
    return tokenizer_for(s["settings"], history.num_merges)


# -- the URL --------------------------------------------------------------------------------------
def settings_to_params(settings: Settings, step: int) -> dict[str, str]:
    """Query parameters that restore this view (the corpus itself only if it is short)."""
    base = preset_settings(settings.preset) if settings.source == "preset" else Settings(source=settings.source)
    params: dict[str, str] = {"step": str(step)}
    if settings.source == "preset":
        params["preset"] = settings.preset
    elif not corpus_fits_url(settings):
        params["corpus"] = settings.source  # a marker: the link cannot carry the corpus itself
    elif settings.source == "text":
        params["text"] = settings.text
    elif settings.source == "counts":
        params["counts"] = settings.counts
    for name in ("pre_tokenizer", "limit", "limit_value", "tie_break", "min_frequency", "algorithm",
                 "full_byte_alphabet"):
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
        return len(settings.text) <= MAX_URL_CORPUS_CHARS
    if settings.source == "counts":
        return len(settings.counts) <= MAX_URL_CORPUS_CHARS
    return True


URL_CHOICES = {"pre_tokenizer": bpe.PRE_TOKENIZERS, "limit": ("num_merges", "vocab_size", "none"),
               "tie_break": bpe.TIE_RULES, "algorithm": bpe.ALGORITHMS}
MAX_LIMIT_VALUE = 100_000  # the sidebar's number input goes up to this


def settings_from_url(notes: list[str] | None = None) -> Settings:
    """Settings from ``st.query_params``. What a link cannot restore is left at the preset's value
    and said in ``notes`` (a sentence each); a link that cannot be read at all opens the default."""
    q = st.query_params
    notes = notes if notes is not None else []
    try:
        if "text" in q:
            s = Settings(source="text", text=q["text"])
        elif "counts" in q:
            s = Settings(source="counts", counts=q["counts"])
        elif q.get("corpus") in ("text", "counts"):
            s = Settings(source=q["corpus"])
            notes.append(f"This link was made from a corpus too long to fit in a link (over {MAX_URL_CORPUS_CHARS:,} "
                         "characters), so it does not carry the text: paste or upload it again in the sidebar. "
                         "The link's settings are applied.")
        else:
            preset = q.get("preset", DEFAULT_PRESET)
            if preset not in PRESETS:
                notes.append(f"The link names a preset that does not exist ({preset}); showing {DEFAULT_PRESET}.")
                preset = DEFAULT_PRESET
            s = preset_settings(preset)
        changes: dict = {}
        for name, choices in URL_CHOICES.items():
            if name in q and q[name] in choices:
                changes[name] = q[name]
            elif name in q:
                notes.append(f"The link's {name} “{q[name]}” is not one of {', '.join(choices)}; "
                             f"using {getattr(s, name)}.")
        for name, top in (("limit_value", MAX_LIMIT_VALUE), ("min_frequency", None)):
            if name in q:
                value = int(q[name])
                changes[name] = max(0, value if top is None else min(value, top))
                if changes[name] != value:
                    notes.append(f"The link's {name} {value:,} is out of range; using {changes[name]:,}.")
        if "full_byte_alphabet" in q:
            changes["full_byte_alphabet"] = q["full_byte_alphabet"] == "1"
        if "special" in q:
            changes["special_tokens"] = tuple(t for t in q["special"].split(",") if t)
        if "forced" in q:
            forced = [(int(k), (str(a), str(b))) for k, a, b in json.loads(q["forced"])]
            changes["forced"] = tuple(forced)
        return replace(s, **changes)
    except (KeyError, ValueError, TypeError):  # a malformed link falls back to the default view
        notes.append("Part of this link could not be read, so it opens the default example.")
        return preset_settings(DEFAULT_PRESET)


def step_from_url() -> int:
    try:
        return max(int(st.query_params.get("step", 0)), 0)
    except ValueError:
        return 0


def sync_url(settings: Settings, step: int) -> None:
    """Write the view into the URL, on every run. Not only when the server's copy differs: a run cut
    short (a Play tick interrupted by Pause) can leave the browser's address bar ahead of that copy.
    Stepping changes the URL on every click anyway, so this sends nothing more then."""
    st.query_params.from_dict(settings_to_params(settings, step))


# -- small rendering helpers --------------------------------------------------------------------
# The styles of our HTML blocks, sent once per full page run (app.py). A fragment rerun (every
# step) leaves it in place, so the blocks themselves only carry classes.
PAGE_CSS = display.TOKEN_CSS + (
    "<style>"
    ".bpe-step{border:1px solid #d0d3d9;border-radius:8px;padding:10px 14px;margin-bottom:4px}"
    # Headings for screen readers (h2 the step, h3 each section), drawn as before.
    ".bpe-step-title{font-size:1.4rem;line-height:2;font-weight:400;padding:0;margin:0;letter-spacing:normal}"
    ".bpe-step p{margin:4px 0}"
    ".bpe-h{font-size:1.35rem;font-weight:600;margin:10px 0 6px 0;padding:0;line-height:1.4;letter-spacing:normal}"
    ".bpe-note{font-size:0.85rem;color:#5f6368;margin:4px 0}"
    ".bpe-table{border-collapse:collapse;font-size:0.92rem;margin:2px 0;max-width:100%}"
    ".bpe-table th,.bpe-table td{border-bottom:1px solid #e6e8eb;padding:3px 8px;text-align:left;vertical-align:top}"
    ".bpe-table th{font-weight:600;color:#444}"
    # break-word, not anywhere: "anywhere" lets a column shrink to one letter, so narrow columns wrapped
    # words letter by letter; pairs and tokens never wrap inside.
    ".bpe-table td{overflow-wrap:break-word}"
    ".bpe-table td.pair,.bpe-table td.new-token{white-space:nowrap}"
    ".bpe-table td.from,.bpe-table th.from{font-size:0.8rem;color:#444}"
    ".bpe-table td.from{overflow-wrap:anywhere;min-width:8em}"
    ".bpe-table td.long{white-space:normal;overflow-wrap:anywhere;min-width:6em}"
    ".bpe-grid{display:grid;grid-template-columns:3fr 2fr;gap:24px;align-items:start}"
    # No panel wider than its column: grid cells may shrink below their content (a scrollbar as the
    # last resort), sentences break inside long tokens; chips and cells cut long tokens (display.shorten).
    ".bpe-grid>div{min-width:0;overflow-x:auto}"
    ".bpe-step,.bpe-note{overflow-wrap:anywhere}"
    ".bpe-scroll{max-height:320px;overflow:auto;line-height:1.9}"
    ".bpe-alphabet{font-family:monospace;color:#333;word-spacing:0.3em}"
    ".bpe-lazy{content-visibility:auto;contain-intrinsic-size:auto 400px}"
    "@media (max-width:800px){.bpe-grid{grid-template-columns:1fr}}"
    "</style>"
)


def esc(text: object) -> str:
    """HTML-escape anything shown inside our own HTML (user text is untrusted)."""
    return html.escape(str(text), quote=True)


__all__ = [
    "MAX_CORPUS_BYTES", "MAX_URL_CORPUS_CHARS", "PAGE_CSS", "PRESETS", "STATE_KEY", "Settings", "app_state", "corpus_fits_url",
    "corpus_of", "current_tokenizer", "esc", "freeze_heap", "keep_widgets", "preset_settings", "settings_from_url",
    "settings_to_params", "step_from_url", "sync_url", "tokenizer_for", "train",
]
