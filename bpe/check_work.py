"""The Check's searches bounded by counted work, not by the clock, so the same run always gets the same verdict.

A search that tries candidates (known loop faults, tie rules, faulty readers, our settings) stops when it has
spent its allowance of work, counted in **symbol rewrites**: replaying or training the first ``r`` of the student's
merges costs the symbols of the corpus's distinct words (counting their pairs) plus, for each of those merges, the
symbols of the words that hold its pair (the words the loop rewrites and counts again). :class:`MergeCost` finds
those numbers once per corpus by merging the words as the correct loop does, only as far as a search asks; every
loop, faulty or not, and every setting that agrees with the student up to ``r`` rewrites about the same words, so
one table prices them all; a faulty reader's reading of the text costs its bytes. The sum is bounded by the corpus
(each rewrite makes a word shorter), whatever the run.
A search of a single candidate (a replay as long as the run) has no allowance of its own: its work is that bound.
Each search's allowance (:data:`ALLOWANCES`) is set from how much the former time limits let it try on a quiet
machine on the recorded students' runs (figures in ``docs/benchmarks.md``), so the verdict no longer depends on
how busy the server is.

Work asked for again inside one check (the text cut into words, one of our settings trained, a faulty reader's
reading) is done once and read back (:func:`once`), so the second search that needs it takes no time for it; its
work is still counted in every search that asks for it, so what is tried never depends on which search came first.

The clock stays only as a safety net against inputs far beyond that calibration: a whole check may run
:data:`BACKSTOP_SECONDS`; past that every search stops, and :func:`cut_sentence` says which ones, so a verdict
cut short is told as such, never silently another one. :func:`watching` opens that scope for one check.

Left out: the searches themselves (:mod:`bpe.check_loop`, :mod:`bpe.check_reading`, :mod:`bpe.check_setup`,
:mod:`bpe.check_set_order`, :mod:`bpe.check_special_ban`) and the server's own limit on a check's process
(``server/check_jobs.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

from .formats.cs336 import BytePair

T = TypeVar("T")

# the allowances, in symbol rewrites (see the module docstring; calibration in docs/benchmarks.md)
ALLOWANCES = {
    "loop": 3_700_000,  # trying every known merge-loop fault (bpe.check_loop.find_fault)
    "same": 610_000,  # once a fault makes every merge, trying the rest for another that does too
    "tie": 3_900_000,  # trying each students' tie rule (bpe.check_loop.tie_key)
    "both": 2_500_000,  # trying each students' tie rule with each loop fault (bpe.check_loop.find_tie_and_fault)
    "count": 8_900_000,  # reading the text as each faulty reader does, and training on its counts (check_reading)
    "settings": 2_600_000,  # training each of our settings (bpe.check_setup.best_settings)
    "marks": 600_000,  # training on our words marked as a run's words are ('_' for '</w>'; bpe.check_marks)
    "clean": 600_000,  # training on the text cleaned as students clean it (a-z kept; bpe.check_cause)
    "heap": 2_000_000,  # a lazy heap compared on counts alone: the pairs looked at and symbols rewritten (check_container)
    "indexed": 4_000_000,  # a dict updated in place: symbols rewritten and pairs scanned by each choice (check_indexed)
    "rounds": 1_000_000,  # loops merging several pairs per pass, or cutting anew by the longest tokens (check_rounds, check_greedy)
}

BACKSTOP_SECONDS = 40.0  # a whole check's safety net, inside the server's 60 s limit for a check's process

SEARCHES = {  # each search's name in the sentence said when the safety net stops it
    "loop": "a merge-loop fault",
    "tie": "a students' tie rule",
    "both": "a tie rule with a loop fault",
    "count": "a faulty corpus reader",
    "set": "a loop that merges in a set's order",
    "special": "a selection that shuns special tokens' pairs",
    "space": "a selection that shuns tokens holding whitespace",
    "settings": "the settings that follow your run",
    "marks": "the symbols your words are marked with",
    "clean": "how your text is cleaned",
    "heap": "a heap that loses pairs whose count fell",
    "indexed": "a dict of counts updated in place",
    "rounds": "a loop that merges several pairs per pass or cuts the text anew by its longest tokens",
}


@dataclass
class _Check:
    """One check's safety net: when it passes, and the searches it stopped."""

    deadline: float
    cut: list[str] = field(default_factory=list)
    done: dict = field(default_factory=dict)  # work asked for again within the check, read back (see once())


_CHECK: ContextVar[_Check | None] = ContextVar("check_work", default=None)


@contextmanager
def watching(seconds: float | None = None) -> Iterator[_Check | None]:
    """The scope of one check: every search inside shares one safety net of ``seconds`` (default
    :data:`BACKSTOP_SECONDS`). Yields the scope, or None inside another one (a check nested in a check: the
    outer one tells what was cut, once)."""
    if _CHECK.get() is not None:
        yield None
        return
    check = _Check(time.monotonic() + (BACKSTOP_SECONDS if seconds is None else seconds))
    token = _CHECK.set(check)
    try:
        yield check
    finally:
        _CHECK.reset(token)


def once(key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, done once per check: asked again with the same ``key`` inside one check's scope, the first result
    is read back (the same words cut, the same settings trained, by several searches). Outside a check, or with a
    key that cannot be hashed (a corpus given as a dict), it is made each time. The result must not be changed."""
    check = _CHECK.get()
    if check is None:
        return make()
    try:
        hash(key)
    except TypeError:
        return make()
    if key not in check.done:
        check.done[key] = make()
    return check.done[key]


def cut_sentence(check: _Check | None) -> str:
    """The sentence told after a verdict the safety net cut short, or '' when it cut nothing (or ``check`` is
    None: a scope nested in another)."""
    if check is None or not check.cut:
        return ""
    what = " and for ".join(SEARCHES[name] for name in dict.fromkeys(check.cut))
    return (
        f"The search for {what} stopped after {BACKSTOP_SECONDS:g} seconds, the most a check may take, before "
        "trying every candidate: this input is far larger than the check is tuned for, so a cause it did not reach "
        "may be the real one (try a smaller corpus or fewer merges)."
    )


class Work:
    """One search's allowance of symbol rewrites: what it has spent, and whether it may try another candidate
    (work left and the check's safety net not passed; a search the net stops is recorded, to be told)."""

    def __init__(self, search: str, units: float | None = None) -> None:
        """``units``: the allowance (default: the search's in :data:`ALLOWANCES`; none for a search of one
        candidate, which only the safety net stops)."""
        self.search, self.used = search, 0
        self.units = units if units is not None else ALLOWANCES.get(search, float("inf"))
        self._check = _CHECK.get()
        self.deadline = self._check.deadline if self._check is not None else time.monotonic() + BACKSTOP_SECONDS

    def spend(self, units: int) -> None:
        self.used += units

    def spent(self) -> bool:
        """True once the allowance is used up (the same on any machine), or once the safety net has passed."""
        return self.used >= self.units or self.late()

    def late(self) -> bool:
        """True once the check's safety net has passed (recorded, to be told)."""
        if time.monotonic() > self.deadline:
            self.cut()
            return True
        return False

    def cut(self) -> None:
        """Record that the safety net stopped this search (also where a replay stopped on its own deadline)."""
        if self._check is not None and self.search not in self._check.cut:
            self._check.cut.append(self.search)


class MergeCost:
    """The work of replaying the first merges of a run on a corpus: the words' symbols counted, then for each merge
    the symbols of the words holding its pair, found by merging the words as the correct loop does, as far as
    asked."""

    def __init__(self, words: Sequence[tuple[bytes, ...]], merges: Sequence[BytePair]) -> None:
        self.merges = merges
        self.splits = [list(w) for w in words]
        self.where: dict[BytePair, set[int]] = {}
        for w, split in enumerate(self.splits):
            for p in zip(split, split[1:]):
                self.where.setdefault(p, set()).add(w)
        self.total = [sum(map(len, self.splits))]  # total[r]: the cost of the first r merges

    def __call__(self, r: int) -> int:
        """The cost of replaying the first ``r`` merges (clipped to the run's length)."""
        r = max(0, min(r, len(self.merges)))
        while len(self.total) <= r:
            self._merge(self.merges[len(self.total) - 1])
        return self.total[r]

    def replayed(self, reproduced: int) -> int:
        """The cost of a replay that reproduced ``reproduced`` merges: it made them and tried the next."""
        return self(reproduced + 1)

    def _merge(self, pair: BytePair) -> None:
        holders = self.where.pop(pair, set())
        joined = pair[0] + pair[1]
        rewritten = 0
        for w in holders:
            old = self.splits[w]
            rewritten += len(old)
            new, i = [], 0
            while i < len(old):
                if i + 1 < len(old) and (old[i], old[i + 1]) == pair:
                    new.append(joined)
                    i += 2
                else:
                    new.append(old[i])
                    i += 1
            for p in zip(old, old[1:]):
                if p != pair:
                    self.where.get(p, set()).discard(w)
            for p in zip(new, new[1:]):
                self.where.setdefault(p, set()).add(w)
            self.splits[w] = new
        self.total.append(self.total[-1] + rewritten)
