"""Which character of a word each of its UTF-8 bytes belongs to: how a byte-level token's span in
the text is found.

>>> list(unit_to_char("aé!"))
[0, 1, 1, 2]

Left out: what the units are counted for (:mod:`bpe.models`, :mod:`bpe.scheme_text`, :mod:`bpe.pipeline.encoder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

WORD_CACHE_MAX_CHARS = 256  # longer words are not cached (tokenizers' cache skips them too), here or by a tokenizer
WORD_CACHE_SIZE = 10_000  # words kept by each word cache (least recently used go first)


def unit_to_char(word_text: str) -> Sequence[int]:
    """For each UTF-8 byte of ``word_text``, its character's index (4,096 words of <= 256 chars kept)."""
    if len(word_text) <= WORD_CACHE_MAX_CHARS:
        return _unit_to_char_cached(word_text)
    return _build_unit_to_char(word_text)


def _build_unit_to_char(word_text: str) -> Sequence[int]:
    # A byte starts a character unless it is a continuation byte (0b10xxxxxx): the running count of
    # starts, less one, is the character of each byte (accumulate runs in C).
    if word_text.isascii():
        return range(len(word_text))
    return tuple(accumulate(word_text.encode("utf-8").translate(_STARTS), initial=-1))[1:]


_STARTS = bytes(0 if 0x80 <= b < 0xC0 else 1 for b in range(256))
_unit_to_char_cached = lru_cache(maxsize=4096)(_build_unit_to_char)
