"""A run whose symbols are whole words, not characters: each line's (or the text's) words merged in pairs.

A trainer meant to split each word into characters sometimes never does: ``''.join(list(line))`` where
``' '.join(list(line))`` was meant gives the line back, and its ``split()`` gives the line's words, so every pair it
counts is two words side by side (``('low', 'low')``) and its first merge joins two whole words. Such a first merge
holds no pair our corpus has, and its bytes (``lowlow``) stand nowhere in the text, though the two words stand side by
side in it. :func:`word_symbols` tells whether the student's first merge is two words adjacent in the text, and how
far a loop over words as symbols (each line a sequence of its words, with or without an end symbol ``'</w>'`` after
the line's last word, or the whole text one sequence) follows the run: a fresh count each step, the first pair met
among those counted most, every occurrence merged left to right.

Left out: the other pairs our corpus never has (:mod:`bpe.check_missing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .formats.cs336 import BytePair
from .pre_tokenizers import Corpus
from .word_merges import merge_all

_END = "</w>"
# how the words are grouped into sequences, said to the student
_LAYOUTS = {
    ("lines", _END, False): "each line one sequence of its words, '</w>' after its last word",
    ("lines", "", False): "each line one sequence of its words",
    ("text", "", False): "the whole text one sequence of its words",
    ("lines", _END, True): "each line one sequence of its words, '</w>' after its last word, and the text's last "
    "character dropped, as line[:-1] does to a last line with no newline",
}


@dataclass(frozen=True)
class WordSymbols:
    """The student's first merge read as two words side by side: the words, the layout that follows the run
    furthest (said to the student) and how many of the student's merges it makes."""

    pair: tuple[str, str]
    layout: str
    follows: int


def _texts(corpus: Corpus) -> list[str] | None:
    if isinstance(corpus, Mapping) or not corpus:
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    return texts if all(isinstance(t, str) for t in texts) else None


def _sequences(texts: Sequence[str], group: str, end: str, cut: bool) -> list[list[str]]:
    if cut:  # the last line, which has no newline, loses its last character to line[:-1]
        texts = [t if t.endswith("\n") else t[:-1] for t in texts]
    chunks = [line for t in texts for line in t.splitlines()] if group == "lines" else list(texts)
    return [[*words, *([end] if end else [])] for words in (c.split() for c in chunks) if words]


def _follows(seqs: list[list[str]], merges: Sequence[tuple[str, str]]) -> int:
    """How many of ``merges`` a loop over ``seqs`` makes in a row (fresh counts, the first pair met of the most)."""
    for k, wanted in enumerate(merges):
        counts: dict[tuple[str, str], int] = {}
        for seq in seqs:
            for p in zip(seq, seq[1:]):
                counts[p] = counts.get(p, 0) + 1
        if not counts or max(counts, key=counts.__getitem__) != wanted:
            return k
        a, b = wanted
        seqs[:] = [merge_all(seq, (a, b))[0] for seq in seqs]  # (symbols of str: merge_all needs only == and +)
    return len(merges)


def word_symbols(corpus: Corpus, merges: Sequence[BytePair]) -> WordSymbols | None:
    """The student's first merge as two whole words side by side in the text, with the loop over words as symbols
    that follows the run furthest; None when the first merge is not two adjacent words."""
    texts = _texts(corpus)
    if texts is None or not merges:
        return None
    try:
        pairs = [(a.decode("utf-8"), b.decode("utf-8")) for a, b in merges]
    except UnicodeDecodeError:
        return None
    first = pairs[0]
    if any(not t or any(c.isspace() for c in t) for t in first) or max(map(len, first)) < 2:
        return None  # two words of one character each are two characters too: not told as words
    best: tuple[int, str] | None = None  # the first layout is kept where others follow as far
    for (group, end, cut), said in _LAYOUTS.items():
        seqs = _sequences(texts, group, end, cut)
        if not any(p == first for s in seqs for p in zip(s, s[1:])):
            continue
        n = _follows(seqs, pairs)
        if best is None or n > best[0]:
            best = (n, said)
    if best is None:
        return None
    return WordSymbols(first, best[1], best[0])


def word_symbols_told(head: str, found: WordSymbols, total: int) -> str:
    """The sentence for a run whose symbols are whole words."""
    a, b = found.pair
    made = (
        f"all {total} of your merges"
        if found.follows >= total
        else f"your first {found.follows} merge{'s' if found.follows != 1 else ''} of {total}"
    )
    return (
        f"{head}: your symbols are whole words, never split into characters. Your first merge joins the two whole "
        f"words '{a}' and '{b}', which stand side by side in the text: your trainer counts pairs of words (the "
        "characters of each line joined back with no spaces, ''.join(list(line)) where ' '.join was meant, and the "
        "line then split at its spaces), so it merges words, not characters. A loop over words as symbols "
        f"({found.layout}) makes {made}. Split each word into its characters before counting."
    )
