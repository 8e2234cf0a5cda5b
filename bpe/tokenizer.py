"""A trained tokenizer: cut new text into tokens and ids, and say how each word was built.

BPE words are encoded the way GPT-2 and the ``tokenizers`` library do it: start
from single symbols, then repeatedly merge the adjacent pair with the lowest merge
rank (the earliest learned), leftmost first, until no learned pair is left
(:func:`merge_all`: a heap over a linked list, O(n log n) in the word's length, as
``tokenizers``' ``Word::merge_all``). For merges learned by training this gives the
same result as replaying the merges in order, the course's way. Each tokenizer keeps
its last 10,000 words of up to 256 characters in a cache.

WordPiece words use the longest-match-first rule instead (candidates no longer than
the longest vocabulary token, so a long word costs O(n) lookups); a word that cannot
be covered, or longer than ``max_input_chars_per_word`` (100, as in ``tokenizers``),
becomes a single unknown token.

A character outside the vocabulary becomes the unknown token (``[UNK]`` by
default) in character-level tokenizers. Byte-level tokenizers whose alphabet
holds all 256 byte symbols never need it, and ``decode(encode(t)) == t``.

A tokenizer read from a real ``tokenizer.json`` carries a :class:`bpe.pipeline.Pipeline`
(normaliser, pre-tokenizer with offsets, added tokens, decoder) and the model options
of that file (byte fallback, ``fuse_unk``, word prefix and suffix, ``ignore_merges``);
it then encodes exactly as the ``tokenizers`` library does. Left out: post-processor
templates (``[CLS] ... [SEP]``) and BPE dropout. File formats live in
:mod:`bpe.serialization`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

import regex

from . import pre_tokenizers as pt
from .config import WORDPIECE_PREFIX, Pair, Span
from .merging import FirstMerges, merge_all


@dataclass(frozen=True)
class Encoding:
    """The result of :meth:`Tokenizer.encode_full`, in the ``tokenizers`` library's terms."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[Span, ...]  # character (start, end) of each token in the text
    word_ids: tuple[int | None, ...]  # which pre-tokenized word each token came from (None: special)


@dataclass(frozen=True)
class TraceStep:
    """One merge applied while encoding a word: its rank, the pair, and the split after it."""

    rank: int
    pair: Pair
    split: tuple[str, ...]


@dataclass(frozen=True)
class WordTrace:
    """How one word was built: its initial symbols, then each merge applied in order.

    A long word's replay is cut to a budget of symbols (``Tokenizer.trace``'s ``budget``):
    ``omitted`` counts the merge steps left out at the end, and ``final`` is always the word's
    complete result.
    """

    word: str
    span: Span
    initial: tuple[str, ...]
    steps: tuple[TraceStep, ...]
    omitted: int = 0
    final: tuple[str, ...] | None = None

    @property
    def tokens(self) -> tuple[str, ...]:
        if self.final is not None:
            return self.final
        return self.steps[-1].split if self.steps else self.initial


WORD_CACHE_SIZE = 10_000  # words kept by each tokenizer's cache (least recently used go first)
WORD_CACHE_MAX_CHARS = 256  # longer words are not cached (tokenizers' cache skips them too)
TRACE_BUDGET = 20_000  # symbols a word's merge replay may hold across all its steps
WORDPIECE_MAX_CHARS = 100  # tokenizers' max_input_chars_per_word default: longer words are [UNK]


class Tokenizer:
    """A BPE or WordPiece tokenizer: a vocabulary, merges in rank order, and a pre-tokenizer.

    >>> tok = Tokenizer(["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"],
    ...                 [("u", "g"), ("u", "n"), ("h", "ug")])
    >>> tok.tokenize("bug mug thug")
    ['b', 'ug', '[UNK]', 'ug', '[UNK]', 'hug']
    """

    def __init__(
        self,
        vocab: Sequence[str] | dict[str, int],
        merges: Iterable[Pair],
        *,
        pre_tokenizer: str = "whitespace",
        special_tokens: Iterable[str] = (),
        unk_token: str | None = "[UNK]",
        algorithm: str = "bpe",
        pipeline=None,
        byte_fallback: bool = False,
        fuse_unk: bool = False,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        ignore_merges: bool = False,
        max_input_chars_per_word: int = WORDPIECE_MAX_CHARS,
    ) -> None:
        # With a pipeline (a real tokenizer.json), the pipeline cuts the text and the
        # pre_tokenizer name only describes it.
        if pipeline is None:
            pt.check_pre_tokenizer(pre_tokenizer)
        if algorithm not in ("bpe", "wordpiece"):
            raise ValueError(f"Unknown algorithm {algorithm!r}; choose 'bpe' or 'wordpiece'.")
        if (
            isinstance(max_input_chars_per_word, bool)
            or not isinstance(max_input_chars_per_word, int)
            or max_input_chars_per_word < 1
        ):
            raise ValueError(
                f"max_input_chars_per_word must be a whole number of 1 or more, not {max_input_chars_per_word!r}."
            )
        if isinstance(vocab, dict):
            self.vocab: dict[str, int] = dict(vocab)
        else:
            self.vocab = {}
            for token in vocab:
                self.vocab.setdefault(token, len(self.vocab))
        self.id_to_token: dict[int, str] = {i: t for t, i in self.vocab.items()}
        if len(self.id_to_token) != len(self.vocab):
            raise ValueError("Two tokens in the vocabulary share an id; every token needs its own id.")
        self.merges: list[Pair] = [m if type(m) is tuple else tuple(m) for m in merges]  # type: ignore[misc]
        self.pipeline = pipeline
        self.pre_tokenizer = pipeline.name if pipeline is not None else pre_tokenizer
        self.algorithm = algorithm
        self.byte_level = pipeline.byte_level if pipeline is not None else pre_tokenizer in pt.BYTE_LEVEL
        self.special_tokens: tuple[str, ...] = tuple(dict.fromkeys(special_tokens))
        self.unk_token = unk_token
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.continuing_subword_prefix = continuing_subword_prefix or None
        self.end_of_word_suffix = end_of_word_suffix or None
        self.ignore_merges = bool(ignore_merges)
        self.max_input_chars_per_word = max_input_chars_per_word
        if pipeline is None:
            if algorithm == "wordpiece" and unk_token is not None:
                # WordPiece marks a whole word it cannot cover as unknown, byte-level or not.
                self._append(unk_token)
            if self.byte_level:
                # A byte-level vocabulary holds all 256 byte symbols by definition. Training may have
                # seen only some of them (the course's alphabet has 30); the rest are appended after
                # the learned tokens, so trained ids do not move and no text ever needs [UNK].
                for symbol in pt.bytes_to_unicode().values():
                    self._append(symbol)
            elif unk_token is not None:
                # A character-level tokenizer needs an id for unknown characters; it goes at the end.
                self._append(unk_token)
        # pair -> (rank, merged token); a pair listed twice keeps its first rank (built from the last
        # rank to the first, so the first one written stays).
        merges_ = self.merges
        if algorithm == "bpe" and not self.continuing_subword_prefix:
            joined = list(map(str.__add__, map(itemgetter(0), merges_), map(itemgetter(1), merges_)))
        else:
            joined = [self._join(a, b) for a, b in merges_]
        self._concatenates = algorithm == "bpe" and not self.continuing_subword_prefix
        backwards = range(len(merges_) - 1, -1, -1)
        self._merge_map: dict[Pair, tuple[int, str]] = dict(zip(reversed(merges_), zip(backwards, reversed(joined))))
        specials = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(s) for s in specials)) if specials else None
        self._cached_word = lru_cache(maxsize=WORD_CACHE_SIZE)(self._word_uncached)
        self._cached_raw = lru_cache(maxsize=WORD_CACHE_SIZE)(self._raw_word)

    @property
    def ranks(self) -> dict[Pair, int]:
        """pair -> its merge rank (the first, if a pair is listed twice); built on first use."""
        if not hasattr(self, "_ranks"):
            table = self._merge_map
            k = getattr(table, "k", None)
            full = getattr(table, "full", table)
            self._ranks = {pair: rank for pair, (rank, _) in full.items() if k is None or rank < k}
        return self._ranks

    def _append(self, token: str) -> None:
        if token not in self.vocab:
            self.vocab[token] = max(self.id_to_token, default=-1) + 1
            self.id_to_token[self.vocab[token]] = token

    def _options(self) -> dict:
        return dict(
            pre_tokenizer=self.pre_tokenizer,
            special_tokens=self.special_tokens,
            unk_token=self.unk_token,
            algorithm=self.algorithm,
            pipeline=self.pipeline,
            byte_fallback=self.byte_fallback,
            fuse_unk=self.fuse_unk,
            continuing_subword_prefix=self.continuing_subword_prefix,
            end_of_word_suffix=self.end_of_word_suffix,
            ignore_merges=self.ignore_merges,
            max_input_chars_per_word=self.max_input_chars_per_word,
        )

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state, unk_token: str | None = "[UNK]") -> Tokenizer:
        """The tokenizer a training state defines: its vocabulary and merges so far."""
        cfg = state.history.config
        return cls(
            list(state.vocab),
            state.merges,
            pre_tokenizer=cfg.pre_tokenizer,
            special_tokens=cfg.special_tokens,
            unk_token=unk_token,
            algorithm=cfg.algorithm,
        )

    def with_merges(self, k: int) -> Tokenizer:
        """The same tokenizer using only its first ``k`` merges (ids unchanged).

        WordPiece encodes from its vocabulary alone (longest match first), so the tokens the later
        merges created leave the vocabulary too; BPE keeps them, since only its merges build tokens
        (a file with ``ignore_merges`` would still take whole words from the vocabulary).
        """
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.merges):
            raise ValueError(f"k must be between 0 and {len(self.merges)}, not {k}.")
        if self.algorithm == "wordpiece":
            created = self._created_rank()
            vocab = {t: i for t, i in self.vocab.items() if created.get(t, -1) < k}
            return Tokenizer(vocab, self.merges[:k], **self._options())
        # A view, not a copy: it shares the vocabulary, the id map and the merge table (a 200,000-token
        # file holds ~150 MB of them) and only reads the table's first k ranks, so moving the Encode
        # page's k slider costs each session almost nothing. Its word caches start empty.
        view = copy.copy(self)
        for cached in ("_created", "_ranks", "_longest"):
            view.__dict__.pop(cached, None)
        if k < len(self.merges):
            view.merges = self.merges[:k]
            view._merge_map = FirstMerges(getattr(self._merge_map, "full", self._merge_map), k)
        view._cached_word = lru_cache(maxsize=WORD_CACHE_SIZE)(view._word_uncached)
        view._cached_raw = lru_cache(maxsize=WORD_CACHE_SIZE)(view._raw_word)
        return view

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def token_rank(self, token: str) -> int | None:
        """The rank of the merge that created ``token`` (None for base symbols and specials)."""
        return self._created_rank().get(token)

    def _created_rank(self) -> dict[str, int]:
        if not hasattr(self, "_created"):
            created: dict[str, int] = {}
            for rank, (a, b) in enumerate(self.merges):
                created.setdefault(self._join(a, b), rank)
            self._created = created
        return self._created

    def _join(self, a: str, b: str) -> str:
        if self.algorithm == "wordpiece" and b.startswith(WORDPIECE_PREFIX):
            b = b[len(WORDPIECE_PREFIX) :]
        elif self.continuing_subword_prefix:
            b = b[len(self.continuing_subword_prefix) :]  # as tokenizers: the right part carries the prefix
        return a + b

    # -- splitting text --------------------------------------------------------------------------
    def _segments(self, text: str) -> list[tuple[str, Span, bool]]:
        """Pieces of text: (text, span, is_special). Special tokens are matched first, whole."""
        if self._special_re is None:
            return [(text, (0, len(text)), False)] if text else []
        out, pos = [], 0
        for m in self._special_re.finditer(text):
            if m.start() > pos:
                out.append((text[pos : m.start()], (pos, m.start()), False))
            out.append((m.group(), m.span(), True))
            pos = m.end()
        if pos < len(text):
            out.append((text[pos:], (pos, len(text)), False))
        return out

    def _initial(self, word: str) -> list[tuple[str, int]]:
        """A word's starting symbols, each with how many source units it covers (characters, or
        bytes for byte-level schemes; for a file's pipeline, the UTF-8 bytes of the word the model
        sees, as ``tokenizers`` counts them)."""
        if self.pipeline is not None:
            return self._initial_model(word)
        symbols = pt.word_symbols(word, self.pre_tokenizer)
        units = [0 if s == pt.END_OF_WORD else 1 for s in symbols]
        if self.algorithm == "wordpiece":
            symbols = (symbols[0], *(WORDPIECE_PREFIX + s for s in symbols[1:]))
        return [(s if s in self.vocab else self.unk_token or s, u) for s, u in zip(symbols, units)]

    def _initial_model(self, word: str) -> list[tuple[str, int]]:
        """``tokenizers``' ``BPE::merge_word`` start: prefix, suffix, byte fallback, unknowns."""
        vocab, prefix, suffix = self.vocab, self.continuing_subword_prefix, self.end_of_word_suffix
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
                    raise ValueError(f"The unknown token {self.unk_token!r} is not in the vocabulary.")
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

    def _word_uncached(self, word: str) -> tuple[tuple[str, int], ...]:
        if self.algorithm == "wordpiece":
            return self._wordpiece(word)
        if self.ignore_merges and word in self.vocab:
            return ((word, len(word.encode("utf-8")) if self.pipeline is not None else len(word)),)
        parts = self._initial(word)
        symbols = [p for p, _ in parts]
        units = [u for _, u in parts]
        merge_all(symbols, units, self._merge_map, concatenates=self._concatenates)
        return tuple(zip(symbols, units))

    def _word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        """A word's tokens, each with the units it covers (cached for words up to 256 characters)."""
        if len(word) > WORD_CACHE_MAX_CHARS:
            return self._word_uncached(word)
        return self._cached_word(word)

    def _replay(self, word: str, budget: int) -> tuple[list[TraceStep], int, tuple[tuple[str, int], ...]]:
        """The merge steps of one word (consecutive merges of one rank form one step), holding
        at most ``budget`` symbols in all the steps' splits; the steps beyond are counted."""
        parts = self._initial(word)
        if self.ignore_merges and word in self.vocab:
            return [], 0, self._word_uncached(word)
        symbols = [p for p, _ in parts]
        units = [u for _, u in parts]
        record: list[tuple[int, int, int]] = []
        merge_all(symbols, units, self._merge_map, record)
        final = tuple(zip(symbols, units))
        # Replay the record on the initial symbols, one step per run of equal ranks.
        cur = [p for p, _ in parts]
        nxt = list(range(1, len(cur) + 1))
        if nxt:
            nxt[-1] = -1
        steps: list[TraceStep] = []
        used, omitted, i = 0, 0, 0
        while i < len(record):
            rank = record[i][0]
            j = i
            while j < len(record) and record[j][0] == rank:
                _, left, right = record[j]
                pair = (cur[left], cur[right])
                cur[left] = self._merge_map[pair][1]
                nxt[left] = nxt[right]
                j += 1
            if omitted or used + len(final) > budget:
                omitted += 1
            else:
                split, k = [], 0
                while k != -1:
                    split.append(cur[k])
                    k = nxt[k]
                used += len(split)
                if used > budget:
                    omitted += 1
                else:
                    steps.append(TraceStep(rank, pair, tuple(split)))
            i = j
        return steps, omitted, final

    def _wordpiece(self, word: str) -> tuple[tuple[str, int], ...]:
        """Longest match first; if any piece is missing, or the word is longer than
        ``max_input_chars_per_word``, the whole word is unknown. Candidates are never longer
        than the longest vocabulary token, so a long word costs O(n) lookups."""
        n = len(word)
        units = (lambda a, b: len(word[a:b].encode("utf-8"))) if self.pipeline is not None else (lambda a, b: b - a)
        unk = ((self.unk_token or word, units(0, n)),)
        if n > self.max_input_chars_per_word:
            return unk
        if not hasattr(self, "_longest"):
            self._longest = max((len(t) for t in self.vocab), default=1)
        vocab, longest = self.vocab, self._longest
        out, start = [], 0
        while start < n:
            end = min(n, start + longest)
            while end > start:
                piece = word[start:end]
                if start > 0:
                    piece = WORDPIECE_PREFIX + piece
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                return unk
            out.append((piece, units(start, end)))
            start = end
        return tuple(out)

    # -- encoding --------------------------------------------------------------------------------
    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        if self.pipeline is not None:
            try:
                return self._encode_pipeline(text)
            except TimeoutError:
                raise ValueError(
                    "This tokenizer's split pattern ran for more than 5 seconds on this text "
                    "and was stopped; try a shorter text or another pattern."
                ) from None
        ids, tokens, offsets, word_ids = [], [], [], []
        word_no = 0
        vocab = self.vocab
        for segment, (seg_start, _), special in self._segments(text):
            if special:
                tokens.append(segment)
                ids.append(vocab[segment] if segment in vocab else self._unk_id())
                offsets.append((seg_start, seg_start + len(segment)))
                word_ids.append(None)
                continue
            for word, (w_start, w_end) in pt.pre_tokenize_with_offsets(segment, self.pre_tokenizer):
                start, end = seg_start + w_start, seg_start + w_end
                char_of_unit = _unit_to_char(text[start:end]) if self.byte_level else None
                unit = 0
                for token, n in self._word_tokens(word):
                    if char_of_unit is None:
                        span = (start + unit, start + unit + n)
                    else:
                        span = (start + char_of_unit[unit], start + char_of_unit[unit + n - 1] + 1)
                    unit += n
                    tokens.append(token)
                    ids.append(vocab[token] if token in vocab else self._unk_id())
                    offsets.append(span)
                    word_ids.append(word_no)
                word_no += 1
        return Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))

    def _raw_word(self, raw: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Span, ...]]:
        """Tokens, ids and offsets (relative to the word) of one word of a :attr:`Pipeline.fast` file."""
        # Units are UTF-8 bytes of the model's word (see _initial_model); for a byte-level word, its
        # symbols stand for the text's bytes one by one.
        if self.byte_level:
            data = raw.encode("utf-8")
            word = pt.bytes_to_symbols(data)
            symbol_of_unit = range(len(word)) if word.isascii() else _unit_to_char(word)
            char_of_byte = range(len(raw)) if len(data) == len(raw) else _unit_to_char(raw)
        else:
            word = raw
            symbol_of_unit = range(len(raw)) if raw.isascii() else _unit_to_char(raw)
            char_of_byte = None
        vocab = self.vocab
        toks, ids, spans, unit = [], [], [], 0
        for token, n in self._word_uncached(word):
            if n == 0:  # nothing of the text (a separate </w> cannot occur in a file's word)
                continue
            a, b = symbol_of_unit[unit], symbol_of_unit[unit + n - 1]
            if char_of_byte is not None:
                a, b = char_of_byte[a], char_of_byte[b]
            unit += n
            toks.append(token)
            ids.append(vocab[token])
            spans.append((a, b + 1))
        return tuple(toks), tuple(ids), tuple(spans)

    def _encode_pipeline(self, text: str) -> Encoding:
        ids, tokens, offsets, word_ids = [], [], [], []
        vocab = self.vocab
        word_no = 0
        if self.pipeline.fast_applies(text):
            # The hot loop of GPT-style files: every word straight from the regex, its tokens, ids and
            # offsets from the per-word cache (one entry per distinct word of up to 256 characters).
            cached, uncached, limit = self._cached_raw, self._raw_word, WORD_CACHE_MAX_CHARS
            finditer = self.pipeline.fast.finditer
            from .normalizers import REGEX_TIMEOUT

            for seg in self.pipeline.fast_segments(text):
                if seg[0] == "added":
                    tokens.append(seg[1])
                    ids.append(seg[2])
                    offsets.append(seg[3])
                    word_ids.append(None)
                    continue
                lo, hi = seg[1], seg[2]
                starts = []
                prev = lo
                for m in finditer(text, lo, hi, timeout=REGEX_TIMEOUT):
                    ms, me = m.span()
                    if ms == me:
                        continue
                    if ms > prev:
                        starts.append((prev, ms))
                    starts.append((ms, me))
                    prev = me
                if prev < hi:
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
            if self.pipeline.trim_offsets is not None:
                offsets = self.pipeline.trim(tokens, offsets)
            return Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))
        for kind, value, added_id, piece in self.pipeline.run(text):
            if kind == "added":
                tokens.append(value)
                ids.append(added_id)
                offsets.append(piece)
                word_ids.append(None)
                continue
            word = piece.text
            char_of_unit = range(len(word)) if word.isascii() else _unit_to_char(word)
            unit = 0
            for token, n in self._word_tokens(word):
                if n == 0:
                    continue
                a = char_of_unit[unit]
                b = char_of_unit[unit + n - 1]
                unit += n
                tokens.append(token)
                ids.append(vocab[token])
                offsets.append(piece.original(a, b + 1))
                word_ids.append(word_no)
            word_no += 1
        if self.pipeline.trim_offsets is not None:
            offsets = self.pipeline.trim(tokens, offsets)
        return Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))

    def _unk_id(self) -> int:
        if self.unk_token is None or self.unk_token not in self.vocab:
            raise ValueError("This text has a symbol outside the vocabulary and the tokenizer has no unknown token.")
        return self.vocab[self.unk_token]

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``.

        >>> Tokenizer(["a", "b", "ab"], [("a", "b")]).tokenize("abab b")
        ['ab', 'ab', 'b']
        """
        return list(self.encode_full(text).tokens)

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text``."""
        return list(self.encode_full(text).ids)

    def decode(self, ids: Iterable[int]) -> str:
        """Text from ids. Exact for byte-level tokenizers; otherwise word boundaries are
        rebuilt from the scheme's markers (``Ġ``, ``</w>``, ``##``, kept spaces) and, for
        plain ``whitespace`` BPE, a space between tokens (as ``tokenizers`` does). A file's
        tokenizer decodes with its own decoder, as ``tokenizers`` does."""
        ids = list(ids)
        tokens = []
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or i not in self.id_to_token:
                raise ValueError(f"{i!r} is not a token id of this tokenizer (ids go from 0 to {len(self.vocab) - 1}).")
            tokens.append(self.id_to_token[i])
        if self.pipeline is not None:
            return self.pipeline.decode(ids, self.id_to_token)
        if self.algorithm == "wordpiece":
            text = ""
            for t in tokens:
                text += t[len(WORDPIECE_PREFIX) :] if t.startswith(WORDPIECE_PREFIX) else (" " + t if text else t)
            return text
        if self.byte_level:
            out, buffer = [], bytearray()
            inverse = pt.unicode_to_bytes()
            for t in tokens:
                if t in self.special_tokens or t == self.unk_token or any(c not in inverse for c in t):
                    out.append(buffer.decode("utf-8", errors="replace"))
                    buffer.clear()
                    out.append(t)
                else:
                    buffer.extend(inverse[c] for c in t)
            out.append(buffer.decode("utf-8", errors="replace"))
            return "".join(out)
        if self.pre_tokenizer == "sennrich":
            return "".join(tokens).replace(pt.END_OF_WORD, " ").rstrip(" ")
        if self.pre_tokenizer == "space-suffix":
            return "".join(tokens)
        return " ".join(tokens)

    def token_bytes(self, token: str) -> bytes:
        """The raw bytes of a token (UTF-8 of its text for character-level tokenizers; the byte
        of a byte-fallback token such as ``<0x41>``)."""
        if self.byte_level and token not in self.special_tokens and token != self.unk_token:
            try:
                return pt.symbols_to_bytes(token)
            except ValueError:
                pass
        if self.byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
            try:
                return bytes([int(token[3:5], 16)])
            except ValueError:
                pass
        return token.encode("utf-8")

    # -- explaining ------------------------------------------------------------------------------
    def _words(self, text: str):
        """(word as the model sees it, span in text, is_special) for every piece of ``text``."""
        if self.pipeline is not None:
            for kind, value, _, piece in self.pipeline.run(text):
                if kind == "added":
                    yield value, piece, True
                else:
                    yield piece.text, piece.original(0, len(piece.text)) if piece.text else (0, 0), False
            return
        for segment, (seg_start, _), special in self._segments(text):
            if special:
                yield segment, (seg_start, seg_start + len(segment)), True
                continue
            for word, (s, e) in pt.pre_tokenize_with_offsets(segment, self.pre_tokenizer):
                yield word, (seg_start + s, seg_start + e), False

    def trace(self, text: str, budget: int = TRACE_BUDGET) -> list[WordTrace]:
        """For every word of ``text``: its initial symbols and each merge applied, in order.

        Merges of one rank applied one after another form one step (the course's "every
        occurrence, left to right"). A word's steps hold at most ``budget`` symbols in all; the
        steps beyond are counted in ``omitted`` and ``final`` still holds the complete result.
        """
        out = []
        for word, span, special in self._words(text):
            if special:
                out.append(WordTrace(word, span, (word,), ()))
                continue
            initial = tuple(t for t, _ in self._initial(word))
            if self.algorithm == "bpe":
                steps, omitted, final = self._replay(word, budget)
            else:
                steps, omitted, final = [], 0, self._word_tokens(word)
            out.append(WordTrace(word, span, initial, tuple(steps), omitted, tuple(t for t, _ in final)))
        return out

    def merge_tree(self, token: str) -> tuple | str:
        """Break a token into the pairs it came from: ``"hug"`` -> ``("h", ("u", "g"))``.

        Built without recursion, so a token made by thousands of nested merges works too.
        """
        created = self._created_rank()
        merges = self.merges
        # Post-order over an explicit stack: children first, then the pair.
        done: dict[str, tuple | str] = {}
        open_: set[str] = set()  # tokens whose parts are being built (a file could loop)
        stack = [token]
        while stack:
            t = stack[-1]
            if t in done:
                stack.pop()
                continue
            rank = created.get(t)
            if rank is None or (t in open_ and any(x not in done for x in merges[rank])):
                done[t] = t
                stack.pop()
                continue
            a, b = merges[rank]
            missing = [x for x in (a, b) if x not in done]
            if missing:
                open_.add(t)
                stack.extend(missing)
                continue
            done[t] = (done[a], done[b])
            stack.pop()
        return done[token]

    # -- files -----------------------------------------------------------------------------------
    # The file formats live in bpe.serialization, which imports this module (never the reverse):
    # it registers itself here when it is imported, which ``import bpe`` always does.
    file_formats = None

    @classmethod
    def _formats(cls):
        if cls.file_formats is None:
            raise RuntimeError("Reading and writing files needs bpe.serialization: import bpe first.")
        return cls.file_formats

    def save(self, path) -> None:
        """Write this tokenizer as a Hugging Face ``tokenizer.json`` file (see :mod:`bpe.serialization`)."""
        self._formats().save(self, path)

    @classmethod
    def load(cls, path) -> Tokenizer:
        """Read a ``tokenizer.json`` file: one this app saved, or a BPE model's from the ``tokenizers`` library."""
        return cls._formats().load(path)


def _unit_to_char(word_text: str) -> tuple[int, ...]:
    """For each UTF-8 byte of ``word_text``, the index of the character it belongs to (kept for up to
    4,096 words of up to 256 characters; a longer word's map is built each time, never kept)."""
    if len(word_text) <= WORD_CACHE_MAX_CHARS:
        return _unit_to_char_cached(word_text)
    return _build_unit_to_char(word_text)


def _build_unit_to_char(word_text: str) -> tuple[int, ...]:
    out: list[int] = []
    for i, ch in enumerate(word_text):
        out.extend([i] * len(ch.encode("utf-8")))
    return tuple(out)


_unit_to_char_cached = lru_cache(maxsize=4096)(_build_unit_to_char)
