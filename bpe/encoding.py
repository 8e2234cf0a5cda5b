"""An encoding's result, in the ``tokenizers`` library's terms: ids, tokens, offsets and word ids.

>>> Encoding((0,), ("hug",), ((0, 3),), (0,)).tokens
('hug',)

Left out: how a text is encoded (:mod:`bpe.tokenizer` and its parts).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Span


@dataclass(frozen=True)
class Encoding:
    """The result of :meth:`Tokenizer.encode_full <bpe.tokenizer.Tokenizer.encode_full>`."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[Span, ...]  # character (start, end) of each token in the text
    word_ids: tuple[int | None, ...]  # which pre-tokenized word each token came from (None: special)


def unknown_id(model) -> int:
    """The id of ``model``'s unknown token, or a ValueError saying the text has a symbol outside the vocabulary."""
    if model.unk_token is None or model.unk_token not in model.vocab:
        raise ValueError(
            "This text has a symbol outside the vocabulary and the tokenizer has no unknown token: "
            "remove those characters or use another tokenizer."
        )
    return model.vocab[model.unk_token]
