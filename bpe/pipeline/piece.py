"""A stretch of a file's text as the model sees it, and where each character came from.

:class:`Piece` is ``tokenizers``' ``NormalizedString`` in characters: the normalised text and,
for each of its characters, the (start, end) span of the original text it stands for. The rules
for a changed character follow ``NormalizedString::transform_range``: a character that replaces
one takes its span; a character added after another shares the previous one's; a character that
absorbs removed ones keeps its own. Pieces that no normaliser changed keep no list at all
(character i is original ``base + i``), so plain text costs nothing extra.

Left out: what changes a piece (:mod:`~bpe.pipeline.normalizers`, :mod:`~bpe.pipeline.pre_tokenizers`).

>>> Piece("abc", 10).slice(1, 3).original(0, 2)
(11, 13)
"""

from __future__ import annotations

from .. import pre_tokenizers as pt
from ..config import Span

# Rust's char::is_whitespace: the Unicode White_Space property (Python's isspace adds \x1c-\x1f).
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def is_whitespace(c: str) -> bool:
    return c in WHITE_SPACE


class Piece:
    """Normalised text and where each of its characters came from in the original text.

    ``align`` is None while character i is original character ``base + i`` (nothing changed
    lengths), else a list with one (start, end) span per character.
    """

    __slots__ = ("text", "align", "base")

    def __init__(self, text: str, base: int = 0, align: list[Span] | None = None) -> None:
        self.text = text
        self.base = base
        self.align = align

    def spans(self) -> list[Span]:
        if self.align is not None:
            return self.align
        b, n = self.base, len(self.text)
        return list(zip(range(b, b + n), range(b + 1, b + n + 1)))

    def original(self, a: int, b: int) -> Span:
        """The original span of normalised characters ``a`` to ``b`` (first start, last end)."""
        if self.align is None:
            return (self.base + a, self.base + b)
        return (self.align[a][0], self.align[b - 1][1])

    def original_start(self) -> int:
        if self.align is None:
            return self.base
        return self.align[0][0] if self.align else self.base

    def slice(self, a: int, b: int) -> Piece:
        if self.align is None:
            return Piece(self.text[a:b], self.base + a)
        return Piece(self.text[a:b], self.align[a][0] if a < len(self.align) else self.base, self.align[a:b])

    def transform(self, changes: list[tuple[str, int]], initial: int = 0) -> Piece:
        """``NormalizedString::transform``: (char, change) pairs, change 0 replaces one character,
        +1 adds one after the previous, -n replaces one and removes n more."""
        old = self.spans()
        out_chars, out_align = [], []
        p = initial
        start = old[0][0] if old else self.base
        for c, change in changes:
            if change > 0:
                al = old[p - 1] if p >= 1 else (start, start)
            else:
                al = old[p]
                p += 1 - change
            out_chars.append(c)
            out_align.append(al)
        return Piece("".join(out_chars), self.original_start(), out_align)

    def prepend(self, s: str) -> Piece:
        """``NormalizedString::prepend``: the new characters share the first character's span."""
        if not self.text or not s:
            return self
        first = self.original(0, 1)
        return Piece(s + self.text, first[0], [first] * len(s) + self.spans())

    def replace_char(self, c: str, by: str) -> Piece:
        """Replace one character by another (same length, spans unchanged)."""
        if c not in self.text:
            return self
        return Piece(self.text.replace(c, by), self.base, self.align)

    def to_bytes(self) -> Piece:
        """ByteLevel: each character becomes its UTF-8 bytes as GPT-2 symbols, all sharing its span."""
        data = self.text.encode("utf-8")
        symbols = pt.bytes_to_symbols(data)
        if len(data) == len(self.text):
            return Piece(symbols, self.base, self.align)
        old = self.spans()
        align: list[Span] = []
        for c, span in zip(self.text, old):
            n = len(c.encode("utf-8"))
            align.extend([span] * n)
        return Piece(symbols, self.original_start(), align)
