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

from collections import Counter
from collections.abc import Sequence

from .formats.cs336 import BytePair
from .replay_dicts import HolderCounts, loop_reach
from .word_merges import merge_all


def _pairs(word: Sequence[bytes]) -> dict[BytePair, int]:
    return dict(Counter(zip(word, word[1:])))


class IndexedDict(HolderCounts):
    """The student's loop: the words' splits and counts, ``counts`` (the student's ``stats``), ``holders`` (each
    pair's set of word indexes) and ``own`` (each word's pair counts)."""

    def __init__(self, words: Sequence[Sequence[bytes]], freqs: Sequence[int], in_order: bool = False) -> None:
        """``in_order``: a merge visits the words holding its pair in their order (a loop over the words, not over a
        set of their indexes)."""
        super().__init__(words, freqs)
        self.in_order = in_order
        self.own = [_pairs(split) for split in self.splits]

    def top(self) -> BytePair | None:
        """The pair the loop takes: the first of the greatest count in the dict's order."""
        return max(self.counts, key=self.counts.__getitem__) if self.counts else None

    def merge(self, pair: BytePair) -> None:
        """Merge ``pair`` in each word holding it, in the set's order (or theirs), as the student's loop does."""
        counts, holders = self.counts, self.holders
        held = holders.get(pair, set())
        for i in sorted(held) if self.in_order else list(held):
            new = list(merge_all(self.splits[i], pair)[0])
            if new == self.splits[i]:
                continue
            f = self.freqs[i]
            for old, n in self.own[i].items():
                total = counts.get(old, 0) - n * f
                if total <= 0:
                    counts.pop(old, None)
                else:
                    counts[old] = total
                if old in holders:
                    holders[old].discard(i)
                    if not holders[old]:
                        holders.pop(old)
            mine = _pairs(new)
            for q, n in mine.items():
                counts[q] = counts.get(q, 0) + n * f
                holders.setdefault(q, set()).add(i)
            self.splits[i], self.own[i] = new, mine


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
    return tuple(loop.counts.get(p, 0) for p in pairs)


def indexed_dict_reach(
    words: Sequence[Sequence[bytes]],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    deadline: float | None = None,
    in_order: bool = False,
) -> int:
    """How many of ``merges`` :class:`IndexedDict` makes, in order, before its choice differs."""
    return loop_reach(IndexedDict(words, freqs, in_order), merges, deadline)
