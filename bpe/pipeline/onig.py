"""Regexes of a ``tokenizer.json`` or a ``.tiktoken`` pattern, read with Oniguruma's meaning.

``tokenizers`` compiles its patterns with Oniguruma (Rust's ``onig``); this engine runs the ``regex``
package. The two dialects mostly agree; this module translates where they do not: possessive
intervals (``{1,3}+``), ``\\w`` (Oniguruma's word characters), ``$`` and ``\\Z`` anchors, and
character classes with nested classes or intersections (``[\\p{L}&&[^\\p{Han}]]``, Kimi K2's), which
the ``regex`` package's default syntax would read as characters (:func:`_set_class`). A tiktoken
pattern is Rust's syntax: :func:`possessive_to_onig` writes it for Oniguruma (its ``\\w``, ``\\b`` and
ASCII POSIX classes spelled out). Possessive quantifiers, atomic groups and ``\\p{...}`` scripts and
categories read alike in all three. :func:`compile_pattern` reads a file's
``{"Regex": ...}``/``{"String": ...}`` pattern, :func:`find_matches` is ``Pattern::find_matches``,
and every match runs within its request's time budget (:func:`~bpe.budget.regex_timeout`).

Left out: Oniguruma features no tokenizer file uses (callouts, absent operators, named backreferences).

>>> possessive_to_onig("[0-9]{1,3}+")  # Oniguruma's possessive interval, as an atomic group
'(?>[0-9]{1,3})'
"""

from __future__ import annotations

from typing import Any

import regex

from .. import budget
from ..config import Span, shown


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


def _class_items(pattern: str, i: int, end: int) -> list[str | list]:
    """The items of the class body ``pattern[i:end]``: text pieces (a character, an escape, a POSIX
    bracket ``[:alpha:]``), nested classes (as ``("[", text)``) and ``"&&"``."""
    items: list = []
    while i < end:
        c = pattern[i]
        if c == "\\":
            j = i + 2
            if pattern[i + 1 : i + 2] in ("p", "P", "x", "N", "u") and pattern.startswith("{", j):
                j = pattern.find("}", j) + 1 or end
            items.append(pattern[i:j])
            i = j
        elif c == "[" and pattern.startswith("[:", i) and pattern.find(":]", i + 2) != -1:
            j = pattern.find(":]", i + 2) + 2
            items.append(pattern[i:j])
            i = j
        elif c == "[":
            j = _class_end(pattern, i)
            items.append(("[", pattern[i:j]))
            i = j
        elif pattern.startswith("&&", i):
            items.append("&&")
            i += 2
        else:
            items.append(c)
            i += 1
    return items


def _set_class(text: str) -> str:
    """A character class that may hold nested classes or ``&&`` (Oniguruma's and Rust's set
    operations: ``[\\p{L}&&[^\\p{Han}]]``, Kimi K2's letters that are not Han), written for the ``regex``
    package's default syntax, which has neither (it would read ``&&`` and ``[`` as characters): a
    union becomes an alternation, an intersection lookaheads on the one character, a negation
    ``(?!...)`` before any one character. A plain class comes back unchanged."""
    negated = text.startswith("[^")
    j = 1 + negated
    first: list = ["\\]"] if text[j : j + 1] == "]" else []  # a leading ] is a character
    items = first + _class_items(text, j + len(first), len(text) - 1)
    if not any(item == "&&" or isinstance(item, tuple) for item in items):
        return text
    operands: list[list] = [[]]
    for item in items:
        if item == "&&":
            operands.append([])
        else:
            operands[-1].append(item)
    exprs = []
    for operand in operands:
        if not operand:
            raise ValueError(f"the class {text} has an empty side of its intersection (&&)")
        plain = "".join(x for x in operand if isinstance(x, str))
        alternatives = ([f"[{plain}]"] if plain else []) + [_set_class(x[1]) for x in operand if isinstance(x, tuple)]
        exprs.append(alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")")
    one = "".join(f"(?={e})" for e in exprs[:-1]) + exprs[-1]
    return f"(?:(?!{one})(?s:.))" if negated else f"(?:{one})"


def _set_classes(pattern: str) -> str:
    """Every class of ``pattern`` with nested classes or ``&&`` rewritten by :func:`_set_class`."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
        elif c == "[":
            j = _class_end(pattern, i)
            out.append(_set_class(pattern[i:j]))
            i = j
        else:
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
    pattern = _set_classes(_onig_word_classes(pattern))
    if any(a in "^$" for _, a in anchors):
        pattern = "(?m)" + pattern
    return pattern


# tiktoken's patterns are Rust's regex syntax (fancy-regex), where \\w is Alphabetic, marks, decimal
# digits, connector punctuation and the joiners U+200C/U+200D (Oniguruma's \\w has no joiners but has
# ¹ ² ³ ¼ ½ ¾), \\b is a boundary of that \\w, and the POSIX classes ([[:alpha:]]) are ASCII only.
_RUST_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d"
_RUST_BOUNDARY = {
    "b": f"(?:(?<=[{_RUST_WORD}])(?![{_RUST_WORD}])|(?<![{_RUST_WORD}])(?=[{_RUST_WORD}]))",
    "B": f"(?:(?<=[{_RUST_WORD}])(?=[{_RUST_WORD}])|(?<![{_RUST_WORD}])(?![{_RUST_WORD}]))",
}
_POSIX = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": "\\x00-\\x7F",
    "blank": "\\t ",
    "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\t\\n\\x0B\\f\\r ",
    "upper": "A-Z",
    "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}
_POSIX_RE = regex.compile(r"\[:(\^?)([a-z]+):\]")


def _rust_classes(pattern: str) -> str:
    """``\\w``, ``\\W``, ``\\b``, ``\\B`` and POSIX classes of a tiktoken (Rust) pattern, spelled out as
    explicit sets that Oniguruma and the ``regex`` package both read as Rust does."""
    out, i, n, depth = [], 0, len(pattern), 0
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            if e == "w":
                out.append(_RUST_WORD if depth else f"[{_RUST_WORD}]")
            elif e == "W":
                out.append(f"[^{_RUST_WORD}]")
            elif e in "bB" and not depth:
                out.append(_RUST_BOUNDARY[e])
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        m = _POSIX_RE.match(pattern, i) if depth and c == "[" else None
        if m:
            if m.group(2) not in _POSIX:
                raise ValueError(f"the POSIX class [:{m.group(2)}:] is not one Rust's regex syntax knows")
            body = _POSIX[m.group(2)]
            out.append(f"[^{body}]" if m.group(1) else body)
            i = m.end()
            continue
        if c == "[":
            depth += 1
            out.append(c)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):
                out.append("\\]")
                i += 1
            continue
        if c == "]" and depth:
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)


def possessive_to_onig(pattern: str) -> str:
    """A ``regex``/tiktoken pattern written so Oniguruma reads it alike: ``X{1,3}+`` (possessive
    here) becomes the atomic group ``(?>X{1,3})``, ``$`` (the end of the text) ``\\z``, and Rust's
    ``\\w``, ``\\b`` and POSIX classes explicit sets (:func:`_rust_classes`)."""
    pattern = _rust_classes(pattern)
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


MAX_PATTERN_CHARS = 10_000  # a file's pattern may be this long (published ones are under 1,000)


def compile_pattern(obj: Any, where: str):
    """A tokenizers ``pattern`` ({"String": s} or {"Regex": r}) compiled with ``regex``."""
    text = obj.get("String", obj.get("Regex")) if isinstance(obj, dict) else None
    if isinstance(text, str) and len(text) > MAX_PATTERN_CHARS:
        raise ValueError(
            f"The {where} pattern is {len(text):,} characters long; BPE Explorer reads patterns of at most "
            f"{MAX_PATTERN_CHARS:,}."
        )
    if isinstance(obj, dict) and isinstance(obj.get("String"), str):
        return regex.compile(regex.escape(obj["String"]))  # "" matches between every two characters, as in tokenizers
    if isinstance(obj, dict) and isinstance(obj.get("Regex"), str):
        try:
            return regex.compile(onig_pattern(obj["Regex"]))
        except (regex.error, ValueError) as exc:
            raise ValueError(
                f"The {where} pattern {shown(obj['Regex'])} is not a regex BPE Explorer can read: {exc}."
            ) from None
    raise ValueError(f'The {where} needs a pattern written {{"String": ...}} or {{"Regex": ...}}, not {shown(obj)}.')


def match_spans(pattern, text: str, pos: int = 0, endpos: int | None = None) -> list[Span]:
    """The matches of ``pattern`` in ``text[pos:endpos]`` in the order the ``onig`` crate's ``find_iter``
    (what ``tokenizers`` runs) gives them. The two differ only around empty matches: after a match that
    ends at ``e``, Oniguruma skips an empty match at ``e`` and searches again one character on, where
    Python's ``finditer`` reports that empty match, and after an empty match it may report a longer one
    starting at the same place (``(?=a)|a+`` on ``"aa"``: ``(0,0), (1,1)`` here, ``(0,0), (0,2)`` in Python).

    >>> import regex
    >>> match_spans(regex.compile(r"\\d*"), "ab1c"), match_spans(regex.compile(r"(?=a)|a+"), "aa")
    ([(0, 0), (1, 1), (2, 3), (4, 4)], [(0, 0), (1, 1)])
    """
    end = len(text) if endpos is None else endpos
    timeout = budget.regex_timeout()
    spans = [m.span() for m in pattern.finditer(text, pos, end, timeout=timeout)]
    if all(s != e for s, e in spans):
        return spans  # no empty match: both engines take the leftmost match from where the last ended
    out: list[Span] = []
    last_end, last_match_end = pos, None
    while last_end <= end:
        m = pattern.search(text, last_end, end, timeout=timeout)
        if m is None:
            break
        s, e = m.span()
        if s == e and last_end == last_match_end:
            last_end += 1
            continue
        last_end = last_match_end = e
        out.append((s, e))
    return out


def find_matches(text: str, pattern) -> list[tuple[Span, bool]]:
    """``Pattern::find_matches`` for a regex: every stretch of ``text``, flagged if it matched."""
    if not text:
        return [((0, 0), False)]
    out, prev = [], 0
    for s, e in match_spans(pattern, text):
        if prev != s:
            out.append(((prev, s), False))
        out.append(((s, e), True))
        prev = e
    if prev != len(text):
        out.append(((prev, len(text)), False))
    return out
