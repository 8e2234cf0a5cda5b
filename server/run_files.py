"""Saved run files kept on disk by their digest, so a page can compare with one again without holding its bytes.

A ``.bpe`` run file chosen on the Check page is compared with every student run the page is given; held in the
server's memory (Streamlit's uploader's copy) for as long as the session lasts, it would cost up to 60 MB a
session. So the page reads the file once and writes it to a folder (:func:`keep`), named by its SHA-256, and
lets the uploader's copy go; a comparison reads it back (:func:`read`) for the moment it is sent to its checking
process. The folder (``run-files`` in ``BPE_DATA_DIR``) keeps at most BUDGET bytes: the least recently used go
first, and a page that finds its file gone asks for it again. Files of the same content are kept once.

What this leaves out: reading a run file (``bpe/formats/run_file.py``) and the page (``ui/check_saved_input.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import threading
from pathlib import Path

BUDGET = 512 << 20  # bytes of run files kept on disk, all sessions together
_DIGEST = re.compile(r"[0-9a-f]{64}")
_lock = threading.Lock()


def folder() -> Path:
    data = Path(os.environ.get("BPE_DATA_DIR") or Path.home() / ".local" / "share" / "bpe-explorer")
    return data / "run-files"


def keep(data: bytes, budget: int = BUDGET) -> str:
    """Write ``data`` under its SHA-256 (once: the same content is only marked used) and return the digest;
    OSError when the folder cannot take it (the caller keeps the bytes then)."""
    digest = hashlib.sha256(data).hexdigest()
    where = folder()
    path = where / f"{digest}.bpe"
    with _lock:
        if path.exists():
            os.utime(path)
            return digest
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where, prefix=".part-", delete=False) as part:
            try:
                part.write(data)
            except BaseException:
                os.unlink(part.name)
                raise
        os.replace(part.name, path)  # whole or not at all
        _trim(where, budget, keep=path)
    return digest


def read(digest: str) -> bytes | None:
    """The run file kept under ``digest``, or None if it is not there (never kept, or made room for)."""
    if not _DIGEST.fullmatch(digest):
        return None
    path = folder() / f"{digest}.bpe"
    try:
        data = path.read_bytes()
    except OSError:
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return data


def _trim(where: Path, budget: int, keep: Path) -> None:
    """The least recently used files go until the folder is within ``budget`` (never the one just kept)."""
    files = []
    for path in where.glob("*.bpe"):
        with contextlib.suppress(OSError):
            stat = path.stat()
            files.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= budget:
            break
        if path != keep:
            with contextlib.suppress(OSError):
                path.unlink()
                total -= size
