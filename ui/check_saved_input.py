"""The Check page's saved run: a ``.bpe`` run file (from ``python -m bpe train``) chosen as the reference
instead of a corpus, and the comparison with it, cached.

Assignment-size corpora are trained with the command line, so the student's merges are compared with the
saved run: its own settings (pre-tokenizer, tie rule, special tokens) are used, and its word counts stand
for the text (``bpe/check_saved.py`` says what they cannot tell). The file is read, and the comparison made,
off the server (``server/check_jobs.py``).

Left out: drawing the result (``pages/check.py``) and stepping through a saved run (``ui/run_file_input.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from server import check_jobs
from ui.run_file_input import MAX_RUN_FILE_MB


@dataclass(frozen=True)
class SavedFile:
    """A chosen run file: its name (the user's, plain text only), its digest and its bytes."""

    name: str
    digest: str
    data: bytes


def upload() -> SavedFile | None:
    """The uploader and what it is for; the chosen file, or None."""
    file = st.file_uploader(
        "The saved run (.bpe, written by python -m bpe train)", key="chk_run_file", max_upload_size=MAX_RUN_FILE_MB
    )
    st.caption(
        f"Up to {MAX_RUN_FILE_MB} MB (see docs/cli.md). The saved run's own settings are used, and its word counts "
        "stand for the text."
    )
    if file is None:
        return None
    data = file.getvalue()
    return SavedFile(file.name, hashlib.sha256(data).hexdigest(), data)


@st.cache_data(max_entries=8, show_spinner="Comparing with the saved run…")
def _compare(digest: str, _data: bytes, _student, student_key, target):
    return check_jobs.compare_saved(_data, _student, target)


def compare(saved: SavedFile, student, student_key, target):
    """(the comparison, our settings ranked on the run's word counts, the saved run in a few lines);
    ValueError with what to fix."""
    return _compare(saved.digest, saved.data, student, student_key, target)
