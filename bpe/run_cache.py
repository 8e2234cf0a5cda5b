"""One run's memo of derived views, kept within one byte budget: least recently used dropped first.

Every view of a run that is worth keeping from one click to the next (a word's split rebuilt at a step, the
candidate words of a pair string, the largest shares of a pair count, a page's rows, chips and charts, a
tokenizer of one step) is computed from the run alone, so it can be memoised on the run and shared by every
session stepping through it. :class:`RunCache` is that memo: one per run, thread-safe (the app's sessions are
threads), bounded by bytes rather than entries, so whoever keeps the run (the server's run store) counts one
number for everything kept on it. Each entry says its own size (an estimate: :func:`approx_size`).

>>> cache = RunCache(budget=400)
>>> cache.get_or_make("a", lambda: "x" * 150, size=150)[:3]
'xxx'
>>> _ = cache.get_or_make("b", lambda: "y" * 150, size=150)  # over the budget: "a" goes
>>> cache.get("a") is None, cache.nbytes  # each entry also counts ENTRY_BYTES for its key
(True, 250)

Left out: what is kept (each reader names its own keys) and what a run costs besides (the run store's sum).
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

# What a run keeps by default: the server's run store counts this much per run on top of the run itself.
RUN_CACHE_BYTES = 20 << 20
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
    """A thread-safe memo of one run's derived views within ``budget`` bytes. An entry larger than the whole
    budget is made and returned but not kept. Values are shared: readers never mutate them. Pickled empty
    (a run crossing from the training process brings none, and its views are rebuilt on demand)."""

    def __init__(self, budget: int = RUN_CACHE_BYTES) -> None:
        self.budget = budget
        self.nbytes = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        entry = self._entries.get(key)  # one dict read: safe without the lock, which only the LRU order needs
        if entry is None:
            return None
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: Any, size: int) -> Any:
        """Keep ``value`` (of about ``size`` bytes) under ``key`` and return what is kept there: the value
        another thread put first, if one did. Older entries go while the budget is passed."""
        size += ENTRY_BYTES
        if size > self.budget:
            return value
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                return entry[0]
            self._entries[key] = (value, size)
            self.nbytes += size
            while self.nbytes > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.nbytes -= dropped
        return value

    def get_or_make(
        self, key: Hashable, make: Callable[[], Any], size: int | Callable[[Any], int] = approx_size
    ) -> Any:
        """The value under ``key``, made by ``make()`` if none is kept; ``size`` is its bytes or a function
        of the value giving them."""
        value = self.get(key)
        if value is None:
            value = make()
            value = self.put(key, value, size(value) if callable(size) else size)
        return value

    def resize(self, budget: int) -> None:
        """A new budget (the run store's choice for a run it keeps), dropping the oldest entries past it."""
        with self._lock:
            self.budget = budget
            while self.nbytes > budget and self._entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.nbytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    def items(self, kind: str) -> list[tuple[Hashable, Any]]:
        """The entries whose key starts with ``kind`` (each reader names its keys ``(kind, ...)``)."""
        with self._lock:
            return [(k, v) for k, (v, _) in self._entries.items() if isinstance(k, tuple) and k and k[0] == kind]

    def __getstate__(self) -> dict:
        return {"budget": self.budget}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["budget"])


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
