"""A tokenizer's model: what turns one word into tokens, as ``tokenizers``' models do, one model a module.

- :class:`~bpe.models.merge_bpe.BPE`: BPE by merges (lowest merge rank first, as GPT-2 and ``tokenizers``);
- :class:`~bpe.models.rank_bpe.RankBPE`: BPE by ranks (a ``.tiktoken`` file, as tiktoken);
- :class:`~bpe.models.wordpiece.WordPiece`: longest match first (BERT's).

Every model answers :class:`Model`: the vocabulary, the merges (in rank order), ``tokenize(word)`` with
the units each token covers, the initial symbols and the merge replay of a word (``trace``), a view of
its first k merges, and what each merge made. A :class:`~bpe.tokenizer.Tokenizer` composes one model
with a text side (:mod:`bpe.scheme_text` or :mod:`bpe.pipeline.encoder`).

Left out: cutting text into words, ids and offsets of a whole text, and decoding (the text side).
"""

from __future__ import annotations

from typing import Protocol

from ..config import Pair
from .merge_bpe import BPE
from .rank_bpe import RankBPE
from .wordpiece import WordPiece


class Model(Protocol):
    """What a tokenizer asks of its model."""

    kind: str  # "bpe" or "wordpiece"
    vocab: dict[str, int]  # every token the tokenizer gives an id, with it
    id_to_token: dict[int, str]
    unk_token: str | None
    counts_bytes: bool  # a word's units are UTF-8 bytes (a file's model), else characters

    @property
    def merges(self) -> list[Pair]: ...

    @property
    def model_vocab(self) -> dict[str, int]: ...

    @property
    def notes(self) -> tuple[str, ...]: ...

    def tokenize(self, word: str) -> tuple[tuple[str, int], ...]: ...

    def word_tokens(self, word: str) -> tuple[tuple[str, int], ...]: ...

    def initial(self, word: str) -> list[tuple[str, int]]: ...

    def trace(self, word: str, budget: int) -> tuple[list, list, int, tuple]: ...

    def with_merges(self, k: int) -> Model: ...

    def created_rank(self) -> dict[str, int]: ...

    def merge_tree(self, token: str) -> tuple | str: ...


__all__ = ["BPE", "Model", "RankBPE", "WordPiece"]
