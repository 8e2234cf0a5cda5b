"""A selection that never merges a pair whose bytes are part of a special token, told from the student's merges.

Some students, afraid that merges will rebuild ``<|endoftext|>`` from its pieces, leave out of the selection every
pair whose merged bytes ``a + b`` are a substring of a special token (``nd``, ``en``, ``of``, ``<|`` ...), also in
ordinary words like ``and``: a pair of the highest count is then passed over for the next one. Splitting the special
tokens out of the text before counting is what keeps them whole; such pairs are merged like any other.

:func:`special_ban` replays the student's merges with the correct loop and those pairs left out of the selection,
and says how far it follows the run; it is tried only where the pair our run takes at the step is one of them and
no merge of the student's ever is.

Left out: weighing it against the other causes and saying it (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_loop import BEYOND, Words
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair


def special_pairs(specials: Sequence[str]) -> frozenset[BytePair]:
    """Every pair ``(a, b)`` whose merged bytes are a substring of a special token (so are ``a`` and ``b``)."""
    out: set[BytePair] = set()
    for special in specials:
        data = special.encode("utf-8")
        for i in range(len(data)):
            for j in range(i + 2, len(data) + 1):
                out.update((data[i:k], data[k:j]) for k in range(i + 1, j))
    return frozenset(out)


def special_ban(
    words: Words,
    merges: Sequence[BytePair],
    step: int,
    ours: BytePair,
    specials: Sequence[str],
    tie: str | None,
) -> tuple[int, str] | None:
    """How many of the student's merges a selection that never takes a pair of :func:`special_pairs` follows, and
    the special token holding ``ours``, or None: where ``ours`` (our pair at ``step``) is not such a pair, or one of
    the student's merges is. One replay, as long as the run, is its work; only the check's safety net
    (:mod:`bpe.check_work`) may stop it."""
    shunned = special_pairs(specials)
    if ours not in shunned or any(m in shunned for m in merges):
        return None
    special = next(s for s in specials if ours[0] + ours[1] in s.encode("utf-8"))
    work = Work("special")
    run = replay(
        words.words, words.freqs, merges[: step + BEYOND], tie=tie, deadline=work.deadline, shuns=shunned.__contains__
    )
    if not run.finished:
        work.cut()
    return (run.reproduced, special) if run.reproduced >= step else None
