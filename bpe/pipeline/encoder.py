"""A real file's text side running its model: a ``tokenizer.json`` (or ``.tiktoken``) file's pipeline around a model.

:class:`PipelineText` runs the file's :class:`Pipeline` (added tokens, normaliser, pre-tokenizer,
offset trimming, decoder) around a model of :mod:`bpe.models`, and encodes, with ids, tokens and
offsets, and decodes exactly as ``tokenizers`` 0.23 does; offsets count the UTF-8 bytes of the word
the model sees, as ``tokenizers`` does, then map back to characters of the text. GPT-style files take
a fast path (every word straight from one regex), files cut by one regex per part (BERT's) another,
and every other file goes piece by piece; each keeps its own per-word cache.

Left out: post-processor templates (``[CLS] ... [SEP]``), BPE dropout, and a rank file's ids-only
path (:mod:`bpe.pipeline.rank_encoder`).
"""

from __future__ import annotations

import copy
from functools import lru_cache
from itertools import accumulate
from operator import itemgetter

from .. import budget
from .. import pre_tokenizers as pt
from ..columns import Columns, WordEntry, word_entry
from ..config import Span
from ..encoding import Encoding
from ..models.rank_bpe import RankBPE, symbols_of
from ..units import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE, unit_to_char
from . import rank_encoder
from .onig import match_spans
from .pipeline import Pipeline


class PipelineText:
    """A file's :class:`Pipeline` running a model (see :meth:`over`). ``pattern_timed``: False for
    tiktoken's published patterns (linear, and the regex package runs ~50% slower with a timeout), which
    a rank file's :meth:`encode` runs untimed; a typed pattern keeps the request's time limit."""

    def __init__(self, pipeline: Pipeline, *, pattern_timed: bool = True) -> None:
        self.pipeline = pipeline
        self.name = pipeline.name
        self.byte_level = pipeline.byte_level
        self.pattern_timed = bool(pattern_timed)
        self.model = None  # the model it runs, once a tokenizer binds it (see over)
        self.clear_caches()

    def over(self, model) -> PipelineText:
        """This text side running ``model``, with empty word caches."""
        bound = copy.copy(self)
        bound.model = model
        bound.clear_caches()
        return bound

    def clear_caches(self) -> None:
        """Empty the word caches of each path."""
        raw = self._rank_raw_word if isinstance(self.model, RankBPE) else self._raw_word
        self._cached_raw = lru_cache(maxsize=WORD_CACHE_SIZE)(raw)
        self._cached_piece = lru_cache(maxsize=WORD_CACHE_SIZE)(self._piece_word)
        self.ids_cache: dict[str, tuple[int, ...]] = {}  # a word of the text -> its ids (a rank file's encode)

    def cache_info(self):
        """The word caches together, as one ``lru_cache`` statistics tuple (``currsize``: every word held)."""
        raw, piece = self._cached_raw.cache_info(), self._cached_piece.cache_info()
        return raw._replace(
            hits=raw.hits + piece.hits,
            misses=raw.misses + piece.misses,
            currsize=raw.currsize + piece.currsize + len(self.ids_cache),
        )

    def __getstate__(self) -> dict:
        """Pickled without its word caches (``lru_cache`` wrappers of bound methods); they start empty."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_cached_raw", "_cached_piece", "ids_cache")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.clear_caches()

    def words(self, text: str):
        """(word as the model sees it, span in text, is_special) for every piece of ``text``."""
        for kind, value, _, piece in self.pipeline.run(text):
            if kind == "added":
                yield value, piece, True
            else:
                yield piece.text, piece.original(0, len(piece.text)) if piece.text else (0, 0), False

    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``, as ``tokenizers`` gives them."""
        with budget.request(len(text)):  # one time and growth budget for the whole text
            return self._encode_pipeline(text)

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``; a rank file's from its word -> ids cache, as tiktoken's ``encode_ordinary``."""
        if isinstance(self.model, RankBPE) and rank_encoder.applies(self.pipeline, text):
            return rank_encoder.encode_ids(self, text)
        return list(self.encode_full(text).ids)

    def decode(self, ids: list[int]) -> str:
        """Text from checked ids, with the file's own decoder (as ``tokenizers`` decodes)."""
        id_to_token = self.model.id_to_token
        with budget.request(sum(len(id_to_token[i]) for i in ids)):
            return self.pipeline.decode(ids, id_to_token)

    def _rank_raw_word(self, raw: str):
        """A rank file's tokens, ids and offsets (relative to the word) of one word of the text."""
        model = self.model
        toks = model.split(symbols_of(raw))
        ids = tuple(map(model.mergeable_ranks.__getitem__, toks))
        bounds = list(accumulate(map(len, toks), initial=0))  # a symbol is a byte of the word
        if raw.isascii():
            spans = tuple(zip(bounds, bounds[1:]))
        else:
            char = unit_to_char(raw)
            spans = tuple([(char[a], char[b - 1] + 1) for a, b in zip(bounds, bounds[1:])])
        return tuple(toks), ids, spans

    def _raw_word(self, raw: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Span, ...]]:
        """Tokens, ids and offsets (relative to the word) of one word of a :attr:`Pipeline.fast` file."""
        # Units are UTF-8 bytes of the model's word (see bpe.models.merge_bpe.merge_word_start); for a byte-level word, its
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
        pairs = [p for p in self.model.tokenize(word) if p[1]]
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
        return toks, tuple(map(self.model.vocab.__getitem__, toks)), spans

    def _piece_word(self, word: str) -> WordEntry:
        """Tokens, ids and spans (in the word's characters) of one word the model sees."""
        budget.check_time()
        char = range(len(word)) if word.isascii() else unit_to_char(word)
        pairs = [p for p in self.model.tokenize(word) if p[1]]  # (this entry is what is cached)
        toks = [t for t, _ in pairs]
        bounds = list(accumulate([n for _, n in pairs], initial=0))
        return word_entry(toks, list(map(self.model.vocab.__getitem__, toks)), bounds, char)

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
            self.encode_pieces(text, cols)
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

    def encode_pieces(self, text: str, cols: Columns) -> None:
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
