"""A BPE trainer as people write their own, with faults of set AB's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`AB_KINDS`), each on the plain loop of :func:`line_trainers.train_sequences` (pairs counted afresh each
step, the pair met first among those counted most taken):

- ``words-eow``: each whitespace-split word's characters and ``'</w>'`` (the plain trainer);
- ``upper``: the same on the text uppercased first (``text.upper()``);
- ``whole-chars``: the whole text's characters, one sequence (the plain trainer with no pre-tokenizer);
- ``space-ban``: the same, but a pair whose token would hold a line break, or whitespace inside its ``strip()``, is
  never taken (``if ' ' in token.strip() or '\\n' in token: continue``), the next pair by count taken instead.
"""

from __future__ import annotations

from collections import Counter

from line_trainers import train_sequences  # the plain loop, shared with the line trainers

AB_KINDS = ("words-eow", "upper", "whole-chars", "space-ban")
BASE = {"upper": "words-eow", "space-ban": "whole-chars"}


def _spaced(pair: tuple[str, str]) -> bool:
    token = pair[0] + pair[1]
    return "\n" in token or any(c.isspace() for c in token.strip())


def _first_unspaced(stats: Counter) -> tuple[str, str]:
    allowed = {p: n for p, n in stats.items() if not _spaced(p)}
    top = max(allowed.values())
    return next(p for p, n in allowed.items() if n == top)


def ab_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind in ("whole-chars", "space-ban"):
        pick = _first_unspaced if kind == "space-ban" else None
        return train_sequences([list(text)], num_merges, pick)
    if kind == "upper":
        text = text.upper()
    return train_sequences([[*word, "</w>"] for word in text.split()], num_merges)
