"""An :class:`~bpe.tokenizer.Encoding`'s columns (ids, tokens, offsets, word ids), built a run of words
at a time.

Each distinct word is encoded once and cached as a :data:`WordEntry`: its tokens, their ids, and each
token's start and end in the word's characters. A run of words (one stretch of text between added
tokens) then joins its words' entries in a few passes that run in C (``chain``, ``map``, ``zip``), so
a repeated word costs a cache lookup and no Python loop over its tokens. Offsets are the word's start
plus the token's, or, where a normaliser changed the text, looked up in the stretch's map of each
character to the original text.

Left out: how words are cut and encoded (:mod:`bpe.tokenizer`, :mod:`bpe.pipeline.encoder`).

>>> cols = Columns()
>>> entry = (("ab", "c"), (5, 2), (0, 2), (2, 3))  # "abc" as "ab" + "c"
>>> cols.add_words([entry, entry], starts=[0, 4], word_nos=range(2))
>>> cols.offsets, cols.word_ids
([(0, 2), (2, 3), (4, 6), (6, 7)], [0, 0, 1, 1])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from operator import add, itemgetter

from .config import Span

WordEntry = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # tokens, ids, starts, ends

_TOKENS, _IDS, _STARTS, _ENDS = (itemgetter(i) for i in range(4))


def word_entry(tokens: Sequence[str], ids: Sequence[int], bounds: Sequence[int], char=None) -> WordEntry:
    """A word's entry from its tokens, ids and each token's first unit followed by the word's end
    (``bounds``); ``char``: each unit's character, where units are not characters (UTF-8 bytes)."""
    if char is None or type(char) is range:
        return tuple(tokens), tuple(ids), tuple(bounds[:-1]), tuple(bounds[1:])
    return (
        tuple(tokens),
        tuple(ids),
        tuple([char[a] for a in bounds[:-1]]),
        tuple([char[b - 1] + 1 for b in bounds[1:]]),
    )


class Columns:
    """The four columns of an encoding being built (lists; :meth:`encoding_parts` gives tuples)."""

    __slots__ = ("ids", "tokens", "offsets", "word_ids")

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.tokens: list[str] = []
        self.offsets: list[Span] = []
        self.word_ids: list[int | None] = []

    def add_token(self, token: str, id_: int, span: Span) -> None:
        """One token outside any word (an added or special token)."""
        self.tokens.append(token)
        self.ids.append(id_)
        self.offsets.append(span)
        self.word_ids.append(None)

    def add_words(
        self,
        entries: Sequence[WordEntry],
        starts: Iterable[int],
        word_nos: Iterable[int],
        lefts: Sequence[int] | None = None,
        rights: Sequence[int] | None = None,
    ) -> None:
        """Words' entries, each starting at its ``starts`` position and numbered by ``word_nos``. Without
        ``lefts``, a token's offsets are the word's start plus the entry's; with them, those positions
        index a stretch's map instead: ``lefts[i]`` is where character i starts in the original text,
        ``rights[j]`` where character j - 1 ends."""
        counts = list(map(len, map(_TOKENS, entries)))
        self.tokens.extend(chain.from_iterable(map(_TOKENS, entries)))
        self.ids.extend(chain.from_iterable(map(_IDS, entries)))
        self.word_ids.extend(chain.from_iterable(map(repeat, word_nos, counts)))
        base = list(chain.from_iterable(map(repeat, starts, counts)))  # each token's word start
        a = map(add, base, chain.from_iterable(map(_STARTS, entries)))
        b = map(add, base, chain.from_iterable(map(_ENDS, entries)))
        if lefts is not None:
            a, b = map(lefts.__getitem__, a), map(rights.__getitem__, b)
        self.offsets.extend(zip(a, b))
