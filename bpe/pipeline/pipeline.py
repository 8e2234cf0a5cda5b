"""A file's text side assembled: added tokens, normaliser, pre-tokenizer, offset trimming, decoder.

:class:`Pipeline` runs the components of one ``tokenizer.json`` (or a ``.tiktoken`` file's pattern)
in ``tokenizers``' order and yields the words the model sees, each a :class:`~bpe.pipeline.piece.Piece`
that knows its offsets; for GPT-style files it also offers one regex that cuts words straight from
the text (:attr:`Pipeline.fast`).

Left out: the model (:mod:`bpe.pipeline.encoder`) and reading the file (:mod:`bpe.formats`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .. import budget
from ..config import Span, check_nesting
from .added_tokens import AddedToken, added_matcher, find_added
from .decoders import build_decoder
from .normalizers import build_normalizer
from .piece import Piece
from .post_processors import offset_trimming, trim_offsets
from .pre_tokenizers import ByteLevel, SequencePre, Split, build_pre_tokenizer


class Pipeline:
    """Added tokens, normaliser, pre-tokenizer, offset trimming and decoder of one file."""

    def __init__(
        self,
        *,
        normalizer: Any = None,
        pre_tokenizer: Any = None,
        decoder: Any = None,
        post_processor: Any = None,
        added_tokens: list[dict] = (),
        outside_model: frozenset[str] = frozenset(),
        name: str | None = None,
    ) -> None:
        """The components as a file's JSON holds them (None: absent). ``outside_model``: the added tokens
        that are not in the model's vocabulary; ``name``: what to call the pipeline (by default its
        pre-tokenizer and normaliser)."""
        for what, value in (
            ("normalizer", normalizer),
            ("pre_tokenizer", pre_tokenizer),
            ("decoder", decoder),
            ("post_processor", post_processor),
            ("added_tokens", list(added_tokens)),
        ):
            check_nesting(value, what)  # builders recurse into Sequences: the depth is bounded first
        self.source = {
            "normalizer": normalizer,
            "pre_tokenizer": pre_tokenizer,
            "post_processor": post_processor,
            "decoder": decoder,
            "added_tokens": list(added_tokens),
        }
        self.normalizer = build_normalizer(normalizer)
        self.pre_tokenizer = build_pre_tokenizer(pre_tokenizer)
        self.decoder = build_decoder(decoder)
        self.trim_offsets = offset_trimming(post_processor)
        self.byte_level = bool(self.pre_tokenizer and self.pre_tokenizer.byte_level)
        self.added = [AddedToken(a) for a in added_tokens]
        self.by_id = {a.id: a for a in self.added}
        self.name = name if name is not None else _describe(normalizer, pre_tokenizer)
        self.outside_model = outside_model
        raw = [a for a in self.added if not a.normalized]
        norm = [a for a in self.added if a.normalized]
        self._raw_re, self._raw_by = added_matcher(raw, lambda a: a.content)
        # the normalised added tokens, under one budget (a load runs the file's normaliser on them)
        with budget.request(sum(len(a.content) for a in norm)):
            normalized = {id(a): self._normalized_content(a) for a in norm}
        self._norm_re, self._norm_by = added_matcher(norm, lambda a: normalized[id(a)])
        self.unicode_forms = _unicode_forms(normalizer)
        self.fast_gaps = True  # the fast regex's unmatched stretches are words too (False: dropped, as tiktoken does)
        self.fast = self._fast_regex()
        self.cuts = self._cut_steps() if self.fast is None else None
        # decode shows a normalised added token as normalised (tokenizers' simple_id_to_token)
        self.decode_names = {a.id: normalized[id(a)] if a.normalized else a.content for a in self.added}

    def __reduce__(self):
        """Pickled as the file's JSON it was built from (its parts are closures, which pickle cannot take)."""
        return _rebuilt, (self.source, self.outside_model, self.name)

    def _normalized_content(self, a: AddedToken) -> str:
        if self.normalizer is None:
            return a.content
        return self.normalizer(Piece(a.content, 0)).text

    def _fast_regex(self):
        """The one regex that cuts words when nothing else changes the text (GPT-2, GPT-4o, Llama 3 and
        tiktoken files: ByteLevel with its regex, or an isolating (or inverted removing) Split then
        ByteLevel), else None. Such
        a file is encoded word by word straight from the text (:meth:`fast_segments`), with no Piece."""
        if (self.normalizer is not None and self.unicode_forms is None) or self.pre_tokenizer is None:
            return None
        pre = self.pre_tokenizer
        parts = pre.parts if isinstance(pre, SequencePre) else [pre]
        if len(parts) == 1 and isinstance(parts[0], ByteLevel) and parts[0].use_regex and not parts[0].add_prefix_space:
            return parts[0].regex
        if (
            len(parts) == 2
            and isinstance(parts[0], Split)
            and (parts[0].behavior, parts[0].invert) in (("Isolated", False), ("Removed", True))
            and parts[0].regex is not None
            and isinstance(parts[1], ByteLevel)
            and not parts[1].use_regex
            and not parts[1].add_prefix_space
        ):
            # Removed + invert keeps only the matches (what a tiktoken pattern does to the text it skips)
            self.fast_gaps = not parts[0].invert
            return parts[0].regex
        return None

    def _cut_steps(self) -> list | None:
        """For a byte-level file whose pre-tokenizer only cuts before its final ByteLevel (a Sequence of
        Split, Digits, Punctuation, Whitespace... then ByteLevel, with no prefix space), and whose
        normaliser is Unicode forms at most: the cutting steps (a ByteLevel with its regex counts as one,
        cutting as its Split would). Such a file's words are stretches of the text itself
        (:meth:`cut`), encoded by the fast path like :attr:`fast`'s. Else None."""
        if (self.normalizer is not None and self.unicode_forms is None) or not isinstance(
            self.pre_tokenizer, SequencePre
        ):
            return None
        *steps, last = self.pre_tokenizer.parts or [None]
        if not isinstance(last, ByteLevel) or last.add_prefix_space or not steps:
            return None
        if not all(getattr(step, "cuts_only", False) for step in steps):
            return None
        return [*steps, last] if last.use_regex else steps

    def cut(self, text: str, lo: int, hi: int) -> list[tuple[int, int]]:
        """The words of ``text[lo:hi]`` as (start, end) stretches of ``text``, for a file with :attr:`cuts`:
        each step cuts each stretch the one before it left (what :meth:`run`'s pieces would be)."""
        spans = [(lo, hi)]
        for step in self.cuts:
            out: list[tuple[int, int]] = []
            for a, b in spans:
                out.extend(step.cut_spans(text, a, b))
            spans = out
        return [(a, b) for a, b in spans if b > a]

    def fast_applies(self, text: str) -> bool:
        """True when :meth:`fast_segments` cuts ``text`` as :meth:`run` would: the file has :attr:`fast`
        (or :attr:`cuts`) and its normaliser (if any, only Unicode forms such as Qwen's NFC) leaves this
        text unchanged."""
        if self.fast is None and self.cuts is None:
            return False
        return all(unicodedata.is_normalized(form, text) for form in self.unicode_forms or ())

    def fast_segments(self, text: str) -> list[tuple]:
        """For a file with :attr:`fast`: ``("added", token, id, span)`` and ``("text", start, end)``
        stretches, in order; the caller cuts the text stretches into words with :attr:`fast`."""
        out: list[tuple] = []
        if not text:
            return out
        for a, (s, e) in find_added(text, self._raw_re, self._raw_by):
            if a is not None:
                out.append(("added", text[s:e], a.id, (s, e)))
                continue
            if self._norm_re is None:
                out.append(("text", s, e))
                continue
            for b, (s2, e2) in find_added(text[s:e], self._norm_re, self._norm_by):
                if b is not None:
                    out.append(("added", text[s + s2 : s + e2], b.id, (s + s2, s + e2)))
                else:
                    out.append(("text", s + s2, s + e2))
        return out

    def parts(self, text: str):
        """Yield ``("added", token string, id, span)`` and ``("text", None, None, Piece)`` in order: the
        normalised stretches between added tokens, before the pre-tokenizer cuts them."""
        if not text:
            return
        for a, (s, e) in find_added(text, self._raw_re, self._raw_by):
            if a is not None:
                yield "added", text[s:e], a.id, (s, e)
                continue
            piece = Piece(text[s:e], s)
            if self.normalizer is not None:
                piece = self.normalizer(piece)
            for b, (s2, e2) in find_added(piece.text, self._norm_re, self._norm_by):
                part = piece.slice(s2, e2)
                if not part.text:
                    continue
                if b is not None:
                    yield "added", part.text, b.id, part.original(0, len(part.text))
                    continue
                yield "text", None, None, part

    @property
    def word_pattern(self):
        """The regex whose matches are the words, where the pre-tokenizer is one such cut (BERT's,
        Whitespace, WhitespaceSplit), else None: a text part's words are its non-empty matches."""
        return getattr(self.pre_tokenizer, "words", None)

    def run(self, text: str):
        """Yield ``("added", token string, id, span)`` and ``("word", None, None, Piece)`` in order."""
        pre = self.pre_tokenizer
        for kind, value, added_id, part in self.parts(text):
            if kind == "added":
                yield kind, value, added_id, part
                continue
            for w in pre([part]) if pre is not None else [part]:
                if w.text:
                    yield "word", None, None, w

    def trim(self, tokens, offsets) -> list[Span]:
        return trim_offsets(tokens, offsets, self.trim_offsets)

    def decode(self, ids: list[int], id_to_token: dict[int, str]) -> str:
        names = self.decode_names
        tokens = [names.get(i) or id_to_token[i] for i in ids]
        if self.decoder is None:
            return " ".join(tokens)
        return "".join(self.decoder(list(tokens)))


def _unicode_forms(obj: Any) -> list[str] | None:
    """The Unicode forms of a normaliser made of NFC/NFD/NFKC/NFKD only (a Sequence of them too),
    else None: such a normaliser leaves already-normalised text as it is."""
    if obj is None:
        return []
    if not isinstance(obj, dict):
        return None
    if obj.get("type") in ("NFC", "NFD", "NFKC", "NFKD"):
        return [obj["type"]]
    if obj.get("type") == "Sequence" and isinstance(obj.get("normalizers"), list):
        forms: list[str] = []
        for part in obj["normalizers"]:
            sub = _unicode_forms(part)
            if sub is None:
                return None
            forms.extend(sub)
        return forms
    return None


def _describe(normalizer: Any, pre_tokenizer: Any) -> str:
    def name(obj, key):
        if obj is None:
            return "none"
        if obj.get("type") == "Sequence":
            return " + ".join(name(p, key) for p in obj.get(key) or []) or "none"
        return str(obj.get("type"))

    pre = name(pre_tokenizer, "pretokenizers")
    norm = name(normalizer, "normalizers")
    return pre if norm == "none" else f"{pre} (normalizer {norm})"


def _rebuilt(source: dict, outside_model: frozenset, name: str | None) -> Pipeline:
    return Pipeline(**source, outside_model=outside_model, name=name)
