"""Faulty count updates where occurrences of the merged pair touch: side by side, or overlapping in a run.

Two merged tokens side by side (``ab ab``) make the pair ``(ab, ab)``, and a run of one symbol (``x x x``) holds
overlapping occurrences of ``(x, x)`` of which only every second one is merged: the updates here count those
places wrong (the pair of two new tokens twice or never, an overlapping occurrence treated as merged or
subtracted, the new tokens' places collapsed, the last symbol of an odd run counted though the merge lost it).
Each ``*_extra`` returns what the faulty update adds or subtracts beyond the correct one for one word's merge.

Left out: updates that read the neighbours from the wrong word (:mod:`bpe.neighbour_faults`), the merge rules
(:mod:`bpe.word_merges`), and the catalogue naming each fault (:mod:`bpe.merge_faults`).
"""

from __future__ import annotations

from collections import Counter

from .formats.cs336 import BytePair
from .word_merges import Split, merge_all, occurrences, pair_counter


def adjacent_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: their pair added once more."""
    joined = pair[0] + pair[1]
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(joined, joined)] += 1
    return extra


def adjacent_cross_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update made from the merged split, at each new token: the pair on its left and on its right moved to it,
    where the neighbour is another new token the old pair taken as ``(b, a)``, so two new tokens side by side
    subtract ``(b, a)`` twice and add their pair twice, once from each; then the merged pair's count less one per
    occurrence; less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    spots = set(made)
    for p in made:
        if p > 0:
            left = new[p - 1]
            faulty[(b, a) if p - 1 in spots else (left, a)] -= 1
            faulty[(left, joined)] += 1
        if p + 1 < len(new):
            right = new[p + 1]
            faulty[(b, a) if p + 1 in spots else (b, right)] -= 1
            faulty[(joined, right)] += 1
    faulty[pair] -= len(made)
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def twin_never_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: their pair never counted (the update makes a new pair only from an old one
    beside the merged pair, ``(x, a)`` or ``(b, y)``, and ``(ab, ab)`` comes from neither)."""
    joined = pair[0] + pair[1]
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(joined, joined)] -= 1
    return extra


def overlap_twice_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """For ``(x, x)``: each occurrence skipped for overlapping a merged one adds its neighbour pairs too."""
    extra: Counter = Counter()
    if pair[0] != pair[1]:
        return extra
    starts = set(occurrences(old, pair))
    joined = pair[0] + pair[1]
    for i in range(1, len(old) - 1):
        if i - 1 in starts and i not in starts and old[i] == old[i + 1] == pair[0]:
            extra[(old[i - 1], joined)] += 1
            if i + 2 < len(old):
                extra[(joined, old[i + 2])] += 1
    return extra


def overlap_subtract_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """For ``(x, x)``: an occurrence skipped for overlapping a merged one has its neighbour pairs subtracted
    too. The pair before it is the merged one's, already subtracted; the pair after it (``(x, c)`` in
    ``x x x c``) stays in the word, unless the next occurrence starts there and is merged."""
    extra: Counter = Counter()
    if pair[0] != pair[1]:
        return extra
    starts = set(occurrences(old, pair))
    for i in range(1, len(old) - 2):
        if i - 1 in starts and i not in starts and i + 1 not in starts and old[i] == old[i + 1] == pair[0]:
            extra[(old[i + 1], old[i + 2])] -= 1
    return extra


def overlap_index_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Every start of the pair, overlapping ones too: the pairs at and beside each subtracted once, and the
    pairs beside each new token added once, the token placed at ``start - earlier starts`` (which, after an
    overlapping start, is the place of the token before it); less the correct update."""
    starts = [i for i in range(len(old) - 1) if (old[i], old[i + 1]) == pair]
    gone = {j for i in starts for j in (i - 1, i, i + 1) if 0 <= j and j + 1 < len(old)}
    placed = {i - k for k, i in enumerate(starts)}
    come = {j for i in placed for j in (i - 1, i) if 0 <= j and j + 1 < len(new)}
    faulty: Counter = Counter()
    for j in gone:
        faulty[(old[j], old[j + 1])] -= 1
    for j in come:
        faulty[(new[j], new[j + 1])] += 1
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def tail_counted_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update made as the correct merge's, though the word lost its last symbol: the pairs the correct split
    holds and the shortened one does not."""
    extra = pair_counter(merge_all(old, pair)[0])
    extra.subtract(pair_counter(new))
    return Counter({p: n for p, n in extra.items() if n != 0})
