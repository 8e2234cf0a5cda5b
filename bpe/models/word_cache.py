"""A model's word cache: ``tokenize(word)`` remembered for the most recent words, and left out of a pickle."""

from __future__ import annotations

from functools import lru_cache

from ..units import WORD_CACHE_SIZE


class CachedWords:
    """Mixed into a model that defines ``tokenize(word)``: ``self._cached`` is that method behind an LRU cache,
    made afresh on :meth:`clear_cache` and after unpickling (an ``lru_cache`` of a bound method does not pickle)."""

    def clear_cache(self) -> None:
        """Empty the word cache (the model's ``word_tokens`` reads it)."""
        self._cached = lru_cache(maxsize=WORD_CACHE_SIZE)(self.tokenize)

    def cache_info(self):
        """The word cache's ``lru_cache`` statistics."""
        return self._cached.cache_info()

    def __getstate__(self) -> dict:
        """Pickled without its word cache; it starts empty."""
        return {k: v for k, v in self.__dict__.items() if k != "_cached"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.clear_cache()
