"""Faulty count updates that only add: the pairs a merge destroys are never subtracted from the counts.

A correct update, merging ``(a, b)`` in ``x a b y``, takes ``(x, a)`` and ``(b, y)`` off the counts and adds
``(x, ab)`` and ``(ab, y)``. An update written as "count the pairs the new token makes" adds the new pairs, reading
the neighbours off the word before the merge, but never takes the old ones off, so ``(e, s)`` keeps its count after
``(s, t)`` merges inside ``est``. A second member builds the right pair from the pair's own second symbol
(``tokens[i + 1]`` where ``tokens[i + 2]`` is meant), so ``(ab, b)`` is counted after ``ab`` whenever the pair does
not end the word. A third subtracts only the pairs the merged word no longer holds and adds every pair it holds
after the merge, so the pairs it keeps are added again. Each ``*_extra`` returns what the faulty update adds or
subtracts beyond the correct one for one word's merge; the merged pair's count is deleted once it is taken.

Left out: updates that move the neighbours but read them wrongly (:mod:`bpe.neighbour_faults`), and the catalogue
naming each fault (:mod:`bpe.merge_faults`).
"""

from __future__ import annotations

from collections import Counter

from .formats.cs336 import BytePair
from .word_merges import Split, occurrences, pair_counter


def _only_added(old: Split, new: Split, pair: BytePair, own_right: bool) -> Counter:
    """The faulty update (old pairs kept, each occurrence's new pairs added off the old word) less the correct one."""
    joined = pair[0] + pair[1]
    faulty: Counter = Counter()
    for i in occurrences(old, pair):
        if i > 0:
            faulty[(old[i - 1], joined)] += 1
        if i + 2 < len(old):
            faulty[(joined, old[i + 1] if own_right else old[i + 2])] += 1
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def never_subtracted_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The old neighbour pairs kept, the new ones added off the old word."""
    return _only_added(old, new, pair, own_right=False)


def never_subtracted_own_right_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """As :func:`never_subtracted_extra`, the right pair built from the pair's own second symbol: ``(ab, b)``."""
    return _only_added(old, new, pair, own_right=True)


def kept_readded_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Each pair of the old split that the new one no longer holds subtracted, every pair of the new split added:
    a pair the word keeps gains its old count again (``for p in new_pairs: counts[p] += n``)."""
    before, after = pair_counter(old), pair_counter(new)
    return Counter({p: n for p, n in before.items() if p in after})
