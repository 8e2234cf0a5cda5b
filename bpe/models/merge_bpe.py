"""BPE by merges: a word's symbols merged pair by pair, lowest merge rank first, as ``tokenizers``' BPE model.

A word starts from single symbols (:meth:`BPE.initial`), then :func:`~bpe.merging.merge_all` repeatedly
merges the adjacent pair with the lowest merge rank (the earliest learned), leftmost first, until no
learned pair is left. Each token comes out with the number of source units it covers: characters for
a word of our own schemes (a separate ``</w>`` covers none), UTF-8 bytes for a file's model, as
``tokenizers`` counts them.

A model of one of our schemes (``scheme`` set) starts a word from its characters (plus ``</w>`` for
``sennrich``), an unknown one becoming the unknown token. A file's model (``scheme`` None) starts as
``tokenizers``' ``BPE::merge_word`` does: the word-inner prefix, the end-of-word suffix, byte fallback
(``<0x41>`` tokens), ``fuse_unk``; ``ignore_merges`` takes a word that is a token whole.

Left out: cutting text into words and mapping units to offsets (the text side:
:mod:`bpe.scheme_text`, :mod:`bpe.pipeline.encoder`), and the merges' replay (:mod:`bpe.replay`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from itertools import chain
from operator import itemgetter

from .. import pre_tokenizers as pt
from ..config import Pair, shown
from ..merging import FirstMerges, merge_all
from ..replay import TRACE_BUDGET, merge_tree, replay_word
from ..units import WORD_CACHE_MAX_CHARS
from .vocab import checked_vocab, created_ranks
from .word_cache import CachedWords

METASPACE = "\u2581"  # SentencePiece's word mark, "▁"
CHUNKED_WORD = 64  # characters: a longer word of a SentencePiece-style file is merged stretch by stretch


class BPE(CachedWords):
    """A vocabulary and merges in rank order (pair -> rank, merged token), with ``tokenizers``' options.

    ``vocab`` is every token the tokenizer gives an id (shared with it); ``outside`` the tokens the model
    itself never starts a word from (a file's added tokens outside its model). ``first`` (see
    :meth:`first`) is how many merges a view uses.

    >>> BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], scheme="whitespace").tokenize("abab")
    (('ab', 2), ('ab', 2))
    """

    kind = "bpe"
    notes: tuple[str, ...] = ()  # nothing to say about how the model reads

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable[Pair],
        *,
        unk_token: str | None = None,
        scheme: str | None = None,
        byte_fallback: bool = False,
        fuse_unk: bool = False,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        ignore_merges: bool = False,
        outside: Iterable[str] = (),
    ) -> None:
        self.vocab = vocab
        self.id_to_token = checked_vocab(vocab)
        self.merges: list[Pair] = [m if type(m) is tuple else tuple(m) for m in merges]  # type: ignore[misc]
        self.unk_token = unk_token
        self.scheme = scheme
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.continuing_subword_prefix = continuing_subword_prefix or None
        self.end_of_word_suffix = end_of_word_suffix or None
        self.ignore_merges = bool(ignore_merges)
        self.counts_bytes = scheme is None  # a file's units are UTF-8 bytes, our schemes' characters
        # The model looks in its own vocabulary only, as tokenizers' does: an added token ("ony" of
        # "onyhug", or a one-character "y") is matched in the text, before the model, or not at all. BPE
        # only meets those a word can start from (one character, or a byte-fallback token): its merges
        # make model tokens only, so a large file keeps one vocabulary unless it has such an added token.
        prefix, suffix = self.continuing_subword_prefix or "", self.end_of_word_suffix or ""
        starts = {t for t in outside if len(t.removeprefix(prefix).removesuffix(suffix)) == 1 or is_byte_token(t)}
        self._own = {t: i for t, i in vocab.items() if t not in starts} if starts else None
        # pair -> (rank, merged token); a pair listed twice keeps its first rank (built from the last
        # rank to the first, so the first one written stays).
        merges_ = self.merges
        self.concatenates = not self.continuing_subword_prefix
        if self.concatenates:
            joined = list(map(str.__add__, map(itemgetter(0), merges_), map(itemgetter(1), merges_)))
        else:
            joined = [self.join(a, b) for a, b in merges_]
        backwards = range(len(merges_) - 1, -1, -1)
        self._full: dict[Pair, tuple[int, str]] = dict(zip(reversed(merges_), zip(backwards, reversed(joined))))
        self.first = len(merges_)
        self.table: dict | FirstMerges = self._full  # what merge_all reads: the full table, or its first ranks
        self.marker = self._chunk_marker()
        self.clear_cache()

    @property
    def model_vocab(self) -> dict[str, int]:
        """The tokens this model may output (a file's added tokens outside its model are not)."""
        return self.vocab if self._own is None else self._own

    # -- views and what the merges made -----------------------------------------------------------
    def with_merges(self, k: int) -> BPE:
        """The same model using only its first ``k`` merges: a view sharing the vocabulary and the merge
        table (a 200,000-token file holds ~150 MB of them), reading only the table's first ``k`` ranks."""
        view = copy.copy(self)
        for cached in ("_created", "_ranks"):
            view.__dict__.pop(cached, None)
        if k < len(self.merges):
            view.merges = self.merges[:k]
            view.first = k
            view.table = FirstMerges(self._full, k)
        view.clear_cache()
        return view

    @property
    def ranks(self) -> dict[Pair, int]:
        """pair -> its merge rank (the first, if a pair is listed twice); built on first use."""
        if not hasattr(self, "_ranks"):
            k = self.first
            self._ranks = {pair: rank for pair, (rank, _) in self._full.items() if rank < k}
        return self._ranks

    def created_rank(self) -> dict[str, int]:
        """token -> the rank of the first merge that makes it."""
        if not hasattr(self, "_created"):
            self._created = created_ranks(self.merges, self.join)
        return self._created

    def join(self, a: str, b: str) -> str:
        """The token merging ``a`` and ``b`` makes (as tokenizers: the right part carries the prefix)."""
        if self.continuing_subword_prefix:
            b = b[len(self.continuing_subword_prefix) :]
        return a + b

    def merge_tree(self, token: str) -> tuple | str:
        return merge_tree(token, self.created_rank(), self.merges)

    # -- one word --------------------------------------------------------------------------------
    def initial(self, word: str) -> list[tuple[str, int]]:
        """A word's starting symbols, each with how many source units it covers."""
        if self.scheme is not None:
            symbols = pt.word_symbols(word, self.scheme)
            units = [0 if s == pt.END_OF_WORD else 1 for s in symbols]
            return [(s if s in self.vocab else self.unk_token or s, u) for s, u in zip(symbols, units)]
        return merge_word_start(
            word,
            self.model_vocab,
            self.unk_token,
            prefix=self.continuing_subword_prefix,
            suffix=self.end_of_word_suffix,
            byte_fallback=self.byte_fallback,
            fuse_unk=self.fuse_unk,
        )

    def _start(self, word: str) -> tuple[list[str], list[int]]:
        """:meth:`initial` as two lists, symbols and units; when every character is a token (the common
        case), straight from the word."""
        if self.scheme is not None:
            if self.scheme != "sennrich" and self.vocab.keys() >= set(word):
                return list(word), [1] * len(word)
        elif (
            not self.continuing_subword_prefix and not self.end_of_word_suffix and self.model_vocab.keys() >= set(word)
        ):
            # every character a token: units are each character's UTF-8 bytes (see merge_word_start)
            return list(word), [1] * len(word) if word.isascii() else list(map(len, map(str.encode, word)))
        parts = self.initial(word)
        return [p for p, _ in parts], [u for _, u in parts]

    def takes_whole(self, word: str) -> bool:
        """Whether ``word`` is one token without any merge (``ignore_merges``)."""
        return self.ignore_merges and word in self.vocab

    def tokenize(self, word: str) -> tuple[tuple[str, int], ...]:
        """A word's tokens, each with the units it covers."""
        if self.takes_whole(word):
            return ((word, len(word.encode("utf-8"))),)
        marker = self.marker
        if marker is not None and len(word) > CHUNKED_WORD and word.find(marker, 1) > 0:
            # A SentencePiece-style file without a pre-tokenizer sees the whole text as one word; no
            # merge can join anything to a "▁"-led symbol (see _chunk_marker), so the word merges as
            # its stretches before each "▁" do one by one, each cached like a word of its own.
            first, *rest = word.split(marker)
            chunks = ([first] if first else []) + [marker + r for r in rest]
            return tuple(chain.from_iterable(map(self.word_tokens, chunks)))
        symbols, units = self._start(word)
        merge_all(symbols, units, self.table, concatenates=self.concatenates)
        return tuple(zip(symbols, units))

    def word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        """:meth:`tokenize`, cached for words up to 256 characters (the last 10,000 kept)."""
        if len(word) > WORD_CACHE_MAX_CHARS:
            return self.tokenize(word)
        return self._cached(word)

    def trace(self, word: str, budget: int = TRACE_BUDGET) -> tuple[list, list, int, tuple]:
        """How ``word`` was built: its initial (symbol, units), then :func:`~bpe.replay.replay_word`'s
        steps, the steps left out and the final (token, units)."""
        parts = self.initial(word)
        if self.takes_whole(word):
            return parts, [], 0, self.tokenize(word)
        return parts, *replay_word(parts, self.table, budget)

    def _chunk_marker(self) -> str | None:
        """SentencePiece's word mark "▁" when this file's BPE never merges across one: a file's model with
        no word prefix or suffix, "▁" a token of its own, no token holding "▁" after its first character,
        no merge whose right part starts with it. Then a word's merges never join a symbol to a
        following "▁"-led one, and the word can be merged stretch by stretch."""
        m = METASPACE
        if self.scheme is not None or self.continuing_subword_prefix or self.end_of_word_suffix or m not in self.vocab:
            return None
        if any(t.find(m, 1) > 0 for t in self.vocab) or any(b[:1] == m for _, b in self.merges):
            return None
        return m


def merge_word_start(
    word: str,
    vocab: dict[str, int],
    unk_token: str | None,
    *,
    prefix: str | None = None,
    suffix: str | None = None,
    byte_fallback: bool = False,
    fuse_unk: bool = False,
) -> list[tuple[str, int]]:
    """``tokenizers``' ``BPE::merge_word`` start: prefix, suffix, byte fallback, unknowns.

    >>> merge_word_start("héy", {"h": 0, "y": 1, "[UNK]": 2}, "[UNK]")
    [('h', 1), ('[UNK]', 2), ('y', 1)]
    """
    # Units are the UTF-8 bytes of the word the model sees, as tokenizers counts them: its offsets
    # are running sums of these, so a character dropped for want of an unknown token shifts them.
    if not prefix and not suffix and all(map(vocab.__contains__, word)):
        if word.isascii():
            return [(c, 1) for c in word]
        return [(c, len(c.encode("utf-8"))) for c in word]
    out: list[tuple[str, int]] = []
    unk: list | None = None  # [token, units] waiting to be added (fuse_unk grows it)
    last = len(word) - 1
    for i, ch in enumerate(word):
        s = ch
        n = len(ch.encode("utf-8"))
        if i and prefix:
            s = prefix + s
        if i == last and suffix:
            s = s + suffix
        if s in vocab:
            if unk is not None:
                out.append((unk[0], unk[1]))
                unk = None
            out.append((s, n))
            continue
        if byte_fallback:
            codes = [f"<0x{b:02X}>" for b in s.encode("utf-8")]
            if all(c in vocab for c in codes):
                out.extend((c, 1) for c in codes)
                continue
        if unk_token is not None:
            if unk_token not in vocab:
                raise ValueError(f"The unknown token {shown(unk_token)} is not in the vocabulary.")
            if unk is not None and fuse_unk:
                unk[1] += n
            else:
                if unk is not None:
                    out.append((unk[0], unk[1]))
                unk = [unk_token, n]
        # no unknown token: the character is dropped, as tokenizers does
    if unk is not None:
        out.append((unk[0], unk[1]))
    return out


def is_byte_token(token: str) -> bool:
    """Whether ``token`` is a byte-fallback token such as ``<0x41>``."""
    return (
        len(token) == 6
        and token.startswith("<0x")
        and token.endswith(">")
        and all(c in "0123456789ABCDEF" for c in token[3:5])
    )
