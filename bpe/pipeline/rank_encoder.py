"""A ``.tiktoken`` rank file's tokenizer: encoded by rank, as tiktoken does, its merges derived on demand.

For a rank file, tiktoken's rule is the definition, so no merges are needed to encode:

1. a piece (one match of the split pattern) that is itself a token is that token, whole;
2. otherwise start from the piece's bytes and merge the adjacent pair whose joined bytes have the
   lowest rank, leftmost among equals (only the same bytes can share a rank), until no joined pair
   is a token.

Tokens are kept as GPT-2's byte symbols (one character per byte), so a token's slice of a word is
its string in the vocabulary and its id is its rank. :meth:`RankFileTokenizer.encode` returns only
ids (what tiktoken's ``encode_ordinary`` returns), from a plain word -> ids cache; ``encode_full``
gives tokens, offsets and word ids for the page.

The merges (what the merge replay, the merge tree, the merges table and the first-k slider read) are
derived from the ranks only when one of them first asks (``derive``, given by
:mod:`bpe.formats.rank_files`), and with them the note about tokens no merge of lower ranks builds.

Left out: reading the file (:mod:`bpe.formats.rank_files`) and the derivation itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from heapq import heapify, heappop, heappush
from itertools import accumulate, chain, repeat

from .. import budget
from .. import pre_tokenizers as pt
from ..tokenizer import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE, unit_to_char
from .encoder import FileTokenizer
from .pipeline import Pipeline

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


class RankFileTokenizer(FileTokenizer):
    """A :class:`FileTokenizer` for a rank file: ``vocab`` maps each token (GPT-2 byte symbols) to its
    rank, the added tokens to theirs. It encodes by rank (see the module's steps); ``merges``,
    ``notes`` and everything built from them (:meth:`token_rank`, :meth:`merge_tree`,
    :meth:`with_merges`, :meth:`unreachable`) derive the merges first, once, with ``derive`` (a
    module-level function, so the tokenizer pickles). The upload's reading process reads ``notes``, so
    a tokenizer handed to the server arrives derived.

    >>> import base64
    >>> from bpe.formats import from_tiktoken
    >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    >>> tok = from_tiktoken("\\n".join(lines + ["YWI= 256", "YWJj 257"]), "gpt2")
    >>> tok.encode("abc abd"), tok.merges
    ([257, 32, 256, 100], [('a', 'b'), ('ab', 'c')])
    """

    def __init__(
        self,
        vocab: dict[str, int],
        pipeline: Pipeline,
        *,
        derive: Derive,
        special_tokens: Iterable[str] = (),
        notes: Iterable[str] = (),
        pattern_timed: bool = True,
    ) -> None:
        self._derive = derive
        # False for tiktoken's published patterns (linear, and the regex package runs ~50% slower
        # with a timeout): encode() runs them untimed; a typed pattern keeps the request's time limit
        self.pattern_timed = bool(pattern_timed)
        self._unreachable: list[int] | None = None
        super().__init__(
            vocab,
            (),
            pipeline,
            special_tokens=special_tokens,
            unk_token=None,
            merge_by_rank=True,
            notes=notes,
        )
        self._merges: list | None = None  # not derived yet (the model was set with none)

    # -- the merges, derived when first asked for --------------------------------------------------
    @property  # type: ignore[override]
    def merges(self) -> list:
        if self._merges is None:
            self._derive_merges()
        return self._merges  # type: ignore[return-value]

    @merges.setter
    def merges(self, value) -> None:
        self._merges = list(value)

    @property  # type: ignore[override]
    def notes(self) -> tuple[str, ...]:
        if self._unreachable is None:
            self._derive_merges()
        unreachable = self._unreachable or []
        return self._given_notes + ((unreachable_note(unreachable),) if unreachable else ())

    @notes.setter
    def notes(self, value) -> None:
        self._given_notes = tuple(value)

    @property
    def derived(self) -> bool:
        """Whether the merges have been derived (reading :attr:`merges` or :attr:`notes` derives them)."""
        return self._merges is not None

    def _derive_merges(self) -> None:
        with budget.request(0):  # a load's budget: a file whose tokens are too long is refused in a sentence
            merges, unreachable = self._derive(self._merge_map.ranks)
        self._merges, self._unreachable = merges, unreachable

    # -- encoding by rank ----------------------------------------------------------------------------
    def _fresh_caches(self) -> None:
        super()._fresh_caches()
        self._ids: dict[str, tuple[int, ...]] = {}  # a word of the text -> its ids (encode's cache)

    def _by_rank(self, word: str) -> list[str]:
        """The tokens of ``word`` (byte symbols) by tiktoken's rule, within a :meth:`with_merges` view's ranks."""
        table = self._merge_map
        limit = NO_RANK if table.limit is None else table.limit
        get = table.ranks.get
        if get(word, limit) < limit:
            return [word]  # step 1: a piece that is a token is taken whole, built or not
        bounds = (rank_bounds if len(word) <= SHORT_WORD else rank_bounds_heap)(get, word, limit)
        return [word[a:b] for a, b in zip(bounds, bounds[1:])]

    def _word_uncached(self, word: str) -> tuple[tuple[str, int], ...]:
        # units: the UTF-8 bytes of each token's symbols, as FileTokenizer counts a word's units
        return tuple((t, len(t.encode("utf-8"))) for t in self._by_rank(word))

    def _symbols(self, raw: str) -> str:
        return raw.encode("utf-8").decode("latin-1").translate(_BYTE_SYMBOLS)

    def _word_ids(self, raw: str) -> tuple[int, ...]:
        """The ids of one word of the text."""
        if not raw:
            return ()
        rank = self._merge_map.ranks
        return tuple(map(rank.__getitem__, self._by_rank(self._symbols(raw))))

    def _raw_word(self, raw: str):
        """Tokens, ids and offsets (relative to the word) of one word of the text (for ``encode_full``)."""
        toks = self._by_rank(self._symbols(raw))
        ids = tuple(map(self._merge_map.ranks.__getitem__, toks))
        bounds = list(accumulate(map(len, toks), initial=0))  # a symbol is a byte of the word
        if raw.isascii():
            spans = tuple(zip(bounds, bounds[1:]))
        else:
            char = unit_to_char(raw)
            spans = tuple([(char[a], char[b - 1] + 1) for a, b in zip(bounds, bounds[1:])])
        return tuple(toks), ids, spans

    def encode(self, text: str) -> list[int]:
        """The ids of ``text`` (tiktoken's ``encode_ordinary``, with the file's added tokens matched
        first): each word's ids from a word -> ids cache, flattened."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        p = self.pipeline
        fast = p.fast
        # findall gives whole matches only for a pattern without groups; a pattern whose gaps are words
        # too (never a rank file's own) goes the general way
        if fast is None or fast.groups or p.fast_gaps or not p.fast_applies(text):
            return list(self.encode_full(text).ids)
        out: list[int] = []
        with budget.request(len(text)):
            cache = self._ids
            for seg in p.fast_segments(text):
                if seg[0] == "added":
                    out.append(seg[2])
                    continue
                budget.check_time()
                if self.pattern_timed:
                    words = fast.findall(text, seg[1], seg[2], timeout=budget.regex_timeout())
                else:
                    words = fast.findall(text, seg[1], seg[2])
                start = len(out)
                try:  # warm: every word cached, flattened with no Python loop
                    out.extend(chain.from_iterable(map(cache.__getitem__, words)))
                except KeyError:  # cold: each distinct new word computed once, then flattened the same way
                    del out[start:]
                    table, passing = self._fill(set(words).difference(cache))
                    out.extend(chain.from_iterable(map(table.__getitem__, words)))
                    for w in passing:  # words too long to keep: in the cache only for this flattening
                        del cache[w]
        return out

    def _fill(self, missing: set[str]) -> tuple[dict[str, tuple[int, ...]], list[str]]:
        """A table of the ids of the cached and the ``missing`` words, and the words the caller must drop
        from the cache after using it. The table is the cache itself, with every missing word added (no copy
        per call: a text cut by many added tokens calls this once a stretch); words over 256 characters are
        dropped again after use. Only when the cache would overflow is the table a copy, and the cache starts
        again with this call's words."""
        cache = self._ids
        ranks = self._merge_map.ranks
        rank_of, by_rank, symbols = ranks.get, self._by_rank, _BYTE_SYMBOLS
        limit = NO_RANK if self._merge_map.limit is None else self._merge_map.limit
        fresh = {}
        words = list(missing)
        data = [w.encode("utf-8") for w in words]
        ends = list(accumulate(map(len, data)))
        joined = b"".join(data).decode("latin-1").translate(symbols)  # all the words' byte symbols at once
        for k, (w, a, b) in enumerate(zip(words, [0, *ends], ends)):
            if not k & 63:
                budget.check_time()
            word = joined[a:b]
            r = rank_of(word, limit)
            # a piece that is a token is that token (tiktoken's first step), else merged by rank
            fresh[w] = (r,) if r < limit else tuple(map(ranks.__getitem__, by_rank(word))) if w else ()
        passing = [w for w in fresh if len(w) > WORD_CACHE_MAX_CHARS]
        if len(cache) + len(fresh) - len(passing) > WORD_CACHE_SIZE:
            table = {**cache, **fresh}
            cache.clear()
            cache.update({w: i for w, i in fresh.items() if len(w) <= WORD_CACHE_MAX_CHARS})
            return table, []
        cache.update(fresh)
        return cache, passing


# latin-1 text (one character per byte) -> GPT-2's byte symbols, as bpe.pre_tokenizers maps them
_BYTE_SYMBOLS = {b: c for b, c in pt.bytes_to_unicode().items() if chr(b) != c}
