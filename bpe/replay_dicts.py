"""Students' loops whose pair counts are a plain dict, the greatest count taken, replayed step by step as written.

:class:`PrefixFirst` moves the left pairs before the right ones (``right-recorded-first``); :class:`WrongIndex`
uses the last word's index in its update (``wrong-index``); :class:`SubstringCounts` never merges a word and
counts a new pair as substrings of the corpus (``substring-counts``). Each offers ``count``, ``top`` and
``merge``, which :func:`bpe.fault_replay.replay` calls in place of its own counts; :func:`loop_reach` follows a run
with any loop that offers ``top`` and ``merge``.

Left out: the replay that drives them (:mod:`bpe.fault_replay`) and the loops whose selection is a heap
(:mod:`bpe.replay_heaps`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from .formats.cs336 import BytePair
from .word_merges import Word


class Loop(Protocol):
    """A student's loop replayed as written: the pair it takes next, and its merge of that pair."""

    def top(self) -> BytePair | None: ...

    def merge(self, pair: BytePair) -> None: ...


def loop_reach(loop: Loop, merges: Sequence[BytePair], deadline: float | None = None) -> int:
    """How many of ``merges`` ``loop`` makes, in order, before its choice differs (or ``deadline`` passes)."""
    for step, pair in enumerate(merges):
        if loop.top() != pair or deadline is not None and time.monotonic() > deadline:
            return step
        loop.merge(pair)
    return len(merges)


class HolderCounts:
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


class PrefixFirst(HolderCounts):
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


class WrongIndex(HolderCounts):
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


class SubstringCounts:
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
