"""A BPE trainer of characters over words cut at whitespace, with a fault of set BB's classes, written for the tests
independently of ``bpe/``: each distinct word split into its characters, the pair counts kept in a dict updated after
each merge, the pair counted most taken (of equal counts, the first met in a scan of the words as they are, in
first-seen order).

Kinds (:data:`BB_KINDS`):

- ``words-first``: each word holding the pair merged, its old pairs subtracted and its new ones added (plain);
- ``kept-readded``: each word holding the pair merged, then each pair of the old split that the new split no longer
  holds subtracted, and every pair of the new split added (``for p in new_pairs: counts[p] += n``), so the pairs the
  word keeps are counted once more at every merge that touches it.
"""

from __future__ import annotations

from collections import Counter

from line_trainers import _merged  # the plain merge, shared

BB_KINDS = ("words-first", "kept-readded")
BASE = {"kept-readded": "words-first"}


def bb_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The merges of the trainer ``kind`` (:data:`BB_KINDS`) on ``text``."""
    if kind not in BB_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    freqs = Counter(text.split())
    splits = {word: list(word) for word in freqs}
    counts: Counter = Counter()
    for word, n in freqs.items():
        for pair in zip(splits[word], splits[word][1:]):
            counts[pair] += n
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        top = max(counts.values(), default=0)
        if top <= 0:
            break
        tied = {p for p, c in counts.items() if c == top}
        scan = [p for word in freqs for p in zip(splits[word], splits[word][1:]) if p in tied]
        best = scan[0] if scan else next(p for p in counts if p in tied)
        merges.append(best)
        for word, n in freqs.items():
            old = splits[word]
            old_pairs = list(zip(old, old[1:]))
            if best not in old_pairs:
                continue
            new = _merged(old, best)
            new_pairs = list(zip(new, new[1:]))
            splits[word] = new
            if kind == "kept-readded":
                for p in old_pairs:
                    if p not in new_pairs:
                        counts[p] -= n
            else:
                for p in old_pairs:
                    counts[p] -= n
            for p in new_pairs:
                counts[p] += n
        del counts[best]
    return merges
