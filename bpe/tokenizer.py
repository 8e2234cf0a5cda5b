"""A trained tokenizer: cut new text into tokens and ids, and say how each word was built.

BPE words are encoded the way GPT-2 and the ``tokenizers`` library do it: start
from single symbols, then repeatedly merge the adjacent pair with the lowest merge
rank (the earliest learned), leftmost first, until no learned pair is left
(:func:`merge_all`: a heap over a linked list, O(n log n) in the word's length, as
``tokenizers``' ``Word::merge_all``). For merges learned by training this gives the
same result as replaying the merges in order, the course's way. Each tokenizer keeps
its last 10,000 words of up to 256 characters in a cache.

WordPiece words use the longest-match-first rule instead (only the lengths the vocabulary
holds are tried, so a long word costs O(n) lookups per length); a word that cannot
be covered, or longer than ``max_input_chars_per_word`` (100, as in ``tokenizers``),
becomes a single unknown token.

A character outside the vocabulary becomes the unknown token (``[UNK]`` by
default) in character-level tokenizers. Byte-level tokenizers whose alphabet
holds all 256 byte symbols never need it, and ``decode(encode(t)) == t``.

How each word was built (:meth:`Tokenizer.trace`, :meth:`Tokenizer.merge_tree`) is replayed by
:mod:`bpe.replay`. Left out: a real ``tokenizer.json``'s own text side and model options (its
:class:`~bpe.pipeline.encoder.FileTokenizer` subclasses this one), and files (:mod:`bpe.formats`:
a tokenizer has no ``save`` or ``load``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import itemgetter

import regex

from . import budget
from . import pre_tokenizers as pt
from .config import WORDPIECE_PREFIX, Pair, Span
from .merging import FirstMerges, merge_all
from .replay import TRACE_BUDGET, TraceStep, WordTrace, merge_tree, replay_word
from .units import WORD_CACHE_MAX_CHARS, unit_to_char

__all__ = ["Encoding", "Tokenizer", "TraceStep", "WordTrace", "TRACE_BUDGET", "unit_to_char"]


@dataclass(frozen=True)
class Encoding:
    """The result of :meth:`Tokenizer.encode_full`, in the ``tokenizers`` library's terms."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[Span, ...]  # character (start, end) of each token in the text
    word_ids: tuple[int | None, ...]  # which pre-tokenized word each token came from (None: special)


WORD_CACHE_SIZE = 10_000  # words kept by each tokenizer's cache (least recently used go first)
WORDPIECE_MAX_CHARS = 100  # tokenizers' max_input_chars_per_word default: longer words are [UNK]


class Tokenizer:
    """A BPE or WordPiece tokenizer: a vocabulary, merges in rank order, and a pre-tokenizer.

    >>> tok = Tokenizer(["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"],
    ...                 [("u", "g"), ("u", "n"), ("h", "ug")])
    >>> tok.tokenize("bug mug thug")
    ['b', 'ug', '[UNK]', 'ug', '[UNK]', 'hug']
    """

    # A real file's tokenizer (bpe.pipeline.encoder.FileTokenizer) sets these; ours keep the defaults.
    pipeline = None  # the file's text side
    byte_fallback = False
    fuse_unk = False
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    ignore_merges = False
    notes: tuple[str, ...] = ()  # sentences a page shows about how a file was read (given by bpe.formats)
    counts_bytes = False  # True: a word's units are UTF-8 bytes (a file's model), else characters
    model_vocab = property(lambda self: self.vocab)  # what the model may output (a file's added tokens are not)

    def __init__(
        self,
        vocab: Sequence[str] | dict[str, int],
        merges: Iterable[Pair],
        *,
        pre_tokenizer: str = "whitespace",
        special_tokens: Iterable[str] = (),
        unk_token: str | None = "[UNK]",
        algorithm: str = "bpe",
        max_input_chars_per_word: int = WORDPIECE_MAX_CHARS,
        notes: Iterable[str] = (),
    ) -> None:
        pt.check_pre_tokenizer(pre_tokenizer)
        self.notes = tuple(notes)
        self._set_model(
            vocab,
            merges,
            pre_tokenizer=pre_tokenizer,
            byte_level=pre_tokenizer in pt.BYTE_LEVEL,
            special_tokens=special_tokens,
            unk_token=unk_token,
            algorithm=algorithm,
            max_input_chars_per_word=max_input_chars_per_word,
        )
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
        self._index_merges()

    def _set_model(
        self,
        vocab: Sequence[str] | dict[str, int],
        merges: Iterable[Pair],
        *,
        pre_tokenizer: str,
        byte_level: bool,
        special_tokens: Iterable[str],
        unk_token: str | None,
        algorithm: str,
        max_input_chars_per_word: int,
    ) -> None:
        """The vocabulary, merges and options, checked (shared with the file tokenizer)."""
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
        self.pre_tokenizer = pre_tokenizer
        self.algorithm = algorithm
        self.byte_level = byte_level
        self.special_tokens: tuple[str, ...] = tuple(dict.fromkeys(special_tokens))
        self.unk_token = unk_token
        self.max_input_chars_per_word = max_input_chars_per_word

    def _index_merges(self) -> None:
        """The merge table, the special-token matcher and the word caches, once the model is set."""
        # pair -> (rank, merged token); a pair listed twice keeps its first rank (built from the last
        # rank to the first, so the first one written stays).
        merges_ = self.merges
        concatenates = self.algorithm == "bpe" and not self.continuing_subword_prefix
        if concatenates:
            joined = list(map(str.__add__, map(itemgetter(0), merges_), map(itemgetter(1), merges_)))
        else:
            joined = [self._join(a, b) for a, b in merges_]
        self._concatenates = concatenates
        backwards = range(len(merges_) - 1, -1, -1)
        self._merge_map: dict[Pair, tuple[int, str]] = dict(zip(reversed(merges_), zip(backwards, reversed(joined))))
        specials = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(s) for s in specials)) if specials else None
        self._fresh_caches()

    def _fresh_caches(self) -> None:
        """Empty word caches (a new tokenizer, or a view of fewer merges)."""
        self._cached_word = lru_cache(maxsize=WORD_CACHE_SIZE)(self._word_uncached)
        self._cached_full = lru_cache(maxsize=WORD_CACHE_SIZE)(self._word_full)

    def __getstate__(self) -> dict:
        """Pickled without its word caches (``lru_cache`` wrappers of bound methods, which pickle cannot
        take); :meth:`__setstate__` starts them empty."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_cached_")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._fresh_caches()

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
            max_input_chars_per_word=self.max_input_chars_per_word,
            notes=self.notes,
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
            return type(self)(vocab, self.merges[:k], **self._options())
        # A view, not a copy: it shares the vocabulary, the id map and the merge table (a 200,000-token
        # file holds ~150 MB of them) and only reads the table's first k ranks, so moving the Encode
        # page's k slider costs each session almost nothing. Its word caches start empty.
        view = copy.copy(self)
        for cached in ("_created", "_ranks", "_lengths"):
            view.__dict__.pop(cached, None)
        if k < len(self.merges):
            view.merges = self.merges[:k]
            view._merge_map = FirstMerges(getattr(self._merge_map, "full", self._merge_map), k)
        view._fresh_caches()
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
        bytes for byte-level schemes)."""
        symbols = pt.word_symbols(word, self.pre_tokenizer)
        units = [0 if s == pt.END_OF_WORD else 1 for s in symbols]
        if self.algorithm == "wordpiece":
            symbols = (symbols[0], *(WORDPIECE_PREFIX + s for s in symbols[1:]))
        return [(s if s in self.vocab else self.unk_token or s, u) for s, u in zip(symbols, units)]

    def _word_uncached(self, word: str) -> tuple[tuple[str, int], ...]:
        if self.algorithm == "wordpiece":
            return self._wordpiece(word)
        symbols, units = self._start(word)
        merge_all(symbols, units, self._merge_map, concatenates=self._concatenates)
        return tuple(zip(symbols, units))

    def _start(self, word: str) -> tuple[list[str], list[int]]:
        """:meth:`_initial` as two lists, symbols and units; when every character is a token (the
        common case), straight from the word."""
        if self.pre_tokenizer != "sennrich" and self.vocab.keys() >= set(word):
            return list(word), [1] * len(word)
        parts = self._initial(word)
        return [p for p, _ in parts], [u for _, u in parts]

    def _word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        """A word's tokens, each with the units it covers (cached for words up to 256 characters)."""
        if len(word) > WORD_CACHE_MAX_CHARS:
            return self._word_uncached(word)
        return self._cached_word(word)

    def _wordpiece(self, word: str) -> tuple[tuple[str, int], ...]:
        """Longest match first; if any piece is missing, or the word is longer than
        ``max_input_chars_per_word``, the whole word is unknown. Only the lengths the vocabulary
        holds are tried (a word's first piece: any token's; a later piece: a ``##`` token's), longest
        first, so a file with one very long token no longer makes every position try every length."""
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

    # -- encoding --------------------------------------------------------------------------------
    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        ids, tokens, offsets, word_ids = [], [], [], []
        word_no = 0
        vocab = self.vocab
        # Each word as matched, looked up in a cache of its tokens, ids and spans (relative to the word),
        # so a repeated word costs one lookup and the byte mapping is done once per distinct word.
        cached, uncached, limit = self._cached_full, self._word_full, WORD_CACHE_MAX_CHARS
        pattern = pt.word_pattern(self.pre_tokenizer)
        for segment, (seg_start, _), special in self._segments(text):
            if special:
                tokens.append(segment)
                ids.append(vocab[segment] if segment in vocab else self._unk_id())
                offsets.append((seg_start, seg_start + len(segment)))
                word_ids.append(None)
                continue
            for m in pattern.finditer(segment):
                raw = m.group()
                start = seg_start + m.start()
                t, i, rel = cached(raw) if len(raw) <= limit else uncached(raw)
                tokens.extend(t)
                ids.extend(i)
                offsets.extend([(start + x, start + y) for x, y in rel])
                word_ids.extend([word_no] * len(t))
                word_no += 1
        return Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))

    def _word_full(self, raw: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Span, ...]]:
        """Tokens, ids and character spans (relative to the word) of one pre-tokenized word as typed."""
        word = pt.bytes_to_symbols(raw.encode("utf-8")) if self.byte_level else raw
        pairs = self._word_uncached(word)
        vocab = self.vocab
        tokens = tuple([t for t, _ in pairs])
        ids = tuple([vocab[t] if t in vocab else self._unk_id() for t in tokens])
        bounds = list(accumulate([n for _, n in pairs], initial=0))  # each token's first unit, then the end
        char = unit_to_char(raw) if self.byte_level else None
        if char is None or type(char) is range:  # a unit is a character (a </w> covers none)
            return tokens, ids, tuple(zip(bounds, bounds[1:]))
        return tokens, ids, tuple([(char[a], char[b - 1] + 1) for a, b in zip(bounds, bounds[1:])])

    def _unk_id(self) -> int:
        if self.unk_token is None or self.unk_token not in self.vocab:
            raise ValueError(
                "This text has a symbol outside the vocabulary and the tokenizer has no unknown token: "
                "remove those characters or use another tokenizer."
            )
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
        plain ``whitespace`` BPE, a space between tokens (as ``tokenizers`` does)."""
        tokens = [self.id_to_token[i] for i in self._checked_ids(ids)]
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

    def _checked_ids(self, ids: Iterable[int]) -> list[int]:
        ids = list(ids)
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or i not in self.id_to_token:
                raise ValueError(f"{i!r} is not a token id of this tokenizer (ids go from 0 to {len(self.vocab) - 1}).")
        return ids

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
            parts = self._initial(word)
            initial = tuple(t for t, _ in parts)
            if self.algorithm == "bpe" and not self._takes_whole(word):
                steps, omitted, final = replay_word(parts, self._merge_map, budget)
            elif self.algorithm == "bpe":
                steps, omitted, final = [], 0, self._word_uncached(word)
            else:
                steps, omitted, final = [], 0, self._word_tokens(word)
            out.append(WordTrace(word, span, initial, tuple(steps), omitted, tuple(t for t, _ in final)))
        return out

    def _takes_whole(self, word: str) -> bool:
        """Whether ``word`` is one token without any merge (``ignore_merges``; a rank file's piece)."""
        return bool(self.ignore_merges) and word in self.vocab

    def merge_tree(self, token: str) -> tuple | str:
        """Break a token into the pairs it came from: ``"hug"`` -> ``("h", ("u", "g"))`` (see
        :func:`bpe.replay.merge_tree`)."""
        return merge_tree(token, self._created_rank(), self.merges)
