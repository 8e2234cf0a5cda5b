"""BPE trainers as students write their own, with faults of set AS's classes, written for the tests independently of
``bpe/``. Words are cut at whitespace, each a list of its characters and ``</w>``.

Kinds (:data:`AS_KINDS`):

- ``sennrich``: the pairs counted afresh each step over the word counts; the first pair of the greatest count (plain);
- ``word-types``: each distinct word counted once (its frequency never used), the counts kept in a dict for the whole
  run and the first pair with a strictly greater count taken; after each merge, for every distinct word, the merged
  pair's count goes down by one (deleted at zero), the old neighbours' pairs are never lowered, and at each merged
  symbol the pair with its left neighbour gains one (or, at a word's start, the pair with its right one).
"""

from __future__ import annotations

from line_trainers import _merged, first_greatest, train_sequences  # the plain loop and merge, shared

AS_KINDS = ("sennrich", "word-types")
BASE = {"word-types": "sennrich"}

Pair = tuple[str, str]


def as_train(text: str, num_merges: int, kind: str) -> list[Pair]:
    """The merges of the trainer ``kind`` (:data:`AS_KINDS`) on ``text``."""
    freqs: dict[tuple[str, ...], int] = {}
    for word in text.split():
        symbols = (*word, "</w>")
        freqs[symbols] = freqs.get(symbols, 0) + 1
    words = {w: list(w) for w in freqs}
    merges: list[Pair] = []
    if kind == "sennrich":
        return train_sequences([list(w) for w, n in freqs.items() for _ in range(n)], num_merges)
    if kind != "word-types":
        raise ValueError(f"unknown kind {kind!r}")
    counts = {}
    for split in words.values():
        for pair in zip(split, split[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    while len(merges) < num_merges and counts:
        best = first_greatest(counts)
        if best is None:
            break
        merges.append(best)
        joined = best[0] + best[1]
        for w, split in words.items():
            new = _merged(split, best)
            counts[best] = counts.get(best, 0) - 1
            if counts[best] == 0:
                del counts[best]
            for i, symbol in enumerate(new):
                if symbol == joined and (i > 0 or i + 1 < len(new)):
                    pair = (new[i - 1], symbol) if i > 0 else (symbol, new[i + 1])
                    counts[pair] = counts.get(pair, 0) + 1
            words[w] = new
    return merges
