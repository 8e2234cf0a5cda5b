"""The two BPE loops students copy, runnable as written: the Train page shows these functions' own source.

- The Hugging Face course's (LLM course, chapter 6, "Byte-Pair Encoding tokenization"):
  :func:`compute_pair_freqs` counts every adjacent pair of every word, weighted by the word's count;
  :func:`merge_pair` rewrites every split with the pair joined; :func:`course_step` picks the most
  frequent pair, the first one met among equals, as the course's ``for pair, freq in ...`` loop does.
- minbpe's (karpathy/minbpe, ``base.py``): :func:`get_stats` and :func:`merge`, here on lists of
  symbols (strings) instead of integer ids; :func:`minbpe_step` picks ``max(stats, key=stats.get)``,
  again the first pair met among equals.

Both therefore break ties by the "first" rule (the pair seen first in the corpus); the other tie rules
are in :mod:`bpe.reference`. The tests run these functions from the corpus's first splits and check
every step's counts, pair and rewritten words against :mod:`bpe.trainer`.

Two departures: the course reads ``word_freqs`` as a global, here it is an
argument; minbpe counts each chunk of text once per occurrence, here ``get_stats`` takes the word's
count (``freq``, minbpe adds 1) so a table of word counts can be read. Left out: the vocabulary and the stopping rule.

>>> word_freqs = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> splits = {word: list(word) for word in word_freqs}
>>> pair_freqs, best_pair, splits = course_step(splits, word_freqs)
>>> best_pair, pair_freqs[best_pair], splits["hugs"]
(('u', 'g'), 20, ['h', 'ug', 's'])
>>> minbpe_step({word: list(word) for word in word_freqs}, word_freqs)[1]
('u', 'g')
"""

from __future__ import annotations

from collections import defaultdict

__all__ = ["compute_pair_freqs", "course_step", "get_stats", "merge", "merge_pair", "minbpe_step"]


# -- the Hugging Face course --------------------------------------------------------------------
def compute_pair_freqs(splits, word_freqs):
    pair_freqs = defaultdict(int)
    for word, freq in word_freqs.items():
        split = splits[word]
        if len(split) == 1:
            continue
        for i in range(len(split) - 1):
            pair = (split[i], split[i + 1])
            pair_freqs[pair] += freq
    return pair_freqs


def merge_pair(a, b, splits):
    for word in splits:
        split = splits[word]
        if len(split) == 1:
            continue
        i = 0
        while i < len(split) - 1:
            if split[i] == a and split[i + 1] == b:
                split = split[:i] + [a + b] + split[i + 2 :]
            else:
                i += 1
        splits[word] = split
    return splits


def course_step(splits, word_freqs):
    pair_freqs = compute_pair_freqs(splits, word_freqs)
    best_pair = None
    max_freq = None
    for pair, freq in pair_freqs.items():
        if max_freq is None or max_freq < freq:
            best_pair = pair
            max_freq = freq
    if best_pair is not None:
        splits = merge_pair(*best_pair, splits)
    return pair_freqs, best_pair, splits


# -- minbpe -------------------------------------------------------------------------------------
def get_stats(ids, counts=None, freq=1):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + freq
    return counts


def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def minbpe_step(splits, word_freqs):
    stats = {}
    for word, freq in word_freqs.items():
        get_stats(splits[word], stats, freq)
    pair = max(stats, key=stats.get) if stats else None
    if pair is not None:
        splits = {word: merge(ids, pair, pair[0] + pair[1]) for word, ids in splits.items()}
    return stats, pair, splits
