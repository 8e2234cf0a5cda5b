"""A student's merges saved as token ids, not as pairs of bytes: told from runs of zero bytes that count up as ids.

A trainer that returns its own merges dict, ``{(id, id): new id}``, hands over ints where CS336 asks for pairs of
bytes; ``bytes(id)`` (how such ints are usually read back) is ``id`` zero bytes, so every token of the run is a run
of ``\\x00``. A loop that adds byte values as ints (:mod:`bpe.check_ints`) makes runs of zero bytes too; the two
part on the values above 255: ids count up by one per merge (from 256, or after the special tokens), sums are the
sums of earlier merges. Where only the ids fit, each id is read back as the token it stands for (a byte below 256,
else the merge it was given to), and the run so read is compared as any other.

Left out: vocabularies that number the bytes otherwise (specials first, bytes after them), and weighing the reading
against the other causes (:mod:`bpe.check`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .formats.cs336 import BytePair

MAX_OFFSET = 16  # the first merge's id is 256 plus the special tokens before it: at most this many are tried


def _sums_fit(values: Sequence[tuple[int, int]]) -> bool:
    """True if every value above 255 is the sum of an earlier merge, as a loop adding byte values makes."""
    made: set[int] = set()
    for a, b in values:
        if any(v > 255 and v not in made for v in (a, b)):
            return False
        made.add(a + b)
    return True


def _offset(values: Sequence[tuple[int, int]]) -> int | None:
    """The id of the first merge, where every value above 255 is the id of an earlier merge counted from it."""
    for offset in range(256, 256 + MAX_OFFSET + 1):
        if all(v < 256 or offset <= v < offset + k for k, pair in enumerate(values) for v in pair):
            return offset
    return None


def id_merges(merges: Sequence[BytePair]) -> tuple[list[BytePair], int] | None:
    """The merges read back from ids as pairs of bytes, and the first merge's id; None unless every token is a run of
    zero bytes, some value is above 255, and the values fit ids counting up but not sums of earlier merges."""
    if not merges or not all(t and not t.strip(b"\x00") for pair in merges for t in pair):
        return None
    values = [(len(a), len(b)) for a, b in merges]
    if not any(v > 255 for pair in values for v in pair) or _sums_fit(values):
        return None
    offset = _offset(values)
    if offset is None:
        return None
    tokens: list[bytes] = []
    out: list[BytePair] = []
    for a, b in values:
        pair = tuple(bytes([v]) if v < 256 else tokens[v - offset] for v in (a, b))
        out.append((pair[0], pair[1]))
        tokens.append(pair[0] + pair[1])
    return out, offset
