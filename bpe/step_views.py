"""Read-only mappings of one step of a run: word -> tokens (:class:`SplitsView`) and pair -> count
(:class:`PairCountsView`), each computed from the run's :class:`~bpe.history.History` as it is read.

Left out: the run's layout and how a split or a count is rebuilt (:mod:`bpe.history`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .config import Pair

# The run's bpe.history.History. Not imported: history imports this module (splits_at and
# pair_counts_after return these views), and the engine has no import circle.
HistoryRecord = Any


class SplitsView(Mapping):
    """Read-only word -> tokens mapping for one step, computed per word on demand."""

    def __init__(self, history: HistoryRecord, step: int) -> None:
        self._h, self._step = history, step

    def __getitem__(self, word: str) -> tuple[str, ...]:
        i = self._h.word_index.get(word)
        if i is None:
            raise KeyError(word)
        symbols = self._h.symbols
        return tuple(symbols[s] for s in self._h.split_ids_at(i, self._step))

    def __iter__(self) -> Iterator[str]:
        return iter(self._h.words)

    def __len__(self) -> int:
        return len(self._h.words)


class PairCountsView(Mapping):
    """Read-only pair -> count mapping for the counts after a given number of merges.

    Lookup of one pair walks the change log; iterating rebuilds all counts of that step
    from its splits (fine for a table, too slow to do per pair on a big corpus).
    """

    def __init__(self, history: HistoryRecord, after: int) -> None:
        self._h, self._after = history, after
        self._all: dict[Pair, int] | None = None

    def __getitem__(self, pair: Pair) -> int:
        ids = self._h.pair_ids(pair)
        count = self._h.count_at(ids, self._after) if ids else 0
        if count <= 0:
            raise KeyError(pair)
        return count

    def _full(self) -> dict[Pair, int]:
        if self._all is None:
            h, counts = self._h, {}
            for i, freq in enumerate(h.freqs):
                split = h.split_ids_at(i, self._after)
                for pair in zip(split, split[1:]):
                    counts[pair] = counts.get(pair, 0) + freq
            self._all = {h.pair_str(p): c for p, c in counts.items()}
        return self._all

    def __iter__(self) -> Iterator[Pair]:
        return iter(self._full())

    def __len__(self) -> int:
        return len(self._full())
