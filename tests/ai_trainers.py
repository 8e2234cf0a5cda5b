"""BPE trainers as people write their own, with faults of set AI's classes, written for the tests independently of
``bpe/``.

Kinds (:data:`AI_KINDS`), the pairs counted afresh each step:

- ``words-eow-lex``: each whitespace-split word's characters and ``'</w>'``; the smallest of the pairs counted most
  (plain);
- ``eos-longest``: the same with ``'</s>'`` ending each word, the pair whose merged token is longest taken, then the
  smallest merged token (a sort on ``(-count, -len(a + b), a + b)``, where ``'</s>'`` is four characters);
- ``whole-chars``: the whole text's characters, one sequence; the pair met first among those counted most (plain);
- ``metaspace``: each line normalized as SentencePiece does (whitespace runs made one space, the line stripped,
  each space written ``'▁'`` and one put before the line), each line one sequence; the pair met first.
"""

from __future__ import annotations

from line_trainers import train_sequences

AI_KINDS = ("words-eow-lex", "eos-longest", "whole-chars", "metaspace")
BASE = {"eos-longest": "words-eow-lex", "metaspace": "whole-chars"}


def _most(key):
    def pick(stats):
        top = max(stats.values())
        return min((p for p, n in stats.items() if n == top), key=key)

    return pick


def ai_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "whole-chars":
        return train_sequences([list(text)], num_merges)
    if kind == "metaspace":
        lines = [" ".join(line.split()) for line in text.splitlines()]
        return train_sequences([list("▁" + line.replace(" ", "▁")) for line in lines if line], num_merges)
    if kind == "words-eow-lex":
        return train_sequences([[*w, "</w>"] for w in text.split()], num_merges, _most(lambda p: p))
    return train_sequences(
        [[*w, "</s>"] for w in text.split()], num_merges, _most(lambda p: (-len(p[0] + p[1]), p[0] + p[1]))
    )
