"""An uploaded text file read a chunk at a time: checked as UTF-8, digested and stored, with one copy of its text.

A file's bytes are already in the server's memory (Streamlit's uploader keeps them), so what reading it may
add is bounded here: the bytes are gone through in CHUNK-sized views, never copied whole. A first pass decodes
them with an incremental UTF-8 decoder (a byte that is not UTF-8 is named by its position in the file, counted
from 0), looks for NUL bytes at the start (a binary file), counts the lines and digests the text as the corpus
store names it (``corpus_form.digest_of_chunks``: the same digest as the same text pasted, so a link made
from either agrees). A second pass hands the same views to the store (``put_chunks``, which compresses and
writes them a piece at a time), unless it holds that digest already. Only then is the text made, decoded
once from the bytes into one ``str``. Peak memory while a file is stored is its text plus a few chunks (for a
text beyond ASCII, the file's size more for a moment: CPython decodes into a narrower draft, then widens it).

The first pass's checks take the bytes in pieces of any size, as they come (:class:`TextCheck`), so the corpus
upload route (``server/corpus_route.py``) runs the same checks on a body that is never whole in memory.

What this leaves out: letting go of the uploader's bytes (``server/upload_limits.py``), the page
(``ui/corpus_box.py``) and the route.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from server import corpus_form, corpus_store

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


class TextCheck:
    """A text file's bytes checked as they come (:meth:`feed`, any sizes of piece; then :meth:`finish`): decoded by
    an incremental UTF-8 decoder (a byte that is not UTF-8 is named by its position in the file, counted from 0,
    and its value), looked at for a NUL byte near the start (a binary file), its lines counted, whether it is
    blank noted, and digested as the corpus store names its text. A byte-order mark at the start is not part of
    the text: :meth:`feed` returns the bytes of the text that the piece holds, for the caller to keep or store.
    Holds a few bytes between pieces (a character cut in two), never the file."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.hash = corpus_form.hasher("text")
        self.offset = 0  # where the next byte fed starts, in the file
        self.nbytes = 0  # bytes of text (the byte-order mark left out)
        self.lines = 1
        self.blank = True  # nothing but whitespace so far
        self.looked_at = 0  # characters searched for a NUL byte
        self.head: bytes | None = b""  # the file's first bytes until a byte-order mark can be told; None then

    def feed(self, piece) -> bytes | memoryview:
        """Take the file's next bytes; the text's bytes among them (all of them, but a byte-order mark)."""
        if self.head is not None:  # the start: hold up to len(BOM) bytes to tell a byte-order mark
            piece = self.head + piece
            if len(piece) < len(BOM) and BOM.startswith(piece):
                self.head = piece
                return b""
            self.head = None
            if piece.startswith(BOM):
                self.offset, piece = len(BOM), piece[len(BOM) :]
        self._take(piece)
        return piece

    def _take(self, piece, final: bool = False) -> None:
        held = len(self.decoder.getstate()[0])  # bytes of a character cut at the last piece's end
        try:
            text = self.decoder.decode(piece, final)
        except UnicodeDecodeError as exc:  # exc.start counts from the bytes the decoder held back
            raise ValueError(self._not_utf8(self.offset - held + exc.start, exc.object[exc.start])) from None
        if self.looked_at < NUL_LOOKED_AT and "\x00" in text[: NUL_LOOKED_AT - self.looked_at]:
            raise ValueError(
                f"The file {self.name!r} looks like a binary file (it contains NUL bytes); upload a text file."
            )
        self.looked_at += len(text)
        self.lines += text.count("\n")
        self.blank = self.blank and (not text or text.isspace())
        self.hash.update(piece)
        self.offset += len(piece)
        self.nbytes += len(piece)

    def finish(self) -> tuple[str, int]:
        """The digest of the file's text and its line count; ValueError if the file ends inside a character."""
        if self.head:  # a file shorter than a byte-order mark
            piece, self.head = self.head, None
            self._take(piece)
        self._take(b"", final=True)
        return self.hash.hexdigest(), self.lines

    def _not_utf8(self, position: int, value: int) -> str:
        return (
            f"The file {self.name!r} is not UTF-8 text: byte {position:,} (0x{value:02x}) cannot be decoded. "
            "Save it as UTF-8 and upload it again."
        )


def check(data: bytes, name: str) -> tuple[str, int]:
    """The digest of the file's text and its line count, or ValueError naming its first byte that is not UTF-8
    (its position, counted from 0, and its value), or saying it is binary (a NUL byte near the start)."""
    checker = TextCheck(name)
    for _, view in views(data):
        checker.feed(view)
    return checker.finish()


def _start(data: bytes) -> int:
    """Where the text starts: after a byte-order mark, which is not part of it."""
    return len(BOM) if data.startswith(BOM) else 0


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
    corpus_form.remember_digest("text", text, key)
    return Upload(text, key, len(data) - start, lines, failure)
