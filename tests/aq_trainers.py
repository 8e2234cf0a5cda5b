"""BPE trainers as students write their own, with faults of set AQ's classes, written for the tests independently of
``bpe/``. Words are cut at whitespace, each a list of its characters and an end-of-word symbol; the pairs are counted
afresh each step and the pair met first among those counted most is merged.

Kinds (:data:`AQ_KINDS`):

- ``sennrich``: each word ends in ``</w>`` (plain);
- ``bar``: each word ends in ``|`` (a mark of the student's own);
- ``ascii-bar``: the text kept to its ASCII letters in their case first (``re.sub(r'[^A-Za-z]+', ' ', text)``), each
  word ending in ``|``;
- ``az-underscore``: the text lowercased and kept to a-z first (``re.sub(r'[^a-z]+', ' ', text.lower())``), each word
  ending in ``_``;
- ``ascii-sennrich``: the text kept to its ASCII letters in their case, each word ending in ``</w>``.
"""

from __future__ import annotations

import re

from line_trainers import train_sequences  # the plain loop, shared

AQ_KINDS = ("sennrich", "bar", "ascii-bar", "az-underscore", "ascii-sennrich")
BASE = {kind: "sennrich" for kind in AQ_KINDS}
MARK = {"sennrich": "</w>", "bar": "|", "ascii-bar": "|", "az-underscore": "_", "ascii-sennrich": "</w>"}

Pair = tuple[str, str]


def _cleaned(text: str, kind: str) -> str:
    if kind.startswith("ascii-"):
        return re.sub(r"[^A-Za-z]+", " ", text)
    if kind == "az-underscore":
        return re.sub(r"[^a-z]+", " ", text.lower())
    return text


def aq_train(text: str, num_merges: int, kind: str) -> list[Pair]:
    """The merges of the trainer ``kind`` (:data:`AQ_KINDS`) on ``text``."""
    if kind not in AQ_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    words: dict[tuple[str, ...], int] = {}
    for word in _cleaned(text, kind).split():
        symbols = (*word, MARK[kind])
        words[symbols] = words.get(symbols, 0) + 1
    return train_sequences([list(w) for w, n in words.items() for _ in range(n)], num_merges)
