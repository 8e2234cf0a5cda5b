"""WordPiece: a word cut longest match first from the vocabulary, as ``tokenizers``' WordPiece model.

A word's first piece is the longest token it starts with; each later piece the longest ``##`` token
that goes on from there. Only the lengths the vocabulary holds are tried, longest first, so a long
word costs O(n) lookups per length. A word that cannot be covered, or longer than
``max_input_chars_per_word`` (100, as in ``tokenizers``), becomes a single unknown token.

The merges are kept (training learned them), for the merge tree and for :meth:`WordPiece.with_merges`,
which drops the tokens the later merges created: WordPiece encodes from its vocabulary alone.

Left out: cutting text into words (the text side) and training (:mod:`bpe.trainer`).
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import budget
from .. import pre_tokenizers as pt
from ..config import WORDPIECE_PREFIX, Pair
from ..replay import TRACE_BUDGET, merge_tree
from ..units import WORD_CACHE_MAX_CHARS
from .merge_bpe import merge_word_start
from .vocab import checked_vocab, created_ranks
from .word_cache import CachedWords

WORDPIECE_MAX_CHARS = 100  # tokenizers' max_input_chars_per_word default: longer words are [UNK]


def check_max_input_chars(value: object) -> None:
    """A ``ValueError`` unless ``value`` is a whole number of 1 or more (a word longer than it is one unknown token)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_input_chars_per_word must be a whole number of 1 or more, not {value!r}.")


class WordPiece(CachedWords):
    """A vocabulary (``##`` marks a piece inside a word), the merges that built it, and the unknown token.

    ``scheme``: our pre-tokenizer scheme whose words this model reads (units are characters), or None for
    a file's model (units are UTF-8 bytes); ``outside``: tokens the model never outputs (a file's added
    tokens outside its model).

    >>> WordPiece({"h": 0, "##ug": 1, "[UNK]": 2}, [], unk_token="[UNK]", scheme="whitespace").tokenize("hug")
    (('h', 1), ('##ug', 2))
    """

    kind = "wordpiece"
    # a WordPiece model has none of BPE's file options
    byte_fallback = False
    fuse_unk = False
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    ignore_merges = False
    notes: tuple[str, ...] = ()

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable[Pair] = (),
        *,
        unk_token: str | None = "[UNK]",
        scheme: str | None = None,
        max_input_chars_per_word: int = WORDPIECE_MAX_CHARS,
        outside: Iterable[str] = (),
    ) -> None:
        check_max_input_chars(max_input_chars_per_word)
        self.vocab = vocab
        self.id_to_token = checked_vocab(vocab)
        self.merges: list[Pair] = [m if type(m) is tuple else tuple(m) for m in merges]  # type: ignore[misc]
        self.unk_token = unk_token
        self.scheme = scheme
        self.max_input_chars_per_word = max_input_chars_per_word
        self.counts_bytes = scheme is None
        self._outside = frozenset(outside)
        # WordPiece's longest match may meet any added token: the model looks in its own vocabulary only
        self._own = {t: i for t, i in vocab.items() if t not in self._outside} if self._outside else None
        self.clear_cache()

    @property
    def model_vocab(self) -> dict[str, int]:
        """The tokens this model may output (a file's added tokens outside its model are not)."""
        return self.vocab if self._own is None else self._own

    # -- views and what the merges made -----------------------------------------------------------
    def with_merges(self, k: int) -> WordPiece:
        """The model of the first ``k`` merges: the tokens the later merges created leave the vocabulary."""
        created = self.created_rank()
        vocab = {t: i for t, i in self.vocab.items() if created.get(t, -1) < k}
        return WordPiece(
            vocab,
            self.merges[:k],
            unk_token=self.unk_token,
            scheme=self.scheme,
            max_input_chars_per_word=self.max_input_chars_per_word,
            outside=self._outside,
        )

    @property
    def ranks(self) -> dict[Pair, int]:
        """pair -> its merge rank (the first, if a pair is listed twice)."""
        if not hasattr(self, "_ranks"):
            self._ranks = dict(zip(reversed(self.merges), range(len(self.merges) - 1, -1, -1)))
        return self._ranks

    def created_rank(self) -> dict[str, int]:
        """token -> the rank of the first merge that makes it."""
        if not hasattr(self, "_created"):
            self._created = created_ranks(self.merges, self.join)
        return self._created

    @staticmethod
    def join(a: str, b: str) -> str:
        """The token merging ``a`` and ``b`` makes: ``("h", "##ug")`` -> ``"hug"``."""
        return a + (b[len(WORDPIECE_PREFIX) :] if b.startswith(WORDPIECE_PREFIX) else b)

    def merge_tree(self, token: str) -> tuple | str:
        return merge_tree(token, self.created_rank(), self.merges)

    # -- one word --------------------------------------------------------------------------------
    def initial(self, word: str) -> list[tuple[str, int]]:
        """A word's single symbols (``##`` inside the word), each with the units it covers."""
        if self.scheme is None:
            return merge_word_start(word, self.model_vocab, self.unk_token)
        symbols = pt.word_symbols(word, self.scheme)
        units = [0 if s == pt.END_OF_WORD else 1 for s in symbols]
        symbols = (symbols[0], *(WORDPIECE_PREFIX + s for s in symbols[1:]))
        return [(s if s in self.vocab else self.unk_token or s, u) for s, u in zip(symbols, units)]

    def tokenize(self, word: str) -> tuple[tuple[str, int], ...]:
        """Longest match first; if any piece is missing, or the word is longer than
        ``max_input_chars_per_word``, the whole word is unknown. Only the lengths the vocabulary holds
        are tried (a word's first piece: any token's; a later piece: a ``##`` token's), longest first,
        so a file with one very long token does not make every position try every length."""
        n = len(word)
        units = (lambda a, b: len(word[a:b].encode("utf-8"))) if self.counts_bytes else (lambda a, b: b - a)
        unk = ((self.unk_token or word, units(0, n)),)
        if n > self.max_input_chars_per_word:
            return unk
        if not hasattr(self, "_lengths"):
            cut = len(WORDPIECE_PREFIX)
            first = sorted({len(t) for t in self.model_vocab}, reverse=True)
            inner = sorted({len(t) - cut for t in self.model_vocab if t.startswith(WORDPIECE_PREFIX) and len(t) > cut})
            self._lengths = (first, inner[::-1])
        vocab = self.model_vocab
        out, start = [], 0
        while start < n:
            budget.check_time()
            piece = None
            for length in self._lengths[1 if start else 0]:
                end = start + length
                if end > n:
                    continue
                candidate = word[start:end] if not start else WORDPIECE_PREFIX + word[start:end]
                if candidate in vocab:
                    piece = candidate
                    break
            if piece is None:
                return unk
            out.append((piece, units(start, end)))
            start = end
        return tuple(out)

    def word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        """:meth:`tokenize`, cached for words up to 256 characters (the last 10,000 kept)."""
        if len(word) > WORD_CACHE_MAX_CHARS:
            return self.tokenize(word)
        return self._cached(word)

    def trace(self, word: str, budget: int = TRACE_BUDGET) -> tuple[list, list, int, tuple]:
        """A word's initial symbols and its pieces (WordPiece has no merge steps to replay)."""
        return self.initial(word), [], 0, self.word_tokens(word)
