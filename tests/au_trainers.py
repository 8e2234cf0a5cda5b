"""BPE trainers of characters over words cut at whitespace, with a fault of set AU's classes, written for the tests
independently of ``bpe/``: each word's distinct spelling split into its characters (no end mark), the pairs counted
afresh each step over the words in first-seen order, the first pair counted most taken (``max(counts,
key=counts.get)``).

Kinds (:data:`AU_KINDS`):

- ``words-first``: each merge rewrites the words holding the pair, correctly (plain);
- ``tail-every``: each merge rewrites every word of two characters or more into a new list, scanning ``while i <
  len(split) - 1`` and appending nothing after the scan, so every word, also one that does not hold the pair, loses
  its last symbol at every merge unless the pair takes it.
"""

from __future__ import annotations

AU_KINDS = ("words-first", "tail-every")
BASE = {"tail-every": "words-first"}


def au_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The merges of the trainer ``kind`` (:data:`AU_KINDS`) on ``text``."""
    if kind not in AU_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    freqs: dict[str, int] = {}
    for word in text.split():
        freqs[word] = freqs.get(word, 0) + 1
    splits = {word: list(word) for word in freqs}
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        counts: dict[tuple[str, str], int] = {}
        for word, n in freqs.items():
            split = splits[word]
            for pair in zip(split, split[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break
        best = max(counts, key=counts.get)
        merges.append(best)
        for word in freqs:
            split = splits[word]
            if len(split) < 2 or kind == "words-first" and best not in zip(split, split[1:]):
                continue
            new, i = [], 0
            while i < len(split) - 1:
                if (split[i], split[i + 1]) == best:
                    new.append(best[0] + best[1])
                    i += 2
                else:
                    new.append(split[i])
                    i += 1
            if kind == "words-first" and i == len(split) - 1:
                new.append(split[-1])
            splits[word] = new
    return merges
