"""The Train page's controls outside the step view: Play and its speed, Predict, Bytes as text,
Presenter mode and What if (one row of toggles), the splits' search box and the Worksheet entry. They change rarely, so
a step (a rerun of the step view only) does not send them again. What they switch on is drawn by
``panels.py`` and ``explore.py``.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

import bpe
from bpe.display.worksheet import MAX_STEPS
from ui import links
from ui import session_keys as keys
from ui.settings import Settings


def search_box() -> None:
    """The splits' search box, drawn just below the step view but outside it: typing reruns the
    page once, while stepping (a rerun of the step view only) does not send the box again."""
    st.text_input(
        "Search the corpus splits above",
        key=keys.SPLIT_SEARCH,
        placeholder="type part of a word",
        help="Shows the most frequent words containing this text.",
    )


def byte_text_default(settings: Settings) -> None:
    """The "Bytes as text" toggle is one for every panel (and the Encode page). Its default depends on
    the corpus, set again when the corpus changes: the course's GPT-2 presets read as the course
    prints them (Ġ), anything else as text (␣Straße, 世界)."""
    corpus = (settings.source, settings.preset if settings.source == "preset" else "")
    if st.session_state.get("byte_text_for") != corpus:
        st.session_state["byte_text_for"] = corpus
        st.session_state[keys.BYTE_TEXT] = corpus not in (("preset", "course"), ("preset", "notebook"))


def mode_toggles(settings: Settings) -> None:
    """Play and its speed, Predict, Bytes as text (a byte-level run), Presenter mode and What if, in one
    row outside the step view: they change rarely, so a step (a rerun of the step view only) does not
    send them again. ``pages/train.py`` draws the row above the step view, or below it in presenter mode
    (a projector's height is the step's). On a phone the row keeps only Bytes as text (ui/style.css hides
    the teacher's toggles by the row's key, bpe_modes)."""
    if settings.forced and keys.WHAT_IF not in st.session_state:
        st.session_state[keys.WHAT_IF] = True  # a shared what-if link opens with its panel shown
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium", key="bpe_modes")
    row.toggle("Play", key=keys.PLAY, help="Advance one merge at a time, at the chosen speed.")
    st.session_state.setdefault(keys.SPEED, 1.0)  # a default in session state, not value=: the page restores it
    row.select_slider("Seconds per merge", options=[0.25, 0.5, 1.0, 2.0, 3.0], key=keys.SPEED, width=220)
    row.toggle(
        "Predict the next merge", key=keys.PREDICT, help="Guess which pair step k+1 merges, from the splits of step k."
    )
    if settings.pre_tokenizer in bpe.BYTE_LEVEL:
        byte_text_default(settings)
        row.toggle(
            "Bytes as text",
            key=keys.BYTE_TEXT,
            help="On: each token shows the text its bytes stand for (␣Straße, 世界, 😀), with the stored "
            "byte-level form and its bytes in hex in the tooltip. Off: as the tokenizer stores it "
            "(ĠStraÃŁe), as the course prints it.",
        )
    row.toggle(
        "Presenter mode",
        key=keys.PRESENT,
        help="For a projector: the sidebar folds away, the type is larger, the step and the pair chart sit "
        "beside the splits (rewritten words first) and the vocabulary (newest first), and Share gives a link "
        "and a QR code of the step. Links made now open in it (present=1).",
    )
    row.toggle(
        "What if…",
        key=keys.WHAT_IF,
        help="What if another pair were merged next? Pick one instead of the winner; training continues from there.",
    )


def worksheet_link(settings: Settings, first: int, steps: int) -> str:
    """The worksheet page (``pages/worksheet.py``) for merges ``first`` .. ``first + steps - 1`` of this run."""
    params = links.settings_to_params(settings, first - 1)
    params.update(ws_from=str(first), ws_steps=str(steps))
    return "worksheet?" + urlencode(params)


def worksheet_entry(history: bpe.History, settings: Settings) -> None:
    """The Train page's "Worksheet": the teacher picks the first merge and how many, and opens a printable
    sheet of them with its answer key. It starts at the merge after the step shown when the page last ran
    in full (a step alone does not send it again)."""
    last = history.num_merges
    if not last:
        return
    with st.popover("Worksheet", icon=":material/print:"):
        st.caption("A printable sheet: for each merge the words before it to count pairs in, then an answer key.")
        start = min(st.session_state.get(keys.STEP, 0) + 1, last)
        first = st.number_input("First merge", 1, last, start, key="ws_first")
        most = min(MAX_STEPS, last - first + 1)
        steps = st.number_input(
            "How many merges", 1, MAX_STEPS, min(5, most), key="ws_steps", help=f"Up to {MAX_STEPS} on one sheet."
        )
        if steps > most:
            st.caption(f"The run ends at merge {last:,}: the sheet has merges {first:,} to {last:,}.")
        st.link_button(
            f"Open the worksheet for merges {first:,} to {min(first + steps - 1, last):,}",
            worksheet_link(settings, first, min(steps, most)),
            icon=":material/open_in_new:",
        )
