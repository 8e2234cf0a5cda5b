"""A selection that never merges a pair that would make a token go on past whitespace, told from the student's merges.

Some students who train on a whole text (no pre-tokenizer) keep tokens from spanning words by leaving out of the
selection every pair whose merged token holds whitespace between two other characters (a space inside its
``strip()``) or a line break: ``if " " in token.strip() or "\\n" in token: continue``. A token may still start or
end with a space. Others leave out each pair whose left token, longer than one character, ends in a space, or each
pair holding a line break while spaces merge freely. A pair of the highest count is then passed over for the next
one, and the run parts from ours at the first step where our pair is such a pair. Cutting the text into words first is what keeps tokens within words, for every pair at once.

:func:`space_ban` replays the student's merges with the correct loop and those pairs left out of the selection, and
says how far it follows the run; each rule of :data:`BANS` is tried only where the pair our run takes at the step
is one it leaves out and no merge of the student's is. :func:`space_ban_told` says it.

Left out: weighing it against the other causes (:mod:`bpe.check_cause`); pairs of a special token left out
(:mod:`bpe.check_special_ban`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .check_loop import BEYOND, Words
from .check_notation import show_pair
from .check_result import Comparison
from .check_told import Parting
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair


def holds_space(pair: BytePair) -> bool:
    """Whether the token ``a + b`` holds a line break, or whitespace between two other characters."""
    token = (pair[0] + pair[1]).decode("utf-8", "replace")
    return "\n" in token or any(c.isspace() for c in token.strip())


def after_trailing_space(pair: BytePair) -> bool:
    """Whether the left token is longer than one character and ends in a space: a token going on past a word's
    trailing space (``if len(a) > 1 and a[-1] == ' ': continue``; a single space may still start a token)."""
    return len(pair[0]) > 1 and pair[0].endswith(b" ")


def holds_newline(pair: BytePair) -> bool:
    """Whether either token holds a line break (``if a == '\\n' or b == '\\n': continue``: a line break never merged
    with anything, while spaces merge freely)."""
    return b"\n" in pair[0] or b"\n" in pair[1]


# the rules students leave pairs out by, each with what it says of a pair it leaves out
BANS = {
    "inside": (
        holds_space,
        "whose merged token would hold whitespace inside it (a space between two other characters, or a line break)",
    ),
    "after-space": (
        after_trailing_space,
        "whose left token, longer than one character, ends in a space (so no token goes on past a word's trailing "
        "space)",
    ),
    "newline": (holds_newline, "that holds a line break (a line break is never merged with anything; spaces are)"),
}


@dataclass(frozen=True)
class SpaceBan:
    """The rules (:data:`BANS`) whose selection follows the run furthest, first named first, and how far."""

    reach: int
    rules: tuple[str, ...]


def space_ban(words: Words, merges: Sequence[BytePair], step: int, ours: BytePair, tie: str | None) -> SpaceBan | None:
    """How far a selection that never takes a pair of one of :data:`BANS` follows the student's merges, and which
    rules go that far, or None: a rule is tried only where ``ours`` (our pair at ``step``) is such a pair and none
    of the student's merges is, and must reach the step. One replay per rule, as long as the run, is its work; only
    the check's safety net (:mod:`bpe.check_work`) may stop it."""
    work = Work("space")
    reach: dict[str, int] = {}
    for name, (bans, _) in BANS.items():
        if not bans(ours) or any(bans(m) for m in merges):
            continue
        run = replay(words.words, words.freqs, merges[: step + BEYOND], tie=tie, deadline=work.deadline, shuns=bans)
        if not run.finished:
            work.cut()
        if run.reproduced >= step:
            reach[name] = run.reproduced
    if not reach:
        return None
    best = max(reach.values())
    return SpaceBan(best, tuple(name for name, n in reach.items() if n == best))


def space_ban_told(p: Parting, ban: SpaceBan) -> Comparison:
    """The selection leaves out the pairs of a rule of :data:`BANS`."""
    total, reach = len(p.student.merges), ban.reach
    follows = (
        f"our loop leaving those pairs out makes all {total} of your merges"
        if reach >= total
        else f"our loop leaving those pairs out follows yours for {reach} merges"
    )
    also = "".join(f"; leaving out instead each pair {BANS[name][1]} goes as far" for name in ban.rules[1:])
    if "newline" in ban.rules:  # a text cut at its line breaks, dropping them, counts no pair that holds one either
        also += (
            "; a text cut into lines with the line breaks dropped (text.split('\\n'), or a file read line by line "
            "and stripped of them) makes the same merges, so that may be what your code does"
        )
    cause = (
        f"{p.head} ({p.their_count}): your selection never takes a pair {BANS[ban.rules[0]][1]}, as "
        f"{show_pair(p.ours[p.n])} would, so it is passed over though no other pair counts more; {follows}{also}. "
        "Cutting the text into words before counting keeps every token within a word, with no pair to leave out."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="space-ban", **p.fields)
