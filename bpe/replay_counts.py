"""The pair counts a replay keeps: the most frequent pairs found without a scan, and which words hold each pair.

:class:`PairCounts` holds the pair counts with the pairs of each count; :class:`HeldPairs` is the bookkeeping of
a loop that keeps pair counts only, never a split (which words hold each pair, the pairs by each symbol);
:class:`Recount` is the order a count taken afresh each step meets the pairs in, :class:`Reached` the order in which
they reach their full count in it (tie keys read them).

Left out: the replay that drives them (:mod:`bpe.fault_replay`) and the students' loops replayed step by step
with their own selection (:mod:`bpe.replay_heaps`, :mod:`bpe.replay_dicts`, :mod:`bpe.replay_positions`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from .formats.cs336 import BytePair
from .word_merges import Split, Word


class PairCounts:
    """Pair counts with the pairs of each count, so the most frequent pairs are found without a scan."""

    def __init__(self) -> None:
        self.counts: dict[BytePair, int] = {}
        self.by_count: dict[int, set[BytePair]] = {}

    def get(self, pair: BytePair, default: int = 0) -> int:
        return self.counts.get(pair, default)

    def _set(self, pair: BytePair, value: int) -> None:
        old = self.counts.get(pair, 0)
        if old:
            bucket = self.by_count[old]
            bucket.discard(pair)
            if not bucket:
                del self.by_count[old]
        if value:
            self.counts[pair] = value
            self.by_count.setdefault(value, set()).add(pair)
        else:
            self.counts.pop(pair, None)

    def add(self, pairs: Mapping[BytePair, int], times: int) -> None:
        for p, n in pairs.items():
            if n:
                self._set(p, self.counts.get(p, 0) + n * times)

    def add_words(self, contribs: Sequence[Mapping[BytePair, int]], freqs: Sequence[int]) -> None:
        """Every word's pairs added, each word ``freqs`` times: the sums first, then each pair put in its count's
        bucket once (not once per word holding it)."""
        sums: dict[BytePair, int] = {}
        for c, f in zip(contribs, freqs):
            for p, n in c.items():
                sums[p] = sums.get(p, 0) + n * f
        for p, n in sums.items():
            if n:
                self._set(p, self.counts.get(p, 0) + n)

    def move(self, before: Mapping[BytePair, int], after: Mapping[BytePair, int], times: int) -> None:
        """A word's pairs moved from ``before`` to ``after`` (``add(before, -times)``, then ``add(after, times)``),
        touching only the pairs whose count changes: a merge changes a few of a word's pairs, not all of them."""
        for p, n in after.items():
            change = n - before.get(p, 0)
            if change:
                self._set(p, self.counts.get(p, 0) + change * times)
        for p, n in before.items():
            if n and p not in after:
                self._set(p, self.counts.get(p, 0) - n * times)

    def drop(self, pair: BytePair) -> None:
        self._set(pair, 0)

    def top(
        self, lost: set[BytePair] | frozenset = frozenset(), shuns: Callable[[BytePair], bool] | None = None
    ) -> list[BytePair]:
        """The pairs of the highest count above 0 (none if no count is above 0), ``lost`` and the pairs ``shuns``
        holds for left out."""
        if not lost and shuns is None:
            best = max(self.by_count, default=0)
            return sorted(self.by_count[best]) if best > 0 else []
        for count in sorted((c for c in self.by_count if c > 0), reverse=True):
            rest = {p for p in self.by_count[count] - lost if shuns is None or not shuns(p)}
            if rest:
                return sorted(rest)
        return []


class HeldPairs:
    """For a loop that keeps pair counts only: which words hold each pair, and the pairs by each symbol, so
    a merge visits only the words holding a pair beside its symbols."""

    def __init__(self, words: Sequence[Word], contrib: list[Counter]) -> None:
        self.texts = [b"".join(w) for w in words]
        self.holders: dict[BytePair, set[int]] = {}
        self.ending: dict[bytes, set[BytePair]] = {}  # right symbol -> pairs held by some word
        self.starting: dict[bytes, set[BytePair]] = {}  # left symbol -> pairs held by some word
        for w, c in enumerate(contrib):
            for p in c:
                self._hold(p, w)

    def _hold(self, p: BytePair, w: int) -> None:
        if p not in self.holders:
            self.holders[p] = set()
            self.starting.setdefault(p[0], set()).add(p)
            self.ending.setdefault(p[1], set()).add(p)
        self.holders[p].add(w)

    def _release(self, p: BytePair, w: int) -> None:
        holders = self.holders.get(p)
        if holders is None:
            return
        holders.discard(w)
        if not holders:
            del self.holders[p]
            self.starting[p[0]].discard(p)
            self.ending[p[1]].discard(p)

    def merge(
        self,
        pair: BytePair,
        moves: Callable[[BytePair, bytes, BytePair], tuple[BytePair, ...]],
        counts: PairCounts,
        contrib: list[Counter],
        freqs: Sequence[int],
    ) -> None:
        """Drop ``pair`` from every word, and move each held pair beside it as ``moves`` says."""
        changes: dict[int, Counter] = {}
        beside = self.ending.get(pair[0], set()) | self.starting.get(pair[1], set())
        for p in beside | ({pair} if pair in self.holders else set()):
            for w in self.holders.get(p, ()):
                n = contrib[w][p]
                to = () if p == pair else moves(p, self.texts[w], pair)
                if p != pair and not to or n <= 0:
                    continue
                change = changes.setdefault(w, Counter())
                change[p] -= n
                for q in to:
                    change[q] += n
        for w, change in changes.items():
            counts.add(change, freqs[w])
            contrib[w].update(change)
            for p, n in change.items():
                if contrib[w][p] <= 0:
                    del contrib[w][p]
                    self._release(p, w)
                elif n > 0:
                    self._hold(p, w)


class Recount(Mapping):
    """The order of pairs in a count taken afresh each step, as ``for word in words: for pair in word`` meets them,
    over a dict of words where each merged word is deleted and added again at its end: a pair's place, found by
    scanning the words in that order only as far as asked for. ``to_end=False``: the words stay in their order, as
    minbpe's count over the text's chunks meets them (our first-seen rule)."""

    def __init__(self, splits: list[Split], to_end: bool = True) -> None:
        self.splits = splits
        self.to_end = to_end  # False: the words stay in their first-seen order (our ``first`` rule)
        self.order: dict[int, None] = dict.fromkeys(range(len(splits)))
        self.moved(())

    def moved(self, changed) -> None:
        for w in [w for w in self.order if w in changed and self.to_end]:  # in the dict's order, as the loop meets them
            del self.order[w]
            self.order[w] = None
        self.rank: dict[BytePair, int] = {}
        self.scan = iter(list(self.order))

    def __getitem__(self, pair: BytePair) -> int:
        while pair not in self.rank:
            w = next(self.scan, None)
            if w is None:
                raise KeyError(pair)
            split = self.splits[w]
            for p in zip(split, split[1:]):
                self.rank.setdefault(p, len(self.rank))
        return self.rank[pair]

    def __iter__(self):
        return iter(self.rank)

    def __len__(self) -> int:
        return len(self.rank)


class Reached(Mapping):
    """The order in which a count taken afresh each step brings the pairs to their full count: a pair's place is that
    of its last occurrence. A loop that keeps the best pair as it counts (``counts[p] += n`` then ``if counts[p] >
    best_count: best = p``) ends on the pair of the greatest count that got there first, the smallest place among those
    tied. ``order``: the words' indexes as the count meets them (default: as given, a dict of word counts' first-seen
    order; a list of every word as the text has them meets each word last where the text has it last)."""

    def __init__(self, splits: list[Split], order: Sequence[int] | None = None) -> None:
        self.splits = splits
        self.order = range(len(splits)) if order is None else order
        self.rank: dict[BytePair, int] | None = None

    def moved(self, changed) -> None:
        self.rank = None  # any merge can move a pair's last occurrence

    def _ranks(self) -> dict[BytePair, int]:
        if self.rank is None:
            rank: dict[BytePair, int] = {}
            at = 0
            for w in self.order:
                split = self.splits[w]
                for p in zip(split, split[1:]):
                    rank[p] = at
                    at += 1
            self.rank = rank
        return self.rank

    def __getitem__(self, pair: BytePair) -> int:
        return self._ranks()[pair]

    def __iter__(self):
        return iter(self._ranks())

    def __len__(self) -> int:
        return len(self._ranks())
