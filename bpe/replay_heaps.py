"""Students' loops whose selection is a heap, replayed step by step as they are written.

:class:`SiftlessHeap` is a hand-written max-heap whose update never sifts a pair up when its count rises
(``no-sift-up``, with ``skip_first`` also ``no-sift-up-skip-first``); :class:`LazyHeap` a ``heapq`` given an entry
only for a pair whose count rose (``lazy-heap``), :class:`CountOnlyHeap` the same compared on counts alone (its
ties in its own order), and :class:`WordHeap` one pushed as each merged word's pairs are added back
(``lazy-heap-words``). Each offers ``count``, ``top`` and ``merge``, which
:func:`bpe.fault_replay.replay` calls in place of its own counts.

Left out: the replay that drives them (:mod:`bpe.fault_replay`) and the loops whose counts are a plain dict
(:mod:`bpe.replay_dicts`).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence

from .formats.cs336 import BytePair
from .replay_positions import LinkedNodes
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
    gains count. Among equal counts the heap pops the smallest pair; ``ids`` (:class:`WordHeap`): the pair of smallest
    token ids (a byte its value, each merge the next id), as a heap of ``(-count, id, id)`` does."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int], ids: bool = False) -> None:
        self.splits = [list(w) for w in words]
        self.freqs = freqs
        self.ids: dict[bytes, int] | None = {} if ids else None  # a merged token's id past the bytes, in merge order
        self.base = {t for w in words for t in w} if ids else set()
        self.counts: dict[BytePair, int] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
        self.heap = [(-n, self._key(p), p) for p, n in self.counts.items()]
        heapq.heapify(self.heap)

    def _key(self, pair: BytePair) -> tuple:
        if self.ids is None:
            return pair
        # a symbol of the words as given before a merged token, the symbols in their order (a byte by its value, a
        # character by its code point, as UTF-8 sorts), the merged ones in the order they were made
        return tuple((0, t) if t in self.base else (1, self.ids.get(t, 0)) for t in pair)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        while self.heap:
            n, _, p = self.heap[0]
            if self.counts.get(p, 0) == -n and n < 0:
                return p
            heapq.heappop(self.heap)
        return None

    def _move(self, old: BytePair, new: BytePair, f: int) -> None:
        self.counts[old] = self.counts.get(old, 0) - f  # the fault: no entry pushed for the count that fell
        self.counts[new] = self.counts.get(new, 0) + f
        heapq.heappush(self.heap, (-self.counts[new], self._key(new), new))

    def merge(self) -> None:
        """Pop the top pair and merge it in every word, left to right, moving the pairs beside each occurrence."""
        pair = self.top()
        if pair is None:
            return
        heapq.heappop(self.heap)
        self._merged(pair)

    def _merged(self, pair: BytePair) -> None:
        a, b = pair
        joined = a + b
        if self.ids is not None:
            self.ids.setdefault(joined, len(self.ids) + 1)
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


class LinkedHeap(LazyHeap):
    """A lazy heap of ``(-count, id, id)`` as :class:`LazyHeap` (an entry pushed each time a count rises, never when
    it falls) over words kept as linked lists merged as :class:`~bpe.replay_positions.LinkedNodes` does: a node a
    merge absorbed is merged again where the copy of the pair's places holds it."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        super().__init__(words, freqs, ids=True)
        self.nodes = LinkedNodes(words)

    def _merged(self, pair: BytePair) -> None:
        self.ids.setdefault(pair[0] + pair[1], len(self.ids) + 1)  # type: ignore[union-attr]
        for w, p, k in self.nodes.moves(pair):
            self.counts[p] = self.counts.get(p, 0) + k * self.freqs[w]
            if k > 0:
                heapq.heappush(self.heap, (-self.counts[p], self._key(p), p))
        self.counts.pop(pair, None)


class CountOnlyHeap(LazyHeap):
    """A lazy heap as :class:`LazyHeap` (an entry pushed only for a pair whose count rose, a stale entry dropped when
    it comes out) whose entries compare the counts alone, so of the pairs live at the greatest count any may come out
    first, as the heap's own sifts have ordered them: :meth:`tied` gives them all, and the replay checks the student's
    pair is one of them (a ``std::priority_queue`` or Java ``PriorityQueue`` of ``(count, pair)`` compared on the
    count)."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        super().__init__(words, freqs)
        self.heap = []
        # the counts each pair has entries at, and how many at each
        self.entries: dict[BytePair, Counter] = {p: Counter({n: 1}) for p, n in self.counts.items()}
        self.pushed = dict(self.counts)  # each pair's count at its last entry

    def _move(self, old: BytePair, new: BytePair, f: int) -> None:
        self.counts[old] = self.counts.get(old, 0) - f
        self.counts[new] = self.counts.get(new, 0) + f
        self.entries.setdefault(new, Counter())[self.counts[new]] += 1
        self.pushed[new] = self.counts[new]

    def tied(self) -> set[BytePair]:
        """The pairs one of which comes out next: those whose entry at their count is the greatest live one (every
        entry above it is stale and comes out first, to be dropped)."""
        live = {p: n for p, n in self.counts.items() if n > 0 and self.entries.get(p, {}).get(n)}
        if not live:
            return set()
        top = max(live.values())
        for held in self.entries.values():
            for n in [n for n in held if n > top]:
                del held[n]
        return {p for p, n in live.items() if n == top}

    def stale(self, pair: BytePair) -> int | None:
        """The count of the pair's last entry where it is above the pair's count (what the heap last said of it)."""
        n = self.pushed.get(pair)
        return n if n is not None and n > self.counts.get(pair, 0) else None

    def take(self, pair: BytePair) -> None:
        """The student's pair comes out and is merged."""
        held = self.entries.get(pair, Counter())
        held[self.counts.get(pair, 0)] -= 1
        self._merged(pair)
        self.entries.pop(pair, None)


class WordHeap(LazyHeap):
    """A student's loop with a min-heap of ``(-count, id, id)`` whose stale entries are dropped when popped, and whose
    update, for each word holding the merged pair, subtracts all of the word's pairs, merges it, and adds the new
    word's pairs back, pushing each with its count at that moment: a later word that takes count off the pair leaves
    its entry stale, so a pair whose count fell is offered again only once it gains. Among equal counts the heap pops
    the pair of smallest token ids (a byte its value, each merge the next id)."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        super().__init__(words, freqs, ids=True)

    def merge(self) -> None:
        pair = self.top()
        if pair is None:
            return
        heapq.heappop(self.heap)
        a, b = pair
        joined = a + b
        self.ids.setdefault(joined, len(self.ids) + 1)  # type: ignore[union-attr]
        for w, split in enumerate(self.splits):
            if not any(x == a and y == b for x, y in zip(split, split[1:])):
                continue
            f, out, i = self.freqs[w], [], 0
            for p in zip(split, split[1:]):
                self.counts[p] = self.counts.get(p, 0) - f
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    out.append(joined)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            self.splits[w] = out
            for p in zip(out, out[1:]):
                self.counts[p] = self.counts.get(p, 0) + f
                heapq.heappush(self.heap, (-self.counts[p], self._key(p), p))
        self.counts.pop(pair, None)
