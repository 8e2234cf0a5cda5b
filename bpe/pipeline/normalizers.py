"""Normalisers of a ``tokenizer.json``, with the offsets ``tokenizers`` keeps for every character.

Each normaliser is a function from :class:`~bpe.pipeline.piece.Piece` to Piece, built from the
file's JSON by :func:`build_normalizer`. Normalisers read: NFC, NFD, NFKC, NFKD, Lowercase, Strip,
StripAccents, Prepend, Replace, BertNormalizer, Sequence (:data:`NORMALIZERS`).

Left out: any other normaliser (Precompiled, NmtNormalizer, ByteLevel...): it raises a ValueError
that names it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import regex

from .. import budget
from ..config import Span, shown
from .hf_unicode import HF_MARKS, HF_NONSPACING, HF_UNCLEAN
from .onig import compile_pattern, match_spans
from .piece import WHITE_SPACE, Piece

NORMALIZERS = (
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "Strip",
    "StripAccents",
    "Prepend",
    "Replace",
    "BertNormalizer",
    "Sequence",
)


def _unicode(form: str) -> Callable[[Piece], Piece]:
    compose = form in ("NFC", "NFKC")
    single = "NFD" if form in ("NFC", "NFD") else "NFKD"

    def normalize(piece: Piece) -> Piece:
        text = piece.text
        if unicodedata.is_normalized(form, text):
            return piece
        budget.grow(len(unicodedata.normalize(form, text)), "normalizer", len(text))
        # An ASCII character is a starter that is its own decomposition: marks are never reordered
        # across it, and it composes only with what follows it. So each stretch of non-ASCII text,
        # with the one ASCII character before it (its possible starter), is normalised on its own,
        # and the ASCII stretches between them are kept as they are, spans and all.
        spans = piece.spans()
        chars: list[str] = []
        align: list[Span] = []
        last = 0
        for m in _NON_ASCII.finditer(text):
            s, e = m.span()
            run = text[s:e]
            if unicodedata.is_normalized(form, run):
                continue
            changes = _decompose_chars(run, single)
            if compose:
                changes = _recompose(changes)
            done = Piece(run, spans[s][0], spans[s:e]).transform(changes)
            chars.append(text[last:s])
            align.extend(spans[last:s])
            chars.append(done.text)
            align.extend(done.align)
            last = e
        chars.append(text[last:])
        align.extend(spans[last:])
        return Piece("".join(chars), piece.original_start(), align)

    return normalize


# The alignments below follow ``unicode-normalization-alignments`` (the crate tokenizers normalises
# with), step by step: each character decomposed (its first part replaces it, the others are added
# after), each run of marks after a starter sorted by combining class (stably, the marks carrying
# their alignment with them), then, to compose, each starter joined with the characters that may
# join it, a joined character standing for everything it absorbed. Two starters compose too
# (Hangul conjoining jamo, the two parts of a Tamil or Bengali vowel), which is why this is done
# character by character rather than run by run.
_NON_ASCII = regex.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")  # a non-ASCII stretch and the character before it


def _decompose_chars(text: str, form: str) -> list[tuple[str, int]]:
    """(character, change) of ``text`` decomposed and canonically ordered (``Decompositions``)."""
    out: list[tuple[str, int]] = []
    classes: list[int] = []
    pending = 0  # where the run still to be sorted starts
    ccc = unicodedata.combining
    for c in text:
        d = unicodedata.normalize(form, c) if not c.isascii() else c
        for k, x in enumerate(d):
            cls = ccc(x)
            if cls == 0:
                _sort_run(out, classes, pending)
                pending = len(out)
            out.append((x, 0 if k == 0 else 1))
            classes.append(cls)
    _sort_run(out, classes, pending)
    return out


def _sort_run(out: list, classes: list[int], start: int) -> None:
    if len(out) - start > 1:
        order = sorted(range(start, len(out)), key=classes.__getitem__)  # stable
        out[start:] = [out[i] for i in order]
        classes[start:] = [classes[i] for i in order]


def _compose_pair(a: str, b: str) -> str | None:
    """The primary composite of ``a`` then ``b``, if there is one (``char::compose``)."""
    key = a + b
    r = _COMPOSED.get(key, "")
    if r == "":
        joined = unicodedata.normalize("NFC", key)
        ok = len(joined) == 1 and unicodedata.normalize("NFD", joined) == unicodedata.normalize("NFD", key)
        r = _COMPOSED[key] = joined if ok else None
        if len(_COMPOSED) > 100_000:
            _COMPOSED.clear()
    return r


_COMPOSED: dict[str, str | None] = {}


def _recompose(stream: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(character, change) of a decomposed stream composed again (``Recompositions``)."""
    out: list[tuple[str, int]] = []
    ccc = unicodedata.combining
    composee: tuple[str, int] | None = None
    last: int | None = None  # combining class of the last character kept after the composee
    buffer: list[tuple[str, int]] = []
    for ch, change in stream:
        cls = ccc(ch)
        if composee is None:
            if cls != 0:
                out.append((ch, change))
            else:
                composee = (ch, change)
            continue
        if last is None or last < cls:  # not blocked from the composee
            r = _compose_pair(composee[0], ch)
            if r is not None:
                composee = (r, composee[1] + change - 1)
                continue
        if cls == 0:
            out.append(composee)
            out.extend(buffer)
            buffer.clear()
            composee, last = (ch, change), None
            continue
        buffer.append((ch, change))
        last = cls
    if composee is not None:
        out.append(composee)
    out.extend(buffer)
    return out


def _lowercase(piece: Piece) -> Piece:
    text = piece.text
    lowered = text.lower()
    budget.grow(len(lowered), "normalizer", len(text))
    if len(lowered) == len(text) and "Σ" not in text:
        return Piece(lowered, piece.base, piece.align)
    changes = []
    for c in text:
        low = c.lower()
        changes.append((low[0], 0))
        changes.extend((x, 1) for x in low[1:])
    return piece.transform(changes)


def _strip(left: bool, right: bool) -> Callable[[Piece], Piece]:
    def strip(piece: Piece) -> Piece:
        text = piece.text
        a, b = 0, len(text)
        if left:
            while a < b and text[a] in WHITE_SPACE:
                a += 1
        if right:
            while b > a and text[b - 1] in WHITE_SPACE:
                b -= 1
        return piece if (a, b) == (0, len(text)) else piece.slice(a, b)

    return strip


def _filter(drop) -> Callable[[Piece], Piece]:
    """Remove the characters the compiled regex ``drop`` matches (each kept character keeps its span)."""

    def filtered(piece: Piece) -> Piece:
        text = piece.text
        if drop.search(text) is None:
            return piece
        spans = piece.spans()
        chars: list[str] = []
        align: list[Span] = []
        last = 0
        for m in drop.finditer(text):
            s, e = m.span()
            chars.append(text[last:s])
            align.extend(spans[last:s])
            last = e
        chars.append(text[last:])
        align.extend(spans[last:])
        return Piece("".join(chars), piece.original_start(), align)

    return filtered


# StripAccents: every mark (Mn, Mc, Me); BertNormalizer's strip_accents: Mn only; each as
# tokenizers' own Unicode tables have them (see hf_unicode.py: Python's tables are newer)
_MARKS = HF_MARKS
_NONSPACING = HF_NONSPACING
# BertNormalizer's clean_text drops NUL, U+FFFD and the Cc/Cf/Co/Cs characters other than \t \n \r
_UNCLEAN = HF_UNCLEAN  # by tokenizers' tables (hf_unicode.py)
_CHINESE = regex.compile(
    "[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f\U0002b740-\U0002b81f"
    "\U0002b920-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f]"
)
# BertNormalizer's whitespace other than " " itself (each becomes " ")
_TO_SPACE = regex.compile("[" + regex.escape("".join(sorted((WHITE_SPACE | set("\t\n\r")) - {" "}))) + "]")


def _replace(pattern, content: str) -> Callable[[Piece], Piece]:
    def replace(piece: Piece) -> Piece:
        text = piece.text
        matches = match_spans(pattern, text)  # in Oniguruma's order (empty matches differ from Python's)
        if not matches:
            return piece
        if len(content) == 1 and all(e - s == 1 for s, e in matches):
            chars = list(text)
            for s, _ in matches:
                chars[s] = content
            return Piece("".join(chars), piece.base, piece.align)
        # the length it would make, checked before the text and its offsets are built
        removed = sum(e - s for s, e in matches)
        budget.grow(len(text) - removed + len(matches) * len(content), "Replace normalizer", len(text))
        spans = piece.spans()
        chars: list[str] = []
        align: list[Span] = []
        last = 0
        start = spans[0][0] if spans else piece.base
        for s, e in matches:
            chars.append(text[last:s])
            align.extend(spans[last:s])
            # tokenizers: the new characters all share the span of the last replaced one
            al = spans[e - 1] if e >= 1 else (start, start)
            chars.append(content)
            align.extend([al] * len(content))
            last = e
        chars.append(text[last:])
        align.extend(spans[last:])
        return Piece("".join(chars), piece.original_start(), align)

    return replace


def _bert(obj: dict) -> Callable[[Piece], Piece]:
    clean = bool(obj.get("clean_text", True))
    chinese = bool(obj.get("handle_chinese_chars", True))
    lowercase = bool(obj.get("lowercase", True))
    strip_accents = obj.get("strip_accents")
    if strip_accents is None:
        strip_accents = lowercase
    drop = _filter(_UNCLEAN)
    nfd = _unicode("NFD")
    no_marks = _filter(_NONSPACING)

    def bert(piece: Piece) -> Piece:
        if clean:
            piece = drop(piece)
            text = piece.text
            mapped = _TO_SPACE.sub(" ", text)
            if mapped != text:
                piece = Piece(mapped, piece.base, piece.align)
        if chinese and _CHINESE.search(piece.text) is not None:
            piece = _space_chinese(piece)
        if strip_accents:
            piece = no_marks(nfd(piece))
        if lowercase:
            piece = _lowercase(piece)
        return piece

    return bert


def _space_chinese(piece: Piece) -> Piece:
    """A space before and after each CJK ideograph; all three characters take its span (the
    ``transform`` of [(" ", 0), (c, 1), (" ", 1)] in ``tokenizers``)."""
    text = piece.text
    found = [m.start() for m in _CHINESE.finditer(text)]
    budget.grow(len(text) + 2 * len(found), "normalizer", len(text))
    spans = piece.spans()
    chars: list[str] = []
    align: list[Span] = []
    last = 0
    for i in found:
        chars.append(text[last:i])
        align.extend(spans[last:i])
        chars.append(f" {text[i]} ")
        align.extend((spans[i], spans[i], spans[i]))
        last = i + 1
    chars.append(text[last:])
    align.extend(spans[last:])
    return Piece("".join(chars), piece.original_start(), align)


def build_normalizer(obj: Any) -> Callable[[Piece], Piece] | None:
    """A tokenizer.json normalizer as a function on pieces (None: no normalizer)."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError(f"The file's normalizer should be an object, not {shown(obj)}.")
    kind = obj.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return _unicode(kind)
    if kind == "Lowercase":
        return _lowercase
    if kind == "Strip":
        return _strip(bool(obj.get("strip_left", True)), bool(obj.get("strip_right", True)))
    if kind == "StripAccents":
        return _filter(_MARKS)
    if kind == "Prepend":
        s = obj.get("prepend")
        if not isinstance(s, str):
            raise ValueError(f"The Prepend normalizer needs a 'prepend' text, not {shown(s)}.")

        def prepend(piece: Piece) -> Piece:
            if piece.text:
                budget.grow(len(s) + len(piece.text), "Prepend normalizer", len(piece.text))
            return piece.prepend(s)

        return prepend
    if kind == "Replace":
        pattern = compile_pattern(obj.get("pattern"), "Replace normalizer")
        content = obj.get("content", "")
        if not isinstance(content, str):
            raise ValueError(f"The Replace normalizer's content should be text, not {shown(content)}.")
        if pattern is None:
            return lambda piece: piece
        literal = obj["pattern"].get("String") if isinstance(obj.get("pattern"), dict) else None
        if isinstance(literal, str) and len(literal) == 1 and len(content) == 1:
            # one character for one (SentencePiece's " " -> "▁"): the same text, every span unchanged
            return lambda piece: Piece(piece.text.replace(literal, content), piece.base, piece.align)
        return _replace(pattern, content)
    if kind == "BertNormalizer":
        return _bert(obj)
    if kind == "Sequence":
        parts = obj.get("normalizers")
        if not isinstance(parts, list):
            raise ValueError("The file's Sequence normalizer has no list of 'normalizers'.")
        built = [f for f in (build_normalizer(p) for p in parts) if f is not None]
        if not built:
            return None

        def sequence(piece: Piece) -> Piece:
            for f in built:
                piece = f(piece)
            return piece

        return sequence
    named = shown(kind) if isinstance(kind, str) else "without a type"
    raise ValueError(
        f"This file's normalizer {named} is not one BPE Explorer reads (it reads {', '.join(NORMALIZERS)})."
    )
