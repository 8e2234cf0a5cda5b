"""Ties in the order of the container a student keeps the counts in: every merge of the greatest count, by no rule.

Where every merge of the student's is a pair of the greatest count at its step (the correct loop, any tied pair let
win, follows the whole run) but no cause we know makes the whole run, only the choice among equal counts differs, in
an order no tie rule makes: the order of the container the counts are kept in. A hash map or set iterates by its keys'
hashes (Go's maps and Rust's ``HashMap`` are seeded at random, so the order changes from one run to the next), a heap
whose entries compare the counts alone leaves equal counts in the order its sifts made. A tie rule that follows such a
run for a few steps does so by chance, and is told as such.

Left out: the tie rules and containers' orders that are replayed (:mod:`bpe.tie_keys`, :mod:`bpe.check_ties`) and the
order in which the Check weighs causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_loop import Words
from .check_result import Comparison
from .check_ties import TIE_SENTENCES
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT
from .tie_from_here import TieHere


def free_ties(words: Words, merges: Sequence[BytePair]) -> bool:
    """Whether every one of ``merges`` is a pair of the greatest count at its step (a replay with no tie rule)."""
    work = Work("tie")
    run = replay(words.words, words.freqs, merges, CORRECT, deadline=work.deadline)
    work.spend(words.cost(merges).replayed(run.reproduced))
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
) -> Comparison:
    """The tie told as a container's order: the counts right, the ties by no rule, a rule that follows a while named
    with where it parts (``near``: from the start; ``here``: from this step)."""
    partial = ""
    if here is not None:
        reach = "to your run's end" if here.reproduced >= total else f"through step {here.reproduced}"
        partial = (
            f" (the '{here.rule}' rule makes your choices from here {reach}, but not at step {here.parts_at}, where "
            "it takes another pair of the same count)"
        )
    elif near is not None and near[1] >= step:
        partial = f" (the '{near[0][0]}' rule makes your choices through step {near[1]}, then parts from them)"
    cause = (
        f"{head}, both counted {count}: a tie, and your ties follow no rule we know. Every one of your {total} merges "
        "is a pair of the greatest count at its step, so your counts are right; only the choice among equal counts "
        f"differs, and no tie rule of ours or of students' makes it throughout{partial}. That is the order of the "
        "container your counts are kept in, not a rule: a hash map or a set (it iterates by its keys' hashes; Go's "
        "maps and Rust's HashMap change that order from one run to the next, so two runs of your code can differ), or "
        "a heap whose entries compare the counts alone. Break ties by a key of your own among the pairs of the "
        f"greatest count; ours is '{ours}' ({TIE_SENTENCES[ours]})."
    )
    return Comparison(kind="tie", cause=cause, **fields)
