"""Faulty count updates that read an occurrence's neighbour pairs from the wrong word, place or text.

A correct update moves each merged occurrence's neighbour pairs, ``(x, a)`` to ``(x, ab)`` and ``(b, y)`` to
``(ab, y)``, reading ``x`` and ``y`` off the word as it is merged. Each update here reads them elsewhere: off
the word before the merge (the ``stale`` family, :func:`right_added_extra`), off the word merged so far
(:func:`uncounted_left_extra`), off every ``a`` (:func:`left_symbol_extra`), off the word's text
(:func:`substring_moves`), or skips the one at position 1 (:func:`skip_first_extra`). Each ``*_extra`` returns
what the faulty update adds or subtracts beyond the correct one for one word's merge.

Left out: updates that go wrong where occurrences touch or overlap (:mod:`bpe.run_faults`), the merge rules
(:mod:`bpe.word_merges`), and the catalogue naming each fault (:mod:`bpe.merge_faults`).
"""

from __future__ import annotations

from collections import Counter

from .formats.cs336 import BytePair
from .word_merges import Split, occurrences, pair_counter


def _less_correct(faulty: Counter, old: Split, new: Split, pair: BytePair) -> Counter:
    """A faulty update of the neighbours' pairs (the merged pair's own count taken away too) less the correct one."""
    faulty[pair] -= pair_counter(old)[pair]
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def left_symbol_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The pairs beside an ``a`` that does not start an occurrence, subtracted as if it did."""
    starts = set(occurrences(old, pair))
    extra: Counter = Counter()
    for i, symbol in enumerate(old):
        if symbol != pair[0] or i in starts or i - 1 in starts:
            continue
        if i > 0:
            extra[(old[i - 1], symbol)] -= 1
        if i + 1 < len(old):
            extra[(symbol, old[i + 1])] -= 1
    return extra


def substring_moves(held: BytePair, text: bytes, pair: BytePair) -> tuple[BytePair, ...]:
    """What a word's pair ``held`` becomes after merging ``(a, b)``, judged from the word's text alone:
    ``(x, a)`` becomes ``(x, ab)`` where the bytes of ``x a b`` are in the text, ``(b, y)`` becomes
    ``(ab, y)`` where those of ``a b y`` are, and ``(b, a)`` may become both."""
    a, b = pair
    joined = a + b
    out = ()
    if held[1] == a and held[0] + joined in text:
        out += ((held[0], joined),)
    if held[0] == b and joined + held[1] in text:
        out += ((joined, held[1]),)
    return out


def stale_neighbours_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update with each occurrence's neighbours read from the old split, ``(x, a)`` to ``(x, ab)`` and
    ``(b, y)`` to ``(ab, y)``, and the merged pair dropped, less the correct update (new pairs less old ones)."""
    return _stale_extra(old, new, pair, guarded=False)


def stale_guarded_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """As :func:`stale_neighbours_extra`, but the right neighbour skipped where the merged pair itself follows (the
    guard ``if (old[i + 1], old[i + 2]) != pair``): in a run ``x x x`` merging ``(x, x)``, ``(xx, x)`` is never counted."""
    return _stale_extra(old, new, pair, guarded=True)


def stale_overlap_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """As :func:`stale_neighbours_extra`, but at every place the pair occurs, overlapping ones too (no skip after a
    match): in a run ``x x x x`` merging ``(x, x)`` each of the three places moves its neighbours, so ``(xx, x)`` and
    ``(x, xx)`` are counted twice each where the merged run holds one ``(xx, xx)``."""
    return _stale_extra(old, new, pair, guarded=False, overlapping=True)


def _stale_extra(old: Split, new: Split, pair: BytePair, guarded: bool, overlapping: bool = False) -> Counter:
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    places = [i for i in range(len(old) - 1) if (old[i], old[i + 1]) == pair] if overlapping else occurrences(old, pair)
    for i in places:
        if i > 0:
            faulty[(old[i - 1], a)] -= 1
            faulty[(old[i - 1], joined)] += 1
        if i + 2 < len(old) and not (guarded and (old[i + 1], old[i + 2]) == pair):
            faulty[(b, old[i + 2])] -= 1
            faulty[(joined, old[i + 2])] += 1
    return _less_correct(faulty, old, new, pair)


def stale_left_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: the second one's left pair subtracted as read from the old split, ``(b, a)``,
    already subtracted by the first, where the split being built holds ``(ab, a)``, which stays."""
    a, b = pair
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(b, a)] -= 1
            extra[(a + b, a)] += 1
    return extra


def uncounted_left_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: the second one's left pair read from the word as merged so far, ``(ab, a)``,
    subtracted though the word's new pairs are counted only after the scan, so it comes off other words' count."""
    a, b = pair
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(a + b, a)] -= 1
    return extra


def skip_first_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """An occurrence merged at position 1 (of the word as merged so far, which is the new split's position): the
    pair with the symbol before it left as it was, ``(x, a)`` kept and ``(x, ab)`` never made."""
    extra: Counter = Counter()
    for i in made:
        if i == 1:
            extra[(new[0], pair[0])] += 1
            extra[(new[0], pair[0] + pair[1])] -= 1
    return extra


def merged_sides_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The old neighbours' pairs of each occurrence subtracted, but the new ones added as ``(a, ab)`` and ``(ab, b)``,
    the merged pair's own symbols beside the new token, not the neighbours (``prev`` and ``next`` mixed up with
    ``a`` and ``b``); less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    for i in occurrences(old, pair):
        if i > 0:
            faulty[(old[i - 1], a)] -= 1
        if i + 2 < len(old):
            faulty[(b, old[i + 2])] -= 1
        faulty[(a, joined)] += 1
        faulty[(joined, b)] += 1
    return _less_correct(faulty, old, new, pair)


def right_added_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The neighbours of each occurrence read from the old split, as :func:`stale_neighbours_extra`, but the old
    pair on the right, ``(b, y)``, added where it should be subtracted (``+=`` for ``-=``), so it gains twice what
    it loses; less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    for i in occurrences(old, pair):
        if i > 0:
            faulty[(old[i - 1], a)] -= 1
            faulty[(old[i - 1], joined)] += 1
        if i + 2 < len(old):
            faulty[(b, old[i + 2])] += 1
            faulty[(joined, old[i + 2])] += 1
    return _less_correct(faulty, old, new, pair)


def right_never_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Only the pair on the left of each new token moved, read off the merged split as it is built; the pair on its
    right, ``(b, y)``, never subtracted and ``(ab, y)`` never added (a guard that never holds: ``if i >= len``
    where ``i < len`` was meant); less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    for p in made:
        if p > 0:
            faulty[(new[p - 1], a)] -= 1
            faulty[(new[p - 1], joined)] += 1
    return _less_correct(faulty, old, new, pair)
