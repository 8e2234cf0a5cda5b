"""Students' loops whose selection is a heap, replayed step by step as they are written.

:class:`SiftlessHeap` is a hand-written max-heap whose update never sifts a pair up when its count rises
(``no-sift-up``, with ``skip_first`` also ``no-sift-up-skip-first``); :class:`LazyHeap` a ``heapq`` given an entry
only for a pair whose count rose (``lazy-heap``). Each offers ``count``, ``top`` and ``merge``, which
:func:`bpe.fault_replay.replay` calls in place of its own counts.

Left out: the replay that drives them (:mod:`bpe.fault_replay`) and the loops whose counts are a plain dict
(:mod:`bpe.replay_dicts`).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from .formats.cs336 import BytePair
from .word_merges import Word


class SiftlessHeap:
    """A student's heap-based loop, step by step as it is written: the pairs in a max-heap (an array, ordered by
    count, then the greatest pair of bytes), pushed in the order they are first seen (words in corpus order, each
    left to right); each pair lists the words that hold it. Taking the top pops it; each word on its list is
    merged occurrence by occurrence, left to right, and at each the pairs beside it move to the new token: a
    count that drops is sifted down (right), a new pair is pushed (right), but a count that rises is only sifted
    down too, so the pair stays where it was. ``skip_first``: the pair on the left of an occurrence at position 1
    is left as it was (``if pos - 1 > 0``). A pair taken whose count stays above 0 is never in the heap again."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int], skip_first: bool) -> None:
        self.splits = [list(w) for w in words]
        self.freqs, self.skip_first = freqs, skip_first
        self.counts: dict[BytePair, int] = {}
        self.holders: dict[BytePair, list[int]] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
                self.holders.setdefault(p, []).append(w)
        self.heap: list[BytePair] = []
        self.index: dict[BytePair, int] = {}
        for p in self.counts:
            self._push(p)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        return self.heap[0] if self.heap else None

    def _key(self, i: int) -> tuple[int, BytePair]:
        p = self.heap[i]
        return self.counts.get(p, 0), p

    def _swap(self, i: int, j: int) -> None:
        h = self.heap
        h[i], h[j] = h[j], h[i]
        self.index[h[i]], self.index[h[j]] = i, j

    def _up(self, i: int) -> None:
        while i > 0 and self._key(i) > self._key((i - 1) // 2):
            self._swap(i, (i - 1) // 2)
            i = (i - 1) // 2

    def _down(self, i: int) -> None:
        n = len(self.heap)
        while True:
            big = max((c for c in (i, 2 * i + 1, 2 * i + 2) if c < n), key=self._key)
            if big == i:
                return
            self._swap(i, big)
            i = big

    def _push(self, p: BytePair) -> None:
        self.index[p] = len(self.heap)
        self.heap.append(p)
        self._up(self.index[p])

    def _remove(self, p: BytePair) -> None:
        i = self.index.pop(p)
        last = self.heap.pop()
        if i < len(self.heap):
            self.heap[i] = last
            self.index[last] = i
            self._up(i)
            self._down(self.index[last])

    def _less(self, p: BytePair, f: int) -> None:
        if p not in self.counts:
            return
        self.counts[p] -= f
        if self.counts[p] <= 0:
            del self.counts[p]
            if p in self.index:
                self._remove(p)
        elif p in self.index:
            self._down(self.index[p])

    def _more(self, p: BytePair, w: int, f: int) -> None:
        if p in self.counts:
            self.counts[p] += f
            if w not in self.holders[p]:
                self.holders[p].append(w)
            if p in self.index:
                self._down(self.index[p])  # the fault: a count that rose is sifted down, never up
        else:
            self.counts[p] = f
            self.holders[p] = [w]
            self._push(p)

    def merge(self) -> None:
        """Take the top pair and merge it in every word on its list."""
        pair = self.heap[0]
        self._remove(pair)
        a, b = pair
        joined = a + b
        for w in self.holders.get(pair, []):
            split, f = self.splits[w], self.freqs[w]
            i = 0
            while i + 1 < len(split):
                if split[i] == a and split[i + 1] == b:
                    if pair in self.counts:
                        self.counts[pair] -= f
                        if self.counts[pair] <= 0:
                            del self.counts[pair]
                    if i - 1 > (0 if self.skip_first else -1):
                        self._less((split[i - 1], a), f)
                        self._more((split[i - 1], joined), w, f)
                    if i + 2 < len(split):
                        self._less((b, split[i + 2]), f)
                        self._more((joined, split[i + 2]), w, f)
                    split[i : i + 2] = [joined]
                i += 1
        if pair not in self.counts:
            self.holders.pop(pair, None)


class LazyHeap:
    """A student's loop with a min-heap of ``(-count, pair)`` (``heapq``) whose stale entries are dropped when popped
    (an entry whose count is no longer the pair's), step by step as it is written: the counts are right, but the
    update pushes an entry only for a pair whose count rose (the new pairs beside each occurrence), never for the
    old pairs whose count fell, so such a pair has no entry with its count and is never offered again until it
    gains count. Among equal counts the heap pops the smallest pair."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        self.splits = [list(w) for w in words]
        self.freqs = freqs
        self.counts: dict[BytePair, int] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
        self.heap = [(-n, p) for p, n in self.counts.items()]
        heapq.heapify(self.heap)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        while self.heap:
            n, p = self.heap[0]
            if self.counts.get(p, 0) == -n and n < 0:
                return p
            heapq.heappop(self.heap)
        return None

    def _move(self, old: BytePair, new: BytePair, f: int) -> None:
        self.counts[old] = self.counts.get(old, 0) - f  # the fault: no entry pushed for the count that fell
        self.counts[new] = self.counts.get(new, 0) + f
        heapq.heappush(self.heap, (-self.counts[new], new))

    def merge(self) -> None:
        """Pop the top pair and merge it in every word, left to right, moving the pairs beside each occurrence."""
        pair = self.top()
        if pair is None:
            return
        heapq.heappop(self.heap)
        a, b = pair
        joined = a + b
        for w, split in enumerate(self.splits):
            f, out, i = self.freqs[w], [], 0
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    if out:
                        self._move((out[-1], a), (out[-1], joined), f)
                    if i + 2 < len(split):
                        self._move((b, split[i + 2]), (joined, split[i + 2]), f)
                    out.append(joined)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            self.splits[w] = out
        self.counts.pop(pair, None)
