"""A BPE trainer of the whole text's characters, with a fault of set BC's classes, written for the tests independently
of ``bpe/``: the pairs counted in a scan of the text, the best kept while counting (``if counts[p] > best_count``),
so of equal counts the pair whose count reaches the top first in the scan wins; merged left to right.

Kinds (:data:`BC_KINDS`):

- ``whole-reached``: the counts made afresh at each step (plain);
- ``set-once``: not on the whole text but on words cut at whitespace, each ended by ``'</w>'``, each word's pairs
  taken as a set (``set(zip(w, w[1:]))``: a pair counts once per word, times the word's count), counted afresh each
  step, and of equal counts the pair whose MD5 digest is smallest taken: an order no rule follows, as a hash set's;
- ``present-accumulated``: the dict of counts made once, before the loop, and never cleared, so each scan adds the
  text's pairs to the counts of the scans before; the best is kept while scanning, so only a pair the text holds now
  can be taken, however high the count a merged or destroyed pair kept.
"""

from __future__ import annotations

import hashlib

from line_trainers import _merged  # the plain merge, shared

BC_KINDS = ("whole-reached", "present-accumulated", "set-once")
BASE = {"present-accumulated": "whole-reached"}


def bc_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The merges of the trainer ``kind`` (:data:`BC_KINDS`) on ``text``."""
    if kind not in BC_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if kind == "set-once":
        return _set_once(text, num_merges)
    seq = list(text)
    counts: dict[tuple[str, str], int] = {}
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        if kind == "whole-reached":
            counts = {}
        best, best_count = None, 0
        for pair in zip(seq, seq[1:]):
            counts[pair] = counts.get(pair, 0) + 1
            if counts[pair] > best_count:
                best, best_count = pair, counts[pair]
        if best is None:
            break
        merges.append(best)
        seq = _merged(seq, best)
    return merges


def _set_once(text: str, num_merges: int) -> list[tuple[str, str]]:
    freqs: dict[str, int] = {}
    for word in text.split():
        freqs[word] = freqs.get(word, 0) + 1
    splits = {word: [*word, "</w>"] for word in freqs}
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        counts: dict[tuple[str, str], int] = {}
        for word, n in freqs.items():
            for pair in set(zip(splits[word], splits[word][1:])):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break
        top = max(counts.values())
        best = min((p for p, c in counts.items() if c == top), key=lambda p: hashlib.md5(repr(p).encode()).digest())
        merges.append(best)
        splits = {word: _merged(split, best) for word, split in splits.items()}
    return merges
