"""An incremental BPE trainer written for the tests, as people who write BPE "from scratch" do, and its faults, one
each; written independently of ``bpe/``.

The trainer counts the pairs of whitespace-split words (each ending in ``</w>``) once, then after each merge moves
the counts of the words that change from their old split to the new one; the smallest pair wins a tie (``min`` over
``(-count, pair)``), as our ``lexicographic`` rule.

Faults (:data:`SCRATCH_FAULTS`):

- ``frozen-after-first``: ``words = new_words`` then ``new_words.clear()``, so after the first merge the dict of words
  is empty: no later merge changes a word or a count, each step takes the next pair of the counts left.
"""

from __future__ import annotations

SCRATCH_FAULTS = ("frozen-after-first",)


def _merge(word: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def scratch_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The trainer's merges on ``text`` with ``fault`` (None: correct)."""
    words: dict[tuple[str, ...], int] = {}
    for w in text.split():
        key = (*w, "</w>")
        words[key] = words.get(key, 0) + 1
    pairs: dict[tuple[str, str], int] = {}
    for word, freq in words.items():
        for p in zip(word, word[1:]):
            pairs[p] = pairs.get(p, 0) + freq
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        live = [p for p, n in pairs.items() if n > 0]
        if not live:
            break
        best = min(live, key=lambda p: (-pairs[p], p))
        merges.append(best)
        new_words: dict[tuple[str, ...], int] = {}
        for word, freq in words.items():
            merged = _merge(word, best)
            if merged != word:
                for p in zip(word, word[1:]):
                    pairs[p] -= freq
                for p in zip(merged, merged[1:]):
                    pairs[p] = pairs.get(p, 0) + freq
            new_words[merged] = freq
        pairs[best] = 0
        words = new_words
        if fault == "frozen-after-first":
            new_words.clear()  # the dict just made the words, emptied
    return merges
