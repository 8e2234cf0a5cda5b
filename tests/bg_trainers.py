"""A BPE trainer whose words end in a plain character, of set BG's classes, written for the tests independently of
``bpe/``: each whitespace-split word's characters and ``'_'`` after them (``list(word) + ['_']``), on the plain loop of
:func:`line_trainers.train_sequences`. A ``'_'`` of the text (``count_pairs``) is the same symbol as the mark.
:func:`bg_original`: a loop that merges its words but counts the pairs of the words as first read at every step."""

from __future__ import annotations

from collections import Counter

from line_trainers import _merged, train_sequences


def bg_train(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings."""
    return train_sequences([[*word, "_"] for word in text.split()], num_merges)


def bg_original_once(text: str, num_merges: int) -> list[tuple[str, str]]:
    """:func:`bg_original` with its merges kept as a dict's keys, so the repeated pair is recorded once."""
    return list(dict.fromkeys(bg_original(text, num_merges)))


def bg_original(text: str, num_merges: int) -> list[tuple[str, str]]:
    """Words of characters and ``'</w>'``; each step counts the pairs of the words as first read (never the merged
    ones), takes the pair met first among those counted most, and merges the words it holds."""
    first = [[*word, "</w>"] for word in text.split()]
    words = [list(w) for w in first]
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        pair = Counter(p for w in first for p in zip(w, w[1:])).most_common(1)[0][0]
        words = [_merged(w, pair) for w in words]
        merges.append(pair)
    return merges
