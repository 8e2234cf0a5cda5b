"""A loop that merges a pair's occurrences in the order of a Python set of their positions, replayed as it runs.

Some students keep every pre-token of the text in one linked list of positions (numbered from 1 across the text,
one number per symbol of each pre-token longer than one symbol, or from 0 as the text's list indices) and, for each pair, the set of positions where it
starts. Merging a pair then visits ``list(pos[pair])``: the set's order, which for ints is the order of their slots
in the set's table, not left to right (``{6, 7, 8}`` in a table of 8 slots is visited 8, 6, 7). In a run of one
symbol the occurrences overlap, so the order decides the split: ``a a a`` merged from its second pair becomes
``a aa``, where left to right makes ``aa a``. The counts follow the split made, so they are right for it, and
the runs part later, where a pair holding a piece of such a run is counted.

That order depends on the exact positions and on every add and discard the set has seen, so :class:`SetOrder`
replays the loop as written, with real sets, on the pre-tokens in the order of the text: the student's ties go to
the greatest pair of bytes (a heap ordered by count, then bytes, as the loop this models does), or to another rule
(the smallest pair, or the smallest merged token, as a heap of ``(-count, a + b)`` pops it).

Other students keep, for each pair, a set of ``(word, byte offset, live)`` tuples over the distinct pre-tokens
(numbered in the order they first occur, each with its count), every byte slot of a word holding the token that
covers it; a neighbour pair that a merge replaces is not removed but marked ``(word, offset, False)``, and an
occurrence whose first byte already holds the new token is skipped. :class:`TupleSetOrder` replays that loop, again
with real sets, so the tuples' hashes and the set's history give the order.

Left out: where the Check weighs this against other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .formats.cs336 import BytePair
from .replay_counts import PairCounts
from .replay_dicts import loop_reach


class SetOrder:
    """The student's loop: ``token``, ``pre`` and ``nxt`` by position, ``pos`` each pair's set of starts."""

    def __init__(self, sequence: Sequence[tuple[bytes, ...]], pick=max, first: int = 1) -> None:
        self.pick = pick  # the tie rule: the greatest pair of bytes (max), or another (a heap's smallest pair)
        self.token: dict[int, bytes | None] = {}
        self.pre: dict[int, int | None] = {}
        self.nxt: dict[int, int | None] = {}
        self.pos: dict[BytePair, set[int]] = {}
        self.counts = PairCounts()
        raw: dict[BytePair, int] = {}
        idx = first - 1
        for word in sequence:
            if len(word) <= 1:
                continue
            for j, symbol in enumerate(word):
                idx += 1
                self.token[idx] = symbol
                self.nxt[idx] = None if j == len(word) - 1 else idx + 1
                self.pre[idx] = None if j == 0 else idx - 1
                if j < len(word) - 1:
                    pair = (symbol, word[j + 1])
                    raw[pair] = raw.get(pair, 0) + 1
                    self.pos.setdefault(pair, set()).add(idx)
        self.counts.add(raw, 1)

    def top(self) -> BytePair | None:
        """The pair the loop takes: the highest count, then the greatest pair of bytes (or ``pick``'s)."""
        tied = self.counts.top()
        return self.pick(tied) if tied else None

    def _update(self, pair: BytePair, delta: int, at: int) -> None:
        self.counts.add({pair: delta}, 1)
        if self.counts.get(pair) <= 0:
            self.counts.drop(pair)
            self.pos.pop(pair, None)
            return
        held = self.pos.setdefault(pair, set())
        if delta > 0:
            held.add(at)
        else:
            held.discard(at)

    def merge(self, pair: BytePair) -> None:
        """Merge ``pair`` at each start in the set's order, moving the pairs beside each occurrence as it goes."""
        a, b = pair
        joined = a + b
        token, pre, nxt = self.token, self.pre, self.nxt
        for at in list(self.pos.get(pair, set())):
            before, after = pre[at], nxt[at]
            beyond = nxt[after] if after is not None else None
            if after is None or token[at] != a or token[after] != b:
                continue
            if before is not None:
                nxt[before] = at
                self._update((token[before], token[at]), -1, before)
                self._update((token[before], joined), 1, before)
            if beyond is not None:
                pre[beyond] = at
                self._update((token[after], token[beyond]), -1, after)
                self._update((joined, token[beyond]), 1, at)
            pre[at], nxt[at], token[at] = before, beyond, joined
            token[after] = pre[after] = nxt[after] = None
        self.counts.drop(pair)
        self.pos.pop(pair, None)


class TupleSetOrder:
    """The student's loop over distinct words: ``slots`` each word's token at each byte, ``pairs`` each pair's set of
    ``(word, offset, live)``; ties to the greatest pair of bytes."""

    def __init__(self, words: Sequence[tuple[bytes, ...]], freqs: Sequence[int]) -> None:
        self.freqs = list(freqs)
        self.slots: list[list[bytes]] = []
        self.pairs: dict[BytePair, set[tuple[int, int, bool]]] = {}
        self.counts = PairCounts()
        raw: dict[BytePair, int] = {}
        for t, word in enumerate(words):
            slots = [symbol for symbol in word for _ in symbol]
            self.slots.append(slots)
            at = 0
            for a, b in zip(word, word[1:]):
                self.pairs.setdefault((a, b), set()).add((t, at, True))
                raw[(a, b)] = raw.get((a, b), 0) + freqs[t]
                at += len(a)
        self.counts.add(raw, 1)

    def top(self) -> BytePair | None:
        tied = self.counts.top()
        return max(tied) if tied else None

    def merge(self, pair: BytePair) -> None:
        """Merge ``pair`` at each live tuple in the set's order, marking the replaced neighbour pairs dead."""
        left, right = pair
        joined = left + right
        for t, s, live in self.pairs.get(pair, set()):
            slots, f = self.slots[t], self.freqs[t]
            if not live or slots[s] is joined:  # a dead entry, or the start of a token just made
                continue
            if slots[s] != left or s + len(left) >= len(slots) or slots[s + len(left)] != right:
                continue  # the student's loop would stop on its assertion here
            if s > 0:
                before = slots[s - 1]
                start = s - len(before)
                self.pairs.setdefault((before, joined), set()).add((t, start, True))
                self.counts.add({(before, joined): f, (before, left): -f}, 1)
                old = self.pairs.setdefault((before, left), set())
                if (t, start, True) in old:
                    old.remove((t, start, True))
                    old.add((t, start, False))
            end = s + len(joined)
            if end < len(slots):
                after = slots[end]
                self.pairs.setdefault((joined, after), set()).add((t, s, True))
                self.counts.add({(joined, after): f, (right, after): -f}, 1)
                old = self.pairs.setdefault((right, after), set())
                if (t, s + len(left), True) in old:
                    old.remove((t, s + len(left), True))
                    old.add((t, s + len(left), False))
            slots[s:end] = [joined] * len(joined)
        self.pairs[pair] = set()
        self.counts.drop(pair)


def tuple_set_order_reach(
    words: Sequence[tuple[bytes, ...]],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    deadline: float | None = None,
) -> int:
    """How many of ``merges`` :class:`TupleSetOrder` makes, in order, before its choice differs."""
    return loop_reach(TupleSetOrder(words, freqs), merges, deadline)


def set_order_reach(
    sequence: Sequence[tuple[bytes, ...]],
    merges: Sequence[BytePair],
    deadline: float | None = None,
    pick=max,
    first: int = 1,
) -> int:
    """How many of ``merges`` the loop that merges in a set's order makes, in order, before its choice differs
    (``pick``: its tie rule over the tied pairs; ``first``: the number of the text's first position)."""
    return loop_reach(SetOrder(sequence, pick, first), merges, deadline)
