"""Ties in the order of a dict of counts updated in place, word by word, on the student's words as compared, or with
the special tokens put first in the pre-tokenizer's own pattern.

A loop of that kind (:mod:`bpe.indexed_dict`) breaks ties by the order its dict gained its pairs, which depends on the
order it visits the words (a set of their indexes, or their own order): no key of ours reads it, so a run of it parts from ours at its first tie and is
told here only where replaying it makes the whole run. Its students often split the special tokens out by putting them
first in one alternation with GPT-2's or GPT-4's pattern (``re.findall('<\\|endoftext\\|>|' + PAT, text)``) and
dropping the pieces equal to a special token. That misses a special token glued after a punctuation mark: the
pattern's alternative for punctuation matches there first and runs on into it (``'.<|'``, ``'endoftext'``, ``'|>'``),
so those pieces are counted. :func:`indexed_order` tries both readings, each word apart and each distinct word once,
visited in a set's order and in their own;
:func:`indexed_told` says the one that makes the run.

Left out: the loop itself (:mod:`bpe.indexed_dict`) and the other causes, weighed beside it (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import regex

from .check_loop import BEYOND, FaultFound, idle_fault
from .check_notation import show_pair, show_word
from .check_reading import reading_of
from .check_result import Comparison
from .check_setup import CS336_SPECIALS, setup_symbols
from .check_told import Parting
from .check_work import MergeCost, Work
from .count_faults import file_text, special_in_pattern
from .fault_replay import replay
from .indexed_dict import indexed_counts, indexed_dict_reach
from .tie_keys import TIE_KEY

PATTERNED = {"gpt2": "GPT-2", "gpt4": "GPT-4"}  # the pre-tokenizers whose pattern a student writes special tokens into


@dataclass(frozen=True)
class Indexed:
    """How far a reading follows the run: ``special`` the special token the student dropped (``''``: the words as
    compared), ``cut`` the pieces a pattern cut it into where it missed it, ``apart`` whether each word is apart (else
    each distinct word once, with its count), ``order``: how the loop visits the words (``'set'`` of their indexes,
    their own ``'order'``, or ``''`` where our tie rule makes the run on those words and no dict's order is needed)."""

    reach: int
    special: str
    cut: tuple[str, ...]
    apart: bool
    counts: tuple[int, int]  # the loop's counts of our pair and the student's where the runs part
    order: str = "set"


def _patterned(text: str, pre_tokenizer: str, special: str) -> tuple[list[str], tuple[str, ...]]:
    """The text's words under ``special|pattern`` with the pieces equal to the special token dropped, and the pieces
    of the first occurrence the pattern cut (none if it never did)."""
    found = special_in_pattern(reading_of(text, pre_tokenizer, (special,)))
    words = [m.group() for m in found if m.group() != special]
    for at in (m.start() for m in regex.finditer(regex.escape(special), text)):
        pieces = [m for m in found if m.end() > at and m.start() < at + len(special)]
        if pieces and pieces[0].group() != special:
            return words, tuple(m.group() for m in pieces)
    return words, ()


def _readings(p: Parting, text: str) -> list[tuple[str, list[str], tuple[str, ...]]]:
    """The words the loop is replayed on, each reading as (the special token dropped, the words in the text's order,
    the pieces a pattern cut it into): the special tokens written into the pattern where it misses one, split out
    first, then our words (only at a tie, the one thing an order decides)."""
    readings = []
    for special in CS336_SPECIALS:
        if special in text and special not in p.specials:  # split out by the student: by the pattern, or properly
            if p.setup.pre_tokenizer in PATTERNED:
                words, cut = _patterned(text, p.setup.pre_tokenizer, special)
                if cut:  # the pattern missed it somewhere (else it reads as split out)
                    readings.append((special, words, cut))
            split = reading_of(text, p.setup.pre_tokenizer, (*p.specials, special))
            readings.append((special, [split.text[a:b] for a, b in zip(split.starts, split.ends)], ()))
    if p.their_count == p.our_count:
        reading = reading_of(text, p.setup.pre_tokenizer, p.specials)
        readings.append(("", [reading.text[a:b] for a, b in zip(reading.starts, reading.ends)], ()))
    return readings


def _replayed(p: Parting, typed, special: str, cut, setup, merges, work: Work) -> Indexed | None:
    """The first way of replaying one reading that makes the run: each word apart, then each distinct word once; with
    our tie rule (only where a pattern cut the special token), then the dict visiting the words in a set's order, then
    in their own. The words are made once per way of counting them, and a replay begins only where its symbols and
    the pairs each choice scans fit in what is left of the allowance."""
    counted = Counter(typed)
    need = len(merges)
    for apart in (True, False):
        chosen = typed if apart else list(counted)
        if work.spent() or work.used + sum(map(len, chosen)) > work.units:
            continue  # the symbols alone are past what is left: too big a text to replay so
        words = [setup_symbols(w, setup, p.student.end_of_word) for w in chosen]
        freqs = [1] * len(words) if apart else list(counted.values())
        cost = MergeCost(words, merges)
        pairs = len(cost.where)  # the pairs a choice scans (max over the whole dict), before any merge
        for order in ("", "set", "order") if cut else ("set", "order"):
            if work.spent() or work.used + cost(0) + pairs * need > work.units:
                break
            if order:
                n = indexed_dict_reach(words, freqs, merges, work.deadline, order == "order")
            else:  # our tie rule on the cut words: the cut alone may make the run
                n = replay(words, freqs, merges, tie=TIE_KEY.get(p.setup.tie_break), deadline=work.deadline).reproduced
            work.spend(cost.replayed(n) + pairs * min(n + 1, need))
            if n >= need:
                counts = indexed_counts(words, freqs, merges[: p.n], (p.ours[p.n], p.theirs), order == "order")
                return Indexed(n, special, cut, apart, counts, order)
    return None


def indexed_order(p: Parting) -> Indexed | None:
    """The reading on which the loop makes the whole run (through ``BEYOND`` merges past the step), or None. The words
    cut by a pattern that misses a special token are first replayed with our tie rule (the cut alone may make the
    run). Each replay spends from the allowance ``indexed`` (:mod:`bpe.check_work`) the symbols it rewrites and the
    pairs its choice scans at each merge (``max`` over the whole dict), counted before it begins, so a big text is
    never replayed."""
    text = file_text(p.corpus)
    work = Work("indexed")
    if text is None or len(text) > work.units:  # each word apart, its symbols alone would be past the allowance
        return None
    merges = p.student.merges[: p.step + BEYOND]
    found: list[Indexed] = []
    setup = replace(p.setup, byte_base=p.student.byte_level or p.setup.byte_base)
    for special, typed, cut in _readings(p, text):
        made = _replayed(p, typed, special, cut, setup, merges, work)
        if made is not None:
            found.append(made)
    work.late()  # the safety net passed: a replay may have stopped short of its end (told)
    # a special token split out is the cause where it changes the counts here, else the dict's order on our words
    moved = [f for f in found if f.special and f.counts != (p.our_count, p.their_count)]
    return next(iter(moved or [f for f in found if not f.special] or found), None)


def indexed_candidate(p: Parting, candidates: list, found: FaultFound | None) -> tuple[list, Indexed | None]:
    """The candidates (reach, weight, kind) with the dict's order among them, tried only where no cause already makes
    the whole run but a loop fault that only passes the tie on (``found``, which counts both pairs as we do); and the
    reading found. It is one program's order: after our tie rules and the students', but a special token the student
    dropped first among the settings; before such a loop fault, which yields to it as it does to a tie rule."""
    whole = min(len(p.student.merges), p.step + BEYOND)
    if any(c[0] >= whole and not (c[2] == "merge-loop" and idle_fault(found)) for c in candidates):
        return candidates, None
    indexed = indexed_order(p)
    if indexed is None:
        return candidates, None
    weight = 1.15 if indexed.special else 5.15
    if not indexed.special and idle_fault(found) and found.reproduced >= indexed.reach:
        candidates = [(c[0], 3.3, c[2]) if c[2] == "merge-loop" else c for c in candidates]
        weight = 3.25
    return [*candidates, (indexed.reach, weight, "indexed")], indexed


INDEXED_SENTENCE = (
    "your loop keeps its counts in one dict updated in place: for each word a merge changes, it subtracts the word's "
    "old pairs (deleting a pair whose count reaches 0) and adds its new ones, a pair new to the dict at its end, the "
    "words visited {visit}; max(stats, key=stats.get) keeps the first of equal counts in that dict's order, which no "
    "rule of ours follows"
)
VISITS = {"set": "in the order of a set of their indexes (pair_to_words[pair])", "order": "in their own order"}


def indexed_told(p: Parting, found: Indexed) -> Comparison:
    """The verdict: the special token the pattern missed, if that is where the runs part, then the dict's order."""
    total = len(p.student.merges)
    words = "each word apart" if found.apart else "each distinct word once with its count"
    follows = f"makes all {total} of your merges" if found.reach >= total else f"follows yours for {found.reach} merges"
    makes = f"our loop kept so ({words}) {follows}"
    said = INDEXED_SENTENCE.format(visit=VISITS.get(found.order, ""))
    if not found.special:
        cause = (
            f"{p.head}, both counted {p.their_count}: a tie, broken by your dict's order: {said}; {makes}. "
            "Break ties by a key of your own among the pairs of the greatest count, such as max(stats, key=lambda p: "
            "(stats[p], p))."
        )
        return Comparison(kind="tie", cause=cause, rule="indexed-dict", **p.fields)
    ours, theirs = found.counts
    counted = (
        f"{p.head} ({p.their_count} here): a count that differs. On your words your count of {show_pair(p.ours[p.n])} "
        f"is {ours} where ours is {p.our_count}, and of yours {theirs}."
        if (ours, theirs) != (p.our_count, p.their_count)
        else f"{p.head}, both counted {p.their_count}: a tie, broken by your dict's order (below)."
    )
    if found.cut:
        pieces = ", ".join(show_word(w) for w in found.cut)
        cause = (
            f"{counted} You drop the special token {found.special} by writing it first in one alternation with "
            f"{PATTERNED[p.setup.pre_tokenizer]}'s pattern and leaving out the pieces equal to it, where the settings "
            "compared keep it in the text. Where it follows a punctuation mark, the pattern's alternative for "
            f"punctuation matches first and runs on into it, so it is cut into {pieces}, which are counted. Split the "
            "text at the special tokens first (re.split on them, escaped), then cut each part with the pattern."
        )
    else:
        cause = (
            f"{counted} You split the special token {found.special} out of the text before counting and never "
            "trained on it, where the settings compared keep it in the text as ordinary characters."
        )
    if not found.order:  # the cut alone makes the run, with our tie rule
        cause += f" On your words read so, our run {follows}."
        return Comparison(kind="split-specials", cause=cause, **p.fields)
    cause += f" On your words read so, {said}; {makes}."
    return Comparison(kind="split-specials", cause=cause, rule="indexed-dict", **p.fields)
