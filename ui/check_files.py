"""The Check page's uploader of a student's run files: read once, kept as the run they hold, their bytes let go.

Streamlit's uploader keeps a file's bytes in the server's memory for as long as the widget holds it, and each
read of a student's files costs a checking process. So the files are read once, when they arrive (off the server,
as every student file is: ``server/check_jobs.py``), and the session keeps what was read (the student's run, or the
sentence saying why it cannot be read) with the files' names and sizes; then their bytes are let go
(``server/upload_limits.py``). The uploader keeps showing the files' names; below it a line names them with
their sizes, and "Paste merges instead" forgets them. Files uploaded anew replace them, read again together
(a file let go is not read again: all of a run's files are uploaded together).

What this leaves out: reading the files (``server/check_jobs.py``), the pasted merges and the comparison
(``pages/check.py``).
"""

from __future__ import annotations

import streamlit as st

from bpe.config import shown
from server import check_jobs, upload_limits
from ui.alerts import esc
from ui.session import session_id

KEY = "chk_files"
HELD = "chk_files_read"  # the Check page's state: {"ids", "files": ((name, size), ...), "run", "error"}
FORGOTTEN = "chk_files_forgotten"  # the ids of files "Paste merges instead" forgot (the uploader may still have them)


def _read(files, max_bytes: int, max_merges: int) -> tuple:
    """(the run read from ``files``, None) or (None, the sentence saying why it cannot be read)."""
    try:
        for f in files:
            if f.size > max_bytes:
                raise ValueError(
                    f"The file {shown(f.name)} is {f.size:,} bytes; the check reads files of up to {max_bytes:,} "
                    "bytes (a student's run is much smaller)."
                )
        return check_jobs.read_run([(f.name, f.getvalue()) for f in files], "", max_merges), None
    except ValueError as exc:
        return None, str(exc)


def take(state: dict, files, max_bytes: int, max_merges: int) -> dict | None:
    """Read ``files`` (the uploader's value) unless they are the ones read already, keep what was read and let
    their bytes go; the files held (read now or before), or None when there are none."""
    files = list(files or ())
    ids = tuple(f.file_id for f in files)
    held = state.get(HELD)
    if files and ids == state.get(FORGOTTEN):
        return None
    if files and (held is None or held["ids"] != ids):
        run, error = _read(files, max_bytes, max_merges)
        held = state[HELD] = {"ids": ids, "files": tuple((f.name, f.size) for f in files), "run": run, "error": error}
        for f in files:  # what was read is kept: the bytes go (not under AppTest, which reads them again)
            upload_limits.let_go(session_id(), f.file_id)  # (the widget's own copies go with this run)
    return held


def changed(state: dict, max_bytes: int, max_merges: int) -> dict | None:
    """The uploader changed (files added, replaced or removed): the new files read, or none held when it is
    empty (its value is no sign otherwise: files let go are not in it, though the uploader still shows them)."""
    files = st.session_state.get(KEY) or []
    if not files:
        state.pop(HELD, None)
        return None
    return take(state, files, max_bytes, max_merges)


def _forget(state: dict) -> None:
    if (held := state.pop(HELD, None)) is not None:
        state[FORGOTTEN] = held["ids"]


def uploader(state: dict, max_bytes: int, max_merges: int, on_change) -> dict | None:
    """The uploader and, under it, the files held; those files (``{"files", "run", "error"}``) or None.
    ``on_change()`` is the page's callback; it calls :func:`changed` first."""
    files = st.file_uploader(
        "Your run's files",
        accept_multiple_files=True,
        key=KEY,
        max_upload_size=max_bytes // 1_000_000,
        on_change=on_change,
    )
    held = take(state, files, max_bytes, max_merges)
    if held is None:
        return None
    names = ", ".join(f"{esc(name)} ({size:,} bytes)" for name, size in held["files"])
    st.html(
        f'<p class="bpe-note" data-testid="bpe-check-files">Your run\'s files: {names}. Read once: the server keeps '
        "what it read, not the files. Upload all of them again to replace them.</p>"
    )
    st.button("Paste merges instead", key="chk_files_drop", icon=":material/edit:", on_click=_forget, args=(state,))
    return held
