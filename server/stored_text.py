"""A big text held by its digest: what a page shows of a stored corpus (size, lines, its start), not the text.

A session that holds a corpus as a ``str`` holds all of it, for as long as the session lasts: 100 MB for a
100 MB upload, and as much again for a moment while it is decoded from the store. A text that the corpus store
holds and that is too long to edit in the page (over HELD_CHARS characters) is held as a :class:`StoredText`
instead: its digest, its size in characters and UTF-8 bytes, its lines, and its first HEAD_CHARS characters
(the summary's excerpt, the preview of its first words, the Encode page's first line). Its training worker reads
the text itself from the store by the digest (``server/jobs.py``), so the serving process never holds it.

:func:`open_stored` reads a stored corpus a piece at a time: a short one whole, a long one only counted (and
checked against its digest), so opening a link to a 100 MB corpus holds a few MB at most.

>>> held = StoredText.of("hug pug\\nhugs", "d" * 64)
>>> held.chars, held.nbytes, held.lines, held.head
(12, 12, 2, 'hug pug\\nhugs')

What this leaves out: the store itself (``server/corpus_store.py``) and which corpus a session uses
(``ui/corpus_box.py``).
"""

from __future__ import annotations

import codecs
import hashlib
import zlib
from dataclasses import dataclass, field

from server import corpus_form, corpus_store

HELD_CHARS = 1_000_000  # a stored text longer than this is held by its digest (the page edits texts up to this)
HEAD_CHARS = 16_384  # the start of a text held by its digest that the page keeps


@dataclass(frozen=True)
class StoredText:
    """A text in the corpus store, named by its digest, with what the page shows of it. Equal (and hashed) by
    its digest and counts, not its head: part of a run's settings (``ui/settings.py``), it names the run by the
    text's digest."""

    digest: str
    chars: int
    nbytes: int
    lines: int
    head: str = field(default="", repr=False, compare=False)

    @classmethod
    def of(cls, text: str, digest: str, nbytes: int | None = None, lines: int | None = None) -> StoredText:
        """The stand-in for ``text`` (stored under ``digest``); ``nbytes`` and ``lines`` when they are known."""
        if nbytes is None:
            nbytes = sum(map(len, corpus_form.utf8_chunks(text)))
        if lines is None:
            lines = text.count("\n") + 1
        return cls(digest, len(text), nbytes, lines, text[:HEAD_CHARS])

    def preview(self) -> str:
        """The head without its last, perhaps cut, word: a text whose words can be shown as the text's first."""
        if len(self.head) == self.chars:
            return self.head
        cut = self.head.rsplit(None, 1)
        return cut[0] if len(cut) > 1 else ""


def open_stored(key: str, store=None, held_chars: int | None = None) -> tuple[str, str | StoredText] | None:
    """(kind, corpus) of the corpus stored under ``key`` (the server's store if ``store`` is None): its text when
    it is a word-count table or a text of up to ``held_chars`` characters (:data:`HELD_CHARS`, read when called,
    if None), else a :class:`StoredText`. None if it is not stored, or damaged (its bytes are not what the digest
    names). StoreUnavailable as the store raises."""
    held_chars = HELD_CHARS if held_chars is None else held_chars
    source = corpus_store.store() if store is None else store
    pieces = source.read_chunks(key)
    if pieces is None:
        return None
    check, decoder = hashlib.sha256(), codecs.getincrementaldecoder("utf-8")("surrogatepass")
    start, kind = bytearray(), None  # the header, until its kind's line ends
    parts: list[str] | None = []  # the text's pieces, while it may be short enough to hold
    chars, nbytes, lines, head = 0, 0, 1, ""
    try:
        for piece in pieces:
            check.update(piece)
            if kind is None:
                start += piece
                end = start.find(b"\n", len(corpus_form.HEADER))
                if end < 0:
                    continue
                kind, piece = bytes(start[len(corpus_form.HEADER) : end]).decode(), bytes(start[end + 1 :])
                start = bytearray()
            text = decoder.decode(piece)
            chars, nbytes, lines = chars + len(text), nbytes + len(piece), lines + text.count("\n")
            if len(head) < HEAD_CHARS:
                head += text[: HEAD_CHARS - len(head)]
            if parts is not None:
                parts.append(text)
                if kind == "text" and chars > held_chars:
                    parts = None  # too long to hold: only counted from here on
        text = decoder.decode(b"", True)
    except (zlib.error, UnicodeDecodeError):
        return None
    if kind is None or check.hexdigest() != key:
        return None
    if parts is not None:
        return kind, "".join(parts) + text
    return kind, StoredText(key, chars + len(text), nbytes, lines, head)
