"""A selection that never merges a pair whose token would hold whitespace inside it, told from the student's merges.

Some students who train on a whole text (no pre-tokenizer) keep tokens from spanning words by leaving out of the
selection every pair whose merged token holds whitespace between two other characters (a space inside its
``strip()``) or a line break: ``if " " in token.strip() or "\\n" in token: continue``. A token may still start or
end with a space. A pair of the highest count is then passed over for the next one, and the run parts from ours at
the first step where our pair is such a pair. Cutting the text into words first is what keeps tokens within words,
for every pair at once.

:func:`space_ban` replays the student's merges with the correct loop and those pairs left out of the selection, and
says how far it follows the run; it is tried only where the pair our run takes at the step holds whitespace inside
and no merge of the student's does. :func:`space_ban_told` says it.

Left out: weighing it against the other causes (:mod:`bpe.check_cause`); pairs of a special token left out
(:mod:`bpe.check_special_ban`).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def space_ban(words: Words, merges: Sequence[BytePair], step: int, ours: BytePair, tie: str | None) -> int | None:
    """How many of the student's merges a selection that never takes a pair :func:`holds_space` follows, or None:
    where ``ours`` (our pair at ``step``) is not such a pair, or one of the student's merges is, or it does not reach
    the step. One replay, as long as the run, is its work; only the check's safety net (:mod:`bpe.check_work`) may
    stop it."""
    if not holds_space(ours) or any(holds_space(m) for m in merges):
        return None
    work = Work("space")
    run = replay(words.words, words.freqs, merges[: step + BEYOND], tie=tie, deadline=work.deadline, shuns=holds_space)
    if not run.finished:
        work.cut()
    return run.reproduced if run.reproduced >= step else None


def space_ban_told(p: Parting, reach: int) -> Comparison:
    """The selection leaves out the pairs whose token would hold whitespace inside it."""
    total = len(p.student.merges)
    follows = (
        f"our loop leaving those pairs out makes all {total} of your merges"
        if reach >= total
        else f"our loop leaving those pairs out follows yours for {reach} merges"
    )
    cause = (
        f"{p.head} ({p.their_count}): your selection never takes a pair whose merged token would hold whitespace "
        f"inside it (a space between two other characters, or a line break), as {show_pair(p.ours[p.n])} would, so "
        f"it is passed over though no other pair counts more; {follows}. Cutting the text into words before "
        "counting keeps every token within a word, with no pair to leave out."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="space-ban", **p.fields)
