"""Replaying a student's merges under one known fault: how many of them the faulty loop would have chosen.

:func:`replay` follows the student's merges under a :class:`~bpe.merge_faults.Fault` and stops at the first
merge the faulty loop would not choose. A pair is chosen when no pair has a higher count (``tie=None``: any
tied pair may win, so a tie rule cannot pass for a fault) or, with a tie key of
:data:`~bpe.merge_faults.TIE_KEYS`, when the key picks it among the tied. A loop that merges word splits
keeps them per word; a loop that keeps only pair counts (``moves``) or byte positions (``positions``) has
its own bookkeeping (:class:`_HeldPairs`, :class:`_PositionPairs`); :class:`PairCounts` finds the most
frequent pairs without a scan. :func:`faulty_merges` lets a faulty loop choose its merges itself.

Left out: the faults themselves (:mod:`bpe.merge_faults`) and deciding which fault to name
(:mod:`bpe.check_loop`).
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .formats.cs336 import BytePair
from .merge_faults import (
    CORRECT,
    ORDER_TIES,
    RECOUNT_TIE,
    TIE_KEYS,
    Fault,
    Split,
    TiePick,
    Word,
    no_extra,
    pair_counter,
    token_ids,
)

LOST = 3  # a selection that lost more pairs than this is not told apart from a count that is off


@dataclass
class Replay:
    """How far a loop follows the student: ``reproduced`` merges; at ``watch`` steps the counts of the
    watched pairs, in all and per word (word index -> count), and of every pair (``every``)."""

    reproduced: int
    counts: dict[BytePair, int]
    per_word: dict[BytePair, dict[int, int]]
    finished: bool = True
    chosen: list[BytePair] | None = None
    every: dict[BytePair, int] | None = None


def replay(
    words: Sequence[Word],
    freqs: Sequence[int],
    merges: Sequence[BytePair],
    fault: Fault = CORRECT,
    tie: str | None = None,
    watch: int | None = None,
    watch_pairs: Sequence[BytePair] = (),
    deadline: float | None = None,
    choose: int | None = None,
    deletes: bool | None = None,
    keeps: bool = False,
    shunned: frozenset[BytePair] = frozenset(),
) -> Replay:
    """Follow ``merges`` under ``fault`` and count how many the faulty loop would choose itself.
    ``choose``: make that many merges instead, each the pair the loop would choose (needs ``tie``), as
    :func:`faulty_merges` does. ``deletes``: whether the loop deletes a pair's count once it is merged, so a
    count a faulty update left there never wins a tie (None: where the student's run never repeats a merge).
    ``keeps``: a fault that deletes the merged pair's count (``drops``) keeps it instead, what the faulty update left
    there and all, as the same loop does when it only subtracts each merged occurrence. ``shunned``: pairs the
    selection never takes, whatever their count."""
    splits: list[Split] = [list(w) for w in words]
    ids = token_ids(words, merges) if tie else {}
    pick = TIE_KEYS[tie][1] if tie else None
    made_tokens: set[bytes] = set()
    done: set[BytePair] = set()  # the pairs merged so far
    # a student whose run never repeats a merge deletes a pair's count once it is merged (see _fresh)
    if deletes is None:
        deletes = choose is None and len(set(merges)) == len(merges)

    def contribution(split: Split) -> Counter:
        c = pair_counter(split, fault.overlap)
        if fault.once:
            c = Counter(dict.fromkeys(c, 1))
        if fault.banned:
            c = Counter({p: n for p, n in c.items() if p[0] not in made_tokens and p[1] not in made_tokens})
        return c

    contrib: list[Counter] = [contribution(s) for s in splits]
    counts = PairCounts()
    where: dict[BytePair, set[int]] = {}
    seen: dict[BytePair, int] = {}  # the order the student's dict of counts gains the pairs (see TIE_KEYS)
    ordered = tie in ORDER_TIES  # only those keys read it, and words are merged in corpus order only for them
    recount = _Recount(splits) if tie == RECOUNT_TIE else None  # with that key: the order of a fresh count
    # with ``skips``: the words holding each pair as the student's list has them, once per occurrence, in the
    # order they came to hold it
    listed: dict[BytePair, list[int]] = {}
    for w, c in enumerate(contrib):
        counts.add(c, freqs[w])
        for p in zip(splits[w], splits[w][1:]):
            where.setdefault(p, set()).add(w)
            if fault.skips:
                listed.setdefault(p, []).append(w)
            seen.setdefault(p, len(seen))
    if recount is not None:
        seen = recount  # type: ignore[assignment]
    removed: set[BytePair] = set()
    lost: set[BytePair] = set()  # pairs the selection never offers again
    live = set(range(len(words)))
    held = _HeldPairs(words, contrib) if fault.moves else None
    heap = _SiftlessHeap(words, freqs, fault.skip_first) if fault.heap and tie in (None, "greatest-bytes") else None
    if fault.lazy and heap is not None:
        heap = _LazyHeap(words, freqs)  # type: ignore[assignment]
    if fault.wrong_index and tie in (None, "greatest-bytes"):
        heap = _WrongIndex(words, freqs)  # type: ignore[assignment]
    if fault.prefix_first and tie in (None, "greatest-bytes"):
        heap = _PrefixFirst(words, freqs)  # type: ignore[assignment]
    if fault.global_substring and tie in (None, "greatest-bytes"):
        heap = _SubstringCounts(words, freqs)  # type: ignore[assignment]
    if (fault.heap or fault.wrong_index or fault.prefix_first or fault.global_substring) and heap is None:
        return Replay(0, {}, {})  # the heap orders ties by its own key, the greatest pair of bytes
    at = _PositionPairs(words) if fault.positions else _RecordedPositions(words) if fault.recorded else None
    result = Replay(0, {}, {p: {} for p in watch_pairs})
    steps = len(merges) if choose is None else choose
    for step in range(steps):
        if choose is not None and heap is not None:
            top = heap.top()
            if top is None:
                return result
            merges = [*merges, top]
            result.chosen = merges
        if choose is not None and heap is None:
            tied = counts.top()
            if not tied or pick is None:
                return result
            pair = pick(_fresh(tied, done, where, deletes), ids, seen)
            merges = [*merges, pair]
            result.chosen = merges
            ids.setdefault(pair[0] + pair[1], len(ids))
        else:
            pair = merges[step]
        if heap is not None:
            pair = merges[step]
            if step == watch:
                result.counts = {p: heap.count(p) for p in watch_pairs}
            if deadline is not None and time.monotonic() > deadline:
                result.finished = False
                return result
            if heap.top() != pair:
                return result
            result.reproduced = step + 1
            heap.merge()
            continue
        if step == watch:
            result.counts = {p: counts.get(p, 0) for p in watch_pairs}
            result.every = dict(counts.counts)
            for p in watch_pairs:
                if p in removed:
                    continue
                result.per_word[p] = {w: contrib[w][p] * freqs[w] for w in live if contrib[w].get(p)}
        if deadline is not None and time.monotonic() > deadline:
            result.finished = False
            return result
        if step == watch and fault.loses and choose is None:
            lost = _lost_pairs(counts, pair, pick, ids, seen)
        tied = counts.top(lost | shunned if shunned else lost)
        if (
            pair not in tied
            or pick is not None
            and len(tied) > 1
            and pick(_fresh(tied, done, where, deletes), ids, seen) != pair
        ):
            return result
        result.reproduced = step + 1
        joined = pair[0] + pair[1]
        made_tokens.add(joined)
        done.add(pair)
        if at is not None:
            at.merge(pair, counts, contrib, freqs)
            continue
        if held is not None and fault.moves is not None:
            held.merge(pair, fault.moves, counts, contrib, freqs)
            continue
        taken = counts.get(pair, 0)  # with ``keeps_pair``: the merged pair's count, left as it was
        changed = set()
        made_here: dict[BytePair, int] = {}  # with ``assigns``: each new pair, the count of the last word making it
        holders = where.get(pair, set())
        if fault.skips:  # the list loses each word as it is merged, so the loop steps over the next one
            order = _mutated(listed.setdefault(pair, []))
        else:
            order = sorted(holders) if ordered or fault.assigns or fault.stale_index else list(holders)
        for w in order:
            old = splits[w]
            new, made = fault.merge(old, pair)
            if new == old:
                continue
            changed.add(w)
            held = set(zip(old, old[1:]))
            for p in held:
                where.get(p, set()).discard(w)
            if fault.skips:
                gained = Counter(zip(new, new[1:]))
                gained.subtract(zip(old, old[1:]))
                for p, k in gained.items():
                    for _ in range(abs(k) if p != pair else 0):
                        if k > 0:
                            listed.setdefault(p, []).append(w)
                        elif w in listed.get(p, ()):
                            listed[p].remove(w)
            for p in zip(new, new[1:]):
                if not fault.stale_index or p in held or p not in where:
                    where.setdefault(p, set()).add(w)
                if ordered:
                    seen.setdefault(p, len(seen))
                if fault.assigns and joined in p:
                    made_here[p] = freqs[w]
            splits[w] = new
            if fault.frozen:
                continue
            before = contrib[w]
            if fault.accumulates:  # the word's pairs are added again with every other word's after the merge
                contrib[w] = contribution(new)
                continue
            if fault.extra is no_extra or fault.only_merged:
                after = contribution(new)  # the word's counts are its split's, as in the correct loop
            else:
                after = _moved(before, old, new, contribution)
                after.update(fault.extra(old, new, pair, made))
            counts.add(before, -freqs[w])
            counts.add(after, freqs[w])
            contrib[w] = after
        if fault.accumulates:
            for w in live:
                counts.add(contrib[w], freqs[w])
        if recount is not None:
            recount.moved(changed)
        if fault.keeps_pair:
            counts.add({pair: taken - counts.get(pair, 0)}, 1)
        if made_here:  # the count of a new pair is the last word's, however many words made it
            counts.add({p: last - counts.get(p, 0) for p, last in made_here.items()}, 1)
        if fault.frozen or fault.drops and not keeps:
            removed.add(pair)
            counts.drop(pair)
        if fault.only_merged:
            for w in live - changed:
                counts.add(contrib[w], -freqs[w])
                contrib[w] = Counter()
            live = changed
    return result


class _PositionPairs:
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


class _RecordedPositions:
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


class _SiftlessHeap:
    """A student's heap-based loop, step by step as it is written: the pairs in a max-heap (an array, ordered by
    count, then the greatest pair of bytes), pushed in the order they are first seen (words in corpus order, each
    left to right); each pair lists the words that hold it. Taking the top pops it; each word on its list is
    merged occurrence by occurrence, left to right, and at each the pairs beside it move to the new token: a
    count that drops is sifted down (right), a new pair is pushed (right), but a count that rises is only sifted
    down too, so the pair stays where it was. ``skip_first``: the pair on the left of an occurrence at position 1
    is left as it was (``if pos - 1 > 0``). A pair taken whose count stays above 0 is never in the heap again."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int], skip_first: bool) -> None:
        self.splits = [list(w) for w in words]
        self.freqs, self.skip_first = freqs, skip_first
        self.counts: dict[BytePair, int] = {}
        self.holders: dict[BytePair, list[int]] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
                self.holders.setdefault(p, []).append(w)
        self.heap: list[BytePair] = []
        self.index: dict[BytePair, int] = {}
        for p in self.counts:
            self._push(p)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        return self.heap[0] if self.heap else None

    def _key(self, i: int) -> tuple[int, BytePair]:
        p = self.heap[i]
        return self.counts.get(p, 0), p

    def _swap(self, i: int, j: int) -> None:
        h = self.heap
        h[i], h[j] = h[j], h[i]
        self.index[h[i]], self.index[h[j]] = i, j

    def _up(self, i: int) -> None:
        while i > 0 and self._key(i) > self._key((i - 1) // 2):
            self._swap(i, (i - 1) // 2)
            i = (i - 1) // 2

    def _down(self, i: int) -> None:
        n = len(self.heap)
        while True:
            big = max((c for c in (i, 2 * i + 1, 2 * i + 2) if c < n), key=self._key)
            if big == i:
                return
            self._swap(i, big)
            i = big

    def _push(self, p: BytePair) -> None:
        self.index[p] = len(self.heap)
        self.heap.append(p)
        self._up(self.index[p])

    def _remove(self, p: BytePair) -> None:
        i = self.index.pop(p)
        last = self.heap.pop()
        if i < len(self.heap):
            self.heap[i] = last
            self.index[last] = i
            self._up(i)
            self._down(self.index[last])

    def _less(self, p: BytePair, f: int) -> None:
        if p not in self.counts:
            return
        self.counts[p] -= f
        if self.counts[p] <= 0:
            del self.counts[p]
            if p in self.index:
                self._remove(p)
        elif p in self.index:
            self._down(self.index[p])

    def _more(self, p: BytePair, w: int, f: int) -> None:
        if p in self.counts:
            self.counts[p] += f
            if w not in self.holders[p]:
                self.holders[p].append(w)
            if p in self.index:
                self._down(self.index[p])  # the fault: a count that rose is sifted down, never up
        else:
            self.counts[p] = f
            self.holders[p] = [w]
            self._push(p)

    def merge(self) -> None:
        """Take the top pair and merge it in every word on its list."""
        pair = self.heap[0]
        self._remove(pair)
        a, b = pair
        joined = a + b
        for w in self.holders.get(pair, []):
            split, f = self.splits[w], self.freqs[w]
            i = 0
            while i + 1 < len(split):
                if split[i] == a and split[i + 1] == b:
                    if pair in self.counts:
                        self.counts[pair] -= f
                        if self.counts[pair] <= 0:
                            del self.counts[pair]
                    if i - 1 > (0 if self.skip_first else -1):
                        self._less((split[i - 1], a), f)
                        self._more((split[i - 1], joined), w, f)
                    if i + 2 < len(split):
                        self._less((b, split[i + 2]), f)
                        self._more((joined, split[i + 2]), w, f)
                    split[i : i + 2] = [joined]
                i += 1
        if pair not in self.counts:
            self.holders.pop(pair, None)


class _LazyHeap:
    """A student's loop with a min-heap of ``(-count, pair)`` (``heapq``) whose stale entries are dropped when popped
    (an entry whose count is no longer the pair's), step by step as it is written: the counts are right, but the
    update pushes an entry only for a pair whose count rose (the new pairs beside each occurrence), never for the
    old pairs whose count fell, so such a pair has no entry with its count and is never offered again until it
    gains count. Among equal counts the heap pops the smallest pair."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        self.splits = [list(w) for w in words]
        self.freqs = freqs
        self.counts: dict[BytePair, int] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
        self.heap = [(-n, p) for p, n in self.counts.items()]
        heapq.heapify(self.heap)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        while self.heap:
            n, p = self.heap[0]
            if self.counts.get(p, 0) == -n and n < 0:
                return p
            heapq.heappop(self.heap)
        return None

    def _move(self, old: BytePair, new: BytePair, f: int) -> None:
        self.counts[old] = self.counts.get(old, 0) - f  # the fault: no entry pushed for the count that fell
        self.counts[new] = self.counts.get(new, 0) + f
        heapq.heappush(self.heap, (-self.counts[new], new))

    def merge(self) -> None:
        """Pop the top pair and merge it in every word, left to right, moving the pairs beside each occurrence."""
        pair = self.top()
        if pair is None:
            return
        heapq.heappop(self.heap)
        a, b = pair
        joined = a + b
        for w, split in enumerate(self.splits):
            f, out, i = self.freqs[w], [], 0
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    if out:
                        self._move((out[-1], a), (out[-1], joined), f)
                    if i + 2 < len(split):
                        self._move((b, split[i + 2]), (joined, split[i + 2]), f)
                    out.append(joined)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            self.splits[w] = out
        self.counts.pop(pair, None)


class _HolderCounts:
    """Pair counts in a dict with the words holding each pair (a set of word indices, never shrunk by the
    subclass unless it says so), the greatest count then the greatest pair of bytes taken, a count at 0 or below
    taken by none: the state two students' loops below share."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        self.splits = [list(w) for w in words]
        self.freqs = freqs
        self.counts: dict[BytePair, int] = {}
        self.holders: dict[BytePair, set[int]] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
                self.holders.setdefault(p, set()).add(w)

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        if not self.counts:
            return None
        pair, n = max(self.counts.items(), key=lambda x: (x[1], x[0]))
        return pair if n > 0 else None


class _PrefixFirst(_HolderCounts):
    """A student's loop, step by step as it is written: the counts a dict (the greatest pair of the highest count taken,
    then removed), each pair's set of the words that held it (never shrunk, iterated as Python iterates a set of ints).
    Each word holding the pair is merged in place, left to right; at each occurrence the pair on its left is recorded
    as in the word merged so far and the pair on its right as in the word before the merge (the next occurrence not yet
    merged); then every left pair is moved to the new token, then every right one, and a pair is subtracted only while
    the dict holds it (dropped at 0). Of two occurrences side by side (``ab ab``), the second's left pair ``(ab, a)`` is
    not in the dict yet when it would be subtracted, and the first's right pair ``(b, a)`` adds it after: it stays."""

    def _move(self, old: BytePair, new: BytePair, w: int, f: int) -> None:
        if old in self.counts:
            self.counts[old] -= f
            if self.counts[old] <= 0:
                del self.counts[old]
        self.counts[new] = self.counts.get(new, 0) + f
        self.holders.setdefault(new, set()).add(w)

    def merge(self) -> None:
        pair = self.top()
        if pair is None:
            return
        a, b = pair
        joined = a + b
        held = self.holders.get(pair, set()).copy()
        self.counts.pop(pair, None)
        self.holders.pop(pair, None)
        for w in held:
            split, f = self.splits[w], self.freqs[w]
            lefts, rights, i = [], [], 0
            while i < len(split) - 1:
                if split[i] == a and split[i + 1] == b:
                    if i > 0:
                        lefts.append(split[i - 1])
                    if i < len(split) - 2:
                        rights.append(split[i + 2])
                    split[i : i + 2] = [joined]
                else:
                    i += 1
            for x in lefts:
                self._move((x, a), (x, joined), w, f)
            for y in rights:
                self._move((b, y), (joined, y), w, f)


class _SubstringCounts:
    """A student's loop that never merges a word: the pair counts a dict (the greatest pair of the highest count taken),
    and after merging ``(a, b)`` each pair ``(b, c)`` becomes ``(ab, c)`` and each ``(c, a)`` becomes ``(c, ab)``, counted
    as the number of times the bytes ``abc`` (or ``cab``) occur in all the words, overlapping ones too (a count of every
    substring made once, before the loop), the old pair dropped; where those bytes never occur the old pair stays."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        self.texts = [b"".join(w) for w in words]
        self.freqs = freqs
        self.counts: dict[BytePair, int] = {}
        for w, word in enumerate(words):
            for p in zip(word, word[1:]):
                self.counts[p] = self.counts.get(p, 0) + freqs[w]
        self.found: dict[bytes, int] = {}

    def _substring(self, text: bytes) -> int:
        if text not in self.found:
            n = 0
            for w, word in enumerate(self.texts):
                start = word.find(text)
                while start != -1:
                    n += self.freqs[w]
                    start = word.find(text, start + 1)
            self.found[text] = n
        return self.found[text]

    def count(self, pair: BytePair) -> int:
        return self.counts.get(pair, 0)

    def top(self) -> BytePair | None:
        if not self.counts:
            return None
        return max(self.counts.items(), key=lambda x: (x[1], x[0]))[0]

    def merge(self) -> None:
        pair = self.top()
        if pair is None:
            return
        a, b = pair
        joined = a + b
        out: dict[BytePair, int] = {}
        for p, n in self.counts.items():
            if p == pair:
                continue
            new = (joined, p[1]) if p[0] == b else (p[0], joined) if p[1] == a else None
            found = self._substring(new[0] + new[1]) if new is not None else 0
            if new is not None and found > 0:
                out[new] = found
            else:
                out[p] = n
        self.counts = out


class _WrongIndex(_HolderCounts):
    """A student's loop whose update reads the word it merges right but uses a loop variable left over from the
    loop that built the counts, the last word's index, everywhere else: each word holding the pair moves its
    neighbour pairs (read from its split before the merge) by the last word's count, not its own, and its merged
    split is written over the last word's, so the word itself never changes. The selection is the greatest count,
    then the greatest pair of bytes, over every pair counted (a count that went to 0 or below stops the loop), and
    the merged pair's count is set to 0. The words holding each pair are visited in order of their index."""

    def __init__(self, words: Sequence[Word], freqs: Sequence[int]) -> None:
        super().__init__(words, freqs)
        self.freq = freqs[-1] if freqs else 0

    def merge(self) -> None:
        pair = self.top()
        if pair is None:
            return
        self.counts[pair] = 0
        a, b = pair
        joined = a + b
        f, last = self.freq, len(self.splits) - 1
        for w in sorted(self.holders.get(pair, ())):
            old = self.splits[w]
            new, j = [], 0
            while j < len(old):
                if j < len(old) - 1 and (old[j], old[j + 1]) == pair:
                    new.append(joined)
                    if j > 0:
                        self._move((old[j - 1], old[j]), (old[j - 1], joined), w, f)
                    if j < len(old) - 2:
                        self._move((old[j + 1], old[j + 2]), (joined, old[j + 2]), w, f)
                    j += 2
                else:
                    new.append(old[j])
                    j += 1
            self.splits[last] = new

    def _move(self, gone: BytePair, made: BytePair, w: int, f: int) -> None:
        self.counts[gone] = self.counts.get(gone, 0) - f
        self.holders.get(gone, set()).discard(w)
        self.counts[made] = self.counts.get(made, 0) + f
        self.holders.setdefault(made, set()).add(w)


class _HeldPairs:
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

    def drop(self, pair: BytePair) -> None:
        self._set(pair, 0)

    def top(self, lost: set[BytePair] | frozenset = frozenset()) -> list[BytePair]:
        """The pairs of the highest count above 0 (none if no count is above 0), ``lost`` left out."""
        if not lost:
            best = max(self.by_count, default=0)
            return sorted(self.by_count[best]) if best > 0 else []
        for count in sorted((c for c in self.by_count if c > 0), reverse=True):
            rest = self.by_count[count] - lost
            if rest:
                return sorted(rest)
        return []


class _Recount(Mapping):
    """The order of pairs in a count taken afresh each step, as ``for word in words: for pair in word`` meets them,
    over a dict of words where each merged word is deleted and added again at its end: a pair's place, found by
    scanning the words in that order only as far as asked for."""

    def __init__(self, splits: list[Split]) -> None:
        self.splits = splits
        self.order: dict[int, None] = dict.fromkeys(range(len(splits)))
        self.moved(())

    def moved(self, changed) -> None:
        for w in [w for w in self.order if w in changed]:  # in the dict's order, as the student's loop meets them
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


def _mutated(words: list[int]):
    """The words a loop ``for w in words: ... words.remove(w)`` visits: each visit removes the word's first entry,
    the index moves on by one, so the entry after it is stepped over."""
    i = 0
    while i < len(words):
        w = words[i]
        words.remove(w)
        yield w
        i += 1


def _fresh(
    tied: list[BytePair], done: set[BytePair], where: Mapping[BytePair, set[int]], deletes: bool
) -> list[BytePair]:
    """The tied pairs but those merged before that no word holds: a loop that deletes a pair's count once it is
    merged never offers it again, though a faulty update may have left a count there in the replay (as two merged
    tokens side by side do); a pair a half-merged word still holds keeps its count. A loop that keeps the count
    (``deletes`` false: its run repeats a merge) offers the pair again."""
    if not deletes:
        return tied
    return [p for p in tied if p not in done or where.get(p)] or tied


def _lost_pairs(
    counts: PairCounts, pair: BytePair, pick: TiePick | None, ids: Mapping[bytes, int], seen: Mapping[BytePair, int]
) -> set[BytePair]:
    """The pairs a selection must have lost for ``pair`` to be its choice under the true counts: those the
    loop would take before it (with no tie rule, every pair of a higher count), at most :data:`LOST` of them."""
    lost: set[BytePair] = set()
    while len(lost) <= LOST:
        tied = counts.top(lost)
        if not tied or pair in tied and (pick is None or pick(tied, ids, seen) == pair):
            return lost
        lost |= {pick(tied, ids, seen)} if pick is not None else set(tied) - {pair}
    return set()


def _moved(before: Counter, old: Split, new: Split, contribution: Callable[[Split], Counter]) -> Counter:
    """A word's counts moved from its old split to its new one (negative entries kept: a faulty update
    may have subtracted more than there was)."""
    after = Counter(before)
    after.subtract(contribution(old))
    after.update(contribution(new))
    return Counter({p: n for p, n in after.items() if n != 0})


def faulty_merges(
    words: Sequence[Word], freqs: Sequence[int], num_merges: int, fault: Fault = CORRECT, tie: str = "greatest-bytes"
) -> list[BytePair]:
    """The merges a faulty loop makes on its own, ties broken by ``tie``."""
    return replay(words, freqs, [], fault, tie=tie, choose=num_merges).chosen or []
