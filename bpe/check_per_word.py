"""A run that lists each merge once for every word holding its pair: ``merges.append`` inside the loop over words.

Such a trainer merges correctly but records the merge in the loop that visits the words holding the pair, so
``(s, t)`` is listed twice where two words hold it, and the list is longer than the vocabulary allows. The merges
taken once each are the run the trainer really made: :func:`per_word` finds the pattern (each merge repeated
exactly as many times as our words hold its pair, up to the first merge where that fails, which another bug may
cause, at least two merges repeated before it, and one of them repeated otherwise than a loop merging one occurrence
a step would, which repeats a merge as often as one word holds the pair), and :mod:`bpe.check` compares the
merges taken once each and tells both.

Left out: comparing the merges taken once each (:mod:`bpe.check`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .check_setup import Setup, student_words
from .formats.cs336 import BytePair
from .pre_tokenizers import Corpus
from .word_merges import merge_all

CHECKED = 60  # the merges whose repeats are counted against the words holding them, no more (the time it takes)


@dataclass(frozen=True)
class PerWord:
    """The merges taken once each, the first repeated one (its step in the student's list, its pair, the words
    holding it)."""

    merges: tuple[BytePair, ...]
    step: int
    pair: BytePair
    words: tuple[str, ...]


def per_word(corpus: Corpus, setup: Setup, specials: Sequence[str], merges: Sequence[BytePair], eow: bool):
    """The run as merges taken once each, or None where its repeats are not one per word holding the pair."""
    groups: list[tuple[BytePair, int]] = []
    for pair in merges:
        if groups and groups[-1][0] == pair:
            groups[-1] = (pair, groups[-1][1] + 1)
        else:
            groups.append((pair, 1))
    if all(k == 1 for _, k in groups):
        return None
    texts, words, _ = student_words(corpus, setup, specials, eow)
    splits = [list(w) for w in words]
    first: PerWord | None = None
    repeated = 0
    telling = False  # a repeat that a loop merging one occurrence a step (one per word holding it twice) would not make
    for at, (pair, k) in enumerate(groups[:CHECKED]):
        holding = [i for i, s in enumerate(splits) if any(p == pair for p in zip(s, s[1:]))]
        if len(holding) != k:  # another bug parts the runs here: the repeats before it are what tells
            break
        if k > 1:
            repeated += 1
            most = max(sum(p == pair for p in zip(splits[i], splits[i][1:])) for i in holding)
            telling = telling or most != k
            if first is None:
                step = sum(n for _, n in groups[:at]) + 2
                first = PerWord((), step, pair, tuple(texts[i] for i in holding))
        for i in holding:
            splits[i] = merge_all(splits[i], pair)[0]
    if first is None or repeated < 2 or not telling:
        return None  # one repeat that happens to match the words holding the pair is no pattern
    return PerWord(tuple(p for p, _ in groups), first.step, first.pair, first.words)
