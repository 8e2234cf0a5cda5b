"""A loop that never applies its merges: each step it cuts the text again by the longest token it knows, replayed.

Some students keep only a vocabulary, not the merges: each step they cut every word anew by a greedy longest match,
left to right, against the tokens learned so far (a trie, or the vocabulary sorted by length), count the pairs of
that cut and add the most frequent pair's two tokens joined. A longer token can then take back a symbol an earlier
merge had joined to its neighbour (once ``' the '`` is learned, ``' the text'`` is cut ``' the '``, ``'t'``, ...,
where the merges give ``' the'``, ``' t'``, ...), so the counts part from BPE's. :func:`greedy_reach` replays such a
loop on our words, ties to the pair counted first, and says how far it follows the run; :func:`greedy_told` says it.

Left out: loops that apply merges (:mod:`bpe.check_loop`, :mod:`bpe.check_rounds`) and weighing this cause against
the others (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_result import Comparison
from .check_ties import FOLLOW
from .check_work import Work
from .fault_replay import replay
from .formats.cs336 import BytePair
from .merge_faults import CORRECT


def _cut(word: Sequence[bytes], known: set[bytes], longest: int) -> list[bytes]:
    """``word``'s base symbols cut left to right, each time by the longest known token that fits (at least one
    symbol)."""
    out, i = [], 0
    while i < len(word):
        for k in range(min(longest, len(word) - i), 0, -1):
            token = b"".join(word[i : i + k])
            if k == 1 or token in known:
                out.append(token)
                i += k
                break
    return out


def greedy_reach(
    words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair], step: int
) -> int | None:
    """How many of the student's merges the greedy loop makes, or None: it must follow the run :data:`FOLLOW`
    merges past ``step`` and further than a one-pair loop whose ties go any way. Each step cuts every word once,
    spent from the allowance ``rounds``."""
    work = Work("rounds")
    known: set[bytes] = set()
    longest = 1  # the most base symbols a known token spans
    sizes: dict[bytes, int] = {}
    reach = 0
    for a, b in merges:
        if work.spent():
            break
        work.spend(sum(map(len, words)))
        counts: dict[BytePair, int] = {}
        for word, f in zip(words, freqs, strict=True):
            cut = _cut(word, known, longest)
            for p in zip(cut, cut[1:]):
                counts[p] = counts.get(p, 0) + f
        if not counts or max(counts, key=counts.__getitem__) != (a, b):
            break
        size = sizes.get(a, 1) + sizes.get(b, 1)
        sizes[a + b], longest = size, max(longest, size)
        known.add(a + b)
        reach += 1
    if reach < step + FOLLOW:
        return None
    if replay(words, freqs, merges[:reach], CORRECT, deadline=work.deadline).reproduced >= reach:
        return None  # the merges applied in order make as many: no greedy cut is needed to explain them
    return reach


def greedy_told(head: str, reach: int, total: int, fields: dict) -> Comparison:
    """The run told as a loop that cuts the text anew by its longest tokens at each step."""
    follows = (
        f"our loop cutting so makes all {total} of your merges"
        if reach >= total
        else f"our loop cutting so follows yours for {reach} merges"
    )
    cause = (
        f"{head}: your loop never applies its merges: each step it cuts the text again by the longest token it has "
        "learned that fits (a greedy longest match, left to right), counts the pairs of that cut and adds the most "
        "frequent one, so a longer token can take back a symbol an earlier merge had joined to its neighbour, and the "
        f"counts part from the merges' own; {follows}. Apply the merges to each word in the order learned instead."
    )
    return Comparison(kind="merge-loop", cause=cause, fault="greedy-cut", **fields)
