"""The simplest readable BPE (and WordPiece) trainer: recount every pair, every step.

This is the course's loop written as plainly as possible: count the adjacent pairs of every word
(weighted by the word's count), pick the most frequent (the tie rule orders equals), rewrite every
word with the pair merged, repeat. :mod:`bpe.trainer` does the same with incremental counts and a
compact history; the tests check the two agree merge for merge, so this file stays obviously
correct rather than fast.

Left out: speed (each step costs the whole corpus), and the per-step record the pages read.
"""

from __future__ import annotations

from fractions import Fraction

from . import pre_tokenizers as pt
from .config import WORDPIECE_PREFIX
from .pre_tokenizers import corpus_word_counts, presplit_words
from .tie_order import token_bytes

__all__ = ["reference_train"]


def reference_train(
    corpus,
    *,
    pre_tokenizer="whitespace",
    vocab_size=None,
    num_merges=None,
    special_tokens=(),
    min_frequency=0,
    tie_break="first",
    algorithm="bpe",
    full_byte_alphabet=False,
    forced_merges=None,
):
    """Train by recounting every pair each step. Returns ``(merges, stop_reason)``: one dict per merge with
    its ``pair``, ``count``, ``tied`` (a set), ``new_token``, ``score`` (WordPiece), the ``splits`` after it
    and the pair ``counts`` it was chosen from.

    >>> merges, reason = reference_train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, num_merges=3)
    >>> [(m["new_token"], m["count"]) for m in merges], reason
    ([('ug', 20), ('un', 16), ('hug', 15)], 'num_merges')
    """
    word_counts = corpus_word_counts(corpus, pre_tokenizer)
    splits = {}
    presplit = presplit_words(corpus)
    for word in word_counts:
        symbols = list(presplit[word] if presplit else pt.word_symbols(word, pre_tokenizer))
        if algorithm == "wordpiece":
            symbols = [symbols[0]] + [WORDPIECE_PREFIX + s for s in symbols[1:]]
        splits[word] = symbols
    alphabet = {s for split in splits.values() for s in split}
    if full_byte_alphabet:
        alphabet |= set(pt.bytes_to_unicode().values())
    vocab = list(dict.fromkeys(special_tokens))
    for s in sorted(alphabet):
        if s not in vocab:
            vocab.append(s)
    forced_merges = forced_merges or {}
    merges = []
    step = 1
    while True:
        if vocab_size is not None and len(vocab) >= vocab_size:
            return merges, "vocab_size"
        if num_merges is not None and step > num_merges:
            return merges, "num_merges"
        # Count every pair, words in order, left to right: dict order = first occurrence.
        counts = {}
        for word, freq in word_counts.items():
            split = splits[word]
            for i in range(len(split) - 1):
                pair = (split[i], split[i + 1])
                counts[pair] = counts.get(pair, 0) + freq
        if not counts:
            return merges, "no_pairs"
        if algorithm == "wordpiece":
            letters = {}
            for word, freq in word_counts.items():
                for s in splits[word]:
                    letters[s] = letters.get(s, 0) + freq
            value = {p: Fraction(c, letters[p[0]] * letters[p[1]]) for p, c in counts.items()}
        else:
            value = dict(counts)
        best_value = max(value.values())
        tied = [p for p in value if value[p] == best_value]  # in first-occurrence order
        if step in forced_merges:
            best, tied = tuple(forced_merges[step]), [tuple(forced_merges[step])]
        elif tie_break == "first":
            best = tied[0]
        elif tie_break == "hf":
            best = min(tied, key=lambda p: (vocab.index(p[0]), vocab.index(p[1])))
        elif tie_break == "lexicographic":
            best = min(tied)
        elif tie_break == "greatest":
            best = max(tied)
        else:  # "greatest-bytes": compare the bytes each token stands for (Stanford CS336's rule)
            best = max(tied, key=lambda p: (token_bytes(p[0], pre_tokenizer), token_bytes(p[1], pre_tokenizer)))
        if step not in forced_merges and counts[best] < min_frequency:
            return merges, "min_frequency"
        a, b = best
        new = a + (b[len(WORDPIECE_PREFIX) :] if algorithm == "wordpiece" and b.startswith(WORDPIECE_PREFIX) else b)
        for word in splits:
            split, i = splits[word], 0
            while i < len(split) - 1:
                if split[i] == a and split[i + 1] == b:
                    split = split[:i] + [new] + split[i + 2 :]
                else:
                    i += 1
            splits[word] = split
        if new not in vocab:
            vocab.append(new)
        merges.append(
            {
                "pair": best,
                "count": counts[best],
                "tied": set(tied),
                "new_token": new,
                "score": value[best] if algorithm == "wordpiece" else None,
                "splits": {w: tuple(s) for w, s in splits.items()},
                "counts": counts,
            }
        )
        step += 1
