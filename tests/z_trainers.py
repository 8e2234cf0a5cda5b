"""A BPE trainer as people write their own, with faults of set Z's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`Z_KINDS`):

- ``words-eow``: each whitespace-split word's characters and ``'</w>'``, counted afresh each step over the words in
  the text's order, the pair met first among those counted most taken (the plain trainer);
- ``space-end``: each line cut at single spaces (``line.strip().split(' ')``), every word but the line's last ending
  in a SPACE character as its end mark (``word + ' '``), the line's last word in none;
- ``alnum-space``: the words of the lowercased text with every character other than a-z, A-Z and 0-9 made a space
  first (``re.sub('[^a-zA-Z0-9]', ' ', text)``), each with ``'</w>'``;
- ``first-to-top``: the plain trainer's words in a dict of word counts (first-seen order), its best pair kept as it
  counts (``counts[p] += n``, then ``if counts[p] > best_count: best = p``), so of the pairs counted most the one
  whose count reaches the top first in the scan wins: the one whose last occurrence comes first;
- ``first-to-top-text``: the same loop over a list of every word as the text has them (not a dict of counts), so
  the pair whose last occurrence comes first in the text wins.
"""

from __future__ import annotations

import re

from line_trainers import _merged  # the plain left-to-right merge, shared with the line trainers

Z_KINDS = ("words-eow", "space-end", "alnum-space", "first-to-top", "first-to-top-text")
BASE = {
    "space-end": "words-eow",
    "alnum-space": "words-eow",
    "first-to-top": "words-eow",
    "first-to-top-text": "words-eow",
}


def _sequences(text: str, kind: str) -> list[list[str]]:
    if kind == "space-end":
        seqs = []
        for line in text.splitlines():
            words = line.strip().split(" ")
            marked = [w + " " for w in words[:-1]] + [words[-1]]
            seqs += [list(w) for w in marked if w]
        return seqs
    if kind == "alnum-space":
        text = re.sub("[^a-zA-Z0-9]", " ", text).lower()
    return [[*word, "</w>"] for word in text.split()]


def _count(seqs: list[list[str]]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for seq in seqs:
        for p in zip(seq, seq[1:]):
            counts[p] = counts.get(p, 0) + 1
    return counts


def _first_to_top(vocab: dict[tuple[str, ...], int] | list[tuple[tuple[str, ...], int]]) -> tuple[str, str] | None:
    counts: dict[tuple[str, str], int] = {}
    best, best_count = None, 0
    for word, n in vocab.items() if isinstance(vocab, dict) else vocab:
        for p in zip(word, word[1:]):
            counts[p] = counts.get(p, 0) + n
            if counts[p] > best_count:
                best, best_count = p, counts[p]
    return best


def _train_first_to_top(seqs: list[list[str]], num_merges: int) -> list[tuple[str, str]]:
    vocab: dict[tuple[str, ...], int] = {}
    for seq in seqs:
        vocab[tuple(seq)] = vocab.get(tuple(seq), 0) + 1
    merges = []
    while len(merges) < num_merges and (best := _first_to_top(vocab)) is not None:
        merges.append(best)
        merged: dict[tuple[str, ...], int] = {}
        for word, n in vocab.items():
            new = tuple(_merged(list(word), best))
            merged[new] = merged.get(new, 0) + n
        vocab = merged
    return merges


def z_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    seqs = _sequences(text, kind)
    merges: list[tuple[str, str]] = []
    if kind == "first-to-top":
        return _train_first_to_top(seqs, num_merges)
    if kind == "first-to-top-text":
        merges = []
        while len(merges) < num_merges and (best := _first_to_top([(tuple(s), 1) for s in seqs])) is not None:
            merges.append(best)
            seqs = [_merged(s, best) for s in seqs]
        return merges
    for _ in range(num_merges):
        counts = _count(seqs)
        if not counts:
            break
        best = max(counts, key=counts.get)
        merges.append(best)
        seqs = [_merged(s, best) for s in seqs]
    return merges
