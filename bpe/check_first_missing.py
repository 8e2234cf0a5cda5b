"""A run whose list leaves out its first merge: the merge was made (before the loop, or in a cell of its own) but
never recorded, so the list starts at our second merge.

A student who tries one merge by hand before writing the loop, then runs the loop on the words that merge already
changed, lists every merge but the first: their list equals ours from our second merge on, and its later merges use
the token the first one made (``es t`` where ``e s`` is missing). :func:`first_missing` finds the pattern (at least
:data:`NEED` merges in a row, or the whole list, equal to ours from the second, and a merge of the list using the
first one's token, and the first merge nowhere in the list: a list that makes it later counted it otherwise, as a
count without overlaps does on a run of spaces); :mod:`bpe.check_cause` tells it at step 1
and compares the list with the missing merge put back.

Left out: comparing the list with the merge put back (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import agreed
from .formats.cs336 import BytePair

NEED = 3  # merges in a row equal to ours from the second: fewer is chance, as where two pairs tie


def first_missing(ours: Sequence[BytePair], merges: Sequence[BytePair]) -> BytePair | None:
    """Our first merge, where the student's list leaves it out and equals ours (``ours``, our run at least as long as
    the list) from our second merge on; else None."""
    if len(merges) < 2 or len(ours) < 2 or ours[0] in merges:  # made later: not missing, but counted otherwise
        return None
    follows = agreed(ours[1:], merges)
    token = ours[0][0] + ours[0][1]
    if _one_character(token):  # a byte-level run's first merge, which a run on characters never needs: the base
        return None
    used = any(token in pair for pair in merges)  # the merge was made: a later merge of the list uses its token
    return ours[0] if used and follows >= min(len(merges) - 1, NEED) else None


def _one_character(token: bytes) -> bool:
    """Whether ``token`` is the bytes of one character of several bytes."""
    try:
        return len(token) > 1 and len(token.decode("utf-8")) == 1
    except UnicodeDecodeError:
        return False


def first_missing_told(missing: BytePair, merges: Sequence[BytePair], inner: Comparison) -> Comparison:
    """The verdict on a list that leaves out its first merge: that at step 1, then what the list gets with the merge
    put back (``inner``)."""
    token = missing[0] + missing[1]
    user = next((p for p in merges if token in p), None)
    used = f", though your merge {show_pair(user)} uses the token it makes" if user is not None else ""  # always found
    cause = (
        f"At step 1 we merge {show_pair(missing)} and you {show_pair(merges[0])}: the first merge is missing from "
        f"your list, which starts at our second merge{used}. The first merge was made (before your loop, or in a "
        f"cell of its own) but never added to your list of merges. With it put back, "
        f"{inner.cause[0].lower()}{inner.cause[1:]}"
    )
    return inner.told_at_step_one(merges[0], "first-missing", None, cause, ours=missing)
