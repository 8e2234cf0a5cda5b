"""Ties in the order of the container a student keeps the counts in: every merge of the greatest count, by no rule.

Where every merge of the student's is a pair of the greatest count at its step (the correct loop, any tied pair let
win, follows the whole run) but no cause we know makes the whole run, only the choice among equal counts differs, in
an order no tie rule makes: the order of the container the counts are kept in. A hash map or set iterates by its keys'
hashes (Go's maps and Rust's ``HashMap`` are seeded at random, so the order changes from one run to the next), a heap
whose entries compare the counts alone leaves equal counts in the order its sifts made. A tie rule that follows such a
run for a few steps does so by chance, and is told as such. Such a heap is often lazy too: it pushes an entry only for
a pair whose count rose and drops a stale one when it comes out, so a pair whose count fell is lost to it
(:class:`bpe.replay_heaps.CountOnlyHeap`); where that heap, any live pair of the greatest count let out first, follows
the whole run, both are told.

Left out: the tie rules and containers' orders that are replayed (:mod:`bpe.tie_keys`, :mod:`bpe.check_ties`) and the
order in which the Check weighs causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .check_cleaned import lowercased_corpus
from .check_loop import FaultFound, TieAndFault, Words, find_fault, idle_fault
from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import student_words
from .check_ties import FOLLOW, TIE_SENTENCES
from .check_told import Parting, loop_told
from .check_work import ALLOWANCES, Work
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT
from .replay_heaps import CountOnlyHeap
from .tie_from_here import TieHere


def container_cause(
    p: Parting,
    best: tuple[int, float, str] | None,
    both: TieAndFault | None,
    near: tuple[tuple[str, ...], int] | None,
    here: TieHere | None,
    cap: int,
    found: FaultFound | None = None,
) -> Comparison | None:
    """Ties in a container's order, or a lazy heap's choices, where no cause of ``best`` (the best candidate: its
    reach, weight and kind) makes the whole run, or the one that does is a rule from this step only or a tie rule with
    a loop fault that changes no count here, which a run whose every merge is a pair of the greatest count matches by
    chance; else None. ``cap``: the replays follow the run no further; ``found``: the loop fault the search found,
    with which every merge may be a pair of the greatest count, ties aside."""
    total, step = len(p.student.merges), p.step
    kind = best[2] if best else None
    chance = kind == "tie-and-loop" and both is not None and (both.step > step or idle_fault(both.found))
    whole = best is not None and min(best[0], cap) >= min(total, cap)
    if whole and kind != "tie-here" and not chance:
        return None
    if p.their_count == p.our_count:  # on the text as it is, or lowercased (a tie the lowercasing leaves as it is)
        told = dict(head=p.head, count=p.their_count, total=total, ours=p.setup.tie_break, step=step, fields=p.fields)
        if free_ties(p.words, p.student.merges):
            return container_told(near=near, here=here, **told)
        low = lowercased_corpus(p.corpus)
        if low != p.corpus:
            words = Words(*student_words(low, p.setup, p.specials, p.student.end_of_word))
            if free_ties(words, p.student.merges):
                return container_told(near=None, here=None, lowered=True, **told)
    # a loop fault with ties by no rule: where no cause makes the whole run and the counts at the step differ
    faulty = free_fault_ties(p, found, cap) if not whole and p.their_count != p.our_count else None
    if faulty is not None:
        told = loop_told(p, faulty)
        cause = (
            f"{told.cause} With that loop every one of your merges is a pair of the greatest count at its step, and "
            "only the choice among equal counts differs, by no rule we know: that is the order of the container your "
            "counts are kept in (a hash map or a set iterates by its keys' hashes), not a rule. Break ties by a key of "
            "your own among the pairs of the greatest count."
        )
        return replace(told, cause=cause)
    heap = heap_run(p.words, p.student.merges)
    reach = p.n if best is None else min(best[0], cap)
    if heap.lost is not None and heap.reached > reach and heap.reached >= min(total, step + FOLLOW):
        return heap_told(p.head, p.their_count == p.our_count, p.their_count, heap, total, step, p.fields)
    return None


def free_fault_ties(p: Parting, found: FaultFound | None, cap: int) -> FaultFound | None:
    """The loop fault, of those the search found making the student's choice at the step and following the run as
    far as any (``found``: its best, the ones as far; where it found none, a search letting any tied pair win), with
    which every merge is a pair of the greatest count (a replay of it with no tie rule follows the run to its end, or
    to ``cap``), or None; within the tie rules' allowance."""
    work = Work("tie")
    merges = p.student.merges[:cap]
    pairs = (p.ours[p.n], p.theirs)
    if found is None:  # no fault made the choice under our tie rule: one may under any tie, as a set's order has it
        found = find_fault(p.words, p.student.merges, p.step, pairs, None, ALLOWANCES["same"])
    if found is None:
        return None
    for fault in (found.fault, *found.as_far, *found.same):
        if fault.heap or fault.loses:
            continue
        if work.spent():
            break
        run = replay(
            p.words.words, p.words.freqs, merges, fault, watch=p.step - 1, watch_pairs=pairs, deadline=work.deadline
        )
        work.spend(p.words.cost(merges).replayed(run.reproduced) + run.rewritten)
        # the fault must make the choice at the step by its counts: where it ties the two pairs (each pair counted
        # once in one long word), any run follows it by chance
        makes = run.counts.get(p.theirs, 0) > run.counts.get(p.ours[p.n], 0)
        if run.finished and run.reproduced >= len(merges) and makes:
            true = replay(p.words.words, p.words.freqs, merges[: p.step], CORRECT, watch=p.step - 1, watch_pairs=pairs)
            return FaultFound(fault, run.reproduced, true, run)
    return None


def free_ties(words: Words, merges: Sequence[BytePair]) -> bool:
    """Whether every one of ``merges`` is a pair of the greatest count at its step (a replay with no tie rule), where
    that replay fits the tie rules' allowance (:mod:`bpe.check_work`; a run too long for it is not told so)."""
    work = Work("tie")
    if words.cost(merges)(len(merges)) > work.units:
        return False
    run = replay(words.words, words.freqs, merges, CORRECT, deadline=work.deadline)
    return run.finished and run.reproduced >= len(merges)


def container_told(
    head: str,
    count: int,
    total: int,
    ours: str,
    near: tuple[tuple[str, ...], int] | None,
    here: TieHere | None,
    step: int,
    fields: dict,
    lowered: bool = False,
) -> Comparison:
    """The tie told as a container's order: the counts right, the ties by no rule, a rule that follows a while named
    with where it parts (``near``: from the start; ``here``: from this step); ``lowered``: on the lowercased text."""
    partial = ""
    if here is not None:
        reach = "to your run's end" if here.reproduced >= total else f"through step {here.reproduced}"
        partial = (
            f" (the '{here.rule}' rule makes your choices from here {reach}, but not at step {here.parts_at}, where "
            "it takes another pair of the same count)"
        )
    elif near is not None and near[1] >= step:
        partial = f" (the '{near[0][0]}' rule makes your choices through step {near[1]}, then parts from them)"
    every = (
        "Your run lowercases the text first (words that differ only in case count together): on the lowercased text, "
        "every"
        if lowered
        else "Every"
    )
    cause = (
        f"{head}, both counted {count}: a tie, and your ties follow no rule we know. {every} one of your {total} "
        f"merges is a pair of the greatest count at its step, so your counts are right{' there' if lowered else ''}; "
        "only the choice among equal counts "
        f"differs, and no tie rule of ours or of students' makes it throughout{partial}. That is the order of the "
        "container your counts are kept in, not a rule: a hash map or a set (it iterates by its keys' hashes; Go's "
        "maps and Rust's HashMap change that order from one run to the next, so two runs of your code can differ), or "
        "a heap whose entries compare the counts alone. Break ties by a key of your own among the pairs of the "
        f"greatest count; ours is '{ours}' ({TIE_SENTENCES[ours]})."
    )
    return Comparison(kind="tie", cause=cause, **fields)


@dataclass(frozen=True)
class HeapRun:
    """How far a lazy heap compared on counts alone follows the run (:class:`bpe.replay_heaps.CountOnlyHeap`), and
    the first step where it takes a pair below the greatest count: the pair it lost there, that pair's count, and the
    count the heap's stale entry for it still says (None where it has none)."""

    reached: int
    step: int | None = None
    lost: BytePair | None = None
    count: int = 0
    stale: int | None = None


def heap_run(words: Words, merges: Sequence[BytePair]) -> HeapRun:
    """The student's merges replayed on a lazy heap compared on counts alone, any live pair of the greatest count let
    out first, within the allowance ``heap`` (:mod:`bpe.check_work`): each step spends the pairs it looks at and the
    symbols of the words it rewrites."""
    work = Work("heap")
    heap = CountOnlyHeap(words.words, words.freqs)
    cost = words.cost(merges)
    found: dict = {}
    for k, pair in enumerate(merges):
        work.spend(len(heap.counts) + cost(k + 1) - cost(k))  # the pairs looked at, the symbols of this merge
        if work.spent() or pair not in heap.tied():
            return HeapRun(k, **found)
        best = max(heap.counts.values())
        if not found and heap.counts.get(pair, 0) < best:
            lost = next(p for p, n in heap.counts.items() if n == best)
            found = dict(step=k + 1, lost=lost, count=best, stale=heap.stale(lost))
        heap.take(pair)
    return HeapRun(len(merges), **found)


def heap_told(head: str, tie: bool, count: int, run: HeapRun, total: int, step: int, fields: dict) -> Comparison:
    """A lazy heap compared on counts alone told: the pair it lost and its ties in its own order."""
    lost = show_pair(run.lost)
    stale = f" (its entry still says {run.stale})" if run.stale is not None else ""
    why = (
        f"your heap lost {lost}: its count fell at an earlier merge{stale}, and your update pushes an entry only for "
        "a pair whose count rose, never for one whose count fell, so the stale entry is dropped when it comes out and "
        f"{lost} is never offered again until it gains. Push a pair again with its new count whenever it changes"
    )
    if run.step == step:
        cause = f"{head}: {why}. Your heap compares the counts alone too, so its ties come out in its own order"
    else:
        cause = (
            (
                f"{head}, both counted {count}: a tie, and your ties follow no rule we know: your heap compares the counts "
                f"alone, so equal counts come out in its own order. It also loses pairs: at step {run.step} you take a "
                f"pair below the greatest count, {run.count}, because {why}"
            )
            if tie
            else f"{head}: {why}"
        )
    cause += (
        f". With both, every one of your {total} merges is the heap's choice: a pair of the greatest count among "
        "those it still holds."
        if run.reached >= total
        else f". With both, your merges through step {run.reached} are the heap's choices (a pair of the greatest "
        "count among those it still holds); there something else differs too."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="count-only-heap", **fields)
