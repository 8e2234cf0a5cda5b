"""A character-level BPE trainer as students of other courses write it, with faults of set U's classes, one each,
written for the tests independently of ``bpe/``.

The trainer counts whitespace-split words, each its characters and ``'</w>'`` (as Sennrich et al.'s snippet), counts
pairs afresh each step in a dict and takes the pair seen first among those counted most, and merges every occurrence
of the pair in each word, left to right. Its run equals ours with the ``sennrich`` pre-tokenizer and the ``first``
tie rule. Faults (:data:`U_FAULTS`):

- ``space-underscore``: the whole text one sequence (no words, no ``'</w>'``), every space written ``'_'`` first;
- ``end-block``: words end in ``'▁'`` (SentencePiece's mark), not ``'</w>'``;
- ``start-underscore``: each word starts with ``'_'``, with no end symbol;
- ``punct-underscore``: punctuation cut off its words as words of their own (``re.findall(r"\\w+|[^\\s\\w]+")``)
  and words ending in ``'_'``, not ``'</w>'``: two known causes at once;
- ``hash-ties``: a tie goes to the pair first in an order no rule gives, as a set's or an unordered map's hash order
  does (here the order of each pair's MD5 digest, the same in every run);
- ``gpt2-unspaced``: words cut with GPT-2's pattern, each stored as ``' '.join(word)`` and ``split()`` back, so its
  leading space is lost (no end symbol, as GPT-2's words have none);
- ``lower-hash``: the text lowercased first and ties as ``hash-ties``: two causes, the second acting later;
- ``special-words``: the special tokens ``[PAD]``, ``[UNK]``, ``[BOS]``, ``[EOS]`` are added first as words, each
  one symbol and ``'</w>'``, with the count ``10**9``.
``whole-text`` (the whole text one sequence, spaces kept) and ``no-end`` (words with no end symbol) are the runs
without a fault that the first and third are compared with.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import regex

_GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""  # GPT-2's split pattern

U_FAULTS = (
    "space-underscore",
    "end-block",
    "start-underscore",
    "punct-underscore",
    "hash-ties",
    "gpt2-unspaced",
    "special-words",
)
SPECIALS = ("[PAD]", "[UNK]", "[BOS]", "[EOS]")


def u_vocab(text: str, fault: str | None = None) -> dict[tuple[str, ...], int]:
    """The sequences the trainer counts, each with its count, in first-seen order."""
    if fault in ("space-underscore", "whole-text"):
        return {tuple(text.replace(" ", "_") if fault == "space-underscore" else text): 1}
    if fault == "gpt2-unspaced":
        pieces = (" ".join(w).split() for w in regex.findall(_GPT2, text))
        return {tuple(p): n for p, n in Counter(tuple(p) for p in pieces if p).items()}
    words = Counter(re.findall(r"\w+|[^\s\w]+", text) if fault == "punct-underscore" else text.split())
    if fault in ("start-underscore", "no-end"):
        start = ("_",) if fault == "start-underscore" else ()
        return {(*start, *w): n for w, n in words.items()}
    end = {"end-block": "\u2581", "punct-underscore": "_"}.get(fault or "", "</w>")
    vocab = {(s, "</w>"): 10**9 for s in SPECIALS} if fault == "special-words" else {}
    vocab.update({(*w, end): n for w, n in words.items()})
    return vocab


def _merge(symbols: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def _digest(pair: tuple[str, str]) -> bytes:
    return hashlib.md5(f"{pair[0]} {pair[1]}".encode()).digest()


def u_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The trainer's merges on ``text``, in order."""
    vocab = u_vocab(text.lower() if fault == "lower-hash" else text, fault)
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        pairs: dict[tuple[str, str], int] = {}
        for symbols, n in vocab.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        top = max(pairs.values())
        tied = [p for p, n in pairs.items() if n == top]
        best = min(tied, key=_digest) if fault in ("hash-ties", "lower-hash") else tied[0]
        vocab = {_merge(symbols, best): n for symbols, n in vocab.items()}
        merges.append(best)
    return merges
