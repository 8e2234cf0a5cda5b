"""A BPE trainer as people write their own, with set AG's fault, written for the tests independently of ``bpe/``.

Kinds (:data:`AG_KINDS`):

- ``words-lex``: each whitespace-split word's characters; pairs counted afresh each step, the smallest of the pairs
  counted most taken (plain);
- ``id-runs``: a source-code trainer's words, the runs of ASCII identifier characters ``[A-Za-z0-9_]`` and the runs
  of every other character (spaces, newlines, punctuation and letters outside ASCII together), counted once each;
  the pair counts kept up to date by hand, a merge's occurrences taken from the word's end (``a a a`` becomes
  ``a aa``), the pairs on both sides of each new token added after the merge, so two new tokens side by side add
  their pair twice; ties to the pair of smallest ids (characters numbered in sorted order, each merged token the
  next number).
"""

from __future__ import annotations

import re
from collections import Counter

from line_trainers import train_sequences  # the plain loop, shared with the line trainers

AG_KINDS = ("words-lex", "id-runs")
BASE = {"id-runs": "words-lex"}


def _id_runs(text: str, num_merges: int) -> list[tuple[str, str]]:
    freq = Counter(re.findall(r"[A-Za-z0-9_]+|[^A-Za-z0-9_]+", text))
    words = {w: list(w) for w in freq}
    ids = {c: i for i, c in enumerate(sorted({c for w in freq for c in w}))}
    counts: Counter = Counter()
    for w, s in words.items():
        for pair in zip(s, s[1:]):
            counts[pair] += freq[w]
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges and counts:
        top = max(counts.values())
        pair = min((p for p, n in counts.items() if n == top), key=lambda p: (ids[p[0]], ids[p[1]]))
        new = pair[0] + pair[1]
        ids[new] = len(ids)
        merges.append(pair)
        del counts[pair]
        for w, s in words.items():
            at, i = [], len(s) - 2
            while i >= 0:  # the occurrences from the word's end, none overlapping
                if (s[i], s[i + 1]) == pair:
                    at.append(i)
                    i -= 2
                else:
                    i -= 1
            if not at:
                continue
            f = freq[w]
            for k, i in enumerate(at):  # the neighbours' pairs go (the one shared with the occurrence after it once)
                if i > 0 and (s[i - 1], s[i]) in counts:
                    counts[(s[i - 1], s[i])] -= f
                after_taken = k > 0 and at[k - 1] == i + 2
                if i + 2 < len(s) and not after_taken and (s[i + 1], s[i + 2]) in counts:
                    counts[(s[i + 1], s[i + 2])] -= f
            for i in at:  # from the end, so the earlier positions stay put
                s[i : i + 2] = [new]
            starts = [i - (len(at) - 1 - k) for k, i in enumerate(at)]  # each new token's place after the merge
            for i in starts:  # both sides of each new token: a pair of two new tokens is added from each
                if i > 0:
                    counts[(s[i - 1], s[i])] += f
                if i + 1 < len(s):
                    counts[(s[i], s[i + 1])] += f
    return merges


def ag_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "id-runs":
        return _id_runs(text, num_merges)
    return train_sequences(
        [list(w) for w in text.split()],
        num_merges,
        lambda stats: min(p for p, n in stats.items() if n == max(stats.values())),
    )
