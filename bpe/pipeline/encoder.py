"""The model of a real ``tokenizer.json`` (or ``.tiktoken``) file, behind its :class:`Pipeline`.

:class:`FileTokenizer` is a :class:`~bpe.Tokenizer` whose text side is the file's own (added tokens,
normaliser, pre-tokenizer, offset trimming, decoder) and whose BPE model carries the file's options:
``byte_fallback`` (``<0x41>`` tokens for unknown characters), ``fuse_unk``, a word-inner prefix and an
end-of-word suffix, ``ignore_merges``. It encodes, with ids, tokens and offsets, and decodes exactly as
``tokenizers`` 0.23 does; offsets count the UTF-8 bytes of the word the model sees, as ``tokenizers``
does, then map back to characters of the text.

Left out: post-processor templates (``[CLS] ... [SEP]``) and BPE dropout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate, chain
from operator import itemgetter

from .. import budget
from .. import pre_tokenizers as pt
from ..columns import Columns, WordEntry, word_entry
from ..config import Pair, Span, shown
from ..tokenizer import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE, WORDPIECE_MAX_CHARS, Encoding, Tokenizer, unit_to_char
from .onig import match_spans
from .pipeline import Pipeline

METASPACE = "\u2581"  # SentencePiece's word mark, "▁"
CHUNKED_WORD = 64  # characters: a longer word of a SentencePiece-style file is merged stretch by stretch


_BYTE = re.compile(r"<0x[0-9A-F]{2}>")  # a byte-fallback token


class RankMerges:
    """tiktoken's merge table for a rank file: any adjacent pair whose joined symbols are a mergeable
    token merges, at that token's rank (its id), lowest first and leftmost among equals (tiktoken's
    ``byte_pair_merge``). It answers :func:`~bpe.merging.merge_all`'s ``get`` like a merges dict, so
    the same merging code (and the merge replay) runs a rank file whose tokens cannot all be built
    from lower ranks (Llama 3's ``tokenizer.model`` has 678 such tokens). ``limit``: only ranks below it
    (the first k merges of :meth:`FileTokenizer.with_merges`)."""

    __slots__ = ("ranks", "limit")

    def __init__(self, ranks: dict[str, int], limit: int | None = None) -> None:
        self.ranks, self.limit = ranks, limit

    def get(self, pair: Pair):
        joined = pair[0] + pair[1]
        r = self.ranks.get(joined)
        if r is None or (self.limit is not None and r >= self.limit):
            return None
        return (r, joined)

    def __getitem__(self, pair: Pair):
        m = self.get(pair)
        if m is None:
            raise KeyError(pair)
        return m

    def whole(self, word: str) -> bool:
        """tiktoken's first step: a piece that is itself a token is that token, built or not."""
        r = self.ranks.get(word)
        return r is not None and (self.limit is None or r < self.limit)


class FileTokenizer(Tokenizer):
    """A tokenizer read from a file: :class:`Tokenizer`'s model with the file's options, and its pipeline.

    ``pre_tokenizer`` names the pipeline (it describes it; the pipeline cuts the text).
    """

    counts_bytes = True  # a word's units are the UTF-8 bytes of the word the model sees
    model_vocab = property(lambda self: self._model_vocab)  # the vocabulary less added tokens outside the model

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable[Pair],
        pipeline: Pipeline,
        *,
        special_tokens: Iterable[str] = (),
        unk_token: str | None = "[UNK]",
        algorithm: str = "bpe",
        byte_fallback: bool = False,
        fuse_unk: bool = False,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        ignore_merges: bool = False,
        max_input_chars_per_word: int = WORDPIECE_MAX_CHARS,
        merge_by_rank: bool = False,
        notes: Iterable[str] = (),
    ) -> None:
        self.pipeline = pipeline
        self.merge_by_rank = bool(merge_by_rank)
        self.notes: tuple[str, ...] = tuple(notes)  # sentences for the page: where this file reads unusually
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.continuing_subword_prefix = continuing_subword_prefix or None
        self.end_of_word_suffix = end_of_word_suffix or None
        self.ignore_merges = bool(ignore_merges)
        self._set_model(
            vocab,
            merges,
            pre_tokenizer=pipeline.name,
            byte_level=pipeline.byte_level,
            special_tokens=special_tokens,
            unk_token=unk_token,
            algorithm=algorithm,
            max_input_chars_per_word=max_input_chars_per_word,
        )
        self._index_merges()
        if self.merge_by_rank:
            # the mergeable tokens: the model's own, never an added token or the empty one
            outside = pipeline.outside_model
            mergeable = {t: i for t, i in self.vocab.items() if t and t not in outside}
            self._merge_map = RankMerges(mergeable)  # type: ignore[assignment]
        self._marker = self._chunk_marker()
        outside = pipeline.outside_model
        if self.algorithm != "wordpiece":
            prefix, suffix = self.continuing_subword_prefix or "", self.end_of_word_suffix or ""
            outside = [
                t for t in outside if len(t.removeprefix(prefix).removesuffix(suffix)) == 1 or _BYTE.fullmatch(t)
            ]
        # The model looks in its own vocabulary only, as tokenizers' does: an added token ("ony" of
        # "onyhug", or a one-character "y") is matched in the text, before the model, or not at all.
        # WordPiece's longest match may meet any of them; BPE only those a word can start from (one
        # character, or a byte-fallback token): its merges make model tokens only, so a large BPE file
        # keeps one vocabulary unless it has such an added token.
        self._model_vocab = {t: i for t, i in self.vocab.items() if t not in outside} if outside else self.vocab

    def with_merges(self, k: int) -> Tokenizer:
        """:meth:`Tokenizer.with_merges`; a rank file merged by rank keeps the ranks below the k-th merge's token."""
        view = super().with_merges(k)
        if self.merge_by_rank:
            ranks = self._merge_map.ranks
            limit = ranks[self.merges[k][0] + self.merges[k][1]] if k < len(self.merges) else None
            view._merge_map = RankMerges(ranks, limit)
        return view

    def unreachable(self, token: str) -> bool:
        """Whether ``token`` is a rank file's token that no merge of lower ranks builds (tiktoken makes it
        by rank, from whichever two tokens join into it): its merge tree is the token whole.

        >>> from bpe.formats import from_tiktoken
        >>> import base64
        >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
        >>> tok = from_tiktoken("\\n".join(lines + ["YWJj 256", "YWI= 257"]), "gpt2")  # "abc" ranks below "ab"
        >>> tok.unreachable("abc"), tok.unreachable("ab"), tok.encode("abc")
        (True, False, [256])
        """
        return (
            self.merge_by_rank
            and len(token) > 1
            and token in self._merge_map.ranks
            and token not in self._created_rank()
        )

    def _options(self) -> dict:
        return dict(
            pipeline=self.pipeline,
            special_tokens=self.special_tokens,
            unk_token=self.unk_token,
            algorithm=self.algorithm,
            byte_fallback=self.byte_fallback,
            fuse_unk=self.fuse_unk,
            continuing_subword_prefix=self.continuing_subword_prefix,
            end_of_word_suffix=self.end_of_word_suffix,
            ignore_merges=self.ignore_merges,
            max_input_chars_per_word=self.max_input_chars_per_word,
            merge_by_rank=self.merge_by_rank,
            notes=self.notes,
        )

    def _fresh_caches(self) -> None:
        super()._fresh_caches()
        self._cached_raw = lru_cache(maxsize=WORD_CACHE_SIZE)(self._raw_word)
        self._cached_piece = lru_cache(maxsize=WORD_CACHE_SIZE)(self._piece_word)

    def _initial(self, word: str) -> list[tuple[str, int]]:
        return self._initial_model(word)

    def _start(self, word: str) -> tuple[list[str], list[int]]:
        if not self.continuing_subword_prefix and not self.end_of_word_suffix and self._model_vocab.keys() >= set(word):
            # every character a token: units are each character's UTF-8 bytes (see _initial_model)
            return list(word), [1] * len(word) if word.isascii() else list(map(len, map(str.encode, word)))
        parts = self._initial_model(word)
        return [p for p, _ in parts], [u for _, u in parts]

    def _takes_whole(self, word: str) -> bool:
        return self.algorithm == "bpe" and (
            (self.ignore_merges and word in self.vocab) or (self.merge_by_rank and self._merge_map.whole(word))
        )

    def _word_uncached(self, word: str) -> tuple[tuple[str, int], ...]:
        if self._takes_whole(word):
            return ((word, len(word.encode("utf-8"))),)
        marker = self._marker
        if marker is not None and len(word) > CHUNKED_WORD and word.find(marker, 1) > 0:
            # A SentencePiece-style file without a pre-tokenizer sees the whole text as one word; no
            # merge can join anything to a "▁"-led symbol (see _chunk_marker), so the word merges as
            # its stretches before each "▁" do one by one, each cached like a word of its own.
            first, *rest = word.split(marker)
            chunks = ([first] if first else []) + [marker + r for r in rest]
            return tuple(chain.from_iterable(map(self._word_tokens, chunks)))
        return super()._word_uncached(word)

    def _chunk_marker(self) -> str | None:
        """SentencePiece's word mark "▁" when this file's BPE never merges across one: a byte-pair model
        with no word prefix or suffix, "▁" a token of its own, no token holding "▁" after its first
        character, no merge whose right part starts with it. Then a word's merges never join a
        symbol to a following "▁"-led one, and the word can be merged stretch by stretch."""
        m = METASPACE
        if self.algorithm != "bpe" or self.continuing_subword_prefix or self.end_of_word_suffix or m not in self.vocab:
            return None
        if any(t.find(m, 1) > 0 for t in self.vocab) or any(b[:1] == m for _, b in self.merges):
            return None
        return m

    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``, as ``tokenizers`` gives them."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        with budget.request(len(text)):  # one time and growth budget for the whole text
            return self._encode_pipeline(text)

    def decode(self, ids: Iterable[int]) -> str:
        """Text from ids, with the file's own decoder (as ``tokenizers`` decodes)."""
        ids = self._checked_ids(ids)
        with budget.request(sum(len(self.id_to_token[i]) for i in ids)):
            return self.pipeline.decode(ids, self.id_to_token)

    def _words(self, text: str):
        for kind, value, _, piece in self.pipeline.run(text):
            if kind == "added":
                yield value, piece, True
            else:
                yield piece.text, piece.original(0, len(piece.text)) if piece.text else (0, 0), False

    def _initial_model(self, word: str) -> list[tuple[str, int]]:
        """``tokenizers``' ``BPE::merge_word`` start: prefix, suffix, byte fallback, unknowns."""
        vocab, prefix, suffix = self._model_vocab, self.continuing_subword_prefix, self.end_of_word_suffix
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
            if self.byte_fallback:
                codes = [f"<0x{b:02X}>" for b in s.encode("utf-8")]
                if all(c in vocab for c in codes):
                    out.extend((c, 1) for c in codes)
                    continue
            if self.unk_token is not None:
                if self.unk_token not in vocab:
                    raise ValueError(f"The unknown token {shown(self.unk_token)} is not in the vocabulary.")
                if unk is not None and self.fuse_unk:
                    unk[1] += n
                else:
                    if unk is not None:
                        out.append((unk[0], unk[1]))
                    unk = [self.unk_token, n]
            # no unknown token: the character is dropped, as tokenizers does
        if unk is not None:
            out.append((unk[0], unk[1]))
        return out

    def _raw_word(self, raw: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Span, ...]]:
        """Tokens, ids and offsets (relative to the word) of one word of a :attr:`Pipeline.fast` file."""
        # Units are UTF-8 bytes of the model's word (see _initial_model); for a byte-level word, its
        # symbols stand for the text's bytes one by one.
        if self.byte_level:
            data = raw.encode("utf-8")
            word = pt.bytes_to_symbols(data)
            symbol_of_unit = range(len(word)) if word.isascii() else unit_to_char(word)
            char_of_byte = range(len(raw)) if len(data) == len(raw) else unit_to_char(raw)
        else:
            word = raw
            symbol_of_unit = range(len(raw)) if raw.isascii() else unit_to_char(raw)
            char_of_byte = None
        # tokens covering nothing of the text are left out (a separate </w> cannot occur in a file's word)
        pairs = [p for p in self._word_uncached(word) if p[1]]
        toks = tuple(t for t, _ in pairs)
        bounds = list(accumulate([n for _, n in pairs], initial=0))  # each token's first unit, then the end
        if char_of_byte is not None and type(symbol_of_unit) is not range:  # a symbol's units, then its character
            char = [char_of_byte[i] for i in symbol_of_unit]
        else:
            char = symbol_of_unit if char_of_byte is None else char_of_byte
        if type(char) is range:  # a unit is a character: a token's span is its units
            spans = tuple(zip(bounds, bounds[1:]))
        else:
            spans = tuple([(char[a], char[b - 1] + 1) for a, b in zip(bounds, bounds[1:])])
        return toks, tuple(map(self.vocab.__getitem__, toks)), spans

    def _piece_word(self, word: str) -> WordEntry:
        """Tokens, ids and spans (in the word's characters) of one word the model sees."""
        budget.check_time()
        char = range(len(word)) if word.isascii() else unit_to_char(word)
        pairs = [p for p in self._word_uncached(word) if p[1]]  # (this entry is what is cached)
        toks = [t for t, _ in pairs]
        bounds = list(accumulate([n for _, n in pairs], initial=0))
        return word_entry(toks, list(map(self.vocab.__getitem__, toks)), bounds, char)

    def _entries(self, words: list[str], cached, uncached) -> list[WordEntry]:
        """The words' entries: from the cache, except words too long to keep."""
        if max(map(len, words), default=0) <= WORD_CACHE_MAX_CHARS:
            return list(map(cached, words))  # the lookups run in C
        return [cached(w) if len(w) <= WORD_CACHE_MAX_CHARS else uncached(w) for w in words]

    def _encode_pipeline(self, text: str) -> Encoding:
        cols = Columns()
        if self.pipeline.fast_applies(text):
            self._encode_fast(text, cols)
        elif self.pipeline.word_pattern is not None:
            self._encode_parts(text, cols)
        else:
            self._encode_pieces(text, cols)
        offsets = cols.offsets
        if self.pipeline.trim_offsets is not None:
            offsets = self.pipeline.trim(cols.tokens, offsets)
        return Encoding(tuple(cols.ids), tuple(cols.tokens), tuple(offsets), tuple(cols.word_ids))

    def _encode_fast(self, text: str, cols: Columns) -> None:
        """The hot loop of GPT-style files: every word straight from the regex (or the cutting steps),
        its tokens, ids and offsets from the per-word cache (one entry per distinct word of up to 256
        characters, kept by its text as typed)."""
        ids, tokens, offsets, word_ids = cols.ids, cols.tokens, cols.offsets, cols.word_ids
        cached, uncached, limit = self._cached_raw, self._raw_word, WORD_CACHE_MAX_CHARS
        fast, gaps, word_no = self.pipeline.fast, self.pipeline.fast_gaps, 0
        for seg in self.pipeline.fast_segments(text):
            if seg[0] == "added":
                cols.add_token(seg[1], seg[2], seg[3])
                continue
            lo, hi = seg[1], seg[2]
            budget.check_time()
            if fast is None:  # a Sequence of cutting steps (Pipeline.cuts)
                starts = self.pipeline.cut(text, lo, hi)
            else:
                starts, prev = [], lo
                for ms, me in match_spans(fast, text, lo, hi):
                    if ms > prev and gaps:
                        starts.append((prev, ms))  # an empty match still ends the stretch before it
                    if me > ms:
                        starts.append((ms, me))
                    prev = me
                if prev < hi and gaps:
                    starts.append((prev, hi))
            for a, b in starts:
                value = text[a:b]
                t, i, rel = cached(value) if b - a <= limit else uncached(value)
                tokens.extend(t)
                ids.extend(i)
                if len(rel) == 1:
                    x, y = rel[0]
                    offsets.append((a + x, a + y))
                    word_ids.append(word_no)
                else:
                    offsets.extend([(a + x, a + y) for x, y in rel])
                    word_ids.extend([word_no] * len(t))
                word_no += 1

    def _encode_parts(self, text: str, cols: Columns) -> None:
        """Files whose words are one regex's matches in each normalised part (BERT's pre-tokenizer,
        Whitespace, WhitespaceSplit): the words are read without making a piece per word, their entries
        joined a part at a time (:meth:`Columns.add_words`), and offsets go through the part's own map."""
        pattern, word_no = self.pipeline.word_pattern, 0
        for kind, value, added_id, part in self.pipeline.parts(text):
            if kind == "added":
                cols.add_token(value, added_id, part)
                continue
            budget.check_time()
            words, starts = [], []
            for m in pattern.finditer(part.text, timeout=budget.regex_timeout()):
                a, b = m.span()
                if a < b:
                    words.append(m.group())
                    starts.append(a)
            entries = self._entries(words, self._cached_piece, self._piece_word)
            nos = range(word_no, word_no + len(words))
            word_no += len(words)
            if part.align is None:
                cols.add_words(entries, [part.base + a for a in starts], nos)
            else:
                align = part.align
                lefts = list(map(itemgetter(0), align))
                rights = [0, *map(itemgetter(1), align)]
                cols.add_words(entries, starts, nos, lefts, rights)

    def _encode_pieces(self, text: str, cols: Columns) -> None:
        """Every other file: words as pieces from the pipeline, each word's entry (in the piece's
        characters) from the cache, mapped through the piece to the text."""
        ids, tokens, offsets, word_ids = cols.ids, cols.tokens, cols.offsets, cols.word_ids
        word_no = 0
        for kind, value, added_id, piece in self.pipeline.run(text):
            if kind == "added":
                cols.add_token(value, added_id, piece)
                continue
            word = piece.text
            t, i, xs, ys = self._cached_piece(word) if len(word) <= WORD_CACHE_MAX_CHARS else self._piece_word(word)
            tokens.extend(t)
            ids.extend(i)
            align = piece.align
            if align is None:
                base = piece.base
                offsets.extend([(base + x, base + y) for x, y in zip(xs, ys)])
            else:
                offsets.extend([(align[x][0], align[y - 1][1]) for x, y in zip(xs, ys)])
            word_ids.extend([word_no] * len(t))
            word_no += 1
