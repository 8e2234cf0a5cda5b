"""Our own schemes' text side: special tokens matched whole, words cut by a training pre-tokenizer, decoded by its markers.

A tokenizer we trained (or read from a file one of our schemes cuts exactly) reads text this way: the
special tokens are matched first, whole; each stretch between them is cut into words by the scheme's
regex (:mod:`bpe.pre_tokenizers`); byte-level schemes map each word's UTF-8 bytes to GPT-2's symbols;
the model tokenizes each word. Each word as matched is cached with its tokens, ids and character
spans, so a repeated word costs one lookup and the byte mapping is done once per distinct word.

Decoding rebuilds word boundaries from the scheme's markers (``Ġ``, ``</w>``, ``##``, kept spaces) and,
for plain ``whitespace`` BPE, a space between tokens (as ``tokenizers`` does).

Left out: a real file's own text side (:mod:`bpe.pipeline`) and the model (:mod:`bpe.models`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate

import regex

from . import pre_tokenizers as pt
from .config import WORDPIECE_PREFIX, Span
from .encoding import Encoding, unknown_id
from .units import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE, unit_to_char


class SchemeText:
    """One of our pre-tokenizer schemes and the special tokens, running a model (see :meth:`over`).

    >>> from bpe.models import BPE
    >>> side = SchemeText("whitespace").over(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], scheme="whitespace"))
    >>> side.encode_full("ab b").tokens, side.decode([2, 1])
    (('ab', 'b'), 'ab b')
    """

    pipeline = None  # no file's components

    def __init__(self, pre_tokenizer: str, special_tokens: Iterable[str] = ()) -> None:
        self.name = pt.check_pre_tokenizer(pre_tokenizer)
        self.byte_level = pre_tokenizer in pt.BYTE_LEVEL
        self.special_tokens: tuple[str, ...] = tuple(dict.fromkeys(special_tokens))
        specials = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(s) for s in specials)) if specials else None
        self.model = None  # the model it runs, once a tokenizer binds it (see over)
        self.clear_caches()

    def over(self, model) -> SchemeText:
        """This text side running ``model``, with an empty word cache."""
        bound = copy.copy(self)
        bound.model = model
        bound.clear_caches()
        return bound

    def clear_caches(self) -> None:
        """Empty the cache of words as matched."""
        self._cached_full = lru_cache(maxsize=WORD_CACHE_SIZE)(self._word_full)

    def cache_info(self):
        """The cache of words as matched: its ``lru_cache`` statistics."""
        return self._cached_full.cache_info()

    def __getstate__(self) -> dict:
        """Pickled without its word cache (an ``lru_cache`` of a bound method); it starts empty."""
        return {k: v for k, v in self.__dict__.items() if k != "_cached_full"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.clear_caches()

    # -- splitting text --------------------------------------------------------------------------
    def segments(self, text: str) -> list[tuple[str, Span, bool]]:
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

    def words(self, text: str):
        """(word as the model sees it, span in text, is_special) for every piece of ``text``."""
        for segment, (seg_start, _), special in self.segments(text):
            if special:
                yield segment, (seg_start, seg_start + len(segment)), True
                continue
            for word, (s, e) in pt.pre_tokenize_with_offsets(segment, self.name):
                yield word, (seg_start + s, seg_start + e), False

    # -- encoding --------------------------------------------------------------------------------
    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``."""
        ids, tokens, offsets, word_ids = [], [], [], []
        word_no = 0
        vocab = self.model.vocab
        # Each word as matched, looked up in a cache of its tokens, ids and spans (relative to the word),
        # so a repeated word costs one lookup and the byte mapping is done once per distinct word.
        cached, uncached, limit = self._cached_full, self._word_full, WORD_CACHE_MAX_CHARS
        pattern = pt.word_pattern(self.name)
        for segment, (seg_start, _), special in self.segments(text):
            if special:
                tokens.append(segment)
                ids.append(vocab[segment] if segment in vocab else unknown_id(self.model))
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

    def encode(self, text: str) -> list[int]:
        return list(self.encode_full(text).ids)

    def _word_full(self, raw: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Span, ...]]:
        """Tokens, ids and character spans (relative to the word) of one pre-tokenized word as typed."""
        word = pt.bytes_to_symbols(raw.encode("utf-8")) if self.byte_level else raw
        pairs = self.model.tokenize(word)
        vocab = self.model.vocab
        tokens = tuple([t for t, _ in pairs])
        ids = tuple([vocab[t] if t in vocab else unknown_id(self.model) for t in tokens])
        bounds = list(accumulate([n for _, n in pairs], initial=0))  # each token's first unit, then the end
        char = unit_to_char(raw) if self.byte_level else None
        if char is None or type(char) is range:  # a unit is a character (a </w> covers none)
            return tokens, ids, tuple(zip(bounds, bounds[1:]))
        return tokens, ids, tuple([(char[a], char[b - 1] + 1) for a, b in zip(bounds, bounds[1:])])

    # -- decoding --------------------------------------------------------------------------------
    def decode(self, ids: list[int]) -> str:
        """Text from checked ids: exact for byte-level schemes; otherwise word boundaries rebuilt from
        the scheme's markers."""
        model = self.model
        tokens = [model.id_to_token[i] for i in ids]
        if model.kind == "wordpiece":
            text = ""
            for t in tokens:
                text += t[len(WORDPIECE_PREFIX) :] if t.startswith(WORDPIECE_PREFIX) else (" " + t if text else t)
            return text
        if self.byte_level:
            out, buffer = [], bytearray()
            inverse = pt.unicode_to_bytes()
            for t in tokens:
                if t in self.special_tokens or t == model.unk_token or any(c not in inverse for c in t):
                    out.append(buffer.decode("utf-8", errors="replace"))
                    buffer.clear()
                    out.append(t)
                else:
                    buffer.extend(inverse[c] for c in t)
            out.append(buffer.decode("utf-8", errors="replace"))
            return "".join(out)
        if self.name == "sennrich":
            return "".join(tokens).replace(pt.END_OF_WORD, " ").rstrip(" ")
        if self.name == "space-suffix":
            return "".join(tokens)
        return " ".join(tokens)
