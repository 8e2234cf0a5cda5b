"""Worksheet: a printable page for merges k..k+n of any run, the answer key on its own printed pages.

Reached from the Train page's "Worksheet" entry (``ui/controls.py`` worksheet_entry, where the teacher
picks the first step and how many) and its "Printable worksheet" link (``ui/code_beside.py``): the run's link
parameters (``ui/links.py``) plus ``ws_from`` (the first merge, 1 or more) and ``ws_steps`` (how
many, up to MAX_STEPS). The run comes from the shared run store (``server/run_store.py``); the worksheet is
one block of escaped HTML (``bpe.display.worksheet``), printed with the styles of ``worksheet.css``
(Streamlit's header, sidebar and toolbar left out, the answer key on a new page).
"""

from __future__ import annotations

import re

import streamlit as st

import bpe
from bpe.display import mark_whitespace
from bpe.display.worksheet import KEY_PAIRS, MAX_STEPS, WORDS_PER_STEP, WorksheetStep, count_pairs, worksheet_html
from bpe.presets import PRESETS
from ui import links, routing, runs
from ui.alerts import alert
from ui.assets import WORKSHEET_CSS

routing.through_router()  # a fresh server's first request may run this page alone (ui/routing.py)

DEFAULT_STEPS = 5
_NUMBER = re.compile(r"[0-9]+")
_DIGITS = 12  # more digits than this is past any run's end (and int() of a huge string is slow)


def _number(name: str, default: int, low: int, high: int, notes: list[str], past: str = "") -> int:
    """A whole number from the link, clamped to [low, high]; a value that is not one is said in ``notes``,
    and so is one past ``high`` when ``past`` names what ``high`` is (the run's last merge)."""
    raw = st.query_params.get(name)
    if raw is None:
        return default
    if not _NUMBER.fullmatch(raw):
        notes.append(f"The link's {name} “{links.shown(raw)}” is not a whole number; using {default}.")
        return default
    value = int(raw) if len(raw.lstrip("0")) <= _DIGITS else high + 1
    if past and value > high:
        notes.append(f"The link's {name} “{links.shown(raw)}” is past {past} ({high:,}); using {high:,}.")
    elif past and value < low:
        notes.append(f"The link's {name} “{links.shown(raw)}” is out of range (it starts at {low}); using {low}.")
    return max(low, min(value, high))


def worksheet_steps(history: bpe.History, first: int, count: int) -> list[WorksheetStep]:
    """Merges ``first`` .. ``first + count - 1`` of the run, each with the words before it: every word, or the
    WORDS_PER_STEP most frequent (the key then counts the pairs in those). Under the "first" tie rule the words
    are printed in the order the run first met them, so the first pair met on the sheet is the one the rule
    picks; under the other rules most frequent first."""
    order = history.words_by_frequency()[:WORDS_PER_STEP]
    if history.config.tie_break == "first":
        order = sorted(order)
    cut = len(order) < len(history.words)
    steps = []
    for k in range(first, first + count):
        s = history.state(k)
        splits = history.splits_at(k - 1)
        words = tuple((history.words[i], history.freqs[i], splits[history.words[i]]) for i in order)
        top = count_pairs(words)[:KEY_PAIRS] if cut else s.top_pairs(KEY_PAIRS)
        steps.append(
            WorksheetStep(
                k, words, len(history.words), tuple(top), s.pair, s.new_token, s.tied, s.forced, count=s.count
            )
        )
    return steps


def tie_example(history: bpe.History, first: int, count: int) -> str:
    """One tie of the run and the pair its rule picks (plain text): the first on the sheet, else the run's
    first; under the "hf" rule with the tokens' ids, which the rule compares."""
    steps = [k for k in range(first, first + count)] + list(range(1, history.num_merges + 1))
    k = next((k for k in steps if history.state(k).num_tied > 1 and not history.state(k).forced), None)
    if k is None:
        return "this run has no tie."
    s = history.state(k)
    ids = {token: i for i, token in enumerate(history.state(k - 1).vocab)} if s.tie_rule == "hf" else {}

    def shown(pair: tuple[str, str]) -> str:
        text = f"{mark_whitespace(pair[0])} + {mark_whitespace(pair[1])}"
        return f"{text} (ids {ids.get(pair[0], '?')}, {ids.get(pair[1], '?')})" if ids else text

    tied = [shown(p) for p in s.tied[:4]] + ([f"{s.num_tied - 4:,} more"] if s.num_tied > 4 else [])
    where = "on this sheet" if first <= k < first + count else "of this run"
    return f"at step {k} {where}, {', '.join(tied)} all count {s.count:,}; the rule picks {shown(s.pair)}."


def _title(settings) -> str:
    corpus = PRESETS[settings.preset].title if settings.source == "preset" else "your corpus"
    return f"BPE worksheet: {corpus}"


st.html(WORKSHEET_CSS)
notes: list[str] = []
settings, _ = links.read_url(notes)
try:
    history = runs.train(settings)
except ValueError as exc:
    alert("error", exc)  # it may quote the corpus or a link
    st.stop()
last = history.num_merges
if last == 0:
    alert("warning", "This run makes no merge, so there is no step to work on: pick another corpus or settings.")
    st.stop()
first = _number("ws_from", 1, 1, last, notes, past="this run's last merge")
asked = _number("ws_steps", DEFAULT_STEPS, 1, 999_999, notes)
count = min(asked, MAX_STEPS, last - first + 1)
if asked > count:
    notes.append(
        f"A worksheet holds up to {MAX_STEPS} steps and this run has {last:,} merges: this one has steps "
        f"{first} to {first + count - 1}."
    )
for note in notes:
    alert("warning", note)  # it quotes the link: plain text only
st.html(
    '<p class="bpe-ws-screen">Print this page with your browser (Ctrl+P or ⌘P): the answer key starts on a new '
    "page, and the app's menus are left out of the print.</p>"
)
rule = bpe.TIE_RULE_SENTENCES[history.config.tie_break]
st.html(
    worksheet_html(_title(settings), worksheet_steps(history, first, count), rule, tie_example(history, first, count))
)
