"""A BPE trainer of the whole text's characters, with a fault of set BA's or BH's classes, written for the tests independently
of ``bpe/``.

Kinds (:data:`BA_KINDS`), each on the plain loop of :func:`line_trainers.train_sequences` (the whole text one
sequence of characters, pairs counted afresh each step, ties to the pair met first):

- ``whole-chars``: the plain trainer;
- ``g-spaces``: the same on the text with every space written ``'Ġ'`` first (``text.replace(' ', 'Ġ')``, as GPT-2
  shows a space), line breaks kept as they are: the merges are ours, written with ``'Ġ'``;
- ``underscore-spaces``: the same on the text with every space written ``'_'`` first, printed with ``'_'`` as a
  space again, so a real ``'_'`` of the text counts as a space (``count_pairs`` makes ``(t, ' ')``);
- ``hash-spaces`` (BH): the text's words joined by ``'#'`` for each space (``'#' + word`` for every word after the
  first), the merges printed with ``'#'``.
"""

from __future__ import annotations

from line_trainers import train_sequences

BA_KINDS = ("whole-chars", "g-spaces", "underscore-spaces", "hash-spaces")
BASE = {"g-spaces": "whole-chars", "underscore-spaces": "whole-chars", "hash-spaces": "whole-chars"}


def ba_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind not in BA_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if kind == "g-spaces":
        text = text.replace(" ", "\u0120")
    if kind == "hash-spaces":
        text = "#".join(text.split(" "))
    if kind == "underscore-spaces":
        merges = train_sequences([list(text.replace(" ", "_"))], num_merges)
        return [(a.replace("_", " "), b.replace("_", " ")) for a, b in merges]
    return train_sequences([list(text)], num_merges)
