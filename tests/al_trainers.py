"""A BPE trainer as people write their own in C, with set AL's fault, written for the tests independently of ``bpe/``.

Kinds (:data:`AL_KINDS`), over the whole text's characters as one sequence, the pair met first among those counted
most:

- ``whole-first``: the pairs counted afresh each step (plain);
- ``merged-sides``: the counts kept up to date by hand: each occurrence of the merged pair ``(a, b)``, left to
  right, takes one from ``(prev, a)`` and ``(b, next)`` and adds one to ``(a, ab)`` and ``(ab, b)``, where
  ``(prev, ab)`` and ``(ab, next)`` were meant;
- ``words-eow``: each whitespace-split word's characters, ``'</w>'`` glued to the last one, as subword-nmt reads
  words (plain);
- ``glued-mark``: the same with ``'▁'`` glued to the last character in place of ``'</w>'`` (a word is
  ``list(word[:-1]) + [word[-1] + '▁']``);
- ``space-joined``: each word a space symbol, its characters and ``'</w>'``, kept as those symbols joined by spaces
  and split back on ``' '``, so the space symbol becomes two empty symbols.
"""

from __future__ import annotations

from collections import Counter

from line_trainers import _merged, train_sequences

AL_KINDS = ("whole-first", "merged-sides", "words-eow", "glued-mark", "space-joined")
BASE = {"merged-sides": "whole-first", "glued-mark": "words-eow", "space-joined": "words-eow"}


def _merged_sides(text: str, num_merges: int) -> list[tuple[str, str]]:
    seq = list(text)
    counts = Counter(zip(seq, seq[1:]))
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges and counts and max(counts.values()) > 0:
        top = max(counts.values())
        a, b = next(p for p, n in counts.items() if n == top)  # the first met of the greatest count
        joined = a + b
        merges.append((a, b))
        i = 0
        while i + 1 < len(seq):
            if (seq[i], seq[i + 1]) == (a, b):
                if i > 0:
                    counts[(seq[i - 1], a)] -= 1
                if i + 2 < len(seq):
                    counts[(b, seq[i + 2])] -= 1
                counts[(a, joined)] += 1
                counts[(joined, b)] += 1
            i += 1 if (seq[i], seq[i + 1]) != (a, b) else 2
        counts[(a, b)] = 0
        seq = _merged(seq, (a, b))
    return merges


def al_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "space-joined":
        return train_sequences([" ".join([" ", *w, "</w>"]).split(" ") for w in text.split()], num_merges)
    if kind in ("words-eow", "glued-mark"):
        mark = "</w>" if kind == "words-eow" else "▁"
        return train_sequences([[*w[:-1], w[-1] + mark] for w in text.split()], num_merges)
    return _merged_sides(text, num_merges) if kind == "merged-sides" else train_sequences([list(text)], num_merges)
