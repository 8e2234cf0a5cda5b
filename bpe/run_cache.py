"""One run's memo of derived views, kept within one byte budget: least recently used dropped first.

Every view of a run that is worth keeping from one click to the next (a word's split rebuilt at a step, the
candidate words of a pair string, the largest shares of a pair count, a page's rows, chips and charts, a
tokenizer of one step) is computed from the run alone, so it can be memoised on the run and shared by every
session stepping through it. :class:`RunCache` is that memo: one per run, thread-safe (the app's sessions are
threads), bounded by bytes rather than entries, so whoever keeps the run (the server's run store) counts one
number for everything kept on it (:attr:`RunCache.budget`). Each key starts with its kind, and each kind has
its own part of the budget (:data:`LIMITS`): a sweep over every word's split (WordPiece's scores on a large
corpus) must not push out the page's views or a tokenizer, which cost far more to make again. Each entry
says its own size (an estimate: :func:`approx_size`).

>>> cache = RunCache()
>>> cache.limit("view", 400)
>>> cache.get_or_make(("view", "a"), lambda: "x" * 150, size=150)[:3]
'xxx'
>>> _ = cache.get_or_make(("view", "b"), lambda: "y" * 150, size=150)  # past the views' part: "a" goes
>>> cache.get(("view", "a")) is None, cache.nbytes  # each entry also counts ENTRY_BYTES for its key
(True, 250)

Left out: what is kept (each reader names its own keys) and what a run costs besides (the run store's sum).
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

# The bytes each kind of entry may hold in one run's cache; the budget is their sum.
LIMITS = {
    "split": 5 << 20,  # words' splits rebuilt at a step (bpe.history)
    "candidates": 5 << 20,  # provenance's candidate words of a pair string, 12 bytes a word (bpe.provenance)
    "shares": 1 << 20,  # provenance's largest shares of a pair count (bpe.provenance)
    "view": 8 << 20,  # the Train page's views of a step (ui/panels.py, per_run)
    "row": 1 << 20,  # rows of the splits table (ui/panels.py)
    "chip": 1 << 20,  # token chips (ui/vocabulary.py)
    "tokenizer": 0,  # tokenizers of a step (server/tokenizer_cache.py): room by vocabulary size, below
}
# Parts that grow with the run (:meth:`RunCache.fit_to`): bytes per merge and per vocabulary entry.
PER_MERGE = {"view": 800}  # the merge history's rows (about 400 bytes a merge), in both ways of showing tokens
# Tokenizers: 400 bytes a vocabulary entry, room for four (the last step's, the Train page's step, the Encode
# page's first k merges, one more): with less, switching the Encode page's tokenizer away and back made its
# tokenizer again and reset k.
PER_TOKEN = {"tokenizer": 1600}
ENTRY_BYTES = 100  # an entry's own cost: its key tuple and the OrderedDict's link


def approx_size(value: Any, depth: int = 3) -> int:
    """Bytes a value holds, roughly: strings, bytes and containers walked ``depth`` levels down; an object
    with ``nbytes`` (an Arrow table, an array) says its own."""
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    size = sys.getsizeof(value)
    if depth and isinstance(value, (tuple, list, set, frozenset)):
        size += sum(approx_size(v, depth - 1) for v in value)
    elif depth and isinstance(value, dict):
        size += sum(approx_size(k, depth - 1) + approx_size(v, depth - 1) for k, v in value.items())
    return size


class RunCache:
    """A thread-safe memo of one run's derived views, keys ``(kind, ...)``, each kind within its part of the
    budget (:data:`LIMITS`, changed with :meth:`limit`). An entry larger than its kind's whole part is made
    and returned but not kept. Values are shared: readers never mutate them. Pickled empty (a run crossing
    from the training process brings none, and its views are rebuilt on demand)."""

    def __init__(self, limits: dict[str, int] | None = None) -> None:
        self.limits = dict(LIMITS if limits is None else limits)
        self._parts: dict[str, OrderedDict[Hashable, tuple[Any, int]]] = {kind: OrderedDict() for kind in self.limits}
        self._held = dict.fromkeys(self.limits, 0)
        self._lock = threading.Lock()

    @property
    def budget(self) -> int:
        """The bytes this cache may hold in all."""
        return sum(self.limits.values())

    @property
    def nbytes(self) -> int:
        """The bytes its entries hold now (as their sizes were given)."""
        return sum(self._held.values())

    def get(self, key: tuple) -> Any | None:
        """The value kept under ``key`` (now the most recently used of its kind), or None."""
        part = self._parts.get(key[0])
        entry = part.get(key) if part is not None else None  # one dict read: safe without the lock
        if entry is None:
            return None
        with self._lock:
            if key in part:
                part.move_to_end(key)
        return entry[0]

    def put(self, key: tuple, value: Any, size: int) -> Any:
        """Keep ``value`` (of about ``size`` bytes) under ``key`` and return what is kept there: the value
        another thread put first, if one did. Older entries of its kind go while its part is passed."""
        kind, size = key[0], size + ENTRY_BYTES
        if size > self.limits.get(kind, 0):
            return value
        with self._lock:
            part = self._parts[kind]
            entry = part.get(key)
            if entry is not None:
                return entry[0]
            part[key] = (value, size)
            self._held[kind] += size
            self._trim(kind)
        return value

    def get_or_make(self, key: tuple, make: Callable[[], Any], size: int | Callable[[Any], int] = approx_size) -> Any:
        """The value under ``key``, made by ``make()`` if none is kept; ``size`` is its bytes or a function
        of the value giving them."""
        value = self.get(key)
        if value is None:
            value = make()
            value = self.put(key, value, size(value) if callable(size) else size)
        return value

    def fit_to(self, num_merges: int, vocab_size: int) -> None:
        """Size the parts that grow with the run (:data:`PER_MERGE`, :data:`PER_TOKEN`) for a run of
        ``num_merges`` merges and ``vocab_size`` tokens: the run store does, when it keeps the run."""
        for kind in {*PER_MERGE, *PER_TOKEN}:
            self.limit(kind, LIMITS[kind] + PER_MERGE.get(kind, 0) * num_merges + PER_TOKEN.get(kind, 0) * vocab_size)

    def limit(self, kind: str, nbytes: int) -> None:
        """Give ``kind`` a part of ``nbytes``, dropping its oldest entries past it."""
        with self._lock:
            self.limits[kind] = nbytes
            self._parts.setdefault(kind, OrderedDict())
            self._held.setdefault(kind, 0)
            self._trim(kind)

    def _trim(self, kind: str) -> None:
        part = self._parts[kind]
        while self._held[kind] > self.limits[kind] and part:
            _, (_, dropped) = part.popitem(last=False)
            self._held[kind] -= dropped

    def clear(self) -> None:
        with self._lock:
            for kind, part in self._parts.items():
                part.clear()
                self._held[kind] = 0

    def __len__(self) -> int:
        return sum(len(part) for part in self._parts.values())

    def items(self, kind: str) -> list[tuple[Hashable, Any]]:
        """The entries of one kind, least recently used first."""
        with self._lock:
            return [(k, v) for k, (v, _) in self._parts.get(kind, {}).items()]

    def __getstate__(self) -> dict:
        return {"limits": self.limits}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["limits"])


class CacheView:
    """A dict-like window on one kind of a run's entries (``get`` and item assignment), for code that takes a
    plain dict as its memo (``bpe.display.chips_html``'s ``cache``); sizes by :func:`approx_size`."""

    def __init__(self, cache: RunCache, kind: str) -> None:
        self._cache, self._kind = cache, kind

    def get(self, key: Hashable, default: Any = None) -> Any:
        value = self._cache.get((self._kind, key))
        return default if value is None else value

    def __setitem__(self, key: Hashable, value: Any) -> None:
        self._cache.put((self._kind, key), value, approx_size(value))
