"""BPE trainers as people write their own in other languages, with faults of set AR's classes, written for the tests
independently of ``bpe/``. Words are cut at whitespace, each a list of its characters, no end-of-word symbol.

Kinds (:data:`AR_KINDS`):

- ``words-first``: the pairs counted afresh each step; the pair met first among those counted most (plain);
- ``lazy-count-heap``: the counts kept in a dict and a heap of ``(count, n)`` entries, ``n`` the push's number, so
  the entries compare the counts alone and equal counts come out first pushed first (a C++ ``std::priority_queue``
  of ``(count, pair)`` compared on the count leaves them in its own order; here one such order); a merge moves the
  pairs beside each occurrence and pushes an entry only for a pair whose count rose; an entry whose count is no
  longer its pair's is dropped when it comes out, so a pair whose count fell is lost until it gains.
"""

from __future__ import annotations

import heapq

from line_trainers import train_sequences  # the plain loop, shared

AR_KINDS = ("words-first", "lazy-count-heap")
BASE = {"lazy-count-heap": "words-first"}

Pair = tuple[str, str]


def _words(text: str) -> dict[tuple[str, ...], int]:
    words: dict[tuple[str, ...], int] = {}
    for word in text.split():
        words[tuple(word)] = words.get(tuple(word), 0) + 1
    return words


def _lazy_heap(words: dict[tuple[str, ...], int], num_merges: int) -> list[Pair]:
    counts: dict[Pair, int] = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n
    heap: list[tuple[int, int, Pair]] = []
    pushes = 0

    def push(pair: Pair) -> None:
        nonlocal pushes
        heapq.heappush(heap, (-counts[pair], pushes, pair))
        pushes += 1

    for pair in counts:
        push(pair)
    splits = {w: list(w) for w in words}
    merges: list[Pair] = []
    while len(merges) < num_merges and heap:
        n, _, best = heapq.heappop(heap)
        if counts.get(best, 0) != -n or n == 0:
            continue  # stale: dropped
        merges.append(best)
        a, b = best
        for word, f in words.items():
            split, out, i = splits[word], [], 0
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    moves = [((out[-1], a), (out[-1], a + b))] if out else []
                    if i + 2 < len(split):
                        moves.append(((b, split[i + 2]), (a + b, split[i + 2])))
                    for old, new in moves:
                        counts[old] -= f  # the fault: no entry for the count that fell
                        counts[new] = counts.get(new, 0) + f
                        push(new)
                    out.append(a + b)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            splits[word] = out
        counts.pop(best, None)
    return merges


def ar_train(text: str, num_merges: int, kind: str) -> list[Pair]:
    """The merges of the trainer ``kind`` (:data:`AR_KINDS`) on ``text``."""
    if kind == "words-first":
        return train_sequences([list(w) for w, n in _words(text).items() for _ in range(n)], num_merges)
    if kind == "lazy-count-heap":
        return _lazy_heap(_words(text), num_merges)
    raise ValueError(f"unknown kind {kind!r}")
