"""A BPE trainer of the whole text's characters, with a fault of set AY's classes, written for the tests independently
of ``bpe/``.

Kinds (:data:`AY_KINDS`), each on the plain loop of :func:`line_trainers.train_sequences` (the whole text one
sequence of characters, pairs counted afresh each step, ``Counter.most_common`` order: ties to the pair met first):

- ``whole-chars``: the plain trainer;
- ``after-space``: the pairs in ``most_common()`` order, each skipped whose left token is longer than one character
  and ends in a space (``if len(a) > 1 and a[-1] == ' ': continue``), so no token goes on past a word's trailing
  space; a single space may still start a token.
"""

from __future__ import annotations

from collections import Counter

from line_trainers import train_sequences

AY_KINDS = ("whole-chars", "after-space")
BASE = {"after-space": "whole-chars"}


def _after_space(stats: Counter) -> tuple[str, str]:
    return next(p for p, _ in stats.most_common() if not (len(p[0]) > 1 and p[0][-1] == " "))


def ay_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind not in AY_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    return train_sequences([list(text)], num_merges, _after_space if kind == "after-space" else None)
