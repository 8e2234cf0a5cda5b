"""How a word was built: the merge replay and the merge tree the Encode page draws.

:func:`replay_word` runs a word's merges with :func:`~bpe.merging.merge_all` and records each
step (consecutive merges of one rank form one step: the course's "every occurrence, left to right"),
cut to a budget of symbols so that a very long word still answers quickly; :class:`WordTrace` and
:class:`TraceStep` hold the result. :func:`merge_tree` breaks a token into the pairs it came from.
:meth:`bpe.Tokenizer.trace` and :meth:`bpe.Tokenizer.merge_tree` call these.

Left out: encoding itself (:mod:`bpe.tokenizer`) and drawing (:mod:`bpe.display`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .config import Pair, Span
from .merging import merge_all

TRACE_BUDGET = 20_000  # symbols a word's merge replay may hold across all its steps


@dataclass(frozen=True)
class TraceStep:
    """One merge applied while encoding a word: its rank, the pair, and the split after it."""

    rank: int
    pair: Pair
    split: tuple[str, ...]


@dataclass(frozen=True)
class WordTrace:
    """How one word was built: its initial symbols, then each merge applied in order.

    A long word's replay is cut to a budget of symbols (``Tokenizer.trace``'s ``budget``):
    ``omitted`` counts the merge steps left out at the end, and ``final`` is always the word's
    complete result.
    """

    word: str
    span: Span
    initial: tuple[str, ...]
    steps: tuple[TraceStep, ...]
    omitted: int = 0
    final: tuple[str, ...] | None = None

    @property
    def tokens(self) -> tuple[str, ...]:
        if self.final is not None:
            return self.final
        return self.steps[-1].split if self.steps else self.initial


def replay_word(
    parts: list[tuple[str, int]], merge_map: Mapping[Pair, tuple[int, str]], budget: int = TRACE_BUDGET
) -> tuple[list[TraceStep], int, tuple[tuple[str, int], ...]]:
    """The merge steps of one word from its initial ``parts`` (symbol, units), with ``merge_map`` (pair
    -> (rank, merged token)): consecutive merges of one rank form one step, the steps' splits hold at
    most ``budget`` symbols in all, and the steps beyond are counted. Returns (steps, omitted, final).

    >>> steps, omitted, final = replay_word([("h", 1), ("u", 1), ("g", 1)], {("u", "g"): (0, "ug"), ("h", "ug"): (1, "hug")})
    >>> [step.split for step in steps], omitted, final
    ([('h', 'ug'), ('hug',)], 0, (('hug', 3),))
    """
    symbols = [p for p, _ in parts]
    units = [u for _, u in parts]
    record: list[tuple[int, int, int]] = []
    merge_all(symbols, units, merge_map, record)
    final = tuple(zip(symbols, units))
    # Replay the record on the initial symbols, one step per run of equal ranks.
    cur = [p for p, _ in parts]
    nxt = list(range(1, len(cur) + 1))
    if nxt:
        nxt[-1] = -1
    steps: list[TraceStep] = []
    used, omitted, i = 0, 0, 0
    while i < len(record):
        rank = record[i][0]
        j = i
        while j < len(record) and record[j][0] == rank:
            _, left, right = record[j]
            pair = (cur[left], cur[right])
            cur[left] = merge_map[pair][1]
            nxt[left] = nxt[right]
            j += 1
        if omitted or used + len(final) > budget:
            omitted += 1
        else:
            split, k = [], 0
            while k != -1:
                split.append(cur[k])
                k = nxt[k]
            used += len(split)
            if used > budget:
                omitted += 1
            else:
                steps.append(TraceStep(rank, pair, tuple(split)))
        i = j
    return steps, omitted, final


def merge_tree(token: str, created: Mapping[str, int], merges: Sequence[Pair]) -> tuple | str:
    """Break a token into the pairs it came from: ``"hug"`` -> ``("h", ("u", "g"))``. ``created`` maps a
    token to the rank of the merge that made it, ``merges`` is the merges in rank order.

    Built without recursion, so a token made by thousands of nested merges works too.

    >>> merge_tree("hug", {"ug": 0, "hug": 1}, [("u", "g"), ("h", "ug")])
    ('h', ('u', 'g'))
    """
    # Post-order over an explicit stack: children first, then the pair.
    done: dict[str, tuple | str] = {}
    open_: set[str] = set()  # tokens whose parts are being built (a file could loop)
    stack = [token]
    while stack:
        t = stack[-1]
        if t in done:
            stack.pop()
            continue
        rank = created.get(t)
        if rank is None or (t in open_ and any(x not in done for x in merges[rank])):
            done[t] = t
            stack.pop()
            continue
        a, b = merges[rank]
        missing = [x for x in (a, b) if x not in done]
        if missing:
            open_.add(t)
            stack.extend(missing)
            continue
        done[t] = (done[a], done[b])
        stack.pop()
    return done[token]
