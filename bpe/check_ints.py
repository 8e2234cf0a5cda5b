"""A student's tokens kept as ints and merged by adding them: told from merges made of zero bytes, then replayed.

A trainer that keeps each word as ``tuple(word.encode())`` holds byte values (ints), not one-byte tokens, and a
merge written ``a + b`` then adds the two values (``108 + 111 = 219``) where it means to join two byte strings. Its
merges hold ints, and ``bytes(219)`` (how such a run is usually saved or read back) is 219 zero bytes, so every
token of the run is a run of ``\\x00``. Replaying the run with each byte ``v`` as a token of ``v`` zero bytes makes a
merge of two such tokens exactly their sum, and a tie between pairs of them exactly a tie between pairs of ints.

Left out: where the Check weighs this against other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_notation import show_bytes
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT

TIES = ("greatest-bytes", "smallest-bytes", "first-added")  # max((count, pair)), min, or the dict's first


def summed(merges: Sequence[BytePair]) -> bool:
    """True if every token of the run is a run of zero bytes, as tokens kept as ints and read back with ``bytes(n)``."""
    return bool(merges) and all(t and not t.strip(b"\x00") for pair in merges for t in pair)


def as_ints(words: Sequence[tuple[bytes, ...]]) -> list[tuple[bytes, ...]]:
    """Each word with each base symbol as the run of zero bytes its value reads back as (a symbol of several bytes:
    the sum of its bytes, as adding them would give)."""
    return [tuple(b"\x00" * sum(symbol) for symbol in word) for word in words]


def int_reach(words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair]) -> tuple[str, int]:
    """The tie rule (of :data:`TIES`) under which a loop that adds its tokens follows the run longest, and how far."""
    ints = as_ints(words)
    best = (TIES[0], 0)
    for tie in TIES:
        n = replay(ints, freqs, merges, CORRECT, tie=tie).reproduced
        if n > best[1]:
            best = (tie, n)
        if n == len(merges):
            break
    return best


def int_sentence(ours: BytePair, theirs: BytePair, reach: int, total: int) -> str:
    """What the loop does, with the student's merge as the sum it is and the pair it should have joined."""
    x, y = len(theirs[0]), len(theirs[1])
    joined = f"{show_bytes(ours[0])} and {show_bytes(ours[1])}" if len(ours[0]) == len(ours[1]) == 1 else "two tokens"
    follows = (
        f"our loop adding tokens so makes all {total} of your merges"
        if reach >= total
        else f"our loop adding tokens so follows yours for {reach} merges"
    )
    return (
        f"your tokens are ints (tuple(text.encode()) gives byte values, not one-byte tokens), and your merge adds the "
        f"two values ({x} + {y} = {x + y}) where it means to join {joined}, so your merges hold sums, which read back as "
        f"runs of zero bytes (bytes({x + y}) is {x + y} zero bytes); {follows}. Keep each token as bytes "
        "(tuple(bytes([b]) for b in text.encode())) so that a + b joins them"
    )
