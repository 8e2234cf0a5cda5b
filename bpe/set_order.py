"""A loop that merges a pair's occurrences in the order of a Python set of their positions, replayed as it runs.

Some students keep every pre-token of the text in one linked list of positions (numbered from 1 across the text,
one number per symbol of each pre-token longer than one symbol) and, for each pair, the set of positions where it
starts. Merging a pair then visits ``list(pos[pair])``: the set's order, which for ints is the order of their slots
in the set's table, not left to right (``{6, 7, 8}`` in a table of 8 slots is visited 8, 6, 7). In a run of one
symbol the occurrences overlap, so the order decides the split: ``a a a`` merged from its second pair becomes
``a aa``, where left to right makes ``aa a``. The counts follow the split made, so they are right for it, and
the runs part later, where a pair holding a piece of such a run is counted.

That order depends on the exact positions and on every add and discard the set has seen, so :class:`SetOrder`
replays the loop as written, with real sets, on the pre-tokens in the order of the text: the student's ties go to
the greatest pair of bytes (a heap ordered by count, then bytes, as the loop this models does).

Left out: where the Check weighs this against other causes (:mod:`bpe.check`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from .fault_replay import PairCounts
from .formats.cs336 import BytePair


class SetOrder:
    """The student's loop: ``token``, ``pre`` and ``nxt`` by position, ``pos`` each pair's set of starts."""

    def __init__(self, sequence: Sequence[tuple[bytes, ...]]) -> None:
        self.token: dict[int, bytes | None] = {}
        self.pre: dict[int, int | None] = {}
        self.nxt: dict[int, int | None] = {}
        self.pos: dict[BytePair, set[int]] = {}
        self.counts = PairCounts()
        raw: dict[BytePair, int] = {}
        idx = 0
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
        """The pair the loop takes: the highest count, then the greatest pair of bytes."""
        tied = self.counts.top()
        return max(tied) if tied else None

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


def set_order_reach(
    sequence: Sequence[tuple[bytes, ...]], merges: Sequence[BytePair], deadline: float | None = None
) -> int:
    """How many of ``merges`` the loop that merges in a set's order makes, in order, before its choice differs."""
    loop = SetOrder(sequence)
    for step, pair in enumerate(merges):
        if loop.top() != pair or deadline is not None and time.monotonic() > deadline:
            return step
        loop.merge(pair)
    return len(merges)
