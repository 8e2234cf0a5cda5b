"""Word counts from elsewhere: a file (``word count`` lines, TSV, or CSV with a header), a pasted block
(a spreadsheet's columns arrive tab-separated), and a text corpus that is really a word-count table.

Each fills the word-count table (``st.session_state["counts_text"]``, the ``word count`` lines the
sidebar's table is drawn from). The data editor spreads a pasted block over its columns only when a
cell is selected, not opened for editing (then the whole block lands in that one cell), so the paste
box is the way that always works. Parsing is the engine's (:func:`bpe.table_to_lines`); a bad row
gets its sentence (which line, what is wrong) and leaves the table as it was.

The word counts are a corpus the page stores and links by its digest, so a table pasted or uploaded is a text
sent, in the browser's budget of texts sent a minute (``quota.pastes``, one with the pasted and uploaded text
corpora): asked before the text is read, and past it a pasted table stays in the box with the sentence and a button
to use it once the minute has passed, an uploaded one is not read. What this leaves out: edits in the table itself
(``ui/sidebar.py``), each a new table the store counts in its own quota of new corpora.
"""

from __future__ import annotations

import streamlit as st

import bpe
from server import jobs, quota
from ui import corpus_box
from ui import session_keys as keys
from ui.alerts import alert


def _fill(state: dict, lines: str) -> None:
    st.session_state[keys.COUNTS_TEXT] = lines
    st.session_state[keys.STEP] = 0


def _pasted(state: dict) -> None:
    """The paste box committed: its rows fill the table and the box empties, or it keeps them and says why (a
    table past the budget of texts sent: before any work on it, only its length read)."""
    value = st.session_state.get("counts_paste", "")
    state.pop(keys.COUNTS_REFUSED, None)
    if corpus_box.blank(value):
        return
    if refused := quota.pastes().refuse(corpus_box.client_id(), len(value)):
        state[keys.COUNTS_REFUSED] = refused
        return
    try:
        _fill(state, bpe.table_to_lines(value))
    except ValueError as exc:
        state["counts_paste_error"] = str(exc).replace("Line ", "Pasted line ", 1)
        return
    state.pop("counts_paste_error", None)
    st.session_state["counts_paste"] = ""


def upload_and_paste(state: dict) -> None:
    """The upload and the paste box of word-count mode (drawn above the table)."""
    upload = st.file_uploader(
        "Upload word counts (.txt, .tsv or .csv)",
        type=["txt", "tsv", "csv"],
        key="counts_file",
        max_upload_size=jobs.MAX_CORPUS_BYTES // 1_000_000,
        help="One word and its count per line: 'hug 10', tab-separated, or CSV with a header row like word,count.",
    )
    if upload is not None and state.get("counts_uploaded") != upload.file_id:
        state["counts_uploaded"] = upload.file_id
        try:
            if refusal := quota.pastes().refuse(corpus_box.client_id(), upload.size):  # before the file is read
                raise ValueError(f"{refusal} Upload the file again then.")
            text = bpe.text_from_bytes(upload.getvalue(), repr(upload.name))
            _fill(state, bpe.table_to_lines(text, repr(upload.name)))
            state.pop("counts_upload_error", None)
        except ValueError as exc:
            state["counts_upload_error"] = f"{exc} The table keeps what it had."
    if error := state.get("counts_upload_error"):
        if upload is None:
            state.pop("counts_upload_error")
        else:
            alert("error", error)
    if refused := state.get(keys.COUNTS_REFUSED) if st.session_state.get("counts_paste") else None:
        corpus_box.refused_paste(refused, "counts_paste_retry", _pasted, (state,))
    st.text_area(
        "Paste word counts (columns from a spreadsheet, or 'word count' lines)",
        key="counts_paste",
        height=80,
        on_change=_pasted,
        args=(state,),
        placeholder="hug\t10\npug\t5",
        help="Ctrl+Enter fills the table. Columns copied from a spreadsheet can also be pasted straight into the "
        "table: select its first cell (without opening it) and press Ctrl+V.",
    )
    if error := state.get("counts_paste_error"):
        if st.session_state.get("counts_paste", "").strip():
            alert("error", error + " Fix it in the box; the table keeps what it had.")
        else:
            state.pop("counts_paste_error")


def _read_as_counts(state: dict, lines: str) -> None:
    st.session_state[keys.SOURCE] = "counts"
    _fill(state, lines)


def offer_counts(state: dict, corpus: str) -> None:
    """Under a text corpus that is really a word-count table: say so, and offer to read it as one."""
    key = (len(corpus), hash(corpus))
    if state.get("counts_shaped", (None,))[0] != key:  # checked once per corpus, not on every click
        state["counts_shaped"] = (key, bpe.table_to_lines(corpus) if bpe.looks_like_word_counts(corpus) else None)
    lines = state["counts_shaped"][1]
    if lines is None:
        return
    alert(
        "info",
        "This text looks like word counts (every line is a word and a number), so as text it would train on "
        "the numbers as words. Read it as a word-count table instead?",
    )
    st.button(
        "Read as word counts",
        key="read_as_counts",
        icon=":material/table:",
        on_click=_read_as_counts,
        args=(state, lines),
    )
