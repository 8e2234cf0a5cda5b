"""A student's tokens kept as ints and merged by adding them: told from merges made of zero bytes, then replayed.

Two loops add where they mean to join. One keeps each word as ``tuple(word.encode())``:

such a word holds byte values (ints), not one-byte tokens, and a
merge written ``a + b`` then adds the two values (``108 + 111 = 219``) where it means to join two byte strings. Its
merges hold ints, and ``bytes(219)`` (how such a run is usually saved or read back) is 219 zero bytes, so every
token of the run is a run of ``\\x00``. Replaying the run with each byte ``v`` as a token of ``v`` zero bytes makes a
merge of two such tokens exactly their sum, and a tie between pairs of them exactly a tie between pairs of ints.

The other works on token ids (a byte's id its value, each merge the next id) correctly, but records a merged token's
bytes as the sum of its two ids (``vocab[new] = a + b`` over ids, where ``vocab[a] + vocab[b]`` is meant): its merges of
base bytes are right, and each merged token in a merge is an int, a run of zero bytes as long as that sum
(:func:`sum_merges` reads them back as the tokens they stand for, and :func:`sums_told` says it).

Left out: where the Check weighs this against other causes (:mod:`bpe.check_cause`, :mod:`bpe.check`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .check_notation import show_bytes, show_pair
from .check_result import Comparison
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


def int_sentence(ours: BytePair, theirs: BytePair, reach: int, total: int, uncut: bool = False) -> str:
    """What the loop does, with the student's merge as the sum it is and the pair it should have joined; ``uncut``:
    the loop counts its pairs over the text not cut into words."""
    x, y = len(theirs[0]), len(theirs[1])
    joined = f"{show_bytes(ours[0])} and {show_bytes(ours[1])}" if len(ours[0]) == len(ours[1]) == 1 else "two tokens"
    how = "adding tokens over your text not cut into words" if uncut else "adding tokens"
    follows = (
        f"our loop {how} so makes all {total} of your merges"
        if reach >= total
        else f"our loop {how} so follows yours for {reach} merges"
    )
    if uncut:
        follows = (
            "and your text is not cut into words (no pre-tokenization: the pairs are counted across the whole text, "
            f"spaces and all); {follows}"
        )
    return (
        f"your tokens are ints (tuple(text.encode()) gives byte values, not one-byte tokens), and your merge adds the "
        f"two values ({x} + {y} = {x + y}) where it means to join {joined}, so your merges hold sums, which read back as "
        f"runs of zero bytes (bytes({x + y}) is {x + y} zero bytes); {follows}. Keep each token as bytes "
        "(tuple(bytes([b]) for b in text.encode())) so that a + b joins them"
    )


MAX_OFFSET = 16  # the first merge's id is 256 plus the special tokens before it: at most this many are tried


def _zeros(token: bytes) -> bool:
    return len(token) > 1 and not token.strip(b"\x00")


def _read_sums(merges: Sequence[BytePair], offset: int, budget: int = 20_000) -> list[BytePair] | None:
    """The merges with each run of zero bytes read back as a merged token whose two ids sum to its length (merge ``k``
    is given the id ``offset + k``, also where its bytes were made before), or None where no reading fits: two merges
    can sum alike, so each is tried in turn (within ``budget`` tries), the earlier first."""
    made: list[bytes] = []  # each merge's token
    by_sum: dict[int, list[int]] = {}  # a sum of two ids: the ids of the merges recorded so
    out: list[BytePair] = []
    left = [budget]

    def options(token: bytes) -> list[int]:
        return by_sum.get(len(token), []) if _zeros(token) else [token[0]] if len(token) == 1 else []

    def symbol(i: int) -> bytes:
        return bytes([i]) if i < 256 else made[i - offset]

    def walk(k: int) -> bool:
        if k == len(merges):
            return True
        for a in options(merges[k][0]):
            for b in options(merges[k][1]):
                left[0] -= 1
                if left[0] < 0:
                    return False
                out.append((symbol(a), symbol(b)))
                made.append(symbol(a) + symbol(b))
                by_sum.setdefault(a + b, []).append(offset + k)
                if walk(k + 1):
                    return True
                by_sum[a + b].pop()
                made.pop()
                out.pop()
        return False

    return out if walk(0) else None


def sum_merges(merges: Sequence[BytePair]) -> tuple[list[BytePair], int] | None:
    """The merges read back where the run's merged tokens are the sums of their two ids (the longest start of the run
    that reads so: a slip later in the loop can make a merge no sum fits), and the step of the first merge holding
    one; None unless the run's base tokens are single bytes, some token is a run of zero bytes (of more than one
    byte), and the run reads back through that merge (ids from 256, or after up to :data:`MAX_OFFSET` special
    tokens)."""
    tokens = [t for pair in merges for t in pair]
    if not any(_zeros(t) for t in tokens) or not all(len(t) == 1 or _zeros(t) for t in tokens):
        return None
    if not any(len(t) == 1 and t != b"\x00" for t in tokens):  # every token an int: :func:`summed` or token ids
        return None
    first = next(k for k, pair in enumerate(merges, start=1) if any(_zeros(t) for t in pair))
    best: list[BytePair] = []
    for offset in range(256, 256 + MAX_OFFSET + 1):
        if _read_sums(merges[:first], offset) is None:
            continue
        lo, hi = first, len(merges)  # the longest start that reads: a start of a readable run reads
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _read_sums(merges[:mid], offset) is not None:
                lo = mid
            else:
                hi = mid - 1
        if lo > len(best):
            best = _read_sums(merges[:lo], offset) or []
        if len(best) == len(merges):
            break
    return (best, first) if best else None


def sums_told(
    student_merges: Sequence[BytePair], read: Sequence[BytePair], first: int, inner: Comparison
) -> Comparison:
    """The verdict on a run whose merged tokens are sums of ids: where the first int shows, what it stands for, then
    the verdict on the run read back (``inner``); where the run read back parts first, that verdict, the ints told
    after it."""
    theirs, meant = student_merges[first - 1], read[first - 1]
    shown = ", ".join(
        f"{len(t)} for {show_bytes(m)}" for t, m in zip(theirs, meant) if _zeros(t)
    )  # the int and the token it stands for
    told = (
        f"your merged tokens are ints, not bytes: each is recorded as the sum of its two token ids (vocab[new] = a + b "
        f"over ids, where vocab[a] + vocab[b] is meant), so from step {first} your merges hold ints ({shown}), which "
        "read back as runs of zero bytes; your loop's ids are right, only the bytes it records are not"
    )
    if inner.step is not None and inner.step < first:
        return replace(inner, cause=f"{inner.cause} Also, {told}.")
    step = first
    ours = inner.our_merges[step - 1] if step - 1 < len(inner.our_merges) else None
    rest = (
        f"Read as the tokens they stand for, your merges make ours to the end: {inner.cause[0].lower()}{inner.cause[1:]}"
        if inner.step is None
        else f"Read as the tokens they stand for, {inner.cause[0].lower()}{inner.cause[1:]}"
    )
    held = "(" + ", ".join(str(len(t)) if _zeros(t) else show_bytes(t) for t in theirs) + ")"  # the ints as ints
    cause = f"At step {step} you merge {held} where the merge read back is {show_pair(meant)}: {told}. {rest}"
    return Comparison(
        agreed=step - 1, step=step, ours=ours, theirs=theirs, our_count=0, their_count=0, kind="merge-loop",
        cause=cause, history=inner.history, setup=inner.setup, rule=inner.rule, our_merges=inner.our_merges,
        fault="id-sum", settings=inner.settings, later_kind=inner.kind if inner.step else None, later_step=inner.step,
    )  # fmt: skip
