"""Normalisers of a ``tokenizer.json``, with the offsets ``tokenizers`` keeps for every character.

:class:`Piece` is ``tokenizers``' ``NormalizedString`` in characters: the normalised text and,
for each of its characters, the (start, end) span of the original text it stands for. The rules
for a changed character follow ``NormalizedString::transform_range``: a character that replaces
one takes its span; a character added after another shares the previous one's; a character that
absorbs removed ones keeps its own.

Normalisers read: NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Prepend, Replace,
BertNormalizer, Sequence (:data:`NORMALIZERS`); any other raises a ValueError that names it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import regex

from . import pre_tokenizers as pt
from .config import Span

REGEX_TIMEOUT = 5.0  # seconds a file's (or a typed) pattern may run on one text: no pattern holds the server
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

# Rust's char::is_whitespace: the Unicode White_Space property (Python's isspace adds \x1c-\x1f).
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def is_whitespace(c: str) -> bool:
    return c in _WHITE_SPACE


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
        b = self.base
        return [(b + i, b + i + 1) for i in range(len(self.text))]

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


def _class_end(pattern: str, i: int) -> int:
    """The index just after the character class that opens at ``pattern[i]`` (``[``), nested
    classes and escapes included; a leading ``^`` and a ``]`` right after the opening are literal."""
    n, j = len(pattern), i + 1
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    depth = 1
    while j < n and depth:
        if pattern[j] == "\\":
            j += 2
            continue
        depth += {"[": 1, "]": -1}.get(pattern[j], 0)
        j += 1
    return j


_INTERVAL = regex.compile(r"\{(\d*)(,?)(\d*)\}\+")


def _interval_plus(pattern: str) -> tuple[int, int, int] | None:
    """The first ``ATOM{n,m}+`` in ``pattern``: (atom start, interval start, end after the ``+``)."""
    i, n = 0, len(pattern)
    atom = -1
    groups: list[int] = []
    while i < n:
        c = pattern[i]
        if c == "\\":
            atom = i
            if i + 1 < n and pattern[i + 1] in "pPNx" and i + 2 < n and pattern[i + 2] == "{":
                i = pattern.find("}", i) + 1 or n
            else:
                i += 2
            continue
        if c == "[":
            atom = i
            i = _class_end(pattern, i)
            continue
        if c == "(":
            groups.append(i)
            i += 1
            if pattern.startswith("?", i):  # (?:  (?i:  (?=  (?<name> ...: skip to the group's body
                while i < n and pattern[i] not in ":)=!>" and not pattern.startswith("?<", i - 1):
                    i += 1
            continue
        if c == ")":
            atom = groups.pop() if groups else -1
            i += 1
            continue
        if c == "{":
            m = _INTERVAL.match(pattern, i)
            if m and (m.group(1) or m.group(3)) and atom >= 0:
                return atom, i, m.end()
            i += 1
            continue
        if c not in "*+?|^$":
            atom = i
        i += 1
    return None


def _anchor_positions(pattern: str) -> list[tuple[int, str]]:
    """Unescaped ``^``/``$`` outside character classes, and ``\\z``/``\\Z`` escapes, with their index."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 < n and pattern[i + 1] in "zZ":
                out.append((i, pattern[i : i + 2]))
            i += 2
            continue
        if c == "[":
            i = _class_end(pattern, i)
            continue
        if c in "^$":
            out.append((i, c))
        i += 1
    return out


# Oniguruma's \\w, measured against tokenizers over every character Unicode 3.2 assigned: the
# regex package's \\w adds the joiners U+200C/U+200D and lacks ¹ ² ³ ¼ ½ ¾.
_ONIG_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u00b2\u00b3\u00b9\u00bc-\u00be"


def _onig_word_classes(pattern: str) -> str:
    out, i, n, depth = [], 0, len(pattern), 0
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            if e == "w":
                out.append(_ONIG_WORD if depth else f"[{_ONIG_WORD}]")
            elif e == "W" and not depth:
                out.append(f"[^{_ONIG_WORD}]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":
            depth += 1
            out.append(c)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if depth == 1 and pattern.startswith("]", i):
                out.append("]")
                i += 1
            continue
        if c == "]" and depth:
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)


def onig_pattern(pattern: str) -> str:
    """A ``tokenizers`` (Oniguruma, Ruby syntax) regex for the ``regex`` package.

    Two differences matter. Oniguruma reads ``X{1,3}+`` as ``(?:X{1,3})+`` (an interval, then
    "one or more"), while ``regex`` (and tiktoken) read a possessive interval: tiktoken's cl100k
    pattern has ``\\p{N}{1,3}+``, which ``tokenizers`` therefore matches as any run of digits.
    And Oniguruma's ``^``/``$`` are line anchors (``regex``'s ``(?m)``), its ``\\z`` the end of the
    text (``regex``'s ``\\Z``), and its ``\\w`` a slightly different set. ``++``, ``*+`` and ``?+``
    are possessive in both.
    """
    for _ in range(100):
        found = _interval_plus(pattern)
        if found is None:
            break
        atom, brace, end = found
        pattern = pattern[:atom] + "(?:" + pattern[atom : end - 1] + ")+" + pattern[end:]
    anchors = _anchor_positions(pattern)
    for i, a in reversed(anchors):
        if a == "\\z":
            pattern = pattern[:i] + "\\Z" + pattern[i + 2 :]
        elif a == "\\Z":  # Oniguruma: end, or before a final newline
            pattern = pattern[:i] + "(?=\\n?\\Z)" + pattern[i + 2 :]
    pattern = _onig_word_classes(pattern)
    if any(a in "^$" for _, a in anchors):
        pattern = "(?m)" + pattern
    return pattern


def possessive_to_onig(pattern: str) -> str:
    """A ``regex``/tiktoken pattern written so Oniguruma reads it alike: ``X{1,3}+`` (possessive
    here) becomes the atomic group ``(?>X{1,3})``, and ``$`` (the end of the text) ``\\z``."""
    for _ in range(100):
        found = _interval_plus(pattern)
        if found is None:
            break
        atom, brace, end = found
        pattern = pattern[:atom] + "(?>" + pattern[atom : end - 1] + ")" + pattern[end:]
    # tiktoken's $ is the end of the text: Oniguruma's \\z (its $ is the end of a line)
    for i, a in reversed(_anchor_positions(pattern)):
        if a == "$":
            pattern = pattern[:i] + "\\z" + pattern[i + 1 :]
        elif a == "^":
            pattern = pattern[:i] + "\\A" + pattern[i + 1 :]
        elif a == "\\Z":
            pattern = pattern[:i] + "\\z" + pattern[i + 2 :]
    return pattern


def compile_pattern(obj: Any, where: str):
    """A tokenizers ``pattern`` ({"String": s} or {"Regex": r}) compiled with ``regex`` (None for "")."""
    if isinstance(obj, dict) and isinstance(obj.get("String"), str):
        return regex.compile(regex.escape(obj["String"])) if obj["String"] else None
    if isinstance(obj, dict) and isinstance(obj.get("Regex"), str):
        try:
            return regex.compile(onig_pattern(obj["Regex"]))
        except regex.error as exc:
            raise ValueError(
                f"The {where} pattern {obj['Regex']!r} is not a regex BPE Explorer can read: {exc}."
            ) from None
    raise ValueError(f'The {where} needs a pattern written {{"String": ...}} or {{"Regex": ...}}, not {obj!r}.')


def find_matches(text: str, pattern) -> list[tuple[Span, bool]]:
    """``Pattern::find_matches`` for a regex: every stretch of ``text``, flagged if it matched."""
    if not text:
        return [((0, 0), False)]
    out, prev = [], 0
    for m in pattern.finditer(text, timeout=REGEX_TIMEOUT):
        s, e = m.span()
        if prev != s:
            out.append(((prev, s), False))
        out.append(((s, e), True))
        prev = e
    if prev != len(text):
        out.append(((prev, len(text)), False))
    return out


# ================================================================================================
# the normalisers
# ================================================================================================
def _unicode(form: str) -> Callable[[Piece], Piece]:
    compose = form in ("NFC", "NFKC")

    def normalize(piece: Piece) -> Piece:
        text = piece.text
        if unicodedata.is_normalized(form, text):
            return piece
        target = unicodedata.normalize(form, text)
        changes = _decompose_changes(text, form) if not compose else None
        if changes is None or "".join(c for c, _ in changes) != target:
            changes = _chunk_changes(text, form)
        if "".join(c for c, _ in changes) != target:  # could not align piecewise: one block
            changes = _block_changes(text, target)
        return piece.transform(changes)

    return normalize


def _decompose_changes(text: str, form: str) -> list[tuple[str, int]]:
    out = []
    for c in text:
        d = unicodedata.normalize(form, c)
        out.append((d[0], 0))
        out.extend((x, 1) for x in d[1:])
    return out


def _chunks(text: str):
    """Runs of a starter (combining class 0) and the marks after it."""
    start = 0
    for i in range(1, len(text)):
        if unicodedata.combining(text[i]) == 0:
            yield text[start:i]
            start = i
    if text:
        yield text[start:]


def _block_changes(src: str, out: str) -> list[tuple[str, int]]:
    m, k = len(src), len(out)
    if k >= m:
        return [(c, 0) for c in out[:m]] + [(c, 1) for c in out[m:]]
    if k == 0:
        return []
    return [(out[0], -(m - k))] + [(c, 0) for c in out[1:]]


def _chunk_changes(text: str, form: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for chunk in _chunks(text):
        norm = unicodedata.normalize(form, chunk)
        if norm == chunk:
            out.extend((c, 0) for c in chunk)
            continue
        per_char = [unicodedata.normalize(form, c) for c in chunk]
        if "".join(per_char) == norm:
            for d in per_char:
                out.append((d[0], 0))
                out.extend((x, 1) for x in d[1:])
        else:
            out.extend(_block_changes(chunk, norm))
    return out


def _lowercase(piece: Piece) -> Piece:
    text = piece.text
    lowered = text.lower()
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
            while a < b and text[a] in _WHITE_SPACE:
                a += 1
        if right:
            while b > a and text[b - 1] in _WHITE_SPACE:
                b -= 1
        return piece if (a, b) == (0, len(text)) else piece.slice(a, b)

    return strip


def _filter(keep: Callable[[str], bool]) -> Callable[[Piece], Piece]:
    def filtered(piece: Piece) -> Piece:
        text = piece.text
        if all(keep(c) for c in text):
            return piece
        spans = piece.spans()
        idx = [i for i, c in enumerate(text) if keep(c)]
        return Piece("".join(text[i] for i in idx), piece.original_start(), [spans[i] for i in idx])

    return filtered


def _is_mark(c: str) -> bool:
    return unicodedata.category(c).startswith("M")


def _replace(pattern, content: str) -> Callable[[Piece], Piece]:
    def replace(piece: Piece) -> Piece:
        text = piece.text
        matches = list(pattern.finditer(text, timeout=REGEX_TIMEOUT))
        if not matches:
            return piece
        if len(content) == 1 and all(m.end() - m.start() == 1 for m in matches):
            return Piece(pattern.sub(lambda _m: content, text), piece.base, piece.align)
        spans = piece.spans()
        chars: list[str] = []
        align: list[Span] = []
        last = 0
        start = spans[0][0] if spans else piece.base
        for m in matches:
            s, e = m.span()
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


def _is_chinese(c: str) -> bool:
    o = ord(c)
    return (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0x20000 <= o <= 0x2A6DF
        or 0x2A700 <= o <= 0x2B73F
        or 0x2B740 <= o <= 0x2B81F
        or 0x2B920 <= o <= 0x2CEAF
        or 0xF900 <= o <= 0xFAFF
        or 0x2F800 <= o <= 0x2FA1F
    )


def _bert(obj: dict) -> Callable[[Piece], Piece]:
    clean = bool(obj.get("clean_text", True))
    chinese = bool(obj.get("handle_chinese_chars", True))
    lowercase = bool(obj.get("lowercase", True))
    strip_accents = obj.get("strip_accents")
    if strip_accents is None:
        strip_accents = lowercase
    drop = _filter(
        lambda c: not (c in "\x00\ufffd" or (c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs")))
    )
    nfd = _unicode("NFD")
    no_marks = _filter(lambda c: unicodedata.category(c) != "Mn")

    def bert(piece: Piece) -> Piece:
        if clean:
            piece = drop(piece)
            text = piece.text
            mapped = "".join(" " if (c in "\t\n\r" or c in _WHITE_SPACE) else c for c in text)
            if mapped != text:
                piece = Piece(mapped, piece.base, piece.align)
        if chinese and any(_is_chinese(c) for c in piece.text):
            changes = []
            for c in piece.text:
                if _is_chinese(c):
                    changes.extend([(" ", 0), (c, 1), (" ", 1)])
                else:
                    changes.append((c, 0))
            piece = piece.transform(changes)
        if strip_accents:
            piece = no_marks(nfd(piece))
        if lowercase:
            piece = _lowercase(piece)
        return piece

    return bert


def build_normalizer(obj: Any) -> Callable[[Piece], Piece] | None:
    """A tokenizer.json normalizer as a function on pieces (None: no normalizer)."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError(f"The file's normalizer should be an object, not {obj!r}.")
    kind = obj.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return _unicode(kind)
    if kind == "Lowercase":
        return _lowercase
    if kind == "Strip":
        return _strip(bool(obj.get("strip_left", True)), bool(obj.get("strip_right", True)))
    if kind == "StripAccents":
        return _filter(lambda c: not _is_mark(c))
    if kind == "Prepend":
        s = obj.get("prepend")
        if not isinstance(s, str):
            raise ValueError(f"The Prepend normalizer needs a 'prepend' text, not {s!r}.")
        return lambda piece: piece.prepend(s)
    if kind == "Replace":
        pattern = compile_pattern(obj.get("pattern"), "Replace normalizer")
        content = obj.get("content", "")
        if not isinstance(content, str):
            raise ValueError(f"The Replace normalizer's content should be text, not {content!r}.")
        return (lambda piece: piece) if pattern is None else _replace(pattern, content)
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
    shown = repr(kind) if isinstance(kind, str) else "without a type"
    raise ValueError(
        f"This file's normalizer {shown} is not one BPE Explorer reads (it reads {', '.join(NORMALIZERS)})."
    )
