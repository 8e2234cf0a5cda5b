"""A BPE trainer as people write their own, with faults of set AE's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`AE_KINDS`), the pairs counted afresh each step and the pair met first among those counted most taken,
the first two over the whole text's characters, one sequence:

- ``whole-chars``: the plain trainer;
- ``words-eow``: each whitespace-split word's characters and ``'</w>'`` (the plain trainer of words);
- ``space-key``: each pair kept as one string, ``a + ' ' + b``, and read back with ``key.split(' ')`` (its first two
  parts, as JavaScript's ``const [a, b] = key.split(' ')`` takes them): a pair holding the space token reads back as
  empty strings, so its merge changes nothing, and the loop stops at the first merge whose token it already holds;
- ``ws-words-eow``: the words of ``re.findall(r'\\S+|\\s+', text)``, each run of whitespace a word of its own, each
  word's characters followed by ``'</w>'``; ``ws-words-eow-bytes``: the same over each word's UTF-8 bytes (in GPT-2's
  byte characters), ``'</w>'`` still after each word.
"""

from __future__ import annotations

import re
from collections import Counter

from faulty_trainers import merge_left_to_right
from line_trainers import train_sequences  # the plain loop, shared with the line trainers
from w_trainers import CHARS  # GPT-2's byte characters

AE_KINDS = ("whole-chars", "space-key", "words-eow", "ws-words-eow", "ws-words-eow-bytes")
BASE = {"space-key": "whole-chars", "ws-words-eow": "words-eow", "ws-words-eow-bytes": "words-bytes"}


def space_key(text: str, num_merges: int, stops: bool = True) -> list[tuple[str, str]]:
    """The merges of a loop whose pair key is ``a + ' ' + b`` split back on ``' '``; ``stops``: it ends at the
    first merge whose token it already holds (else it takes the pair again)."""
    seq, vocab, merges = list(text), set(text), []
    while len(merges) < num_merges:
        counts = Counter(f"{a} {b}" for a, b in zip(seq, seq[1:]))
        if not counts:
            break
        key = counts.most_common(1)[0][0]
        a, b = key.split(" ")[:2]
        if stops and a + b in vocab:
            break
        vocab.add(a + b)
        merges.append(tuple(next(p for p in zip(seq, seq[1:]) if f"{p[0]} {p[1]}" == key)))  # the pair counted
        seq = list(merge_left_to_right(seq, a, b))
    return merges


def ae_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "space-key":
        return space_key(text, num_merges)
    if kind in ("words-eow", "ws-words-eow", "ws-words-eow-bytes"):
        words = re.findall(r"\S+|\s+", text) if kind.startswith("ws-") else text.split()
        if kind.endswith("-bytes"):
            return train_sequences([[*(CHARS[b] for b in w.encode()), "</w>"] for w in words], num_merges)
        return train_sequences([[*w, "</w>"] for w in words], num_merges)
    return train_sequences([list(text)], num_merges)
