"""A run over UTF-16 code units, replayed: each character outside the BMP two surrogate halves, with the tie rule
that follows the run furthest.

A trainer in JavaScript, Java or C# indexes a string by UTF-16 code units, so a character outside the Basic
Multilingual Plane (an emoji, ``😀``) is two surrogate halves, each pasted as ``'\\ufffd'``; their pair is counted and
merged as any other. Where the run holds such a pair, :func:`utf16_reach` replays a plain loop over the units (a
fresh count each step, every occurrence merged left to right) with the first or the last pair of the greatest count
in the order the count meets them (a ``reduce`` that keeps the later of equal counts), so a tie rule acting before
the halves' pair is merged is found with them. Only a text not cut into words (no pre-tokenization) is replayed.

Left out: the halves' pair told where it first appears, with no replay (:mod:`bpe.check_missing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .check_ties import TIE_SENTENCES
from .formats.cs336 import BytePair
from .pre_tokenizers import Corpus
from .word_merges import merge_all

_HALF = "\ufffd".encode()
RULES = ("first", "last-recounted")  # the first pair of the greatest count met, or the last


@dataclass(frozen=True)
class Utf16Run:
    """How far the loop over UTF-16 units follows the run, with which tie rule, and a character split in two."""

    reach: int
    rule: str
    astral: str


def _units(text: str) -> list[str]:
    out: list[str] = []
    for c in text:
        if ord(c) > 0xFFFF:
            v = ord(c) - 0x10000
            out += [chr(0xD800 + (v >> 10)), chr(0xDC00 + (v & 0x3FF))]
        else:
            out.append(c)
    return out


def _shown(token: str) -> bytes:
    """A token as the student pastes it: two halves of a character joined back, a lone half a replacement character."""
    return token.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")


def _follows(seqs: list[list[str]], merges: Sequence[BytePair], last: bool) -> int:
    for k, wanted in enumerate(merges):
        counts: dict[tuple[str, str], int] = {}
        for seq in seqs:
            for p in zip(seq, seq[1:]):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            return k
        top = max(counts.values())
        tied = [p for p, c in counts.items() if c == top]
        best = tied[-1] if last else tied[0]
        if (_shown(best[0]), _shown(best[1])) != tuple(wanted):
            return k
        a, b = best
        seqs[:] = [merge_all(seq, (a, b))[0] for seq in seqs]  # (symbols of str: merge_all needs only == and +)
    return len(merges)


def utf16_reach(corpus: Corpus, merges: Sequence[BytePair], pre_tokenizer: str, limit: int) -> Utf16Run | None:
    """The loop over UTF-16 units that follows the run furthest (at most ``limit`` merges), where the run merges a
    pair holding a surrogate half and the text, not cut into words, holds a character outside the BMP; else None."""
    if pre_tokenizer != "none" or isinstance(corpus, Mapping) or not corpus:
        return None
    if not any(_HALF in a + b for a, b in merges[:limit]):
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts) or any("\ufffd" in t for t in texts):
        return None
    astral = next((c for t in texts for c in t if ord(c) > 0xFFFF), None)
    if astral is None:
        return None
    best = None
    for rule in RULES:
        n = _follows([_units(t) for t in texts], merges[:limit], rule != "first")
        if best is None or n > best.reach:
            best = Utf16Run(n, rule, astral)
    return best


def utf16_told(head: str, found: Utf16Run, ours: str, merges: Sequence[BytePair], step: int) -> str:
    """The sentence for a run over UTF-16 code units, with a tie rule of its own where it is not ours: the one that
    acts at ``step`` told first."""
    units = (
        "your symbols are UTF-16 code units (a string as JavaScript, Java or C# index it), so a character outside the "
        f"Basic Multilingual Plane, such as {found.astral}, is two surrogate halves (each pasted as '\ufffd'), whose "
        "pair your run counts and merges as any other"
    )
    made = f"makes your merges through step {found.reach}"
    if found.rule == ours:
        return f"{head}: {units}. A loop over those units {made}."
    tie = f"your ties are broken by the '{found.rule}' rule ({TIE_SENTENCES[found.rule]}), where ours is '{ours}'"
    halves = next((k for k, (a, b) in enumerate(merges, start=1) if _HALF in a + b), step)
    if halves <= step:
        return f"{head}: {units}; and {tie}. A loop over those units with that rule {made}."
    return (
        f"{head}: {tie}, which makes your choice here; and {units} (at step {halves}). A loop over those units with "
        f"that rule {made}."
    )
