"""An uploaded text file read a chunk at a time: checked as UTF-8, digested and stored, with one copy of its text.

A file's bytes are already in the server's memory (Streamlit's uploader keeps them), so what reading it may
add is bounded here: the bytes are gone through in CHUNK-sized views, never copied whole. A first pass decodes
them with an incremental UTF-8 decoder (a byte that is not UTF-8 is named by its position in the file, counted
from 0), looks for NUL bytes at the start (a binary file), counts the lines and digests the text as the corpus
store names it (``corpus_store.digest_of_chunks``: the same digest as the same text pasted, so a link made
from either agrees). A second pass hands the same views to the store (``put_chunks``, which compresses and
writes them a piece at a time), unless it holds that digest already. Only then is the text made, decoded
once from the bytes into one ``str``. Peak memory while a file is stored is its text plus a few chunks (for a
text beyond ASCII, the file's size more for a moment: CPython decodes into a narrower draft, then widens it).

What this leaves out: letting go of the uploader's bytes (``server/upload_limits.py``) and the page
(``ui/corpus_box.py``).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from server import corpus_store

CHUNK = 1 << 20  # bytes looked at a time
NUL_LOOKED_AT = 65536  # characters at the start searched for a NUL byte (a binary file has one early)
BOM = codecs.BOM_UTF8


@dataclass(frozen=True)
class Upload:
    """A text file read: its text, its digest in the corpus store, its UTF-8 bytes (byte-order mark left out)
    and lines, and the store's sentence if it could not take the text (the text is kept by the session then)."""

    text: str
    key: str
    nbytes: int
    lines: int
    store_failure: str | None = None


def views(data: bytes, start: int = 0):
    """(offset, view) of ``data`` from ``start``, CHUNK bytes each (views: no copies)."""
    whole, size = memoryview(data), CHUNK
    for at in range(start, len(data), size):
        yield at, whole[at : at + size]


def check(data: bytes, name: str) -> tuple[str, int]:
    """The digest of the file's text and its line count, or ValueError naming its first byte that is not UTF-8
    (its position, counted from 0, and its value), or saying it is binary (a NUL byte near the start)."""
    lines = [1]

    def checked():
        decoder = codecs.getincrementaldecoder("utf-8")()
        looked_at = 0
        for at, view in views(data, _start(data)):
            try:
                piece = decoder.decode(view)
            except UnicodeDecodeError as exc:  # exc.start counts from the bytes the decoder held back
                raise ValueError(_not_utf8(data, name, at - len(decoder.getstate()[0]) + exc.start)) from None
            if looked_at < NUL_LOOKED_AT and "\x00" in piece[: NUL_LOOKED_AT - looked_at]:
                raise ValueError(
                    f"The file {name!r} looks like a binary file (it contains NUL bytes); upload a text file."
                )
            looked_at += len(piece)
            lines[0] += data.count(b"\n", at, at + len(view))
            yield view
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:  # a file cut in the middle of a character
            raise ValueError(_not_utf8(data, name, len(data) - len(decoder.getstate()[0]) + exc.start)) from None

    key = corpus_store.digest_of_chunks("text", checked())
    return key, lines[0]


def _start(data: bytes) -> int:
    """Where the text starts: after a byte-order mark, which is not part of it."""
    return len(BOM) if data.startswith(BOM) else 0


def _not_utf8(data: bytes, name: str, position: int) -> str:
    return (
        f"The file {name!r} is not UTF-8 text: byte {position:,} (0x{data[position]:02x}) cannot be decoded. "
        "Save it as UTF-8 and upload it again."
    )


def read(data: bytes, name: str, store=None, client: str = "") -> Upload:
    """The uploaded file's text, checked (:func:`check`, ValueError with a sentence) and stored in ``store``
    (the server's if None) under its digest; a store that is down or full is said in ``store_failure``."""
    key, lines = check(data, name)
    start = _start(data)
    failure = None
    try:
        target = corpus_store.store() if store is None else store
        target.put_chunks("text", key, (view for _, view in views(data, start)), len(data) - start, client=client)
    except corpus_store.StoreUnavailable as exc:
        failure = str(exc)
    text = str(memoryview(data)[start:], "utf-8")  # the one copy: decoded straight from the uploader's bytes
    corpus_store.remember_digest("text", text, key)
    return Upload(text, key, len(data) - start, lines, failure)
