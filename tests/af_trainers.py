"""A BPE trainer as people write their own, with faults of set AF's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`AF_KINDS`), the pairs counted afresh each step in a ``Counter`` (in the order the count meets them):

- ``whole-chars``: the whole text's characters, one sequence; the pair met first among those counted most (plain);
- ``space-key-repeat``: the same, each pair kept as one string, ``a + ' ' + b``, and read back with
  ``key.split(' ')`` (its first two parts, as JavaScript's ``const [a, b] = key.split(' ')``): a pair holding the
  space token reads back as empty strings, so its merge changes nothing and it wins again at the next step;
- ``words-eow``: each whitespace-split word's characters and ``'</w>'``; the pair met first among those counted most
  (plain);
- ``last-tie``: the same, the pair met LAST among those counted most (JavaScript's
  ``reduce((a, b) => counts[a] > counts[b] ? a : b)`` keeps the later key of equal counts);
- ``ascii-chars``: ``words-eow`` on the words of JavaScript's ``/\\w+|[^\\s\\w]/g``, whose ``\\w`` is ASCII: a
  punctuation mark and each letter outside ASCII a word of its own.
"""

from __future__ import annotations

import re
from collections import Counter

from ae_trainers import space_key  # the loop keyed by a + ' ' + b
from line_trainers import train_sequences  # the plain loop, shared with the line trainers

AF_KINDS = ("whole-chars", "space-key-repeat", "words-eow", "last-tie", "ascii-chars")
BASE = {"space-key-repeat": "whole-chars", "last-tie": "words-eow", "ascii-chars": "words-eow"}


def _last_of_most(stats: Counter) -> tuple[str, str]:
    top = max(stats.values())
    return [p for p, n in stats.items() if n == top][-1]


def af_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "space-key-repeat":
        return space_key(text, num_merges, stops=False)
    if kind == "whole-chars":
        return train_sequences([list(text)], num_merges)
    words = re.findall(r"\w+|[^\s\w]", text, re.ASCII) if kind == "ascii-chars" else text.split()
    return train_sequences([[*w, "</w>"] for w in words], num_merges, _last_of_most if kind == "last-tie" else None)
