"""A trained tokenizer: cut new text into tokens and ids, and say how each word was built.

BPE words are encoded the way GPT-2 and the ``tokenizers`` library do it: start
from single symbols, then repeatedly merge the adjacent pair with the lowest merge
rank (the earliest learned), every occurrence of it left to right, until no
learned pair is left. For merges learned by training this gives the same result
as replaying the merges in order, the course's way.

WordPiece words use the course's longest-match-first rule instead, and a word that
cannot be covered becomes a single unknown token.

A character outside the vocabulary becomes the unknown token (``[UNK]`` by
default) in character-level tokenizers. Byte-level tokenizers whose alphabet
holds all 256 byte symbols never need it, and ``decode(encode(t)) == t``.

Left out: normalisers, post-processors (``[CLS] ... [SEP]``) and BPE dropout.
File formats live in :mod:`bpe.serialization`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from . import pre_tokenizers as pt
from .state import WORDPIECE_PREFIX, Pair

Span = tuple[int, int]


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
    """How one word was built: its initial symbols, then each merge applied in order."""

    word: str
    span: Span
    initial: tuple[str, ...]
    steps: tuple[TraceStep, ...]

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.steps[-1].split if self.steps else self.initial


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
    ) -> None:
        pt.check_pre_tokenizer(pre_tokenizer)
        if algorithm not in ("bpe", "wordpiece"):
            raise ValueError(f"Unknown algorithm {algorithm!r}; choose 'bpe' or 'wordpiece'.")
        if isinstance(vocab, dict):
            self.vocab: dict[str, int] = dict(vocab)
        else:
            self.vocab = {}
            for token in vocab:
                self.vocab.setdefault(token, len(self.vocab))
        self.id_to_token: dict[int, str] = {i: t for t, i in self.vocab.items()}
        if len(self.id_to_token) != len(self.vocab):
            raise ValueError("Two tokens in the vocabulary share an id; every token needs its own id.")
        self.merges: list[Pair] = [tuple(m) for m in merges]  # type: ignore[misc]
        self.ranks: dict[Pair, int] = {}
        for rank, (a, b) in enumerate(self.merges):
            self.ranks.setdefault((a, b), rank)
        self.pre_tokenizer = pre_tokenizer
        self.algorithm = algorithm
        self.byte_level = pre_tokenizer in pt.BYTE_LEVEL
        self.special_tokens: tuple[str, ...] = tuple(dict.fromkeys(special_tokens))
        self.unk_token = unk_token
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
        specials = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(s) for s in specials)) if specials else None
        self._cache: dict[str, tuple[tuple[str, int], ...]] = {}

    def _append(self, token: str) -> None:
        if token not in self.vocab:
            self.vocab[token] = max(self.id_to_token, default=-1) + 1
            self.id_to_token[self.vocab[token]] = token

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state, unk_token: str | None = "[UNK]") -> "Tokenizer":
        """The tokenizer a training state defines: its vocabulary and merges so far."""
        cfg = state.history.config
        return cls(
            list(state.vocab), state.merges, pre_tokenizer=cfg.pre_tokenizer,
            special_tokens=cfg.special_tokens, unk_token=unk_token, algorithm=cfg.algorithm,
        )

    def with_merges(self, k: int) -> "Tokenizer":
        """The same tokenizer using only its first ``k`` merges (ids unchanged).

        WordPiece encodes from its vocabulary alone (longest match first), so the tokens the later
        merges created leave the vocabulary too; BPE keeps them, since only its merges build tokens.
        """
        if not 0 <= k <= len(self.merges):
            raise ValueError(f"k must be between 0 and {len(self.merges)}, not {k}.")
        vocab = self.vocab
        if self.algorithm == "wordpiece":
            created = self._created_rank()
            vocab = {t: i for t, i in self.vocab.items() if created.get(t, -1) < k}
        return Tokenizer(
            vocab, self.merges[:k], pre_tokenizer=self.pre_tokenizer,
            special_tokens=self.special_tokens, unk_token=self.unk_token, algorithm=self.algorithm,
        )

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
            b = b[len(WORDPIECE_PREFIX):]
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
        """A word's starting symbols, each with how many source units (chars or bytes) it covers."""
        symbols = pt.word_symbols(word, self.pre_tokenizer)
        units = [0 if s == pt.END_OF_WORD else 1 for s in symbols]
        if self.algorithm == "wordpiece":
            symbols = (symbols[0], *(WORDPIECE_PREFIX + s for s in symbols[1:]))
        return [(s if s in self.vocab else self.unk_token or s, u) for s, u in zip(symbols, units)]

    def _bpe(self, word: str, trace: list[TraceStep] | None = None) -> tuple[tuple[str, int], ...]:
        """Merge by rank: the adjacent pair learned earliest, every occurrence left to right."""
        if trace is None:
            cached = self._cache.get(word)
            if cached is not None:
                return cached
        parts = self._initial(word)
        ranks = self.ranks
        while len(parts) > 1:
            best, best_rank = None, None
            for (a, _), (b, _) in zip(parts, parts[1:]):
                r = ranks.get((a, b))
                if r is not None and (best_rank is None or r < best_rank):
                    best, best_rank = (a, b), r
            if best is None:
                break
            merged, new, i = [], self._join(*best), 0
            while i < len(parts):
                if i + 1 < len(parts) and parts[i][0] == best[0] and parts[i + 1][0] == best[1]:
                    merged.append((new, parts[i][1] + parts[i + 1][1]))
                    i += 2
                else:
                    merged.append(parts[i])
                    i += 1
            parts = merged
            if trace is not None:
                trace.append(TraceStep(best_rank, best, tuple(p for p, _ in parts)))
        result = tuple(parts)
        if trace is None and len(self._cache) < 100_000:
            self._cache[word] = result
        return result

    def _wordpiece(self, word: str) -> tuple[tuple[str, int], ...]:
        """Longest match first; if any piece is missing the whole word is unknown."""
        chars = list(word)
        out, start = [], 0
        while start < len(chars):
            end = len(chars)
            while end > start:
                piece = "".join(chars[start:end])
                if start > 0:
                    piece = WORDPIECE_PREFIX + piece
                if piece in self.vocab:
                    break
                end -= 1
            if end == start:
                return ((self.unk_token or word, len(chars)),)
            out.append((piece, end - start))
            start = end
        return tuple(out)

    def _word_tokens(self, word: str) -> tuple[tuple[str, int], ...]:
        return self._wordpiece(word) if self.algorithm == "wordpiece" else self._bpe(word)

    # -- encoding --------------------------------------------------------------------------------
    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        ids, tokens, offsets, word_ids = [], [], [], []
        word_no = 0
        for segment, (seg_start, _), special in self._segments(text):
            if special:
                tokens.append(segment)
                ids.append(self.vocab[segment] if segment in self.vocab else self._unk_id())
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
                    ids.append(self.vocab[token] if token in self.vocab else self._unk_id())
                    offsets.append(span)
                    word_ids.append(word_no)
                word_no += 1
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
        plain ``whitespace`` BPE, a space between tokens (as ``tokenizers`` does)."""
        tokens = []
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or i not in self.id_to_token:
                raise ValueError(f"{i!r} is not a token id of this tokenizer (ids go from 0 to {len(self.vocab) - 1}).")
            tokens.append(self.id_to_token[i])
        if self.algorithm == "wordpiece":
            text = ""
            for t in tokens:
                text += t[len(WORDPIECE_PREFIX):] if t.startswith(WORDPIECE_PREFIX) else (" " + t if text else t)
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
        """The raw bytes of a token (UTF-8 of its text for character-level tokenizers)."""
        if self.byte_level and token not in self.special_tokens and token != self.unk_token:
            try:
                return pt.symbols_to_bytes(token)
            except ValueError:
                pass
        return token.encode("utf-8")

    # -- explaining ------------------------------------------------------------------------------
    def trace(self, text: str) -> list[WordTrace]:
        """For every word of ``text``: its initial symbols and each merge applied, in order."""
        out = []
        for segment, (seg_start, _), special in self._segments(text):
            if special:
                out.append(WordTrace(segment, (seg_start, seg_start + len(segment)), (segment,), ()))
                continue
            for word, (s, e) in pt.pre_tokenize_with_offsets(segment, self.pre_tokenizer):
                initial = tuple(t for t, _ in self._initial(word))
                steps: list[TraceStep] = []
                if self.algorithm == "bpe":
                    self._bpe(word, steps)
                out.append(WordTrace(word, (seg_start + s, seg_start + e), initial, tuple(steps)))
        return out

    def merge_tree(self, token: str) -> tuple | str:
        """Break a token into the pairs it came from: ``"hug"`` -> ``("h", ("u", "g"))``."""
        created = self._created_rank()
        rank = created.get(token)
        if rank is None:
            return token
        a, b = self.merges[rank]
        return (self.merge_tree(a), self.merge_tree(b))

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
    def load(cls, path) -> "Tokenizer":
        """Read a ``tokenizer.json`` file: one this app saved, or a BPE model's from the ``tokenizers`` library."""
        return cls._formats().load(path)


@lru_cache(maxsize=4096)
def _unit_to_char(word_text: str) -> tuple[int, ...]:
    """For each UTF-8 byte of ``word_text``, the index of the character it belongs to."""
    out: list[int] = []
    for i, ch in enumerate(word_text):
        out.extend([i] * len(ch.encode("utf-8")))
    return tuple(out)
