"""A corpus's canonical form (a version header, its kind, its UTF-8 text): its digest, the address a link carries, and its compressed bytes, what a store keeps.

A corpus (a pasted or uploaded text, or a word-count table) is stored once it is accepted, under
:func:`digest`: the sha256 of the canonical form, as 64 lowercase hex digits. A link carries only that digest
(``?corpus=<64 hex>``), so a corpus of any size travels in a link, and a click never carries the corpus (the
text leaves the widget once stored). A corpus is reachable only by its full digest: nothing lists, searches or
completes digests, and a key that is not 64 hex digits (:func:`is_digest`) is never looked up.

A store keeps the canonical form zlib-compressed (:func:`compressed`), written and read back a piece at a time
(:func:`inflated`, :func:`unpack`), so a 100 MB corpus is never held again whole, compressed or not.
What this leaves out: the stores themselves (``server/sqlite_store.py``, ``server/redis_store.py``) and which
one the server uses (``server/corpus_store.py``).
"""

from __future__ import annotations

import hashlib
import itertools
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator

KINDS = ("text", "counts")
DIGEST = re.compile(r"[0-9a-f]{64}")
HEADER = b"bpe-explorer corpus v1\n"
CHUNK = 1 << 20  # bytes of compressed corpus written at a time by put_chunks
INFLATED = 4 << 20  # bytes of a corpus inflated at a time by read_chunks


_DIGESTS: OrderedDict[tuple[str, int, int], str] = OrderedDict()  # (kind, hash(text), len(text)) -> digest
_DIGESTS_KEPT = 64
_DIGESTS_LOCK = threading.Lock()


def digest(kind: str, text: str) -> str:
    """The corpus's address: sha256 of ``bpe-explorer corpus v1``, its kind and its UTF-8 text.
    Remembered by the text's ``hash`` and length, not the text itself: the page asks for the digest of a large
    corpus on every click (``str`` caches its hash), and a cache keyed by the text would keep every text alive.

    >>> digest("text", "hug pug")[:12], digest("counts", "hug pug") == digest("text", "hug pug")
    ('d77704f037b7', False)
    """
    if kind not in KINDS:
        raise ValueError(f"A corpus is text or counts, not {kind!r}.")
    key = (kind, hash(text), len(text))
    with _DIGESTS_LOCK:
        if (found := _DIGESTS.get(key)) is not None:
            _DIGESTS.move_to_end(key)
            return found
    value = digest_of_chunks(kind, utf8_chunks(text))
    with _DIGESTS_LOCK:
        _DIGESTS[key] = value
        while len(_DIGESTS) > _DIGESTS_KEPT:
            _DIGESTS.popitem(last=False)
    return value


def utf8_chunks(text: str) -> Iterator[bytes]:
    """``text`` as UTF-8 (lone surrogates kept, as a file's bytes can give them), CHUNK characters at a
    time: the same bytes as encoding it whole, never a second copy of it whole."""
    size = CHUNK
    for at in range(0, len(text), size):
        yield text[at : at + size].encode("utf-8", "surrogatepass")


def digest_of_chunks(kind: str, chunks) -> str:
    """:func:`digest` of the text whose UTF-8 bytes are ``chunks`` (an upload's, read a chunk at a time)."""
    h = hasher(kind)
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()


def hasher(kind: str):
    """A sha256 that has taken the canonical header of ``kind``: fed a text's UTF-8 bytes as they come (an upload
    streamed to the server), its ``hexdigest()`` is :func:`digest` of that text."""
    if kind not in KINDS:
        raise ValueError(f"A corpus is text or counts, not {kind!r}.")
    return hashlib.sha256(_header(kind))


def remember_digest(kind: str, text: str, key: str) -> None:
    """Tell :func:`digest` the digest of ``text``, found while reading it (:func:`digest_of_chunks`): a 100 MB text
    digested again would be copied twice over (encoded, and behind its header)."""
    with _DIGESTS_LOCK:
        _DIGESTS[(kind, hash(text), len(text))] = key
        while len(_DIGESTS) > _DIGESTS_KEPT:
            _DIGESTS.popitem(last=False)


def _header(kind: str) -> bytes:
    return HEADER + kind.encode() + b"\n"


def compressed(kind: str, key: str, chunks) -> Iterator[bytes]:
    """The canonical form of ``kind`` and ``chunks`` (UTF-8 bytes of a text: the header, then the bytes)
    compressed (zlib, level 1), in pieces of about CHUNK bytes; ValueError at the end if the bytes are not
    what ``key`` names."""
    squeeze, check, out, held = zlib.compressobj(1), hashlib.sha256(), [], 0
    for chunk in itertools.chain((_header(kind),), chunks):
        check.update(chunk)
        if piece := squeeze.compress(chunk):
            out.append(piece)
            held += len(piece)
        if held >= CHUNK:
            yield b"".join(out)
            out, held = [], 0
    out.append(squeeze.flush())
    if check.hexdigest() != key:
        raise ValueError("The corpus changed while it was stored.")
    yield b"".join(out)


def unpack(blob, key: str) -> tuple[str, str] | None:
    """(kind, text) from a stored blob (or its pieces, in order), or None if it is not what ``key`` names
    (damaged, or not ours)."""
    try:
        if isinstance(blob, bytes):
            raw = zlib.decompress(blob)
        else:
            inflate, raw = zlib.decompressobj(), bytearray()
            for piece in blob:
                raw += inflate.decompress(piece)
            raw += inflate.flush()
    except zlib.error:
        return None
    if hashlib.sha256(raw).hexdigest() != key:
        return None
    start = raw.index(b"\n", len(HEADER)) + 1
    kind = bytes(raw[len(HEADER) : start - 1]).decode()
    return kind, str(memoryview(raw)[start:], "utf-8", "surrogatepass")


def inflated(blob) -> Iterator[bytes]:
    """A stored blob (or its pieces, in order) inflated, at most INFLATED bytes a piece: the corpus's canonical
    bytes (the header, then the text's), never whole; zlib.error if it is damaged."""
    inflate = zlib.decompressobj()
    for piece in (blob,) if isinstance(blob, bytes) else blob:
        out = inflate.decompress(piece, INFLATED)
        while True:
            yield out
            if not inflate.unconsumed_tail:
                break
            out = inflate.decompress(inflate.unconsumed_tail, INFLATED)
    yield inflate.flush()


def is_digest(key: str) -> bool:
    """Whether ``key`` can be a digest (64 lowercase hex digits): a store looks up no other key."""
    return isinstance(key, str) and DIGEST.fullmatch(key) is not None
