"""Loops that merge several pairs in each pass over the text, not one pair per step: their passes replayed.

Some students' loops count the pairs once, then walk the text left to right and merge, in that one walk, every pair
of a set: every pair counted more than once, each new token listed in the order the walk meets it (``repeated``),
or every pair tied at the greatest count, listed in their container's order (``tied``). Such a run's first merges
are not the most frequent pairs, and no tie rule or count fault of a one-pair loop follows it for long.
:func:`rounds_reach` replays both on our words and says how far the one that goes further follows the student's
merges, on the text as it is or cleaned first (:func:`cleaned_rounds`, where a cleaning lets it follow further);
:func:`rounds_told` says it.

Left out: loops that merge one pair per step (:mod:`bpe.check_loop`) and weighing this cause against the others
(:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .check_cleaned import cleaning_told
from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import student_words
from .check_ties import FOLLOW
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT
from .text_cleanings import cleaned, cleanings_for

RULES = {
    "repeated": "counts the pairs once, then walks the text left to right and merges every pair counted more than once "
    "(each a new token, listed in the order the walk meets it), so its first merge is the first repeated pair in the "
    "text, not the most frequent one",
    "tied": "counts the pairs once, then merges every pair tied at the greatest count in one walk of the text, left to "
    "right, listing them in its container's order, so where two pairs tie both are merged in one pass (and a pair the "
    "other took the symbols of is listed all the same)",
}


@dataclass(frozen=True)
class Rounds:
    """A loop that merges several pairs per pass: its ``rule`` (a key of :data:`RULES`), how many of the student's
    merges it makes (``reach``), and the first pass that merges more than one pair (its pairs, its first step)."""

    rule: str
    reach: int
    several: tuple[BytePair, ...]
    at: int
    cleaning: tuple[str, ...] = ()  # how the text was cleaned first (bpe.text_cleanings)
    passes: tuple[tuple[int, tuple[BytePair, ...]], ...] = ()  # every pass of several pairs: its first step, its pairs


def _pass(splits: list[list[bytes]], freqs: Sequence[int], rule: str) -> tuple[list[BytePair], bool]:
    """One pass of ``rule`` over ``splits`` (merged in place): the pairs it lists, in the walk's order (for ``tied``,
    the tied pairs in their order of first occurrence, which the run may list otherwise), and whether it is a set."""
    counts: Counter = Counter()
    for split, f in zip(splits, freqs, strict=True):
        for p in zip(split, split[1:]):
            counts[p] += f
    if not counts:
        return [], False
    if rule == "repeated":
        chosen = {p for p, n in counts.items() if n > 1}
    else:
        top = max(counts.values())
        chosen = {p for p, n in counts.items() if n == top} if top > 1 else set()
    met: dict[BytePair, None] = {}
    for k, split in enumerate(splits):
        out, i = [], 0
        while i < len(split):
            pair = (split[i], split[i + 1]) if i + 1 < len(split) else None
            if pair in chosen:
                out.append(pair[0] + pair[1])
                met.setdefault(pair, None)
                i += 2
            else:
                out.append(split[i])
                i += 1
        splits[k] = out
    if rule == "tied":
        first = {p: k for k, p in enumerate(counts)}
        return sorted(chosen, key=first.__getitem__), True
    return list(met), False


def _reach(
    words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair], rule: str, step: int, work
) -> Rounds:
    """How far ``rule`` follows ``merges``: it stops where a pass parts from them, where it has made ``step``
    merges without a pass of several pairs (a one-pair loop, told otherwise), or where ``work`` is spent."""
    splits = [list(w) for w in words]
    reach, several, at = 0, (), 0
    passes: list[tuple[int, tuple[BytePair, ...]]] = []
    while reach < len(merges) and not (reach >= step and not several) and not work.spent():
        work.spend(sum(map(len, splits)))
        listed, unordered = _pass(splits, freqs, rule)
        if not listed:
            break
        theirs = list(merges[reach : reach + len(listed)])
        if unordered:  # listed in a container's order: the run's next merges must be the pass's pairs, in any order
            same = next((k for k, pair in enumerate(theirs) if pair not in listed), len(theirs))
            same = same if len(set(theirs[:same])) == same else 0
        else:
            same = next((k for k, (a, b) in enumerate(zip(theirs, listed)) if a != b), len(theirs))
        if same > 1 and (same == len(listed) or reach + same == len(merges)):  # a whole pass, or what the run holds
            passes.append((reach + 1, tuple(theirs[:same])))
            several, at = several or tuple(theirs[:same]), at or reach + 1
        reach += same
        if same < len(listed):
            break
    return Rounds(rule, reach, several, at, passes=tuple(passes))


def rounds_reach(
    words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair], step: int
) -> Rounds | None:
    """The loop of :data:`RULES` that follows the student's merges furthest, or None. It must merge several pairs in
    one pass by ``step`` (else it is a one-pair loop, told otherwise), follow the run :data:`FOLLOW` merges past the
    step (a short run fits one pass by chance: its first merges may all be tied), and further than a one-pair loop
    whose ties go any way (pairs tied and apart from each other are merged alike one by one)."""
    work = Work("rounds")
    found = [_reach(words, freqs, merges, rule, step, work) for rule in RULES]
    best = max(found, key=lambda r: r.reach)
    if best.reach < step + FOLLOW or not best.several or best.at > step:
        return None
    if replay(words, freqs, merges[: best.reach], CORRECT, deadline=work.deadline).reproduced >= best.reach:
        return None
    return best if _needed(words, freqs, merges, best, work) else None


def _needed(words, freqs, merges: Sequence[BytePair], rounds: Rounds, work: Work) -> bool:
    """Whether some pass of several pairs cannot be made one pair at a time, each of the greatest count (its ties any
    way), from the merges before it: pairs tied and apart from each other are merged alike one by one."""
    for at, pairs in rounds.passes or ((rounds.at, rounds.several),):
        before, end = at - 1, at - 1 + len(pairs)
        if replay(words, freqs, merges[:end], CORRECT, deadline=work.deadline, trusted=before).reproduced < end:
            return True
    return False


def cleaned_rounds(corpus, student, setup, specials, step: int, plain: Rounds) -> Rounds:
    """``plain``, or the same loop on the text cleaned in the way of :mod:`bpe.text_cleanings` that lets it follow
    the run furthest, where one goes further (a student who cleans the text and merges several pairs per pass); each
    cleaning tried is one replay, spent from the allowance ``rounds``."""
    work = Work("rounds")
    best = plain
    raw = [t for pair in student.merges for t in pair]
    for names in cleanings_for(setup.pre_tokenizer, setup.byte_base, raw):
        clean = cleaned(corpus, names)
        if clean is None or clean == corpus or work.spent():
            continue
        try:
            _, words, freqs = student_words(clean, setup, specials, student.end_of_word)
        except ValueError:  # nothing left to count
            continue
        found = _reach(words, freqs, student.merges, plain.rule, len(student.merges), work)
        if found.reach > max(best.reach, step) and found.several and _needed(words, freqs, student.merges, found, work):
            best = replace(found, cleaning=names)  # the cleaning may make the step itself
    return best


def rounds_told(head: str, rounds: Rounds, total: int, fields: dict) -> Comparison:
    """The run told as a loop that merges several pairs per pass (on the text cleaned first, where it was)."""
    follows = (
        f"our loop merging so makes all {total} of your merges"
        if rounds.reach >= total
        else f"our loop merging so follows yours for {rounds.reach} merges"
    )
    pairs = ", ".join(show_pair(p) for p in rounds.several[:4]) + (", ..." if len(rounds.several) > 4 else "")
    cleaning = f"your run {cleaning_told(rounds.cleaning, 0, '')}, and " if rounds.cleaning else ""
    on = " on the text cleaned so" if rounds.cleaning else ""
    cause = (
        f"{head}: {cleaning}your loop does not merge one pair per step: it {RULES[rounds.rule]}. Its pass{on} at step {rounds.at} "
        f"merges {len(rounds.several)} pairs at once ({pairs}); {follows}. Count the pairs again after each merge "
        "and merge only the most frequent pair."
    )
    return Comparison(kind="merge-loop", cause=cause, fault=f"rounds-{rounds.rule}", **fields)
