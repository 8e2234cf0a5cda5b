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


def _merged(word: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    out: list[str] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def aq_train(text: str, num_merges: int, kind: str) -> list[Pair]:
    """The merges of the trainer ``kind`` (:data:`AQ_KINDS`) on ``text``."""
    if kind not in AQ_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    words: dict[tuple[str, ...], int] = {}
    for word in _cleaned(text, kind).split():
        symbols = (*word, MARK[kind])
        words[symbols] = words.get(symbols, 0) + 1
    merges: list[Pair] = []
    while len(merges) < num_merges:
        counts: dict[Pair, int] = {}
        for symbols, n in words.items():
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break
        top = max(counts.values())
        best = next(p for p, n in counts.items() if n == top)
        merges.append(best)
        words = {_merged(w, best): n for w, n in words.items()}
    return merges
