"""The Check page's saved run: a ``.bpe`` run file (from ``python -m bpe train``) chosen as the reference
instead of a corpus, and the comparison with it, cached.

Assignment-size corpora are trained with the command line, so the student's merges are compared with the
saved run: its own settings (pre-tokenizer, tie rule, special tokens) are used, and its word counts stand
for the text (``bpe/check_saved.py`` says what they cannot tell). The file is read, and the comparison made,
off the server (``server/check_jobs.py``); the page keeps its name, size and digest, and its bytes wait on disk
(``server/run_files.py``), not in the session.

Left out: drawing the result (``pages/check.py``) and stepping through a saved run (``ui/run_file_input.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from server import check_jobs, run_files, upload_limits
from ui.alerts import esc
from ui.run_file_input import MAX_RUN_FILE_MB
from ui.session import session_id

KEY = "chk_run_file"
HELD = "chk_run_file_read"  # the Check page's state: (the uploader's file id, the SavedFile read from it)


@dataclass(frozen=True)
class SavedFile:
    """A chosen run file: its name (the user's, plain text only), its size and digest; its bytes are kept on disk
    by their digest (``server/run_files.py``), or here (``data``) when the disk could not take them."""

    name: str
    digest: str
    size: int
    data: bytes = b""

    def contents(self) -> bytes:
        """The run file's bytes; ValueError when the disk no longer keeps them."""
        data = self.data or run_files.read(self.digest)
        if data is None:
            raise ValueError("the server no longer keeps this run file (older files make room): upload it again.")
        return data


def _read(name: str, data: bytes) -> SavedFile:
    try:
        return SavedFile(name, run_files.keep(data), len(data))
    except OSError:  # a full or read-only disk: the bytes stay in the session
        return SavedFile(name, hashlib.sha256(data).hexdigest(), len(data), data)


def _changed(state: dict) -> None:
    """The uploader changed: a file removed forgets the run file (once read, the uploader's value is no sign of it:
    the file is let go, and the uploader returns None while still showing its name)."""
    if st.session_state.get(KEY) is None:
        state.pop(HELD, None)


def upload(state: dict) -> SavedFile | None:
    """The uploader and what it is for; the chosen file, or None. The file is read once: its bytes go to disk
    (``server/run_files.py``) and the uploader's copy is let go; its name and size stay in view."""
    file = st.file_uploader(
        "The saved run (.bpe, written by python -m bpe train)",
        key=KEY,
        max_upload_size=MAX_RUN_FILE_MB,
        on_change=_changed,
        args=(state,),
    )
    st.caption(
        f"Up to {MAX_RUN_FILE_MB} MB (see docs/cli.md). The saved run's own settings are used, and its word counts "
        "stand for the text."
    )
    held = state.get(HELD)
    if file is not None and (held is None or held[0] != file.file_id):
        held = state[HELD] = (file.file_id, _read(file.name, file.getvalue()))
        upload_limits.let_go(session_id(), file.file_id)  # (not under AppTest, which reads it again)
    if held is None:
        return None
    saved = held[1]
    st.html(
        f'<p class="bpe-note" data-testid="bpe-check-run-file">The saved run: {esc(saved.name)} ({saved.size:,} '
        "bytes), read once: the server keeps it on disk, not in memory. Upload another to replace it.</p>"
    )
    return saved


@st.cache_data(max_entries=8, show_spinner="Comparing with the saved run…")
def _compare(digest: str, _saved: SavedFile, _student, student_key, target):
    return check_jobs.compare_saved(_saved.contents(), _student, target)


def compare(saved: SavedFile, student, student_key, target):
    """(the comparison, our settings ranked on the run's word counts, the saved run in a few lines);
    ValueError with what to fix."""
    return _compare(saved.digest, saved, student, student_key, target)
