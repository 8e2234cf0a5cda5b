"""Added tokens of a ``tokenizer.json``: matched in the text before anything else cuts it.

:class:`AddedToken` holds one entry's options (``lstrip``, ``rstrip``, ``single_word``, ``normalized``,
``special``); :func:`added_matcher` and :func:`find_added` are ``tokenizers``' ``AddedVocabulary``
matching (leftmost-longest, as its Aho-Corasick automaton).

Left out: reading the entries from the file (:mod:`bpe.formats.tokenizer_json`).
"""

from __future__ import annotations

import regex

from ..config import Span

_STARTS_WITH_WORD = regex.compile(r"\w")  # used with match(text, pos): anchored at pos
_ENDS_WITH_WORD = regex.compile(r"\w\Z")  # \Z: Rust's $ (Python's $ also matches before a final newline)
_SPACE_AT_END = regex.compile(r"\s*\Z")
_SPACE_AT_START = regex.compile(r"\s*")  # used with match(text, pos)


class AddedToken:
    """One ``added_tokens`` entry: its text, id and matching options."""

    __slots__ = ("content", "id", "lstrip", "rstrip", "single_word", "normalized", "special")

    def __init__(self, obj: dict) -> None:
        self.content: str = obj["content"]
        self.id: int = obj["id"]
        self.lstrip = bool(obj.get("lstrip", False))
        self.rstrip = bool(obj.get("rstrip", False))
        self.single_word = bool(obj.get("single_word", False))
        self.special = bool(obj.get("special", False))
        self.normalized = bool(obj.get("normalized", not self.special))


def added_matcher(tokens, key):
    """Leftmost-longest matching (tokenizers' Aho-Corasick): alternatives longest first."""
    by: dict[str, AddedToken] = {}
    for a in tokens:
        k = key(a)
        if k:
            by.setdefault(k, a)
    if not by:
        return None, by
    return regex.compile("|".join(regex.escape(k) for k in sorted(by, key=len, reverse=True))), by


def find_added(text: str, pattern, by) -> list[tuple[AddedToken | None, Span]]:
    """AddedVocabulary::find_matches: the splits of ``text``, each an added token or None."""
    if pattern is None:
        return [(None, (0, len(text)))]
    out, start_offset = [], 0
    for m in pattern.finditer(text):
        start, stop = m.span()
        a = by[m.group()]
        if a.single_word:
            start_space = start == 0 or not _ENDS_WITH_WORD.search(text, 0, start)
            stop_space = stop == len(text) or not _STARTS_WITH_WORD.match(text, stop)
            if not (start_space and stop_space):
                continue
        if a.lstrip:
            start = max(_SPACE_AT_END.search(text, 0, start).start(), start_offset)
        if a.rstrip:
            stop = _SPACE_AT_START.match(text, stop).end()
        if start_offset < start:
            out.append((None, (start_offset, start)))
        out.append((a, (start, stop)))
        start_offset = stop
    if start_offset != len(text):
        out.append((None, (start_offset, len(text))))
    return out
