"""The text side of a real ``tokenizer.json``: added tokens, normaliser, pre-tokenizer, decoder.

Everything here follows the ``tokenizers`` library's Rust source (``normalizer.rs``,
``pre_tokenizer.rs``, ``added_vocabulary.rs``, ``pre_tokenizers/*``, ``decoders/*``) so that
a file's tokenizer cuts text, reports offsets and decodes exactly as ``tokenizers`` 0.23 does.

A :class:`Piece` is a stretch of normalised text with, for each of its characters, the span of
the original text it came from (``tokenizers``' alignments, counted in characters here). Pieces
that no normaliser changed keep no list at all (character i is original ``base + i``), so plain
text costs nothing extra.

Only components named in :data:`NORMALIZERS`, :data:`PRE_TOKENIZERS` and :data:`DECODERS` are
read; any other raises a ValueError naming it. Regexes use the ``regex`` package, which reads
``tokenizers``' and tiktoken's patterns (possessive quantifiers included).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import regex

from . import pre_tokenizers as pt
from .config import Span
from .normalizers import Piece, build_normalizer, compile_pattern, find_matches, is_whitespace

PRE_TOKENIZERS = (
    "ByteLevel",
    "Split",
    "Metaspace",
    "Whitespace",
    "WhitespaceSplit",
    "Digits",
    "Punctuation",
    "CharDelimiterSplit",
    "BertPreTokenizer",
    "Sequence",
)
DECODERS = ("ByteLevel", "Metaspace", "WordPiece", "BPEDecoder", "Fuse", "Strip", "Replace", "ByteFallback", "Sequence")
POST_PROCESSORS = ("ByteLevel", "RobertaProcessing", "BertProcessing", "TemplateProcessing", "Sequence")
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

_WORD = regex.compile(r"\w+|[^\w\s]+")  # tokenizers' Whitespace pre-tokenizer
_STARTS_WITH_WORD = regex.compile(r"\w")  # used with match(text, pos): anchored at pos
_ENDS_WITH_WORD = regex.compile(r"\w\Z")  # \Z: Rust's $ (Python's $ also matches before a final newline)
_SPACE_AT_END = regex.compile(r"\s*\Z")
_SPACE_AT_START = regex.compile(r"\s*")  # used with match(text, pos)


_pattern = compile_pattern


# ================================================================================================
# splitting a piece (NormalizedString::split)
# ================================================================================================
def split_piece(piece: Piece, matches: list[tuple[Span, bool]], behavior: str) -> list[Piece]:
    if behavior == "Isolated":
        splits = [(span, False) for span, _ in matches]
    elif behavior == "Removed":
        splits = matches
    elif behavior == "Contiguous":
        splits, previous = [], False
        for span, is_match in matches:
            if is_match == previous and splits:
                splits[-1] = ((splits[-1][0][0], span[1]), False)
            else:
                splits.append((span, False))
            previous = is_match
    elif behavior == "MergedWithPrevious":
        splits, previous = [], False
        for span, is_match in matches:
            if is_match and not previous and splits:
                splits[-1] = ((splits[-1][0][0], span[1]), False)
            else:
                splits.append((span, False))
            previous = is_match
    elif behavior == "MergedWithNext":
        splits, previous = [], False
        for span, is_match in reversed(matches):
            if is_match and not previous and splits:
                splits[-1] = ((span[0], splits[-1][0][1]), False)
            else:
                splits.append((span, False))
            previous = is_match
        splits.reverse()
    else:
        raise ValueError(f"Unknown split behavior {behavior!r}; tokenizers knows {', '.join(BEHAVIORS)}.")
    return [piece.slice(a, b) for (a, b), remove in splits if not remove and b > a]


def _char_matches(text: str, test: Callable[[str], bool]) -> list[tuple[Span, bool]]:
    out, last = [], 0
    for i, c in enumerate(text):
        if test(c):
            if last < i:
                out.append(((last, i), False))
            out.append(((i, i + 1), True))
            last = i + 1
    if last < len(text):
        out.append(((last, len(text)), False))
    return out


def _regex_class_matches(text: str, pattern) -> list[tuple[Span, bool]]:
    """Matches of a one-character class (each matched character on its own), quickly."""
    out, last = [], 0
    for m in pattern.finditer(text):
        s, e = m.span()
        if last < s:
            out.append(((last, s), False))
        out.extend(((i, i + 1), True) for i in range(s, e))
        last = e
    if last < len(text):
        out.append(((last, len(text)), False))
    return out


_NUMERIC = regex.compile(r"[\p{Nd}\p{Nl}\p{No}]+")
_PUNCT = regex.compile(r"[\p{P}!-/:-@\[-`{-~]+")
_WS_RUN = regex.compile(r"\p{White_Space}+")


# ================================================================================================
# pre-tokenizers
# ================================================================================================
class PreTokenizer:
    """One tokenizers pre-tokenizer: ``__call__`` maps a list of pieces to the next list."""

    byte_level = False

    def __call__(self, pieces: list[Piece]) -> list[Piece]:  # pragma: no cover - overridden
        raise NotImplementedError


class ByteLevel(PreTokenizer):
    byte_level = True

    def __init__(self, obj: dict) -> None:
        self.add_prefix_space = bool(obj.get("add_prefix_space", True))
        self.use_regex = bool(obj.get("use_regex", True))
        self.regex = regex.compile(pt.GPT2_PATTERN)

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            if self.add_prefix_space and not piece.text.startswith(" "):
                piece = piece.prepend(" ")
            if self.use_regex:
                out.extend(split_piece(piece, find_matches(piece.text, self.regex), "Isolated"))
            else:
                out.append(piece)
        return [p.to_bytes() for p in out if p.text]


class Split(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        self.regex = _pattern(obj.get("pattern"), "Split pre-tokenizer")
        self.behavior = obj.get("behavior", "Isolated")
        if self.behavior not in BEHAVIORS:
            raise ValueError(
                f"The Split pre-tokenizer's behavior {self.behavior!r} is not one of {', '.join(BEHAVIORS)}."
            )
        self.invert = bool(obj.get("invert", False))

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            if self.regex is None:
                matches = [((0, len(piece.text)), False)]
            else:
                matches = find_matches(piece.text, self.regex)
            if self.invert:
                matches = [(span, not m) for span, m in matches]
            out.extend(split_piece(piece, matches, self.behavior))
        return out


class Metaspace(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        rep = obj.get("replacement", "▁")
        if not isinstance(rep, str) or len(rep) != 1:
            raise ValueError(f"The Metaspace pre-tokenizer's replacement should be one character, not {rep!r}.")
        self.replacement = rep
        scheme = obj.get("prepend_scheme")
        if scheme is None:  # old files: add_prefix_space
            scheme = "always" if obj.get("add_prefix_space", True) else "never"
        if scheme not in ("always", "first", "never"):
            raise ValueError(f"The Metaspace prepend_scheme {scheme!r} is not one of always, first, never.")
        self.scheme = scheme
        self.split = bool(obj.get("split", True))

    def __call__(self, pieces):
        out = []
        rep = self.replacement
        for piece in pieces:
            piece = piece.replace_char(" ", rep)
            if self.scheme == "always" or (self.scheme == "first" and piece.original_start() == 0):
                if not piece.text.startswith(rep):
                    piece = piece.prepend(rep)
            if self.split:
                out.extend(split_piece(piece, _char_matches(piece.text, lambda c: c == rep), "MergedWithNext"))
            else:
                out.append(piece)
        return out


class Whitespace(PreTokenizer):
    def __call__(self, pieces):
        out = []
        for piece in pieces:
            matches = [(span, not m) for span, m in find_matches(piece.text, _WORD)]
            out.extend(split_piece(piece, matches, "Removed"))
        return out


class WhitespaceSplit(PreTokenizer):
    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _regex_class_matches(piece.text, _WS_RUN), "Removed"))
        return out


class Digits(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        self.behavior = "Isolated" if obj.get("individual_digits", False) else "Contiguous"

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _regex_class_matches(piece.text, _NUMERIC), self.behavior))
        return out


class Punctuation(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        self.behavior = obj.get("behavior", "Isolated")
        if self.behavior not in BEHAVIORS:
            raise ValueError(
                f"The Punctuation pre-tokenizer's behavior {self.behavior!r} is not one of {', '.join(BEHAVIORS)}."
            )

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _regex_class_matches(piece.text, _PUNCT), self.behavior))
        return out


class CharDelimiterSplit(PreTokenizer):
    def __init__(self, obj: dict) -> None:
        d = obj.get("delimiter")
        if not isinstance(d, str) or len(d) != 1:
            raise ValueError(f"The CharDelimiterSplit delimiter should be one character, not {d!r}.")
        self.delimiter = d

    def __call__(self, pieces):
        out = []
        for piece in pieces:
            out.extend(split_piece(piece, _char_matches(piece.text, lambda c: c == self.delimiter), "Removed"))
        return out


class BertPreTokenizer(PreTokenizer):
    def __call__(self, pieces):
        out = []
        for piece in pieces:
            for p in split_piece(piece, _regex_class_matches(piece.text, _WS_RUN), "Removed"):
                out.extend(split_piece(p, _regex_class_matches(p.text, _PUNCT), "Isolated"))
        return out


class SequencePre(PreTokenizer):
    def __init__(self, parts: list[PreTokenizer]) -> None:
        self.parts = parts
        self.byte_level = any(p.byte_level for p in parts)

    def __call__(self, pieces):
        for part in self.parts:
            pieces = part(pieces)
        return pieces


def build_pre_tokenizer(obj: Any) -> PreTokenizer | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError(f"The file's pre_tokenizer should be an object, not {obj!r}.")
    kind = obj.get("type")
    if kind == "ByteLevel":
        return ByteLevel(obj)
    if kind == "Split":
        return Split(obj)
    if kind == "Metaspace":
        return Metaspace(obj)
    if kind == "Whitespace":
        return Whitespace()
    if kind == "WhitespaceSplit":
        return WhitespaceSplit()
    if kind == "Digits":
        return Digits(obj)
    if kind == "Punctuation":
        return Punctuation(obj)
    if kind == "CharDelimiterSplit":
        return CharDelimiterSplit(obj)
    if kind == "BertPreTokenizer":
        return BertPreTokenizer()
    if kind == "Sequence":
        parts = obj.get("pretokenizers")
        if not isinstance(parts, list):
            raise ValueError("The file's Sequence pre-tokenizer has no list of 'pretokenizers'.")
        built = [build_pre_tokenizer(p) for p in parts]
        return SequencePre([p for p in built if p is not None])
    raise ValueError(
        f"This file's pre-tokenizer {_name(obj)} is not one BPE Explorer reads (it reads {', '.join(PRE_TOKENIZERS)})."
    )


def _name(obj: Any) -> str:
    return repr(obj.get("type", "without a type")) if isinstance(obj, dict) else repr(obj)


# ================================================================================================
# decoders
# ================================================================================================
def _cleanup(s: str) -> str:
    for a, b in (
        (" .", "."),
        (" ?", "?"),
        (" !", "!"),
        (" ,", ","),
        (" ' ", "'"),
        (" n't", "n't"),
        (" 'm", "'m"),
        (" do not", " don't"),
        (" 's", "'s"),
        (" 've", "'ve"),
        (" 're", "'re"),
    ):
        s = s.replace(a, b)
    return s


def build_decoder(obj: Any) -> Callable[[list[str]], list[str]] | None:
    """A decode chain (tokens -> strings, joined at the end), or None for the default (join by spaces)."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError(f"The file's decoder should be an object, not {obj!r}.")
    kind = obj.get("type")
    if kind == "ByteLevel":
        inverse = pt.unicode_to_bytes()

        def byte_level(tokens):
            data = bytearray()
            for t in tokens:
                if all(c in inverse for c in t):
                    data.extend(inverse[c] for c in t)
                else:
                    data.extend(t.encode("utf-8"))
            return [bytes(data).decode("utf-8", errors="replace")]

        return byte_level
    if kind == "Metaspace":
        meta = Metaspace(obj)

        def metaspace(tokens):
            out = []
            for i, t in enumerate(tokens):
                if i == 0 and meta.scheme != "never":
                    out.append(t.replace(meta.replacement, ""))
                else:
                    out.append(t.replace(meta.replacement, " "))
            return out

        return metaspace
    if kind == "WordPiece":
        prefix, cleanup = obj.get("prefix", "##"), bool(obj.get("cleanup", True))

        def wordpiece(tokens):
            out = []
            for i, t in enumerate(tokens):
                if i:
                    t = t[len(prefix) :] if t.startswith(prefix) else " " + t
                out.append(_cleanup(t) if cleanup else t)
            return out

        return wordpiece
    if kind == "BPEDecoder":
        suffix = obj.get("suffix", "</w>")
        return lambda tokens: [t.replace(suffix, "" if i == len(tokens) - 1 else " ") for i, t in enumerate(tokens)]
    if kind == "Fuse":
        return lambda tokens: ["".join(tokens)]
    if kind == "Strip":
        content, start, stop = obj.get("content", " "), int(obj.get("start", 0)), int(obj.get("stop", 0))

        def strip(tokens):
            out = []
            for t in tokens:
                a = 0
                for i in range(min(start, len(t))):
                    if t[i] != content:
                        break
                    a = i + 1
                b = len(t)
                for i in range(min(stop, len(t))):
                    if t[len(t) - i - 1] != content:
                        break
                    b = len(t) - i - 1
                out.append(t[a:b] if b >= a else "")
            return out

        return strip
    if kind == "Replace":
        pattern = _pattern(obj.get("pattern"), "Replace decoder")
        content = obj.get("content", "")
        if pattern is None:
            return lambda tokens: list(tokens)
        return lambda tokens: [pattern.sub(lambda _m: content, t) for t in tokens]
    if kind == "ByteFallback":

        def byte_fallback(tokens):
            out: list[str] = []
            pending = bytearray()

            def flush():
                if pending:
                    try:
                        out.append(bytes(pending).decode("utf-8"))
                    except UnicodeDecodeError:
                        out.extend("�" for _ in pending)
                    pending.clear()

            for t in tokens:
                if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
                    try:
                        pending.append(int(t[3:5], 16))
                        continue
                    except ValueError:
                        pass
                flush()
                out.append(t)
            flush()
            return out

        return byte_fallback
    if kind == "Sequence":
        parts = [build_decoder(d) for d in obj.get("decoders") or []]

        def sequence(tokens):
            for part in parts:
                if part is not None:
                    tokens = part(tokens)
            return tokens

        return sequence
    raise ValueError(
        f"This file's decoder {_name(obj)} is not one BPE Explorer reads (it reads {', '.join(DECODERS)})."
    )


# ================================================================================================
# post-processors: only their effect on offsets (ByteLevel's and Roberta's trim_offsets)
# ================================================================================================
def offset_trimming(obj: Any) -> bool | None:
    """None when the post-processor leaves offsets alone, else its ``add_prefix_space``."""
    if obj is None:
        return None
    if not isinstance(obj, dict) or obj.get("type") not in POST_PROCESSORS:
        raise ValueError(
            f"This file's post-processor {_name(obj)} is not one BPE Explorer reads "
            f"(it reads {', '.join(POST_PROCESSORS)})."
        )
    kind = obj["type"]
    if kind in ("ByteLevel", "RobertaProcessing"):
        if obj.get("trim_offsets", True):
            return bool(obj.get("add_prefix_space", True))
        return None
    if kind == "Sequence":
        found = [offset_trimming(p) for p in obj.get("processors") or []]
        found = [f for f in found if f is not None]
        return found[-1] if found else None
    return None


_SPACE_SYMBOL = pt.bytes_to_unicode()[ord(" ")]


def trim_offsets(tokens, offsets, add_prefix_space: bool) -> list[Span]:
    """``tokenizers``' ``process_offsets``: offsets leave out a token's leading and trailing spaces."""
    out = []
    for i, (token, (start, end)) in enumerate(zip(tokens, offsets)):
        lead = 0
        for c in token:
            if c == _SPACE_SYMBOL or is_whitespace(c):
                lead += 1
            else:
                break
        trail = 0
        for c in reversed(token):
            if c == _SPACE_SYMBOL or is_whitespace(c):
                trail += 1
            else:
                break
        if lead or trail:
            if lead:
                if (i == 0 or start == 0) and add_prefix_space and lead == 1:
                    lead = 0
                start = min(start + lead, end)
            if trail and end >= trail:
                end = max(end - trail, start)
        out.append((start, end))
    return out


# ================================================================================================
# added tokens
# ================================================================================================
class AddedToken:
    __slots__ = ("content", "id", "lstrip", "rstrip", "single_word", "normalized", "special")

    def __init__(self, obj: dict) -> None:
        self.content: str = obj["content"]
        self.id: int = obj["id"]
        self.lstrip = bool(obj.get("lstrip", False))
        self.rstrip = bool(obj.get("rstrip", False))
        self.single_word = bool(obj.get("single_word", False))
        self.special = bool(obj.get("special", False))
        self.normalized = bool(obj.get("normalized", not self.special))


# ================================================================================================
# the pipeline
# ================================================================================================
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
    ) -> None:
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
        self.name = _describe(normalizer, pre_tokenizer)
        raw = [a for a in self.added if not a.normalized]
        norm = [a for a in self.added if a.normalized]
        self._raw_re, self._raw_by = self._matcher(raw, lambda a: a.content)
        self._norm_re, self._norm_by = self._matcher(norm, self._normalized_content)
        self.unicode_forms = _unicode_forms(normalizer)
        self.fast = self._fast_regex()
        # decode shows a normalised added token as normalised (tokenizers' simple_id_to_token)
        self.decode_names = {a.id: self._normalized_content(a) if a.normalized else a.content for a in self.added}

    def _normalized_content(self, a: AddedToken) -> str:
        if self.normalizer is None:
            return a.content
        return self.normalizer(Piece(a.content, 0)).text

    @staticmethod
    def _matcher(tokens, key):
        """Leftmost-longest matching (tokenizers' Aho-Corasick): alternatives longest first."""
        by: dict[str, AddedToken] = {}
        for a in tokens:
            k = key(a)
            if k:
                by.setdefault(k, a)
        if not by:
            return None, by
        return regex.compile("|".join(regex.escape(k) for k in sorted(by, key=len, reverse=True))), by

    @staticmethod
    def _find(text: str, pattern, by) -> list[tuple[AddedToken | None, Span]]:
        """AddedVocabulary::find_matches: the splits of ``text``, each an added token or None."""
        if pattern is None:
            return [(None, (0, len(text)))]
        out, start_offset = [], 0
        for m in pattern.finditer(text):
            start, stop = m.span()
            a = by[m.group()]
            if a.single_word:
                start_space = start == 0 or not _ENDS_WITH_WORD.search(text, 0, start)
                stop_space = stop == len(text) or not _STARTS_WITH_WORD.match(text, stop)
                if not (start_space and stop_space):
                    continue
            if a.lstrip:
                start = max(_SPACE_AT_END.search(text, 0, start).start(), start_offset)
            if a.rstrip:
                stop = _SPACE_AT_START.match(text, stop).end()
            if start_offset < start:
                out.append((None, (start_offset, start)))
            out.append((a, (start, stop)))
            start_offset = stop
        if start_offset != len(text):
            out.append((None, (start_offset, len(text))))
        return out

    def _fast_regex(self):
        """The one regex that cuts words when nothing else changes the text (GPT-2, GPT-4o, Llama 3 and
        tiktoken files: ByteLevel with its regex, or an isolating Split then ByteLevel), else None. Such
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
            and parts[0].behavior == "Isolated"
            and not parts[0].invert
            and parts[0].regex is not None
            and isinstance(parts[1], ByteLevel)
            and not parts[1].use_regex
            and not parts[1].add_prefix_space
        ):
            return parts[0].regex
        return None

    def fast_applies(self, text: str) -> bool:
        """True when :meth:`fast_segments` cuts ``text`` as :meth:`run` would: the file has :attr:`fast`
        and its normaliser (if any, only Unicode forms such as Qwen's NFC) leaves this text unchanged."""
        if self.fast is None:
            return False
        return all(unicodedata.is_normalized(form, text) for form in self.unicode_forms or ())

    def fast_segments(self, text: str) -> list[tuple]:
        """For a file with :attr:`fast`: ``("added", token, id, span)`` and ``("text", start, end)``
        stretches, in order; the caller cuts the text stretches into words with :attr:`fast`."""
        out: list[tuple] = []
        if not text:
            return out
        for a, (s, e) in self._find(text, self._raw_re, self._raw_by):
            if a is not None:
                out.append(("added", text[s:e], a.id, (s, e)))
                continue
            if self._norm_re is None:
                out.append(("text", s, e))
                continue
            for b, (s2, e2) in self._find(text[s:e], self._norm_re, self._norm_by):
                if b is not None:
                    out.append(("added", text[s + s2 : s + e2], b.id, (s + s2, s + e2)))
                else:
                    out.append(("text", s + s2, s + e2))
        return out

    def run(self, text: str):
        """Yield ``("added", token string, id, span)`` and ``("word", None, None, Piece)`` in order."""
        if not text:
            return
        for a, (s, e) in self._find(text, self._raw_re, self._raw_by):
            if a is not None:
                yield "added", text[s:e], a.id, (s, e)
                continue
            piece = Piece(text[s:e], s)
            if self.normalizer is not None:
                piece = self.normalizer(piece)
            for b, (s2, e2) in self._find(piece.text, self._norm_re, self._norm_by):
                part = piece.slice(s2, e2)
                if not part.text:
                    continue
                if b is not None:
                    yield "added", part.text, b.id, part.original(0, len(part.text))
                    continue
                words = self.pre_tokenizer([part]) if self.pre_tokenizer is not None else [part]
                for w in words:
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
