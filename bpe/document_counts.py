"""Documents' word counts combined wrongly: each word keeps its largest count in any one document, not the sum.

A reader that counts each document (the text between two special tokens) on its own and joins the counts with
``Counter |=`` takes their union, which keeps for each word the largest of its counts, where ``+=`` (or
``update``) adds them; a word spread over several documents is counted as if it held only its commonest one.

Left out: the other faulty readers (:mod:`bpe.count_faults`), which name this one beside them.
"""

from __future__ import annotations

from collections import Counter


def documents_max(reading, chunks: int) -> tuple[Counter, tuple[list[str], list[str]]]:
    """Each word's largest count in one document of ``reading`` (a :class:`bpe.count_faults.Reading`), and the word
    that loses the most by it."""
    counts: Counter = Counter()
    for a, b in reading.docs:
        counts |= Counter(m.group() for m in reading.pattern.finditer(reading.text, a, b))
    less = reading.true - counts
    word = max(less, key=lambda w: (less[w], w), default=None)
    return counts, ([word] if word is not None else [], [])
