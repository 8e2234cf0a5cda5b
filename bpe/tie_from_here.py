"""A students' tie rule that follows the run from the step where it parts from ours, though not from its start.

Where the two pairs tie at the step where the runs part, a tie rule replayed from the first merge can part from the
student's run earlier, at a tie the student's loop settled our way for another reason (a pair left out of its
choice, a heap entry gone stale, a special token's pair barred): then no rule follows the run from the start and a
loop fault that makes this one choice by chance looks like the best cause. Replayed from the student's own merges
before the step, the rule that breaks the student's ties shows itself by following the run well past it.

Left out: the tie rules replayed from the start (:mod:`bpe.check_ties`) and the order in which the Check weighs
causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .check_loop import BEYOND, Words
from .check_notation import show_pair
from .check_ties import FOLLOW, TIE_SENTENCES
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT
from .tie_keys import TIE_KEYS


@dataclass(frozen=True)
class TieHere:
    """The rule, how many of the student's merges it reaches from the parting step (its own merges before it taken
    as they are), and the earlier step where the rule replayed from the start parts from the run."""

    rule: str
    reproduced: int
    parts_at: int


def tie_from_here(corpus: Words, merges: Sequence[BytePair], step: int, skip: str | None) -> TieHere | None:
    """The students' tie rule (of :data:`bpe.tie_keys.TIE_KEYS` but ``skip``, ours) that makes the student's choice
    at ``step`` and the next :data:`~bpe.check_ties.FOLLOW` (or to the run's end), replayed from the student's
    merges before ``step``, and reaches furthest; None if none does or the rule follows from the start anyway. The
    replays spend the tie rules' allowance of counted work (:mod:`bpe.check_work`), so the rules tried do not depend
    on the machine's load."""
    work = Work("tie")
    run = merges[: step + BEYOND]
    cost = corpus.cost(run)
    need = min(len(run), step + FOLLOW)
    best: TieHere | None = None
    for name in TIE_KEYS:
        if name == skip or not corpus.tries(name):
            continue
        if work.spent():
            break
        whole = corpus.ties.get((tuple(run), name))  # the rule replayed from the start, where a search did so
        if whole is not None and whole.reproduced >= step - 1:  # it made the merges before the step itself
            here = whole
        else:
            here = replay(corpus.words, corpus.freqs, run, CORRECT, tie=name, deadline=work.deadline, trusted=step - 1)
        work.spend(cost.replayed(here.reproduced))
        if not here.finished:
            work.cut()
        if here.reproduced < need or best is not None and here.reproduced <= best.reproduced:
            continue
        if whole is not None and _repeats(run) == _repeats(run[:step]):  # it reads the same run up to the step
            start = min(whole.reproduced, step)
        else:
            start = replay(corpus.words, corpus.freqs, run[:step], CORRECT, tie=name, deadline=work.deadline).reproduced
        work.spend(cost.replayed(start))
        if start >= step:
            continue  # it follows from the start: the tie rules of :mod:`bpe.check_ties` name it
        best = TieHere(name, here.reproduced, start + 1)
    return best


def tie_here_sentence(head: str, count: int, found: TieHere, setup_rule: str, merges: Sequence[BytePair]) -> str:
    """The tie told with the rule, how far it follows the run, and the earlier step where the run parts from it."""
    total = len(merges)
    reach = "to its end" if found.reproduced >= total else f"through step {found.reproduced}"
    earlier = merges[found.parts_at - 1]
    return (
        f"{head}, both counted {count}: a tie broken by the '{found.rule}' rule ({TIE_SENTENCES[found.rule]}), "
        f"where ours is '{setup_rule}'; from this step on it makes your choices {reach}. Earlier, at step "
        f"{found.parts_at}, your run takes {show_pair(earlier)} where that rule takes another pair of the same "
        "count: something set that pair aside there (a pair barred, such as one inside a special token, or a "
        "heap entry gone stale), a second thing to check."
    )


def _repeats(merges: Sequence[BytePair]) -> bool:
    """Whether a run repeats a merge: a replay then keeps a merged pair's count (``deletes`` in
    :func:`bpe.fault_replay.replay`), so a run and its start are replayed alike only where both do or neither."""
    return len(set(merges)) < len(merges)
