"""Loops of a student's own design replayed whole, the one that follows the run furthest found and told.

Some runs come from a loop that is not BPE's with a bug in it but another algorithm: several pairs merged in each
pass (:mod:`bpe.check_rounds`, on the text as it is or cleaned first), the text cut anew by the longest known tokens
at each step (:mod:`bpe.check_greedy`), the pair taken by its token id instead of its count
(:mod:`bpe.check_wrong_key`). :func:`own_loop` replays each and keeps the one that goes furthest (the first of those
on equal reach); :func:`own_loop_told` says it.

Left out: weighing it against the other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .check_greedy import greedy_reach, greedy_told
from .check_result import Comparison
from .check_rounds import Rounds, cleaned_rounds, rounds_reach, rounds_told
from .check_told import Parting
from .check_wrong_key import wrong_key_reach, wrong_key_told


@dataclass(frozen=True)
class OwnLoop:
    """The loop found: how many of the student's merges it makes, and what it is (``found``: a
    :class:`~bpe.check_rounds.Rounds`, the greedy cut's reach, or the wrong key's reach and side)."""

    reach: int
    found: Rounds | int | tuple[int, str]


def own_loop(p: Parting) -> OwnLoop | None:
    """The loop of a student's own design that follows the run furthest past the step, or None."""
    words, merges, step = p.words, p.student.merges, p.step
    found: list[OwnLoop] = []
    rounds = rounds_reach(words.words, words.freqs, merges, step)
    if rounds is not None and rounds.reach < len(merges):  # the text cleaned first too?
        rounds = cleaned_rounds(p.corpus, p.student, p.setup, p.specials, step, rounds)
    if rounds is not None:
        found.append(OwnLoop(rounds.reach, rounds))
    greedy = greedy_reach(words.words, words.freqs, merges, step)
    if greedy is not None:
        found.append(OwnLoop(greedy, greedy))
    keyed = wrong_key_reach(words.words, merges, step)
    if keyed is not None:
        found.append(OwnLoop(keyed[0], keyed))
    return max(found, key=lambda f: f.reach, default=None)


def own_loop_told(p: Parting, loop: OwnLoop) -> Comparison:
    """The run told as the loop found."""
    total = len(p.student.merges)
    if isinstance(loop.found, Rounds):
        return rounds_told(p.head, loop.found, total, p.fields)
    if isinstance(loop.found, tuple):
        return wrong_key_told(p.head, loop.found, p.student.merges, p.fields)
    return greedy_told(p.head, loop.found, total, p.fields)
