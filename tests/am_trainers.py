"""A BPE trainer as people write their own, with set AM's fault, written for the tests independently of ``bpe/``.

Kinds (:data:`AM_KINDS`), the whole text's bytes one sequence (written as GPT-2's table writes them), the pairs
counted afresh each step, the pair met first among those counted most:

- ``whole-bytes``: the text as given (plain);
- ``newline-end``: the text read with a newline after its last line (each line written back with ``'\\n'``);
- ``stripped``: each line read with ``line.strip()`` and the lines joined with nothing between them.
"""

from __future__ import annotations

from line_trainers import train_sequences
from w_trainers import CHARS  # GPT-2's table

AM_KINDS = ("whole-bytes", "newline-end", "stripped")
BASE = {"newline-end": "whole-bytes", "stripped": "whole-bytes"}


def am_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as GPT-2's characters."""
    read = text + "\n" if kind == "newline-end" else text
    if kind == "stripped":
        read = "".join(line.strip() for line in text.splitlines())
    return train_sequences([[CHARS[b] for b in read.encode("utf-8")]], num_merges)
