"""A BPE trainer of the whole text's characters, with a fault of set BJ's class, written for the tests independently
of ``bpe/``: the text one sequence of characters, spaces among them, the pairs counted afresh each step, the pair met
first among those counted most taken. Its merge joins the symbols with ``' '``, replaces the pair's text between
spaces with a regular expression and splits back with ``split()``, which splits at the text's own spaces too: they
are lost at the first merge, and the words run together."""

from __future__ import annotations

import re
from collections import Counter


def bj_train(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings."""
    seq = list(text)
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        stats = Counter(zip(seq, seq[1:]))
        if not stats:
            break
        pair = stats.most_common(1)[0][0]
        merges.append(pair)
        pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
        seq = pattern.sub("".join(pair), " ".join(seq)).split()
    return merges
