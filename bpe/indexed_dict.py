"""A loop that keeps its pair counts in a dict beside an index of the words holding each pair, replayed with a real
dict and real sets, so its ties follow the dict's order as the student's did.

Students who make their loop fast keep ``stats`` (pair to count), ``pair_to_words`` (pair to the set of indexes of
the words holding it) and each word's own pair counts. A merge visits ``list(pair_to_words[pair])``, in the set's
order; for each word it changes, it subtracts every old pair's count (deleting the pair from ``stats`` where its total
reaches 0) and adds the word's new pairs (a pair not in ``stats`` goes to its end). ``max(stats, key=stats.get)`` then
keeps the first of equal counts in the dict's order, which depends on the order the words were visited: the set's
order of their indexes, which CPython's table sets, not left to right (or, a loop over the words themselves, their
order). :class:`IndexedDict` runs that loop as written; the words are the text's pre-tokens in order, each apart or
each distinct word once with its count.

Left out: where the Check weighs this against other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from .formats.cs336 import BytePair
from .word_merges import merge_all


def _pairs(word: Sequence[bytes]) -> dict[BytePair, int]:
    return dict(Counter(zip(word, word[1:])))


class IndexedDict:
    """The student's loop: ``words`` and their counts ``freqs``, ``stats``, ``where`` (each pair's set of word
    indexes) and ``own`` (each word's pair counts)."""

    def __init__(self, words: Sequence[Sequence[bytes]], freqs: Sequence[int], in_order: bool = False) -> None:
        """``in_order``: a merge visits the words holding its pair in their order (a loop over the words, not over a
        set of their indexes)."""
        self.in_order = in_order
        self.words = [list(w) for w in words]
        self.freqs = list(freqs)
        self.stats: dict[BytePair, int] = {}
        self.where: dict[BytePair, set[int]] = {}
        self.own: list[dict[BytePair, int]] = []
        for i, word in enumerate(self.words):
            counts = _pairs(word)
            self.own.append(counts)
            for pair, n in counts.items():
                self.stats[pair] = self.stats.get(pair, 0) + n * self.freqs[i]
                self.where.setdefault(pair, set()).add(i)

    def top(self) -> BytePair | None:
        """The pair the loop takes: the first of the greatest count in the dict's order."""
        return max(self.stats, key=self.stats.__getitem__) if self.stats else None

    def merge(self, pair: BytePair) -> None:
        """Merge ``pair`` in each word holding it, in the set's order, as the student's loop does."""
        stats, where = self.stats, self.where
        holders = where.get(pair, set())
        for i in sorted(holders) if self.in_order else list(holders):
            new = list(merge_all(self.words[i], pair)[0])
            if new == self.words[i]:
                continue
            f = self.freqs[i]
            for old, n in self.own[i].items():
                total = stats.get(old, 0) - n * f
                if total <= 0:
                    stats.pop(old, None)
                else:
                    stats[old] = total
                if old in where:
                    where[old].discard(i)
                    if not where[old]:
                        where.pop(old)
            counts = _pairs(new)
            for p, n in counts.items():
                stats[p] = stats.get(p, 0) + n * f
                where.setdefault(p, set()).add(i)
            self.words[i], self.own[i] = new, counts


def indexed_counts(
    words: Sequence[Sequence[bytes]],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    pairs: Sequence[BytePair],
    in_order: bool = False,
) -> tuple[int, ...]:
    """The loop's counts of ``pairs`` after it made ``merges``."""
    loop = IndexedDict(words, freqs, in_order)
    for pair in merges:
        loop.merge(pair)
    return tuple(loop.stats.get(p, 0) for p in pairs)


def indexed_dict_reach(
    words: Sequence[Sequence[bytes]],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    deadline: float | None = None,
    in_order: bool = False,
) -> int:
    """How many of ``merges`` :class:`IndexedDict` makes, in order, before its choice differs."""
    loop = IndexedDict(words, freqs, in_order)
    for step, pair in enumerate(merges):
        if loop.top() != pair or deadline is not None and time.monotonic() > deadline:
            return step
        loop.merge(pair)
    return len(merges)
