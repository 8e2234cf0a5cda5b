"""Loops that keep each pair's places instead of word splits, replayed: pairs moved by where they stand.

:class:`PositionPairs` keeps each pair as the byte positions where it starts (``positions``);
:class:`RecordedPositions` keeps each pair's (word, index) as recorded when it was counted, never shifted
(``recorded-positions``). Each updates the replay's :class:`~bpe.replay_counts.PairCounts` and per-word
counts in :func:`bpe.fault_replay.replay`. :class:`LinkedNodes` keeps the text as a linked list whose absorbed nodes
are never marked, and gives each change of a count its merges make, in order, for a heap that reads them
(:class:`bpe.replay_heaps.LinkedHeap`).

Left out: the replay that drives them (:mod:`bpe.fault_replay`) and loops that keep word splits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from .formats.cs336 import BytePair
from .replay_counts import PairCounts
from .word_merges import Word


class PositionPairs:
    """For a loop that keeps each pair as the set of byte positions where it starts, never a split: after
    merging ``(a, b)`` at positions ``H``, a pair ``(b, y)`` at ``i`` becomes ``(ab, y)`` at ``i - len(a)`` if
    that is in ``H``, then a pair ``(x, a)`` still at ``i`` becomes ``(x, ab)`` if ``i + len(x)`` is. ``H`` holds
    overlapping positions too (``aaa`` at 0 and 1), and ``(b, a)`` between two merged tokens is moved once, so
    ``(ab, ab)`` is never made."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.at: list[dict[BytePair, set[int]]] = []
        self.holders: dict[BytePair, set[int]] = {}
        for w, word in enumerate(words):
            pairs: dict[BytePair, set[int]] = {}
            offset = 0
            for x, y in zip(word, word[1:]):
                pairs.setdefault((x, y), set()).add(offset)
                self.holders.setdefault((x, y), set()).add(w)
                offset += len(x)
            self.at.append(pairs)

    def merge(self, pair: BytePair, counts: PairCounts, contrib: list[Counter], freqs: Sequence[int]) -> None:
        a, b = pair
        joined = a + b
        for w in self.holders.pop(pair, set()):
            pairs = self.at[w]
            starts = pairs.pop(pair, set())
            change = Counter({pair: -len(starts)})
            made: dict[BytePair, set[int]] = {}
            for p, where in pairs.items():
                if p[0] == b:
                    for i in sorted(where):
                        if i - len(a) in starts:
                            where.discard(i)
                            made.setdefault((joined, p[1]), set()).add(i - len(a))
                            change[p] -= 1
                            change[(joined, p[1])] += 1
                if p[1] == a:
                    for i in sorted(where):
                        if i + len(p[0]) in starts:
                            where.discard(i)
                            made.setdefault((p[0], joined), set()).add(i)
                            change[p] -= 1
                            change[(p[0], joined)] += 1
            for p, where in made.items():
                pairs.setdefault(p, set()).update(where)
            for p in [p for p, where in pairs.items() if not where]:
                del pairs[p]
                self.holders.get(p, set()).discard(w)
            for p in pairs:
                self.holders.setdefault(p, set()).add(w)
            counts.add(change, freqs[w])
            contrib[w] = Counter({p: len(where) for p, where in pairs.items()})


class RecordedPositions:
    """For a loop that keeps each pair's occurrences as (word, index) recorded when it was counted or made, merged in
    place (``tokens[i:i + 2] = [ab]``) from the last recorded place back: a merge shifts the tokens after it, but
    the places recorded for them are never moved, so an occurrence after an earlier merge in the same word fails the
    check (``tokens[i:i + 2] == [a, b]``) and is never merged, while its count stays; at each occurrence merged the
    pairs beside it move to the new token, their places discarded and the new ones recorded."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.tokens = [list(w) for w in words]
        self.at: dict[BytePair, set[tuple[int, int]]] = {}
        for w, word in enumerate(words):
            for i, p in enumerate(zip(word, word[1:])):
                self.at.setdefault(p, set()).add((w, i))

    def merge(self, pair: BytePair, counts: PairCounts, contrib: list[Counter], freqs: Sequence[int]) -> None:
        a, b = pair
        joined = a + b
        for w, i in sorted(self.at.pop(pair, set()), reverse=True):
            tokens = self.tokens[w]
            if i >= len(tokens) - 1 or tokens[i] != a or tokens[i + 1] != b:
                continue
            change = Counter({pair: -1})
            if i > 0:
                x = tokens[i - 1]
                self.at.get((x, a), set()).discard((w, i - 1))
                self.at.setdefault((x, joined), set()).add((w, i - 1))
                change[(x, a)] -= 1
                change[(x, joined)] += 1
            if i < len(tokens) - 2:
                y = tokens[i + 2]
                self.at.get((b, y), set()).discard((w, i + 1))
                self.at.setdefault((joined, y), set()).add((w, i))
                change[(b, y)] -= 1
                change[(joined, y)] += 1
            tokens[i : i + 2] = [joined]
            change = Counter({p: k for p, k in change.items() if k})
            counts.add(change, freqs[w])
            contrib[w].update(change)
        counts.drop(pair)


class LinkedNodes:
    """For a loop that keeps the text as a linked list of nodes and each pair as the set of nodes where it starts,
    merging at a copy of that set taken before the merge, in the set's order: a node the merge absorbs is never
    marked, so it keeps its symbol and its link, and where the copy holds it too (a run ``x x x x`` merging
    ``(x, x)``), it passes the check (its symbol and its next node's are the pair) and is merged again, moving the
    pairs beside it once more: ``(xx, xx)`` is counted twice. The list read from its head still holds the right
    tokens. The nodes are numbered through the words one after another, and the places kept in real sets of those
    numbers, so a copy is visited in the order the student's set of ints gives it."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.ids: list[bytes] = []
        self.word: list[int] = []
        self.after: list[int] = []
        self.before: list[int] = []
        self.at: dict[BytePair, set[int]] = {}
        for w, word in enumerate(words):
            start = len(self.ids)
            for i, symbol in enumerate(word):
                self.ids.append(symbol)
                self.word.append(w)
                self.after.append(start + i + 1 if i + 1 < len(word) else -1)
                self.before.append(start + i - 1 if i else -1)
            for i, p in enumerate(zip(word, word[1:])):
                self.at.setdefault(p, set()).add(start + i)

    def moves(self, pair: BytePair) -> Iterator[tuple[int, BytePair, int]]:
        """Each change of a count the loop makes merging ``pair``, in its order: (word, pair, +1 or -1)."""
        a, b = pair
        joined = a + b
        ids, after, before = self.ids, self.after, self.before
        for i in list(self.at.get(pair, ())):
            j = after[i]
            if j == -1 or ids[i] != a or ids[j] != b:
                continue
            w, left, right = self.word[i], before[i], after[j]
            if left != -1:
                self.at.get((ids[left], a), set()).discard(left)
                yield w, (ids[left], a), -1
            if right != -1:
                self.at.get((b, ids[right]), set()).discard(j)
                yield w, (b, ids[right]), -1
            ids[i], after[i] = joined, right
            if right != -1:
                before[right] = i
            if left != -1:
                self.at.setdefault((ids[left], joined), set()).add(left)
                yield w, (ids[left], joined), 1
            if right != -1:
                self.at.setdefault((joined, ids[right]), set()).add(i)
                yield w, (joined, ids[right]), 1
        self.at.pop(pair, None)
