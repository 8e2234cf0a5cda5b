"""The sentence naming a loop fault or a count at the step where the runs part, in the result that holds it.

Once the Check has weighed the causes under one setup (:mod:`bpe.check_cause`), each found cause is told in one
sentence addressed to the student: a loop that merges in a set's order, a selection that leaves out the pieces of a
special token, tokens kept as ints, a run that is its first merge over and over, a known faulty merge loop
(overlapping pairs counted once told as such), a tie rule and a loop fault together; where none follows the run,
what is certain about the counts (:func:`count_told`). :class:`Parting` holds what every sentence reads.

Left out: finding and weighing the causes (:mod:`bpe.check_cause` and the replays it calls).
"""

from __future__ import annotations

from dataclasses import dataclass

from .check_ends import FIRST_READ, SPACE_KEY, holds_space
from .check_ints import int_sentence
from .check_loop import Words, certain_sentence, fault_sentence, passed_over, run_order_hint
from .check_notation import show_bytes, show_pair, show_word
from .check_result import Comparison, pair_words, to_ours, words_that_differ
from .check_setup import Setup
from .check_ties import TIE_SENTENCES, rules_told, tie_sentence
from .config import Pair
from .fault_replay import replay
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .history import History
from .merge_faults import CORRECT
from .pre_tokenizers import Corpus
from .tie_keys import OUR_FIRST

FAR = 4  # a first merge counted at most 1/FAR of ours is far from the top: the run may not be from this corpus


@dataclass(frozen=True)
class Parting:
    """Where the runs part under one setup: our run, the step, both pairs and their counts in our run, the sentence's
    head, the result's fields and the student's words, which every cause's sentence reads."""

    corpus: Corpus
    student: StudentRun
    setup: Setup
    specials: tuple[str, ...]
    history: History
    ours: list[BytePair]
    n: int
    step: int
    theirs: BytePair
    our_pair: Pair
    our_count: int
    their_count: int
    head: str
    fields: dict
    words: Words


def set_order_told(p: Parting, ordered) -> Comparison:
    """The loop merges a pair's occurrences in a set's order (:mod:`bpe.check_set_order`)."""
    student, head, their_count, fields = p.student, p.head, p.their_count, p.fields
    reach, (x, at, word) = ordered
    follows = (
        f"our loop merging in that order makes all {len(student.merges)} of your merges"
        if reach >= len(student.merges)
        else f"our loop merging in that order follows yours for {reach} merges"
    )
    cause = (
        f"{head} ({their_count}): your loop merges a pair's occurrences in the order of the set of their positions "
        f"(a loop over the set, as list(pos[pair]) or for p in pos[pair]), not left to right, so a run of one symbol "
        f"is split otherwise: after the merge "
        f"{show_pair((x, x))} at step {at}, a run of three {show_bytes(x)} as in {show_word(word)} can become "
        f"{show_bytes(x)} {show_bytes(x + x)} where ours makes {show_bytes(x + x)} {show_bytes(x)}, and the counts "
        f"of the pairs beside it follow; {follows}. Merge the positions in order (sorted(pos[pair]))."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="set-order", **fields)


def special_ban_told(p: Parting, banned) -> Comparison:
    """The selection leaves out the pairs that are part of a special token (:mod:`bpe.check_special_ban`)."""
    student, ours, n = p.student, p.ours, p.n
    head, their_count, fields = p.head, p.their_count, p.fields
    reach, token = banned
    follows = (
        f"our loop leaving those pairs out makes all {len(student.merges)} of your merges"
        if reach >= len(student.merges)
        else f"our loop leaving those pairs out follows yours for {reach} merges"
    )
    cause = (
        f"{head} ({their_count}): your selection never takes a pair whose merged bytes are part of the special "
        f"token {token}, as {show_bytes(ours[n][0] + ours[n][1])} is, so {show_pair(ours[n])} is passed over "
        f"though no other pair counts more; {follows}. Pairs like it occur in ordinary words too: splitting the "
        "special tokens out of the text before counting is what keeps them whole, so no pair needs leaving out."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="special-ban", **fields)


def int_sum_told(p: Parting, ints, uncut: bool = False) -> Comparison:
    """The tokens are kept as ints and added (:mod:`bpe.check_ints`); ``uncut``: over the text not cut into words."""
    student, ours, n, step, theirs = p.student, p.ours, p.n, p.step, p.theirs
    our_count, fields = p.our_count, p.fields
    shown = f"({len(theirs[0])}, {len(theirs[1])})"  # the ints the student's run holds, not their zero bytes
    cause = (
        f"At step {step} we merge {show_pair(ours[n])} ({our_count}) and you {shown}: "
        f"{int_sentence(ours[n], theirs, ints[1], len(student.merges), uncut)}."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="int-sum", **fields)


def never_merges_told(p: Parting, found, repeats: int) -> Comparison:
    """The run is its first merge over and over: a merge that never changes a word, or a count never removed."""
    history, theirs = p.history, p.theirs
    head, their_count, fields = p.head, p.their_count, p.fields
    cause = f"{head} ({their_count}): your run merges {show_pair(theirs)} again, as at step 1, and keeps taking it "
    kept = found is not None and "kept-pair" in {found.fault.name, *(f.name for f in found.same)}
    if not kept:
        cause += (
            f"({repeats} merges in a row): your merge never changes a word, so no count changes and the first pair "
            "wins every time. Check the test that finds the pair in a word: a pair built as a list, [a, b], "
            f"never equals the tuple (a, b); or, if your merge does change the words, whether {FIRST_READ}."
        )
    else:  # a merge that changes nothing and a count never removed make the same run: both are said
        first = history.pair_counts_after(0).get(to_ours(theirs, history), 0)
        cause += (
            f"({repeats} merges in a row): its count never goes down, so the first pair wins every time. Either "
            "your merge never changes a word (check the test that finds the pair in a word: a pair built as a "
            f"list, [a, b], never equals the tuple (a, b)), or the count of the merged pair is never removed after "
            "the merge (the words are merged and the pairs beside it move, but no 'del counts[pair]' follows, so "
            f"{show_pair(theirs)} keeps its count of {first}), or {FIRST_READ}."
        )
    if holds_space(theirs):
        cause += f" The pair holds a space: {SPACE_KEY}, and the pair wins again."
    return Comparison(kind="merge-loop", cause=cause, fault="never-merges", **fields)


def loop_told(p: Parting, found) -> Comparison:
    """A known faulty merge loop (:mod:`bpe.check_loop`), overlapping pairs counted once told as such."""
    student, history, ours, n, theirs = p.student, p.history, p.ours, p.n, p.theirs
    head, our_count, their_count, words, fields = p.head, p.our_count, p.their_count, p.words, p.fields
    our_pair = p.our_pair
    if found.fault.name == "overlap-once" and our_pair[0] == our_pair[1]:
        rows = words_that_differ(pair_words(history, n, our_pair), pair_words(history, n, our_pair, False))
        once = our_count - sum(r[1] - r[2] for r in rows)
        cause = (
            f"{head} ({their_count}): a count that differs, from overlapping pairs. In words like "
            f"'{rows[0][0]}' the pair {show_pair(ours[n])} occurs overlapping; we count every adjacent pair "
            f"({our_count}), your count ({once} without overlaps) lets your pair win."
        )
        return Comparison(kind="overlap", cause=cause, fault=found.fault.name, **{**fields, "words": rows})
    cause = f"{head} ({their_count}): {fault_sentence(found, words, (ours[n], theirs), student.merges[:n])}."
    cause += run_order_hint(words, found, (ours[n], theirs), student.merges[:n], len(student.merges))
    for other in found.same[:1]:  # the run cannot tell them apart: both are said, the likelier first
        cause += f" Another known fault makes all your merges here too, so it may be yours: {other.sentence}."
    return Comparison(kind="merge-loop", cause=cause, fault=found.fault.name, **fields)


def tie_and_loop_told(p: Parting, both, alone=None) -> Comparison:
    """A students' tie rule and a loop fault together (:func:`bpe.check_loop.find_tie_and_fault`). ``alone``: the
    same loop fault found on its own under our tie rule, where it makes the student's choice at the step with no
    tie: the fault is told here and the rule from where the fault alone parts."""
    student, step, words = p.student, p.step, p.words
    head, their_count, fields = p.head, p.their_count, p.fields
    key, found = both.key, both.found
    if alone is not None and alone.fault == found.fault and step <= alone.reproduced < found.reproduced:
        loop = fault_sentence(alone, words, (p.ours[p.n], p.theirs), student.merges[: p.n])
        cause = (
            f"{head} ({their_count}): two faults at once. {loop[0].upper()}{loop[1:]}, which alone makes your choice "
            f"here; and your ties are broken by the '{key}' rule ({TIE_SENTENCES[key]}), which makes your choices "
            f"from step {alone.reproduced + 1} on, where that fault alone parts from your run; together they make your "
            f"merges through step {min(found.reproduced, len(student.merges))}."
        )
        return Comparison(kind="merge-loop", cause=cause, fault=found.fault.name, rule=key, **fields)
    loop = fault_sentence(found, words, both.pairs, student.merges[: both.step - 1])
    when = f"from step {both.step} on, " if both.step > step else ""
    made = "this choice" if both.step > step else "your choice"
    cause = (
        f"{head} ({their_count}): two faults at once. Your ties are broken by the '{key}' rule "
        f"({TIE_SENTENCES[key]}), which makes {made} here, and {when}{loop}; together they make your merges "
        f"through step {min(found.reproduced, len(student.merges))}."
    )
    return Comparison(kind="merge-loop", cause=cause, fault=found.fault.name, rule=key, **fields)


def count_told(p: Parting, near, search: bool) -> Comparison:
    """What is certain where no cause follows the run: the counts tie (a tie no rule follows, or a selection that
    passes over the highest count), or a count differs (by how much at least, and the words holding it)."""
    student, setup, ours, n, step, theirs = p.student, p.setup, p.ours, p.n, p.step, p.theirs
    head, our_count, their_count, words, fields = p.head, p.our_count, p.their_count, p.words, p.fields
    if their_count == our_count:  # no tie rule follows the run past this choice: a count is off, or the selection
        certain = certain_sentence(words, step, ours[n], theirs, student.merges)
        over = passed_over(words, student.merges, step) if search else None
        if over is not None:
            at, taken, taken_n, top, top_n = over
            tied = (
                f"a tie {rules_told(near[0])} {'break' if len(near[0]) > 1 else 'breaks'} as you do, though "
                f"{'they follow' if len(near[0]) > 1 else 'it follows'} your run only through step {near[1]}"
                if near is not None
                else "and no tie rule (ours or a student's) follows your run past this step"
            )
            cause = (
                f"{head}, both counted {their_count} in our run, {tied}. With the counts right along your own merges, every merge of yours through step "
                f"{at - 1} takes a pair of the highest count, and at step {at} you take {show_pair(taken)} ({taken_n}) "
                f"while {show_pair(top)} has {top_n}: your counts may well be right, and your selection does not always "
                "take the pair with the highest count, as a hand-written heap that goes out of order does (a removal "
                "that moves the last entry into the hole and sifts it only down, never up, or an update that moves a "
                f"pair the wrong way); else a count is off: {certain}."
            )
            return Comparison(kind="count", cause=cause, **fields)
        cause = f"{head}, both counted {their_count} in our run: {tie_sentence(setup, near, len(student.merges))}"
        return Comparison(kind="count", cause=f"{cause} a count is off: {certain}.", **fields)
    certain = certain_sentence(words, step, ours[n], theirs, student.merges)
    cause = f"{head} ({their_count} here): a count that differs; {certain}."
    once = _once_per_word(words, student.merges, step, (theirs, ours[n]))
    if once is not None:
        cause += (
            f" Counted once per distinct word (a word's frequency never used: pair_counts[pair] += 1 over the distinct "
            f"words), your merges through this one are the top pairs, here {once[0]} against {once[1]} for ours: your "
            "counts may weigh each word once; no update we know follows your run from there, so look at the update "
            "after each merge too."
        )
    elif n == 0 and their_count * FAR <= our_count:  # no reader, setting or loop makes a first pair this far down
        cause += (
            f" Your very first merge counts {their_count} in our corpus where ours counts {our_count}: that far from "
            "the top, your merges may not be from this corpus (a trainer that reads another text than the file it "
            "was given, such as a sample text written into the code)."
        )
    return Comparison(kind="count", cause=cause, **fields)


def _once_per_word(words, merges, step: int, pairs: tuple[BytePair, BytePair]) -> tuple[int, int] | None:
    """The counts of the student's pair and of ours at ``step`` with each distinct word counted once (the correct loop
    on those counts, ties to the pair seen first), where that loop makes every merge of the student's through the
    step, or None."""
    theirs, ours = pairs
    run = replay(words.words, [1] * len(words.words), merges[:step], CORRECT, tie=OUR_FIRST, watch=step - 1,
                 watch_pairs=pairs)  # fmt: skip
    if run.reproduced < step:
        return None
    return run.counts.get(theirs, 0), run.counts.get(ours, 0)
