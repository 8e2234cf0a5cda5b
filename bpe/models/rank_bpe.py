"""BPE by ranks: a ``.tiktoken`` rank file's model, encoded by rank as tiktoken does, its merges derived on demand.

For a rank file, tiktoken's rule is the definition, so no merges are needed to encode:

1. a piece (one match of the split pattern) that is itself a token is that token, whole;
2. otherwise start from the piece's bytes and merge the adjacent pair whose joined bytes have the
   lowest rank, leftmost among equals (only the same bytes can share a rank), until no joined pair
   is a token.

Tokens are kept as GPT-2's byte symbols (one character per byte), so a token's slice of a word is
its string in the vocabulary and its id is its rank.

The merges (what the merge replay, the merge tree, the merges table and the first-k slider read) are
derived from the ranks only when one of them first asks (``derive``, given by
:mod:`bpe.formats.rank_files`), and with them the note about tokens no merge of lower ranks builds.

Left out: reading the file (:mod:`bpe.formats.rank_files`), the derivation itself, and encoding a
whole text to ids (:mod:`bpe.pipeline.rank_encoder`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from heapq import heapify, heappop, heappush
from itertools import repeat

from .. import budget
from .. import pre_tokenizers as pt
from ..config import Pair
from ..replay import TRACE_BUDGET, merge_tree, replay_word
from ..units import WORD_CACHE_MAX_CHARS
from .merge_bpe import is_byte_token, merge_word_start
from .vocab import checked_vocab, created_ranks
from .word_cache import CachedWords

SHORT_WORD = 16  # symbols: shorter words are merged by scanning (faster in Python than a heap)
NO_RANK = 1 << 62  # above every rank: "no such token"

# what derives a rank file's merges: (merges in rank order, ranks of the tokens no merge builds)
Derive = Callable[[dict[str, int]], tuple[list[tuple[str, str]], list[int]]]


def unreachable_note(unreachable: list[int]) -> str:
    """The page's sentence about a rank file's tokens that no merge of lower ranks builds."""
    return (
        f"{len(unreachable):,} tokens of this rank file cannot be built by merging lower ranks (the first: "
        f"rank {unreachable[0]:,}); it is encoded by rank, as tiktoken does, and the merge tree shows those "
        "tokens whole."
    )


def rank_bounds(get, word: str, limit: int = NO_RANK) -> list[int]:
    """tiktoken's ``byte_pair_merge`` on a short ``word``: where its parts start, then its end.

    ``get(part, limit)`` is a part's rank (``limit`` or more: not a token, or not yet one). Merge the
    adjacent pair of lowest rank, leftmost among equals; only the merged part's neighbours change.

    >>> rank_bounds({"ab": 0, "abc": 1, "bc": 2}.get, "abcd")
    [0, 3, 4]
    """
    n = len(word)
    bounds = list(range(n + 1))
    rs = [get(word[i : i + 2], limit) for i in range(n - 1)]  # rs[k]: parts k and k + 1 joined
    while rs:
        low = min(rs)
        if low >= limit:
            break
        i = rs.index(low)
        del bounds[i + 1]
        del rs[i]
        if i:
            rs[i - 1] = get(word[bounds[i - 1] : bounds[i + 1]], limit)
        if i < len(rs):
            rs[i] = get(word[bounds[i] : bounds[i + 2]], limit)
    return bounds


def rank_bounds_heap(get, word: str, limit: int = NO_RANK) -> list[int]:
    """:func:`rank_bounds` for a long word in O(n log n): a heap of pairs over a linked list of parts.
    The lowest rank merges first and among equal ranks the leftmost, as the scan does; an entry whose
    left part is gone, or whose pair now ends elsewhere, is stale and skipped. An entry is one integer,
    ``(rank << 2b | start << b) | end`` (b bits hold a position), which keeps the heap fast in Python.

    >>> rank_bounds_heap({"ab": 0, "abc": 1, "bc": 2}.get, "abcd")
    [0, 3, 4]
    """
    n = len(word)
    bits = (n + 1).bit_length()
    mask = (1 << bits) - 1
    end = list(range(1, n + 1))  # end[i]: where the part starting at i ends (i a live start)
    prev = list(range(-1, n - 1))
    shift = 2 * bits
    ranks = map(get, map(str.__add__, word, word[1:]), repeat(limit))  # each adjacent pair's rank
    heap = [r << shift | i << bits | i + 2 for i, r in enumerate(ranks) if r < limit]
    heapify(heap)
    pops = 0
    while heap:
        key = heappop(heap)
        pops += 1
        if not pops & 4095:
            budget.check_time()
        i, e = key >> bits & mask, key & mask
        j = end[i]
        if j >= n or end[j] != e or prev[i] == -2:
            continue
        end[i] = e  # parts i and j are now one, [i, e)
        prev[j] = -2  # j is gone
        if e < n:
            prev[e] = i
            after = end[e]
            r = get(word[i:after], limit)
            if r < limit:
                heappush(heap, r << shift | i << bits | after)
        k = prev[i]
        if k >= 0:
            r = get(word[k:e], limit)
            if r < limit:
                heappush(heap, r << shift | k << bits | e)
    bounds, i = [0], 0
    while i < n:
        i = end[i]
        bounds.append(i)
    return bounds


class RankMerges:
    """tiktoken's merge table for a rank file, for the merge replay: any adjacent pair whose joined symbols
    are a mergeable token merges, at that token's rank (its id), lowest first and leftmost among equals
    (tiktoken's ``byte_pair_merge``). It answers :func:`~bpe.merging.merge_all`'s ``get`` like a merges
    dict, so the merge replay runs a rank file whose tokens cannot all be built from lower ranks (Llama
    3's ``tokenizer.model`` has 678 such tokens). ``limit``: only ranks below it."""

    __slots__ = ("mergeable_ranks", "limit")

    def __init__(self, ranks: dict[str, int], limit: int | None = None) -> None:
        self.mergeable_ranks, self.limit = ranks, limit

    def get(self, pair: Pair):
        joined = pair[0] + pair[1]
        r = self.mergeable_ranks.get(joined)
        if r is None or (self.limit is not None and r >= self.limit):
            return None
        return (r, joined)

    def __getitem__(self, pair: Pair):
        m = self.get(pair)
        if m is None:
            raise KeyError(pair)
        return m


class RankBPE(CachedWords):
    """A rank file's model: ``vocab`` maps each token (GPT-2 byte symbols) to its rank, the added tokens
    to theirs (``outside``: those, which never merge). It tokenizes by rank (see the module's steps);
    :attr:`merges`, :attr:`notes` and everything built from them (:meth:`created_rank`,
    :meth:`merge_tree`, :meth:`with_merges`, :meth:`unreachable`) derive the merges first, once, with
    ``derive`` (a module-level function, so the model pickles).

    >>> model = RankBPE({"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}, derive=lambda ranks: ([], []))
    >>> model.tokenize("abcab")
    (('abc', 3), ('ab', 2))
    """

    kind = "bpe"
    # a rank file's model has none of BPE's file options
    byte_fallback = False
    fuse_unk = False
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    ignore_merges = False
    unk_token: str | None = None
    counts_bytes = True

    def __init__(self, vocab: dict[str, int], *, derive: Derive, outside: Iterable[str] = ()) -> None:
        self.vocab = vocab
        self.id_to_token = checked_vocab(vocab)
        self._derive = derive
        outside = frozenset(outside)
        # the mergeable tokens: the model's own, never an added token or the empty one
        self.mergeable_ranks: dict[str, int] = {t: i for t, i in vocab.items() if t and t not in outside}
        self.limit: int | None = None  # a view of the first k merges: only ranks below this
        # the tokens a word may start from: not an added token of one character
        starts = {t for t in outside if len(t) == 1 or is_byte_token(t)}
        self.model_vocab = {t: i for t, i in vocab.items() if t not in starts} if starts else vocab
        self._merges: list[Pair] | None = None  # not derived yet
        self._unreachable: list[int] | None = None
        self.clear_cache()

    # -- the merges, derived when first asked for --------------------------------------------------
    @property
    def merges(self) -> list[Pair]:
        if self._merges is None:
            self._derive_merges()
        return self._merges  # type: ignore[return-value]

    @property
    def notes(self) -> tuple[str, ...]:
        """The page's sentence about tokens no merge of lower ranks builds, if any."""
        if self._unreachable is None:
            self._derive_merges()
        unreachable = self._unreachable or []
        return (unreachable_note(unreachable),) if unreachable else ()

    @property
    def derived(self) -> bool:
        """Whether the merges have been derived (reading :attr:`merges` or :attr:`notes` derives them)."""
        return self._merges is not None

    def _derive_merges(self) -> None:
        with budget.request(0):  # a load's budget: a file whose tokens are too long is refused in a sentence
            merges, unreachable = self._derive(self.mergeable_ranks)
        self._merges, self._unreachable = merges, unreachable

    def with_merges(self, k: int) -> RankBPE:
        """The same model using only the ranks below the k-th merge's token (a view sharing the ranks)."""
        merges = self.merges
        view = copy.copy(self)
        view.__dict__.pop("_created", None)
        if k < len(merges):
            view._merges = merges[:k]
            view.limit = self.mergeable_ranks[merges[k][0] + merges[k][1]]
        view.clear_cache()
        return view

    def created_rank(self) -> dict[str, int]:
        """token -> the rank of the first merge that makes it."""
        if not hasattr(self, "_created"):
            self._created = created_ranks(self.merges, str.__add__)
        return self._created

    @staticmethod
    def join(a: str, b: str) -> str:
        return a + b

    def merge_tree(self, token: str) -> tuple | str:
        return merge_tree(token, self.created_rank(), self.merges)

    def unreachable(self, token: str) -> bool:
        """Whether ``token`` is a token that no merge of lower ranks builds (tiktoken makes it by rank, from
        whichever two tokens join into it): its merge tree is the token whole."""
        return len(token) > 1 and token in self.mergeable_ranks and token not in self.created_rank()

    # -- one word --------------------------------------------------------------------------------
    def initial(self, word: str) -> list[tuple[str, int]]:
        """A word's byte symbols, each with the UTF-8 bytes it covers."""
        return merge_word_start(word, self.model_vocab, None)

    def takes_whole(self, word: str) -> bool:
        """tiktoken's first step: a piece that is itself a token is that token, built or not."""
        r = self.mergeable_ranks.get(word)
        return r is not None and (self.limit is None or r < self.limit)

    def split(self, word: str) -> list[str]:
        """The tokens of ``word`` (byte symbols) by tiktoken's rule, within a view's ranks."""
        limit = NO_RANK if self.limit is None else self.limit
        get = self.mergeable_ranks.get
        if get(word, limit) < limit:
            return [word]  # step 1: a piece that is a token is taken whole, built or not
        bounds = (rank_bounds if len(word) <= SHORT_WORD else rank_bounds_heap)(get, word, limit)
        return [word[a:b] for a, b in zip(bounds, bounds[1:])]

    def tokenize(self, word: str) -> tuple[tuple[str, int], ...]:
        """A word's tokens, each with its units: the UTF-8 bytes of its symbols, as a file's model counts."""
        return tuple((t, len(t.encode("utf-8"))) for t in self.split(word))

    def word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        """:meth:`tokenize`, cached for words up to 256 characters (the last 10,000 kept)."""
        if len(word) > WORD_CACHE_MAX_CHARS:
            return self.tokenize(word)
        return self._cached(word)

    def trace(self, word: str, budget: int = TRACE_BUDGET) -> tuple[list, list, int, tuple]:
        """How ``word`` was built: its initial (symbol, units), then the merge replay by rank."""
        parts = self.initial(word)
        if self.takes_whole(word):
            return parts, [], 0, self.tokenize(word)
        return parts, *replay_word(parts, RankMerges(self.mergeable_ranks, self.limit), budget)


def symbols_of(raw: str) -> str:
    """A word's UTF-8 bytes as GPT-2's byte symbols (one translate of its latin-1 reading).

    >>> symbols_of("a é")
    'aĠÃ©'
    """
    return raw.encode("utf-8").decode("latin-1").translate(BYTE_SYMBOLS)


# latin-1 text (one character per byte) -> GPT-2's byte symbols, as bpe.pre_tokenizers maps them
BYTE_SYMBOLS = {b: c for b, c in pt.bytes_to_unicode().items() if chr(b) != c}
