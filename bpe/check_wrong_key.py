"""A selection that picks the pair by a key other than its count: ``max(counts, key=lambda p: p[1])``, replayed.

A student who writes ``max(pair_counts, key=lambda x: x[1])`` over a dict keyed by pairs, meaning the count, takes
the pair whose right token id is greatest (``x`` is the pair, not an item), the first such pair counted in a tie;
``x[0]`` takes the greatest left id. Every pair the text holds is a candidate, however rare. :func:`wrong_key_reach`
replays both keys on our words (each step's pairs counted afresh in the text's order, token ids as students number
them: the bytes, then one per merge) and says how far the one that goes further follows the run;
:func:`wrong_key_told` says it.

Left out: tie rules among pairs of the greatest count (:mod:`bpe.tie_keys`) and weighing this cause against the
others (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_notation import show_pair
from .check_result import Comparison
from .check_ties import FOLLOW
from .check_work import Work
from .formats.cs336 import BytePair
from .tie_keys import token_ids
from .word_merges import merge_all

KEYS = {1: "right", 0: "left"}  # the index the key reads: x[1], the right token's id; x[0], the left's


def _reach(words, merges: Sequence[BytePair], side: int, work: Work) -> int:
    ids = token_ids(words, merges)
    splits = [list(w) for w in words]
    reach = 0
    for pair in merges:
        if work.spent():
            break
        work.spend(sum(map(len, splits)))
        seen: dict[BytePair, None] = {}
        for split in splits:
            seen.update(dict.fromkeys(zip(split, split[1:])))
        if not seen or max(seen, key=lambda p: ids.get(p[side], -1)) != pair:
            break
        splits = [list(merge_all(s, pair)[0]) for s in splits]
        reach += 1
    return reach


def wrong_key_reach(
    words: Sequence[tuple[bytes, ...]], merges: Sequence[BytePair], step: int
) -> tuple[int, str] | None:
    """How far the key that follows the run further does, and which (``right`` or ``left``), or None where neither
    follows it :data:`FOLLOW` merges past ``step``. Each step counts every word once, spent from ``rounds``."""
    work = Work("rounds")
    reach, side = max((_reach(words, merges, s, work), s) for s in KEYS)
    return (reach, KEYS[side]) if reach >= step + FOLLOW else None


def wrong_key_told(head: str, found: tuple[int, str], merges: Sequence[BytePair], fields: dict) -> Comparison:
    """The run told as a selection by the wrong key."""
    reach, side = found
    index = 1 if side == "right" else 0
    follows = (
        f"our loop choosing so makes all {len(merges)} of your merges"
        if reach >= len(merges)
        else f"our loop choosing so follows yours for {reach} merges"
    )
    cause = (
        f"{head}: your loop does not take the most frequent pair: max(counts, key=lambda x: x[{index}]) over a dict "
        f"keyed by pairs reads the pair's {side} token id, not its count (x is the pair, not an item), so it takes "
        f"the pair whose {side} token has the greatest id, the first counted of those, however rare (your first "
        f"merge {show_pair(merges[0])}); {follows}. Take max(counts, key=counts.get)."
    )
    return Comparison(kind="merge-loop", cause=cause, fault=f"key-{side}-id", **fields)
