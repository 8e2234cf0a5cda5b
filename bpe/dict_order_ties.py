"""Tie orders of a dict of counts that a loop rebuilds in part: pairs counted again after a merge go to its end.

A loop that keeps its pair counts in a dict, and after each merge of ``(a, b)`` deletes the counts of every pair
that could have changed (the merged pair, each pair ending in ``a`` or starting with ``b``) and counts them again
over the words (``dict.update`` with the fresh counts), moves those pairs to the dict's end, in the order the new
count meets them; ``max(counts, key=counts.get)`` then keeps the first of equal counts in that order.
:func:`recounted_to_end` keeps that order for a replay (:mod:`bpe.fault_replay`, the tie key
``recounted-to-end`` of :data:`bpe.tie_keys.TIE_KEYS`).

A loop that counts afresh each step and keeps the LAST pair of the greatest count (JavaScript's
``reduce((a, b) => a[1] > b[1] ? a : b)``, or ``>=`` in a loop) reads the order of a fresh count too: the key
``last-recounted`` takes the greatest place in it (:class:`bpe.replay_counts.Recount`, the words in their order).

Left out: the keys themselves and their sentences (:data:`bpe.tie_keys.TIE_KEYS`), and finding the key a run
follows (:mod:`bpe.check_loop`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .formats.cs336 import BytePair

REBUILT_TIE = "recounted-to-end"  # the tie key whose order :func:`recounted_to_end` keeps
LAST_TIE = "last-recounted"  # the tie key that takes the last of equal counts in a fresh count's order


def _touched(pair: BytePair) -> Callable[[BytePair], bool]:
    a, b = pair
    joined = a + b
    return lambda p: p == pair or p[1] == a or p[0] == b or joined in p


def recounted_to_end(
    seen: dict[BytePair, int], pair: BytePair, splits: Sequence[Sequence[bytes]], where: Mapping[BytePair, set[int]]
) -> None:
    """Move the pairs a merge of ``pair`` made the loop count again to the end of ``seen`` (their places, in the
    dict's order), in the order a scan of the words in corpus order meets them; a pair no word holds leaves it."""
    touched = _touched(pair)
    for p in [p for p in seen if touched(p)]:
        del seen[p]
    holders = sorted(set().union(*(ws for p, ws in where.items() if ws and touched(p))))
    top = max(seen.values(), default=-1) + 1
    for w in holders:
        split = splits[w]
        for p in zip(split, split[1:]):
            if touched(p) and p not in seen:
                seen[p] = top
                top += 1
