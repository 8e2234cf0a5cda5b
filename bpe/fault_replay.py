"""Replaying a student's merges under one known fault: how many of them the faulty loop would have chosen.

:func:`replay` follows the student's merges under a :class:`~bpe.loop_fault.Fault` and stops at the first
merge the faulty loop would not choose. A pair is chosen when no pair has a higher count (``tie=None``: any
tied pair may win, so a tie rule cannot pass for a fault) or, with a tie key of
:data:`~bpe.tie_keys.TIE_KEYS`, when the key picks it among the tied. A loop that merges word splits
keeps them per word; a loop that keeps only pair counts (``moves``) or byte positions (``positions``) has
its own bookkeeping (:class:`~bpe.replay_counts.HeldPairs`, :mod:`bpe.replay_positions`);
:class:`~bpe.replay_counts.PairCounts` finds the most frequent pairs without a scan. A loop whose selection
is its own (a heap, a dict) is replayed step by step by :mod:`bpe.replay_heaps` or :mod:`bpe.replay_dicts`.
:func:`faulty_merges` lets a faulty loop choose its merges itself.

Left out: the faults themselves (:mod:`bpe.merge_faults`), the tie keys (:mod:`bpe.tie_keys`) and deciding which fault to name
(:mod:`bpe.check_loop`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .check_work import once
from .dict_order_ties import LAST_TIE, REBUILT_TIE, recounted_to_end
from .formats.cs336 import BytePair
from .java_order import JavaOrder, JavaWordsReached
from .loop_fault import Fault, no_extra
from .merge_faults import CORRECT
from .replay_counts import HeldPairs, PairCounts, Reached, Recount
from .replay_dicts import PrefixFirst, SubstringCounts, WrongIndex
from .replay_heaps import LazyHeap, LinkedHeap, SiftlessHeap, WordHeap
from .replay_positions import PositionPairs, RecordedPositions
from .tie_keys import (
    ID_SUM_TIE,
    JAVA_MERGE_TIE,
    JAVA_TIE,
    JAVA_WORDS_TIE,
    ORDER_TIES,
    OUR_FIRST,
    REACHED_TIES,
    RECOUNT_TIE,
    TIE_KEYS,
    TiePick,
    token_ids,
)
from .word_merges import Split, Word, ends_across, pair_counter

LOST = 3  # a selection that lost more pairs than this is not told apart from a count that is off


@dataclass
class Replay:
    """How far a loop follows the student: ``reproduced`` merges; at ``watch`` steps the counts of the
    watched pairs, in all and per word (word index -> count), and of every pair (``every``)."""

    reproduced: int
    counts: dict[BytePair, int]
    per_word: dict[BytePair, dict[int, int]]
    finished: bool = True
    chosen: list[BytePair] | None = None
    every: dict[BytePair, int] | None = None
    deletes_told: bool = False  # a tie was decided by whether a merged pair's count is deleted (see _fresh)
    exhausted: bool = False  # every merge made and no pair left with a count: the loop would stop there
    rewritten: int = 0  # with ``every_word``: the symbols of every word rewritten, holding the merged pair or not


def replay(
    words: Sequence[Word],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    fault: Fault = CORRECT,
    tie: str | None = None,
    watch: int | None = None,
    watch_pairs: Sequence[BytePair] = (),
    deadline: float | None = None,
    choose: int | None = None,
    deletes: bool | None = None,
    keeps: bool = False,
    trusted: int = 0,
    order: Sequence[int] | None = None,
    shuns: Callable[[BytePair], bool] | None = None,
) -> Replay:
    """Follow ``merges`` under ``fault`` and count how many the faulty loop would choose itself.
    ``choose``: make that many merges instead, each the pair the loop would choose (needs ``tie``), as
    :func:`faulty_merges` does. ``deletes``: whether the loop deletes a pair's count once it is merged, so a
    count a faulty update left there never wins a tie (None: where the student's run never repeats a merge).
    ``keeps``: a fault that deletes the merged pair's count (``drops``) keeps it instead, what the faulty update left
    there and all, as the same loop does when it only subtracts each merged occurrence. ``shuns``: a test of the
    pairs the selection never takes, whatever their count. ``trusted``: the first merges taken as the student made
    them, whether or not the loop would choose them, so the loop is followed from there on. ``order``: the words'
    indexes in the order the tie keys that read where a count ends (:class:`bpe.replay_counts.Reached`) scan them
    (default: as given)."""
    splits: list[Split] = [list(w) for w in words]
    ids = token_ids(words, merges) if tie else {}
    pick = TIE_KEYS[tie if tie != OUR_FIRST else RECOUNT_TIE][1] if tie else None
    made_tokens: set[bytes] = set()
    done: set[BytePair] = set()  # the pairs merged so far
    # a student whose run never repeats a merge deletes a pair's count once it is merged (see _fresh)
    if deletes is None:
        deletes = choose is None and len(set(merges)) == len(merges)

    def contribution(split: Split) -> Counter:
        c = Counter(zip(split[::2], split[1::2])) if fault.even else pair_counter(split, fault.overlap)
        if fault.once:
            c = Counter(dict.fromkeys(c, 1))
        if fault.banned:
            c = Counter({p: n for p, n in c.items() if p[0] not in made_tokens and p[1] not in made_tokens})
        return c

    if fault.moves or fault.positions or fault.recorded:  # those loops change a word's counts in place
        contrib: list[Counter] = [contribution(s) for s in splits]
    else:
        contrib = list(_first_counts(words, fault, contribution))
    counts = PairCounts()
    where: dict[BytePair, set[int]] = {}
    seen: dict[BytePair, int] = {}  # the order the student's dict of counts gains the pairs (see TIE_KEYS)
    ordered = tie in ORDER_TIES  # only those keys read it, and words are merged in corpus order only for them
    # with those keys: the order of a fresh count (ours: over the words in first-seen order)
    recount: Recount | Reached | JavaOrder | JavaWordsReached | None = (
        Recount(splits, tie == RECOUNT_TIE) if tie in (RECOUNT_TIE, OUR_FIRST, LAST_TIE) else None
    )
    if tie in REACHED_TIES or tie == ID_SUM_TIE:
        recount = Reached(splits, order)
    if tie in (JAVA_TIE, JAVA_MERGE_TIE):
        recount = JavaOrder(splits, freqs, merge=tie == JAVA_MERGE_TIE)
    if tie == JAVA_WORDS_TIE:
        recount = JavaWordsReached(splits)
    # with ``skips``: the words holding each pair as the student's list has them, once per occurrence, in the
    # order they came to hold it
    listed: dict[BytePair, list[int]] = {}
    counts.add_words(contrib, freqs)
    for w in range(len(contrib)):
        for p in zip(splits[w], splits[w][1:]):
            where.setdefault(p, set()).add(w)
            if fault.skips:
                listed.setdefault(p, []).append(w)
            if ordered:
                seen.setdefault(p, len(seen))
    if recount is not None:
        seen = recount  # type: ignore[assignment]
    removed: set[BytePair] = set()
    lost: set[BytePair] = set()  # pairs the selection never offers again
    live = set(range(len(words)))
    held = HeldPairs(words, contrib) if fault.moves else None
    sifted = fault.heap and not fault.lazy and tie in (None, "greatest-bytes")
    heap = SiftlessHeap(words, freqs, fault.skip_first) if sifted else None
    if fault.lazy:  # a lazy heap pops the smallest of tied entries by its own key, whatever rule ours has
        lazy = WordHeap if fault.whole_words else LinkedHeap if fault.linked else LazyHeap
        heap = lazy(words, freqs)  # type: ignore[assignment]
    if fault.wrong_index and tie in (None, "greatest-bytes"):
        heap = WrongIndex(words, freqs)  # type: ignore[assignment]
    if fault.prefix_first and tie in (None, "greatest-bytes"):
        heap = PrefixFirst(words, freqs)  # type: ignore[assignment]
    if fault.global_substring and tie in (None, "greatest-bytes"):
        heap = SubstringCounts(words, freqs)  # type: ignore[assignment]
    if (fault.heap or fault.wrong_index or fault.prefix_first or fault.global_substring) and heap is None:
        return Replay(0, {}, {})  # the heap orders ties by its own key, the greatest pair of bytes
    at = PositionPairs(words) if fault.positions else RecordedPositions(words) if fault.recorded else None
    result = Replay(0, {}, {p: {} for p in watch_pairs})
    if fault.present:  # the best kept while scanning the words: a pair no word holds now is never taken
        shunned = shuns
        shuns = lambda p: not where.get(p) or shunned is not None and shunned(p)  # noqa: E731
    steps = len(merges) if choose is None else choose
    for step in range(steps):
        if choose is not None and heap is not None:
            top = heap.top()
            if top is None:
                return result
            merges = [*merges, top]
            result.chosen = merges
        if choose is not None and heap is None:
            tied = counts.top()
            if not tied or pick is None:
                return result
            pair = pick(_fresh(tied, done, where, deletes, result), ids, seen)
            merges = [*merges, pair]
            result.chosen = merges
            ids.setdefault(pair[0] + pair[1], len(ids))
        else:
            pair = merges[step]
        if heap is not None:
            pair = merges[step]
            if step == watch:
                result.counts = {p: heap.count(p) for p in watch_pairs}
            if deadline is not None and time.monotonic() > deadline:
                result.finished = False
                return result
            if heap.top() != pair:
                return result
            result.reproduced = step + 1
            heap.merge()
            continue
        if step == watch:
            result.counts = {p: counts.get(p, 0) for p in watch_pairs}
            result.every = dict(counts.counts)
            for p in watch_pairs:
                if p in removed:
                    continue
                result.per_word[p] = {w: contrib[w][p] * freqs[w] for w in live if contrib[w].get(p)}
        if deadline is not None and time.monotonic() > deadline:
            result.finished = False
            return result
        if step == watch and fault.loses and choose is None:
            lost = _lost_pairs(counts, pair, pick, ids, seen)
        tied = counts.top(lost, shuns)
        if step >= trusted and (
            pair not in tied
            or pick is not None
            and len(tied) > 1
            and pick(_fresh(tied, done, where, deletes, result), ids, seen) != pair
        ):
            return result
        result.reproduced = step + 1
        joined = pair[0] + pair[1]
        made_tokens.add(joined)
        done.add(pair)
        if at is not None:
            at.merge(pair, counts, contrib, freqs)
            continue
        if held is not None and fault.moves is not None:
            held.merge(pair, fault.moves, counts, contrib, freqs)
            continue
        frozen = fault.frozen or fault.frozen_later and step > 0
        taken = counts.get(pair, 0)  # with ``keeps_pair``: the merged pair's count, left as it was
        changed = set()
        made_here: dict[BytePair, int] = {}  # with ``assigns``: each new pair, the count of the last word making it
        holders = where.get(pair, set())
        if fault.unbounded:  # the words holding the pair's text across two symbols change too
            holders = set().union(*(ws for p, ws in where.items() if ends_across(pair, p)))
        if fault.every_word:  # the merge rewrites every word of two symbols or more, holding the pair or not
            holders = {w for w in live if len(splits[w]) > 1}
            result.rewritten += sum(len(splits[w]) for w in holders)
        if fault.skips:  # the list loses each word as it is merged, so the loop steps over the next one
            order = _mutated(listed.setdefault(pair, []))
        else:
            order = sorted(holders) if ordered or fault.assigns or fault.stale_index else list(holders)
        for w in order:
            old = splits[w]
            new, made = fault.merge(old, pair)
            if new == old:
                continue
            changed.add(w)
            held = set(zip(old, old[1:]))
            for p in held:
                where.get(p, set()).discard(w)
            if fault.skips:
                gained = Counter(zip(new, new[1:]))
                gained.subtract(zip(old, old[1:]))
                for p, k in gained.items():
                    for _ in range(abs(k) if p != pair else 0):
                        if k > 0:
                            listed.setdefault(p, []).append(w)
                        elif w in listed.get(p, ()):
                            listed[p].remove(w)
            for p in zip(new, new[1:]):
                if not fault.stale_index or p in held or p not in where:
                    where.setdefault(p, set()).add(w)
                if ordered:
                    seen.setdefault(p, len(seen))
                if fault.assigns and joined in p:
                    made_here[p] = freqs[w]
            splits[w] = new
            if frozen:
                continue
            before = contrib[w]
            if fault.accumulates:  # the word's pairs are added again with every other word's after the merge
                contrib[w] = contribution(new)
                continue
            if fault.extra is no_extra or fault.only_merged:
                after = contribution(new)  # the word's counts are its split's, as in the correct loop
            else:
                after = _moved(before, old, new, contribution)
                after.update(fault.extra(old, new, pair, made))
            counts.move(before, after, freqs[w])
            contrib[w] = after
        if fault.accumulates:
            for w in live:
                counts.add(contrib[w], freqs[w])
        if recount is not None:
            recount.moved(changed)
        if tie == REBUILT_TIE:
            recounted_to_end(seen, pair, splits, where)
        if fault.keeps_pair:
            counts.add({pair: taken - counts.get(pair, 0)}, 1)
        if made_here:  # the count of a new pair is the last word's, however many words made it
            counts.add({p: last - counts.get(p, 0) for p, last in made_here.items()}, 1)
        if frozen or fault.drops and not keeps:
            removed.add(pair)
            counts.drop(pair)
        if fault.only_merged:
            for w in live - changed:
                counts.add(contrib[w], -freqs[w])
                contrib[w] = Counter()
            live = changed
    result.exhausted = choose is None and heap is None and not counts.top(lost, shuns)
    return result


def _first_counts(words: Sequence[Word], fault: Fault, contribution: Callable[[Split], Counter]) -> list[Counter]:
    """Each word's pair counts before any merge, made once per check for each way a loop counts them (overlapping
    pairs or not, once per word or not): every replay of the check on these words starts from them, and a loop that
    only replaces a word's counts never changes them (:func:`bpe.check_work.once`; ``words`` is kept with them, so
    the list they are made for is the one asked about)."""
    key = ("first counts", id(words), fault.overlap, fault.once, fault.even)
    return once(key, lambda: (words, [contribution(list(w)) for w in words]))[1]


def _mutated(words: list[int]):
    """The words a loop ``for w in words: ... words.remove(w)`` visits: each visit removes the word's first entry,
    the index moves on by one, so the entry after it is stepped over."""
    i = 0
    while i < len(words):
        w = words[i]
        words.remove(w)
        yield w
        i += 1


def _fresh(
    tied: list[BytePair], done: set[BytePair], where: Mapping[BytePair, set[int]], deletes: bool, result: Replay
) -> list[BytePair]:
    """The tied pairs but those merged before that no word holds: a loop that deletes a pair's count once it is
    merged never offers it again, though a faulty update may have left a count there in the replay (as two merged
    tokens side by side do); a pair a half-merged word still holds keeps its count. A loop that keeps the count
    (``deletes`` false: its run repeats a merge) offers the pair again. ``result`` records whether the two differ
    here, so a search can skip the replay with the other choice where it never did."""
    fresh = [p for p in tied if p not in done or where.get(p)]
    if fresh and len(fresh) < len(tied):
        result.deletes_told = True
    return (fresh or tied) if deletes else tied


def _lost_pairs(
    counts: PairCounts, pair: BytePair, pick: TiePick | None, ids: Mapping[bytes, int], seen: Mapping[BytePair, int]
) -> set[BytePair]:
    """The pairs a selection must have lost for ``pair`` to be its choice under the true counts: those the
    loop would take before it (with no tie rule, every pair of a higher count), at most :data:`LOST` of them."""
    lost: set[BytePair] = set()
    while len(lost) <= LOST:
        tied = counts.top(lost)
        if not tied or pair in tied and (pick is None or pick(tied, ids, seen) == pair):
            return lost
        lost |= {pick(tied, ids, seen)} if pick is not None else set(tied) - {pair}
    return set()


def _moved(before: Counter, old: Split, new: Split, contribution: Callable[[Split], Counter]) -> Counter:
    """A word's counts moved from its old split to its new one (negative entries kept: a faulty update
    may have subtracted more than there was)."""
    after = Counter(before)
    after.subtract(contribution(old))
    after.update(contribution(new))
    return Counter({p: n for p, n in after.items() if n != 0})


def faulty_merges(
    words: Sequence[Word], freqs: Sequence[int], num_merges: int, fault: Fault = CORRECT, tie: str = "greatest-bytes"
) -> list[BytePair]:
    """The merges a faulty loop makes on its own, ties broken by ``tie``."""
    return replay(words, freqs, [], fault, tie=tie, choose=num_merges).chosen or []
