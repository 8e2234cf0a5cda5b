"""A model's vocabulary read as token -> id with every id once, and what a merge made: the parts every model shares.

>>> checked_vocab({"a": 0, "b": 1})
{0: 'a', 1: 'b'}

Left out: the models themselves (:mod:`bpe.models.merge_bpe`, :mod:`bpe.models.rank_bpe`,
:mod:`bpe.models.wordpiece`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..config import Pair


def checked_vocab(vocab: dict[str, int]) -> dict[int, str]:
    """id -> token; a ValueError if two tokens share an id."""
    id_to_token = {i: t for t, i in vocab.items()}
    if len(id_to_token) != len(vocab):
        raise ValueError("Two tokens in the vocabulary share an id; every token needs its own id.")
    return id_to_token


def created_ranks(merges: Sequence[Pair], join: Callable[[str, str], str]) -> dict[str, int]:
    """token -> the rank of the first merge that makes it (``join``: the token a pair makes)."""
    created: dict[str, int] = {}
    for rank, (a, b) in enumerate(merges):
        created.setdefault(join(a, b), rank)
    return created
