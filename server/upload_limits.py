"""Per-session limits on uploaded files: at most :data:`MAX_FILES` files and :data:`MAX_BYTES` bytes held for one session.

Streamlit keeps each uploaded file in the server's memory (its ``MemoryUploadedFileManager``) until the
file's widget deletes it (the student removes or replaces the file) or the session ends (the session's
files go when the session is shut down, ``server.disconnectedSessionTTL`` after its tab closed, by
``server/session_end.py`` where Streamlit only drops it). The one
limit it enforces is ``server.maxUploadSize`` per file, so one session could ask for many upload URLs
and fill each without a rerun, and the server would hold it all. Here the manager's ``add_file``
refuses a file that would take the session past either limit (HTTP 413 with a sentence, as Streamlit
answers a file over ``maxUploadSize``), and ``remove_file`` and ``remove_session_files`` give its room
back. A file uploaded again under the same id replaces the old one and is counted once. A page that has read
a file and keeps what it needs (a corpus's text) lets go of its bytes at once (:func:`let_go`).

Streamlit offers no supported hook for this, so :func:`install` wraps those three methods of the
manager the running server uses (``Runtime.instance().uploaded_file_mgr``, a ``MemoryUploadedFileManager``:
the upload route calls its ``add_file`` and ``remove_file``, a session's shutdown its
``remove_session_files``, all on that same object). This is the one module that touches them; ``tests/server/test_upload_limits.py`` fails if an upgrade changes them.

Left out: a file's bytes are read by Streamlit before ``add_file`` sees them, so parallel uploads still
use their size in memory while they arrive (at most ``maxUploadSize`` each); and limits per client
address across sessions.
"""

from __future__ import annotations

import threading
from typing import Any

import streamlit as st

from server import heap, session_end

MAX_FILES = 10  # files held for one session: a tokenizer's two files, a few of a student's run, a corpus


def max_bytes() -> int:
    """Bytes held for one session: twice ``server.maxUploadSize`` (a 60 MB tokenizer.json, and its
    replacement while the old one is being deleted)."""
    return 2 * int(st.get_option("server.maxUploadSize")) << 20


class SessionUploads:
    """Sizes of the files each session holds (session id -> file id -> bytes), kept beside the manager."""

    def __init__(self, max_files: int, max_bytes: int) -> None:
        self.max_files, self.max_bytes = max_files, max_bytes
        self.held: dict[str, dict[str, int]] = {}
        self.lock = threading.Lock()

    def admit(self, session_id: str, file_id: str, size: int) -> str | None:
        """Count a file in, or the sentence saying why it is refused (nothing counted then)."""
        with self.lock:
            files = self.held.get(session_id, {})
            others = {k: v for k, v in files.items() if k != file_id}  # the same id again replaces its file
            if len(others) + 1 > self.max_files:
                return (
                    f"This session already holds {len(others)} uploaded files, the most one session may hold: "
                    "remove one before uploading another."
                )
            if sum(others.values()) + size > self.max_bytes:
                return (
                    f"This session's uploaded files would take {(sum(others.values()) + size) / 2**20:,.0f} MiB; "
                    f"one session may hold {self.max_bytes / 2**20:,.0f} MiB: remove a file before uploading another."
                )
            self.held.setdefault(session_id, {})[file_id] = size
            return None

    def release(self, session_id: str, file_id: str | None = None) -> None:
        """Give back one file's room, or (``file_id`` None) every file of the session."""
        with self.lock:
            if file_id is None:
                self.held.pop(session_id, None)
            elif (files := self.held.get(session_id)) is not None:
                files.pop(file_id, None)
                if not files:
                    del self.held[session_id]

    def usage(self, session_id: str) -> tuple[int, int]:
        """(files, bytes) the session holds."""
        with self.lock:
            files = self.held.get(session_id, {})
            return len(files), sum(files.values())


def let_go(session_id: str, file_id: str) -> bool:
    """Drop one uploaded file from the running server's memory, as the uploader's own delete does (a corpus
    file once its text is read and stored: its bytes were a second copy of it). The uploader keeps showing the
    file's name, and returns None from then on. True if dropped; nothing outside a server (AppTest)."""
    from streamlit.runtime import Runtime

    if not (Runtime.exists() and type(Runtime.instance()) is Runtime):
        return False
    Runtime.instance().uploaded_file_mgr.remove_file(session_id=session_id, file_id=file_id)
    return True


_install_lock = threading.Lock()


def install(manager: Any = None, max_files: int = MAX_FILES, max_bytes_: int | None = None) -> SessionUploads | None:
    """Put the limits on ``manager`` (the running server's when None; None returned outside a server,
    as under AppTest). Once per manager: later calls return the limits already there."""
    if manager is None:
        from streamlit.runtime import Runtime

        if not Runtime.exists() or type(Runtime.instance()) is not Runtime:
            return None  # AppTest's runtime is a mock: nothing to limit, and nothing of it may be kept
        manager = Runtime.instance().uploaded_file_mgr
    with _install_lock:
        limits = getattr(manager.add_file, "bpe_limits", None)
        if limits is not None:
            return limits
        limits = SessionUploads(max_files, max_bytes() if max_bytes_ is None else max_bytes_)
        add_file, remove_file, remove_session_files = (
            manager.add_file,
            manager.remove_file,
            manager.remove_session_files,
        )

        def limited_add_file(session_id: str, file) -> None:
            refused = limits.admit(session_id, file.file_id, len(file.data))
            if refused is not None:
                from starlette.exceptions import HTTPException  # Streamlit's server answers with it

                raise HTTPException(status_code=413, detail=refused)
            try:
                add_file(session_id=session_id, file=file)
            except BaseException:
                limits.release(session_id, file.file_id)
                raise

        def limited_remove_file(session_id: str, file_id: str) -> None:
            remove_file(session_id=session_id, file_id=file_id)
            limits.release(session_id, file_id)

        def limited_remove_session_files(session_id: str) -> None:
            remove_session_files(session_id)
            limits.release(session_id)
            session_end.ended(session_id)  # its state emptied before the collection (server/session_end.py)
            heap.session_ended()  # the one hook a session's end offers: its frozen state can be collected
            from server import run_store  # (the run store imports the pool: only a server needs it here)

            run_store.RUNS.release(session_id)  # the corpus texts it held are no longer counted

        limited_add_file.bpe_limits = limits  # type: ignore[attr-defined]
        manager.add_file = limited_add_file
        manager.remove_file = limited_remove_file
        manager.remove_session_files = limited_remove_session_files
        return limits
