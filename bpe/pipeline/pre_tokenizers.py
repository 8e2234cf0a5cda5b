"""Pre-tokenizers of a ``tokenizer.json``: how a file cuts normalised text into words, with offsets.

Each follows ``tokenizers``' ``pre_tokenizers/*`` and ``NormalizedString::split`` (:func:`split_piece`
and its five behaviours): ByteLevel, Split, Metaspace, Whitespace, WhitespaceSplit, Digits,
Punctuation, CharDelimiterSplit, BertPreTokenizer and Sequence (:data:`FILE_PRE_TOKENIZERS`).
Not to be confused with :mod:`bpe.pre_tokenizers`, the training schemes by name.

Left out: any other pre-tokenizer (UnicodeScripts, FixedLength...): it raises a ValueError naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from .. import budget
from .. import pre_tokenizers as pt
from ..config import Span, shown
from .hf_unicode import HF_PUNCTUATION_SET, HF_WHITESPACE_WORDS
from .onig import compile_pattern, find_matches, match_spans
from .piece import Piece

FILE_PRE_TOKENIZERS = (
    "ByteLevel",
    "Split",
    "Metaspace",
    "Whitespace",
    "WhitespaceSplit",
    "Digits",
    "Punctuation",
    "CharDelimiterSplit",
    "BertPreTokenizer",
    "Sequence",
)
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

_WORD = HF_WHITESPACE_WORDS  # tokenizers' Whitespace pre-tokenizer: \w+|[^\w\s]+, by Oniguruma's tables


# ================================================================================================
# splitting a piece (NormalizedString::split)
# ================================================================================================
def split_piece(piece: Piece, matches: list[tuple[Span, bool]], behavior: str) -> list[Piece]:
    if behavior == "Isolated":
        splits = [(span, False) for span, _ in matches]
    elif behavior == "Removed":
        splits = matches
    elif behavior == "Contiguous":
        splits, previous = [], False
        for span, is_match in matches:
            if is_match == previous and splits:
                splits[-1] = ((splits[-1][0][0], span[1]), False)
            else:
                splits.append((span, False))
            previous = is_match
    elif behavior == "MergedWithPrevious":
        splits, previous = [], False
        for span, is_match in matches:
            if is_match and not previous and splits:
                splits[-1] = ((splits[-1][0][0], span[1]), False)
            else:
                splits.append((span, False))
            previous = is_match
    elif behavior == "MergedWithNext":
        splits, previous = [], False
        for span, is_match in reversed(matches):
            if is_match and not previous and splits:
                splits[-1] = ((span[0], splits[-1][0][1]), False)
            else:
                splits.append((span, False))
            previous = is_match
        splits.reverse()
    else:
        raise ValueError(f"Unknown split behavior {shown(behavior)}; tokenizers knows {', '.join(BEHAVIORS)}.")
    return [piece.slice(a, b) for (a, b), remove in splits if not remove and b > a]


def _char_matches(text: str, test: Callable[[str], bool]) -> list[tuple[Span, bool]]:
    out, last = [], 0
    for i, c in enumerate(text):
        if test(c):
            if last < i:
                out.append(((last, i), False))
            out.append(((i, i + 1), True))
            last = i + 1
    if last < len(text):
        out.append(((last, len(text)), False))
    return out


def _regex_class_matches(text: str, pattern) -> list[tuple[Span, bool]]:
    """Matches of a one-character class (each matched character on its own), quickly."""
    out, last = [], 0
    for m in pattern.finditer(text):
        s, e = m.span()
        if last < s:
            out.append(((last, s), False))
        out.extend(((i, i + 1), True) for i in range(s, e))
        last = e
    if last < len(text):
        out.append(((last, len(text)), False))
    return out


_NUMERIC = regex.compile(r"[\p{Nd}\p{Nl}\p{No}]+")
_PUNCT = regex.compile(HF_PUNCTUATION_SET + "+", regex.V1)  # tokenizers' is_punctuation, by its own tables
# The words some pre-tokenizers keep, as one regex over the piece (each kept word is one match, and
# nothing between matches is kept): the same pieces as their split_piece steps, cut in one pass.
_NOT_WS = regex.compile(r"\P{White_Space}+")  # WhitespaceSplit: whitespace runs removed
_BERT_WORDS = regex.compile(  # then punctuation isolated
    f"{HF_PUNCTUATION_SET}|[^\\p{{White_Space}}{HF_PUNCTUATION_SET}]+", regex.V1
)


def _slices(piece: Piece, pattern) -> list[Piece]:
    return [piece.slice(*m.span()) for m in pattern.finditer(piece.text, timeout=budget.regex_timeout())]


# ================================================================================================
# pre-tokenizers
# ================================================================================================
class PreTokenizer:
    """One tokenizers pre-tokenizer: ``__call__`` maps a list of pieces to the next list.

    ``cuts_only``: it only cuts pieces (never changes their text), so its pieces of an unchanged
    piece are stretches of it (:meth:`cut_piece`)."""

    byte_level = False
    cuts_only = False
    words = None  # a regex whose matches are exactly the pieces kept, where one regex does the whole cut

    def cut_piece(self, piece: Piece) -> list[Piece]:
        """The pieces one piece is cut into (a ByteLevel with its regex: before its bytes)."""
        return self([piece])

    def cut_spans(self, text: str, a: int, b: int) -> list[Span]:
        """For a ``cuts_only`` step: the (start, end) stretches of ``text`` its pieces of ``text[a:b]`` are."""
        return [(a + p.base, a + p.base + len(p.text)) for p in self.cut_piece(Piece(text[a:b], 0))]

    def __call__(self, pieces: list[Piece]) -> list[Piece]:  # pragma: no cover - overridden
        raise NotImplementedError


class ByteLevel(PreTokenizer):
    byte_level = True

    def __init__(self, obj: dict) -> None:
        self.add_prefix_space = bool(obj.get("add_prefix_space", True))
        self.use_regex = bool(obj.get("use_regex", True))
        self.regex = regex.compile(pt.GPT2_PATTERN)

    def cut_piece(self, piece: Piece) -> list[Piece]:
        return split_piece(piece, find_matches(piece.text, self.regex), "Isolated")

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            if self.add_prefix_space and not piece.text.startswith(" "):
                piece = piece.prepend(" ")
            if self.use_regex:
                out.extend(split_piece(piece, find_matches(piece.text, self.regex), "Isolated"))
            else:
                out.append(piece)
        return [p.to_bytes() for p in out if p.text]


class Split(PreTokenizer):
    cuts_only = True

    def __init__(self, obj: dict) -> None:
        self.regex = compile_pattern(obj.get("pattern"), "Split pre-tokenizer")
        self.behavior = obj.get("behavior", "Isolated")
        if self.behavior not in BEHAVIORS:
            raise ValueError(
                f"The Split pre-tokenizer's behavior {shown(self.behavior)} is not one of {', '.join(BEHAVIORS)}."
            )
        self.invert = bool(obj.get("invert", False))

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            if self.regex is None:
                matches = [((0, len(piece.text)), False)]
            else:
                matches = find_matches(piece.text, self.regex)
            if self.invert:
                matches = [(span, not m) for span, m in matches]
            out.extend(split_piece(piece, matches, self.behavior))
        return out

    def cut_spans(self, text: str, a: int, b: int) -> list[Span]:
        if self.behavior != "Isolated" or self.regex is None:
            return super().cut_spans(text, a, b)
        # Isolated keeps every match and every stretch between, matched or not (split_piece), so the
        # stretches are read straight off the matches, with no piece made for each
        out, prev = [], a
        for s, e in match_spans(self.regex, text[a:b]):
            if a + s > prev:
                out.append((prev, a + s))
            if s < e:  # an empty match still ends the stretch before it (Pattern::find_matches)
                out.append((a + s, a + e))
            prev = a + e
        if prev < b:
            out.append((prev, b))
        return out


class Metaspace(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        rep = obj.get("replacement", "▁")
        if not isinstance(rep, str) or len(rep) != 1:
            raise ValueError(f"The Metaspace pre-tokenizer's replacement should be one character, not {shown(rep)}.")
        self.replacement = rep
        scheme = obj.get("prepend_scheme")
        if scheme is None:  # old files: add_prefix_space
            scheme = "always" if obj.get("add_prefix_space", True) else "never"
        if scheme not in ("always", "first", "never"):
            raise ValueError(f"The Metaspace prepend_scheme {shown(scheme)} is not one of always, first, never.")
        self.scheme = scheme
        self.split = bool(obj.get("split", True))

    def __call__(self, pieces):
        out = []
        rep = self.replacement
        for piece in pieces:
            piece = piece.replace_char(" ", rep)
            if self.scheme == "always" or (self.scheme == "first" and piece.original_start() == 0):
                if not piece.text.startswith(rep):
                    piece = piece.prepend(rep)
            if self.split:
                out.extend(split_piece(piece, _char_matches(piece.text, lambda c: c == rep), "MergedWithNext"))
            else:
                out.append(piece)
        return out


class Whitespace(PreTokenizer):
    cuts_only = True
    words = _WORD

    def __call__(self, pieces):  # the matches of \w+|[^\w\s]+, everything else removed
        out = []
        for piece in pieces:
            out.extend(_slices(piece, _WORD))
        return out


class WhitespaceSplit(PreTokenizer):
    cuts_only = True
    words = _NOT_WS

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(_slices(piece, _NOT_WS))
        return out


class Digits(PreTokenizer):
    cuts_only = True

    def __init__(self, obj: dict) -> None:
        self.behavior = "Isolated" if obj.get("individual_digits", False) else "Contiguous"

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _regex_class_matches(piece.text, _NUMERIC), self.behavior))
        return out


class Punctuation(PreTokenizer):
    cuts_only = True

    def __init__(self, obj: dict) -> None:
        self.behavior = obj.get("behavior", "Isolated")
        if self.behavior not in BEHAVIORS:
            raise ValueError(
                f"The Punctuation pre-tokenizer's behavior {shown(self.behavior)} is not one of {', '.join(BEHAVIORS)}."
            )

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _regex_class_matches(piece.text, _PUNCT), self.behavior))
        return out


class CharDelimiterSplit(PreTokenizer):
    cuts_only = True

    def __init__(self, obj: dict) -> None:
        d = obj.get("delimiter")
        if not isinstance(d, str) or len(d) != 1:
            raise ValueError(f"The CharDelimiterSplit delimiter should be one character, not {shown(d)}.")
        self.delimiter = d

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _char_matches(piece.text, lambda c: c == self.delimiter), "Removed"))
        return out


class BertPreTokenizer(PreTokenizer):
    cuts_only = True
    words = _BERT_WORDS

    def __call__(self, pieces):
        out = []
        for piece in pieces:  # whitespace removed, then each punctuation character on its own
            out.extend(_slices(piece, _BERT_WORDS))
        return out


class SequencePre(PreTokenizer):
    def __init__(self, parts: list[PreTokenizer]) -> None:
        self.parts = parts
        self.byte_level = any(p.byte_level for p in parts)

    def __call__(self, pieces):
        for part in self.parts:
            pieces = part(pieces)
        return pieces


def build_pre_tokenizer(obj: Any) -> PreTokenizer | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError(f"The file's pre_tokenizer should be an object, not {shown(obj)}.")
    kind = obj.get("type")
    if kind == "ByteLevel":
        return ByteLevel(obj)
    if kind == "Split":
        return Split(obj)
    if kind == "Metaspace":
        return Metaspace(obj)
    if kind == "Whitespace":
        return Whitespace()
    if kind == "WhitespaceSplit":
        return WhitespaceSplit()
    if kind == "Digits":
        return Digits(obj)
    if kind == "Punctuation":
        return Punctuation(obj)
    if kind == "CharDelimiterSplit":
        return CharDelimiterSplit(obj)
    if kind == "BertPreTokenizer":
        return BertPreTokenizer()
    if kind == "Sequence":
        parts = obj.get("pretokenizers")
        if not isinstance(parts, list):
            raise ValueError("The file's Sequence pre-tokenizer has no list of 'pretokenizers'.")
        built = [build_pre_tokenizer(p) for p in parts]
        return SequencePre([p for p in built if p is not None])
    raise ValueError(
        f"This file's pre-tokenizer {component_name(obj)} is not one BPE Explorer reads (it reads {', '.join(FILE_PRE_TOKENIZERS)})."
    )


def component_name(obj: Any) -> str:
    return shown(obj.get("type", "without a type")) if isinstance(obj, dict) else shown(obj)
