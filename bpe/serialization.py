"""File formats: Hugging Face ``tokenizer.json``, GPT-2's ``vocab.json`` + ``merges.txt``,
and a CSV log of a training run. No other module knows how these files look.

``tokenizer.json`` (:func:`to_tokenizer_json`, :func:`save`) is written so that the
``tokenizers`` library, loading it with ``Tokenizer.from_file``, cuts text into the
same tokens and ids as :meth:`bpe.Tokenizer.encode` does:

=================  =======================================================  ================
our pre-tokenizer  tokenizer.json pre-tokenizer                             decoder
=================  =======================================================  ================
``gpt2``           ``ByteLevel`` (its own GPT-2 regex)                      ``ByteLevel``
``gpt4``           ``Split`` (cl100k regex, isolated), ``ByteLevel``        ``ByteLevel``
``whitespace``     ``WhitespaceSplit``                                      none (spaces)
``space-suffix``   ``Split`` (``\\S+\\s*|\\s+``, isolated)                     ``Fuse``
``sennrich``       cannot be written (see below)
=================  =======================================================  ================

Special tokens become ``added_tokens`` with ``special: true``; the unknown token is
the model's ``unk_token`` (byte-level vocabularies need none). WordPiece tokenizers
are written as a ``WordPiece`` model (``##`` prefix, the tokenizer's
``max_input_chars_per_word``, 100 unless set, ``WordPiece`` decoder without clean-up); that format has no merges, so a WordPiece
tokenizer loaded back has none (its tokens are unchanged: WordPiece only needs the
vocabulary).

Why ``sennrich`` cannot be written: our words end in a *separate* symbol ``</w>``
(``l o w </w>``), as in Sennrich et al.'s Algorithm 1. The ``tokenizers`` library's
``end_of_word_suffix`` glues the marker onto the last character instead
(``l o w</w>``), so it would cut words differently (``</w>`` alone could never be a
token). Rather than write a file that silently disagrees, :func:`to_tokenizer_json`
raises a ValueError; ``vocab.json`` + ``merges.txt`` hold such a tokenizer exactly.

Reading (:func:`from_tokenizer_json`, :func:`load`) takes two paths. A file BPE Explorer's own
schemes cut exactly like ``tokenizers`` (a pre-tokenizer above, no normaliser, offsets left alone,
default model options, plain added tokens: our own files, and plain GPT-2 / ``BpeTrainer`` ones)
becomes a tokenizer with that scheme's name, so the Train page's explanations apply. Any other
BPE (or WordPiece) file is read with its own components (:mod:`bpe.normalizers`,
:mod:`bpe.pipeline`): normalisers, pre-tokenizers, added tokens with ``lstrip``/``rstrip``/
``single_word``/``normalized``, ByteLevel offset trimming, the decoder, and the model's
``byte_fallback``, ``fuse_unk``, ``unk_token``, ``continuing_subword_prefix``,
``end_of_word_suffix`` and ``ignore_merges``; it then encodes as ``tokenizers`` 0.23 does (ids,
tokens, offsets, decode; tested family by family), and saves back with the same components.
Merges may be ``["a", "b"]`` pairs or old-style ``"a b"`` strings. Refused with a ValueError that
names the component: other models (Unigram, WordLevel), dropout, and normalisers, pre-tokenizers,
decoders or post-processors not listed in those modules. Post-processor templates (``<s> ... </s>``)
are kept but not applied: compare with ``add_special_tokens=False``. A file's ``truncation`` and
``padding`` settings are left out on purpose: the page shows every token of the whole text.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import os
import sys
from collections.abc import Iterable
from operator import itemgetter
from typing import Any, Union

from . import pipeline as pipeline_mod
from . import pre_tokenizers as pt
from .config import WORDPIECE_PREFIX, Pair
from .history import History
from .tokenizer import Tokenizer

PathLike = Union[str, "os.PathLike[str]"]

# The space-suffix scheme's pattern (bpe.pre_tokenizers'), as a tokenizers Split regex.
SPACE_SUFFIX_PATTERN = r"\S+\s*|\s+"
MERGES_HEADER = "#version: 0.2"


# ================================================================================================
# tokenizer.json: writing
# ================================================================================================
def _byte_level(use_regex: bool) -> dict[str, Any]:
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": use_regex}


def _split(pattern: str) -> dict[str, Any]:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def _pre_tokenizer_json(name: str) -> dict[str, Any]:
    if name == "gpt2":
        return _byte_level(True)
    if name == "gpt4":
        return {"type": "Sequence", "pretokenizers": [_split(pt.GPT4_PATTERN), _byte_level(False)]}
    if name == "whitespace":
        return {"type": "WhitespaceSplit"}
    if name == "space-suffix":
        return _split(SPACE_SUFFIX_PATTERN)
    raise ValueError(  # sennrich
        "A 'sennrich' tokenizer cannot be saved as tokenizer.json: its words end in a separate </w> "
        "symbol, while the tokenizers library glues </w> onto the last letter, so it would cut words "
        "differently. Save it as vocab.json + merges.txt instead."
    )


def _tokenizer_dict(tok: Tokenizer) -> dict[str, Any]:
    if not isinstance(tok, Tokenizer):
        raise ValueError(f"Expected a bpe.Tokenizer to save, got {type(tok).__name__}.")
    if tok.pipeline is not None:
        return _file_tokenizer_dict(tok)
    pre_tokenizer = _pre_tokenizer_json(tok.pre_tokenizer)
    added = []
    for token in tok.special_tokens:
        if token not in tok.vocab:
            raise ValueError(f"The special token {token!r} has no id in the vocabulary, so it cannot be saved.")
        added.append(
            {
                "id": tok.vocab[token],
                "content": token,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        )
    added.sort(key=lambda t: t["id"])
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    unk = tok.unk_token if tok.unk_token is not None and tok.unk_token in tok.vocab else None

    if tok.algorithm == "wordpiece":
        model: dict[str, Any] = {
            "type": "WordPiece",
            "unk_token": tok.unk_token or "[UNK]",
            "continuing_subword_prefix": WORDPIECE_PREFIX,
            "max_input_chars_per_word": tok.max_input_chars_per_word,
            "vocab": vocab,
        }
        decoder: dict[str, Any] | None = {"type": "WordPiece", "prefix": WORDPIECE_PREFIX, "cleanup": False}
    else:
        model = {
            "type": "BPE",
            "dropout": None,
            "unk_token": unk,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": vocab,
            "merges": [list(pair) for pair in _checked_merges(tok)],
        }
        if tok.byte_level:
            decoder = _byte_level(True)
        elif tok.pre_tokenizer == "space-suffix":
            decoder = {"type": "Fuse"}  # tokens keep their spaces: join them as they are
        else:
            decoder = None  # the tokenizers library then joins tokens with a space, as we do
    # The ByteLevel post-processor only adjusts offsets; with trim_offsets false they include
    # the leading space (Ġ), as ours do.
    post = {**_byte_level(True), "trim_offsets": False} if tok.byte_level else None
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": post,
        "decoder": decoder,
        "model": model,
    }


def _file_tokenizer_dict(tok: Tokenizer) -> dict[str, Any]:
    """A tokenizer read from a real file, written back with the file's own components (normaliser,
    pre-tokenizer, post-processor, decoder, added tokens) and its model (merges as ``[a, b]``)."""
    src = tok.pipeline.source
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    outside = getattr(tok.pipeline, "outside_model", frozenset())
    model_vocab = {t: i for t, i in vocab.items() if t not in outside}
    added_tokens = [{k: v for k, v in a.items() if k != "_outside_model"} for a in src["added_tokens"]]
    if tok.algorithm == "wordpiece":
        model: dict[str, Any] = {
            "type": "WordPiece",
            "unk_token": tok.unk_token,
            "continuing_subword_prefix": WORDPIECE_PREFIX,
            "max_input_chars_per_word": tok.max_input_chars_per_word,
            "vocab": model_vocab,
        }
    else:
        model = {
            "type": "BPE",
            "dropout": None,
            "unk_token": tok.unk_token,
            "continuing_subword_prefix": tok.continuing_subword_prefix,
            "end_of_word_suffix": tok.end_of_word_suffix,
            "fuse_unk": tok.fuse_unk,
            "byte_fallback": tok.byte_fallback,
            "ignore_merges": tok.ignore_merges,
            "vocab": model_vocab,
            "merges": [list(pair) for pair in tok.merges],
        }
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added_tokens,
        "normalizer": src["normalizer"],
        "pre_tokenizer": src["pre_tokenizer"],
        "post_processor": src["post_processor"],
        "decoder": src["decoder"],
        "model": model,
    }


def _checked_merges(tok: Tokenizer) -> list[Pair]:
    """The merges in rank order, each checked against the vocabulary; a repeated pair is written
    once (its first rank, the one our tokenizer uses: the tokenizers library would keep the last)."""
    out, seen = [], set()
    for rank, (a, b) in enumerate(tok.merges, start=1):
        for part in (a, b, a + b):
            if part not in tok.vocab:
                raise ValueError(f"Merge {rank} ({a!r}, {b!r}) uses {part!r}, which is not in the vocabulary.")
        if (a, b) not in seen:
            seen.add((a, b))
            out.append((a, b))
    return out


_dump = json.JSONEncoder(ensure_ascii=False).encode


def _format_json(value: Any, indent: str = "") -> str:
    """JSON indented by two spaces, with short lists of plain values (a merge pair) on one line."""
    dump = _dump
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{dump(k)}: {_format_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if len(value) <= 2 and not any(isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(dump(v) for v in value) + "]"
        return "[\n" + ",\n".join(inner + _format_json(v, inner) for v in value) + "\n" + indent + "]"
    return dump(value)


def _check_utf8(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"A token contains {exc.object[exc.start : exc.end]!r}, a lone surrogate that cannot be written as UTF-8."
        ) from None
    return text


def to_tokenizer_json(tok: Tokenizer) -> str:
    """The text of a Hugging Face ``tokenizer.json`` file for ``tok``.

    >>> model = json.loads(to_tokenizer_json(Tokenizer(["a", "b", "ab"], [("a", "b")])))["model"]
    >>> model["type"], model["unk_token"], model["vocab"], model["merges"]
    ('BPE', '[UNK]', {'a': 0, 'b': 1, 'ab': 2, '[UNK]': 3}, [['a', 'b']])
    """
    return _check_utf8(_format_json(_tokenizer_dict(tok)) + "\n")


def save(tok: Tokenizer, path: PathLike) -> None:
    """Write ``tok`` to ``path`` as a ``tokenizer.json`` file (UTF-8)."""
    text = to_tokenizer_json(tok)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# ================================================================================================
# tokenizer.json: reading
# ================================================================================================
def _decode_text(data: str | bytes | bytearray, what: str) -> str:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"The {what} is not UTF-8 text (byte {exc.start} is {bytes(data)[exc.start]:#04x}); "
                "is it a binary file?"
            ) from None
    if not isinstance(data, str):
        raise ValueError(f"Expected the {what} as text (str or bytes), got {type(data).__name__}.")
    return data.removeprefix("\ufeff")  # a byte order mark some editors add


def _parse_json(text: str, what: str) -> Any:
    if not text.strip():
        raise ValueError(f"The {what} is empty.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"The {what} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from None
    except RecursionError:
        raise ValueError(f"The {what} is not valid JSON: it is nested too deeply.") from None


def _type_name(obj: Any) -> str:
    if isinstance(obj, dict):
        return str(obj.get("type", "an untyped component"))
    return repr(obj)


def _split_pattern(obj: dict[str, Any]) -> str | None:
    """The regex of an isolating, non-inverted Split pre-tokenizer, else None."""
    pattern = obj.get("pattern")
    if obj.get("type") != "Split" or obj.get("behavior") != "Isolated" or obj.get("invert", False):
        return None
    if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str):
        return pattern["Regex"]
    return None


def _check_byte_level(obj: dict[str, Any]) -> None:
    if obj.get("add_prefix_space", False):
        raise ValueError(
            "This file's ByteLevel pre-tokenizer adds a space before the text (add_prefix_space), "
            "which BPE Explorer does not do, so it would cut the first word differently."
        )


def _detect_pre_tokenizer(obj: Any) -> str:
    """Our scheme name for a tokenizer.json pre-tokenizer, or a ValueError naming it."""
    known = (
        "BPE Explorer reads files whose pre-tokenizer is ByteLevel (GPT-2), the GPT-4 Split followed "
        "by ByteLevel, WhitespaceSplit, or its own space-suffix Split."
    )
    if obj is None:
        raise ValueError("This file has no pre-tokenizer (the whole text would be one word). " + known)
    if not isinstance(obj, dict):
        raise ValueError(f"The file's pre_tokenizer should be an object, not {obj!r}.")
    kind = obj.get("type")
    if kind == "ByteLevel":
        _check_byte_level(obj)
        if obj.get("use_regex", True):
            return "gpt2"
        raise ValueError("This file's ByteLevel pre-tokenizer does not split words (use_regex is false). " + known)
    if kind == "WhitespaceSplit":
        return "whitespace"
    if kind == "Whitespace":
        raise ValueError(
            "This file's pre-tokenizer is Whitespace, which also splits punctuation from words "
            "('hello,' -> 'hello' ','); BPE Explorer's 'whitespace' keeps them together, so it would "
            "cut text differently. " + known
        )
    if kind == "Split" and _split_pattern(obj) == SPACE_SUFFIX_PATTERN:
        return "space-suffix"
    if kind == "Sequence":
        parts = obj.get("pretokenizers")
        if not isinstance(parts, list):
            raise ValueError("The file's Sequence pre-tokenizer has no list of 'pretokenizers'.")
        if len(parts) == 1:
            return _detect_pre_tokenizer(parts[0])
        if len(parts) == 2 and all(isinstance(p, dict) for p in parts):
            split, byte_level = parts
            if byte_level.get("type") == "ByteLevel" and not byte_level.get("use_regex", True):
                pattern = _split_pattern(split)
                if pattern in (pt.GPT4_PATTERN, pt.GPT2_PATTERN):
                    _check_byte_level(byte_level)
                    return "gpt4" if pattern == pt.GPT4_PATTERN else "gpt2"
        names = ", ".join(_type_name(p) for p in parts)
        raise ValueError(
            f"This file's pre-tokenizer is a Sequence of {names}, which is not one BPE Explorer knows. " + known
        )
    if kind == "Split":
        pattern = _split_pattern(obj)
        shown = f" with the pattern {pattern!r}" if pattern else ""
        raise ValueError(f"This file's pre-tokenizer is a Split{shown}, which is not one BPE Explorer knows. " + known)
    raise ValueError(f"This file's pre-tokenizer is {_type_name(obj)}, which BPE Explorer does not know. " + known)


def _read_vocab(vocab: Any, where: str) -> dict[str, int]:
    if not isinstance(vocab, dict):
        raise ValueError(f"The vocabulary in {where} should be an object mapping each token to its id.")
    if not vocab:
        raise ValueError(f"The vocabulary in {where} is empty.")
    values = vocab.values()
    if set(map(type, values)) == {int} and min(values) >= 0 and len(set(values)) == len(vocab) and "" not in vocab:
        return vocab  # the common case, checked at C speed; the loop below names any problem
    seen: dict[int, str] = {}
    for token, i in vocab.items():
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise ValueError(f"The id of {token!r} in {where} should be a whole number of 0 or more, not {i!r}.")
        if i in seen:
            raise ValueError(
                f"The tokens {seen[i]!r} and {token!r} in {where} share the id {i}; every token needs its own id."
            )
        if not token:
            raise ValueError(
                f"The vocabulary in {where} holds an empty token; every token needs at least one character."
            )
        seen[i] = token
    return dict(vocab)


def _read_merges(merges: Any, vocab: dict[str, int], where: str, prefix: str | None = None) -> list[Pair]:
    if not isinstance(merges, list):
        raise ValueError(f'The merges in {where} should be a list, like [["u", "g"], ...].')
    # The common case in one pass (a 100,000-merge file in about 50 ms); any problem is then found and
    # named by the loop below.
    cut = len(prefix) if prefix else 0
    kinds = set(map(type, merges))
    if kinds in ({list}, {str}):
        pairs = list(map(tuple, merges)) if kinds == {list} else [tuple(m.split(" ")) for m in merges]
        if not pairs:
            return pairs
        if set(map(len, pairs)) == {2}:
            lefts = list(map(itemgetter(0), pairs))
            rights = list(map(itemgetter(1), pairs))
            has = vocab.__contains__
            if (
                set(map(type, lefts)) | set(map(type, rights)) == {str}
                and all(map(has, lefts))
                and all(map(has, rights))
            ):
                ends = [r[cut:] for r in rights] if cut else rights
                if all(map(has, map(str.__add__, lefts, ends))):
                    return pairs
    out: list[Pair] = []
    for rank, merge in enumerate(merges, start=1):
        if isinstance(merge, str):  # old format: "u g"
            parts = merge.split(" ")
        elif isinstance(merge, list):
            parts = merge
        else:
            parts = None
        if parts is None or len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
            raise ValueError(f'Merge {rank} in {where} ({merge!r}) should be two tokens, written ["u", "g"] or "u g".')
        out.append(_check_merge(f"Merge {rank} in {where}", parts[0], parts[1], vocab, prefix))
    return out


def _check_merge(label: str, a: str, b: str, vocab: dict[str, int], prefix: str | None = None) -> Pair:
    for part in (a, b):
        if part not in vocab:
            raise ValueError(f"{label} ({a} {b}) uses the token {part!r}, which is not in the vocabulary.")
    made = a + (b[len(prefix) :] if prefix else b)
    if made not in vocab:
        raise ValueError(f"{label} ({a} {b}) makes {made!r}, which is not in the vocabulary.")
    return (a, b)


def _refuse_options(model: dict[str, Any]) -> None:
    """Model options that would make the tokenizers library cut text differently from us."""
    if model.get("dropout") not in (None, 0, 0.0):
        raise ValueError(
            "This file's BPE model uses dropout (it skips merges at random), which BPE Explorer leaves out."
        )
    if model.get("byte_fallback"):
        raise ValueError(
            "This file's BPE model uses byte fallback (<0x41>-style tokens for unknown characters), "
            "which BPE Explorer does not do."
        )
    if model.get("continuing_subword_prefix"):
        raise ValueError(
            f"This file's BPE model marks word-inner pieces with the prefix {model['continuing_subword_prefix']!r}, "
            "which BPE Explorer's BPE does not do."
        )
    if model.get("end_of_word_suffix"):
        raise ValueError(
            f"This file's BPE model glues the suffix {model['end_of_word_suffix']!r} onto the last letter of each "
            "word; BPE Explorer's 'sennrich' scheme keeps </w> as a separate symbol, so it would cut words differently."
        )
    if model.get("fuse_unk"):
        raise ValueError(
            "This file's BPE model fuses runs of unknown characters into one token (fuse_unk), which BPE Explorer does not do."
        )
    if model.get("ignore_merges"):
        raise ValueError(
            "This file's BPE model takes a whole word from the vocabulary before trying merges (ignore_merges), "
            "which BPE Explorer does not do."
        )


def _read_added_tokens(added: Any, vocab: dict[str, int]) -> list[str]:
    """The added tokens' contents, each given an id in ``vocab`` (the model's, else the file's)."""
    return [entry["content"] for entry in _read_added_entries(added, vocab)]


def _tokenizer_from_dict(data: Any, where: str) -> Tokenizer:
    if not isinstance(data, dict):
        raise ValueError(f"The {where} should hold a JSON object, not {type(data).__name__}.")
    model = data.get("model")
    if not isinstance(model, dict):
        raise ValueError(f'The {where} has no "model" section, so it is not a tokenizer.json file.')
    kind = model.get("type")
    if kind is None and "merges" in model:
        kind = "BPE"  # very old files left the type out
    if kind is None and "vocab" in model and "max_input_chars_per_word" in model:
        kind = "WordPiece"
    if kind not in ("BPE", "WordPiece"):
        shown = f"a {kind} model" if isinstance(kind, str) else "a model of unknown type"
        raise ValueError(f"This file is {shown}; BPE Explorer reads BPE models only (and WordPiece).")
    if _is_own_format(data, model):
        return _own_format_tokenizer(data, model, kind, where)
    return _real_file_tokenizer(data, model, kind, where)


_MODEL_DEFAULTS = {
    "dropout": (None, 0, 0.0),
    "byte_fallback": (False, None),
    "continuing_subword_prefix": (None, ""),
    "end_of_word_suffix": (None, ""),
    "fuse_unk": (False, None),
    "ignore_merges": (False, None),
}


def _is_own_format(data: dict, model: dict) -> bool:
    """True when the file is one BPE Explorer's own schemes cut exactly like ``tokenizers``: a known
    pre-tokenizer, no normaliser, offsets left alone, default model options, plain added tokens."""
    normalizer = data.get("normalizer")
    if normalizer is not None and not (
        isinstance(normalizer, dict) and normalizer.get("type") == "Sequence" and not normalizer.get("normalizers")
    ):
        return False
    try:
        scheme = _detect_pre_tokenizer(data.get("pre_tokenizer"))
        if pipeline_mod.offset_trimming(data.get("post_processor")) is not None:
            return False
    except ValueError:
        return False
    if model.get("type", "BPE") == "BPE":
        if any(model.get(k) not in ok for k, ok in _MODEL_DEFAULTS.items()):
            return False
    elif model.get("continuing_subword_prefix", WORDPIECE_PREFIX) != WORDPIECE_PREFIX:
        return False
    added = data.get("added_tokens") or []
    if not isinstance(added, list) or any(
        isinstance(a, dict) and (a.get("lstrip") or a.get("rstrip") or a.get("single_word")) for a in added
    ):
        return False
    decoder = data.get("decoder")
    decoder_type = decoder.get("type") if isinstance(decoder, dict) else decoder
    vocab = model.get("vocab")
    if scheme in pt.BYTE_LEVEL:
        if decoder_type not in (None, "ByteLevel"):
            return False
        if isinstance(vocab, dict) and not all(sym in vocab for sym in pt.bytes_to_unicode().values()):
            return False  # ours appends the missing bytes; tokenizers would drop them
    elif model.get("type", "BPE") == "BPE":
        if decoder_type not in (None, "Fuse") or (decoder_type == "Fuse") != (scheme == "space-suffix"):
            return False
        unk = model.get("unk_token")
        if unk is None or (isinstance(vocab, dict) and unk not in vocab):
            return False  # ours adds [UNK]; tokenizers would drop unknown characters or fail
    return True


def _read_model_vocab(model: dict, where: str) -> tuple[dict[str, int], str | None]:
    """The model's vocabulary and its unknown token (None if it has none)."""
    if "vocab" not in model:
        raise ValueError(f'The model in the {where} has no "vocab".')
    vocab = _read_vocab(model["vocab"], f"the {where}")
    unk = model.get("unk_token")
    if unk is not None and not isinstance(unk, str):
        raise ValueError(f"The model's unk_token should be text or null, not {unk!r}.")
    return vocab, unk


def _real_file_tokenizer(data: dict, model: dict, kind: str, where: str) -> Tokenizer:
    """A tokenizer.json from elsewhere: its normaliser, pre-tokenizer, added tokens, decoder and model
    options, read so that encoding equals the ``tokenizers`` library's (see :mod:`bpe.pipeline`)."""
    vocab, unk = _read_model_vocab(model, where)
    added = _read_added_entries(data.get("added_tokens"), vocab)
    pipeline = pipeline_mod.Pipeline(
        normalizer=data.get("normalizer"),
        pre_tokenizer=data.get("pre_tokenizer"),
        decoder=data.get("decoder"),
        post_processor=data.get("post_processor"),
        added_tokens=added,
    )
    pipeline.outside_model = frozenset(a["content"] for a in added if a.get("_outside_model"))
    specials = [a["content"] for a in added]
    if kind == "WordPiece":
        prefix = model.get("continuing_subword_prefix", WORDPIECE_PREFIX)
        if prefix != WORDPIECE_PREFIX:
            raise ValueError(
                f"This WordPiece model marks word-inner pieces with {prefix!r}; BPE Explorer uses {WORDPIECE_PREFIX!r}."
            )
        limit = model.get("max_input_chars_per_word", 100)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(
                f"The WordPiece model's max_input_chars_per_word should be a whole number of 1 or more, not {limit!r}."
            )
        return Tokenizer(
            vocab,
            [],
            special_tokens=specials,
            unk_token=unk,
            algorithm="wordpiece",
            pipeline=pipeline,
            max_input_chars_per_word=limit,
        )
    if model.get("dropout") not in (None, 0, 0.0):
        raise ValueError(
            "This file's BPE model uses dropout (it skips merges at random), which BPE Explorer leaves out."
        )
    options = {}
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        value = model.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"The model's {key} should be text or null, not {value!r}.")
        options[key] = value or None
    for key in ("byte_fallback", "fuse_unk", "ignore_merges"):
        value = model.get(key, False)
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"The model's {key} should be true or false, not {value!r}.")
        options[key] = bool(value)
    if "merges" not in model:
        raise ValueError(f'The BPE model in the {where} has no "merges".')
    merges = _read_merges(model["merges"], vocab, f"the {where}", prefix=options["continuing_subword_prefix"])
    return Tokenizer(
        vocab, merges, special_tokens=specials, unk_token=unk, algorithm="bpe", pipeline=pipeline, **options
    )


def _read_added_entries(added: Any, vocab: dict[str, int]) -> list[dict]:
    """The added tokens as checked dicts (content, id, options), each given its id in ``vocab``."""
    if added is None:
        return []
    if not isinstance(added, list):
        raise ValueError("The file's added_tokens should be a list.")
    out = []
    ids: dict[int, str] | None = None  # id -> token, built only if a token is outside the vocabulary
    for entry in added:
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str) or not entry["content"]:
            raise ValueError(f"An entry of added_tokens ({entry!r}) has no 'content' text.")
        content, i = entry["content"], entry.get("id")
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            if content not in vocab:
                raise ValueError(f"The added token {content!r} has no valid id ({i!r}).")
            i = vocab[content]
        outside = content not in vocab
        if outside and ids is None:
            ids = {i: t for t, i in vocab.items()}
        if outside:
            if i in ids:
                raise ValueError(f"The added token {content!r} has the id {i}, which already belongs to {ids[i]!r}.")
            vocab[content] = i
            ids[i] = content
        out.append({**entry, "id": i, "_outside_model": outside})
    return out


def _own_format_tokenizer(data: dict, model: dict, kind: str, where: str) -> Tokenizer:
    normalizer = data.get("normalizer")
    if normalizer is not None and not (
        isinstance(normalizer, dict) and normalizer.get("type") == "Sequence" and not normalizer.get("normalizers")
    ):
        raise ValueError(
            f"This file normalises text first ({_type_name(normalizer)} normalizer: lower-casing, accents, "
            "Unicode forms...), which BPE Explorer does not do, so it would cut text differently."
        )
    pre_tokenizer = _detect_pre_tokenizer(data.get("pre_tokenizer"))
    vocab, unk = _read_model_vocab(model, where)

    if kind == "WordPiece":
        prefix = model.get("continuing_subword_prefix", WORDPIECE_PREFIX)
        if prefix != WORDPIECE_PREFIX:
            raise ValueError(
                f"This WordPiece model marks word-inner pieces with {prefix!r}; BPE Explorer uses {WORDPIECE_PREFIX!r}."
            )
        merges: list[Pair] = []
        algorithm = "wordpiece"
        limit = model.get("max_input_chars_per_word", 100)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(
                f"The WordPiece model's max_input_chars_per_word should be a whole number of 1 or more, not {limit!r}."
            )
    else:
        _refuse_options(model)
        if "merges" not in model:
            raise ValueError(f'The BPE model in the {where} has no "merges".')
        merges = _read_merges(model["merges"], vocab, f"the {where}")
        algorithm = "bpe"
    specials = _read_added_tokens(data.get("added_tokens"), vocab)
    byte_level = pre_tokenizer in pt.BYTE_LEVEL
    if unk is not None and unk not in vocab:
        if byte_level:
            unk = None  # never needed: every byte has a token
        else:
            raise ValueError(f"The model's unknown token {unk!r} is not in the vocabulary.")
    return Tokenizer(
        vocab,
        merges,
        pre_tokenizer=pre_tokenizer,
        special_tokens=specials,
        unk_token=unk,
        algorithm=algorithm,
        **({"max_input_chars_per_word": limit} if kind == "WordPiece" else {}),
    )


@contextlib.contextmanager
def without_gc():
    """Python's cyclic collector paused while a big file becomes objects: a 100,000-merge file makes
    hundreds of thousands of lists and tuples, and the collector would scan them again and again
    (about a third of the load time). Nothing here makes reference cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def from_tokenizer_json(text: str | bytes) -> Tokenizer:
    """A :class:`~bpe.Tokenizer` from the text (or UTF-8 bytes) of a ``tokenizer.json`` file."""
    with without_gc():
        data = _parse_json(_decode_text(text, "tokenizer.json file"), "tokenizer.json file")
        return _tokenizer_from_dict(data, "tokenizer.json file")


def load(path: PathLike) -> Tokenizer:
    """Read a ``tokenizer.json`` file: one saved by BPE Explorer or a BPE model's from elsewhere."""
    with open(path, "rb") as f:
        return from_tokenizer_json(f.read())


# ================================================================================================
# vocab.json + merges.txt
# ================================================================================================
def to_vocab_merges(tok: Tokenizer) -> tuple[str, str]:
    """The texts of ``vocab.json`` and ``merges.txt`` (GPT-2's two-file format) for a BPE tokenizer.

    ``merges.txt`` starts with ``#version: 0.2`` and has one merge per line, ``u g``. It
    cannot hold a token that contains whitespace (the ``space-suffix`` scheme's
    ``"abc "``); such tokenizers raise a ValueError: save them as tokenizer.json.
    Special tokens appear only in ``vocab.json``; name them again when loading.

    >>> vocab, merges = to_vocab_merges(Tokenizer(["a", "b", "ab"], [("a", "b")]))
    >>> merges
    '#version: 0.2\\na b\\n'
    """
    if not isinstance(tok, Tokenizer):
        raise ValueError(f"Expected a bpe.Tokenizer, got {type(tok).__name__}.")
    if tok.algorithm != "bpe":
        raise ValueError("vocab.json + merges.txt is a BPE format; save a WordPiece tokenizer as tokenizer.json.")
    lines = [MERGES_HEADER]
    for a, b in _checked_merges(tok):
        for part in (a, b):
            if any(c.isspace() for c in part):
                raise ValueError(
                    f"merges.txt cannot hold the token {part!r}: it contains whitespace, and merges.txt separates "
                    "the two tokens of a merge with a space. Save this tokenizer as tokenizer.json instead."
                )
        lines.append(f"{a} {b}")
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    return _check_utf8(_format_json(vocab) + "\n"), _check_utf8("\n".join(lines) + "\n")


def from_vocab_merges(
    vocab_text: str | bytes,
    merges_text: str | bytes,
    pre_tokenizer: str = "gpt2",
    *,
    special_tokens: Iterable[str] = (),
    unk_token: str | None = "[UNK]",
) -> Tokenizer:
    """A BPE :class:`~bpe.Tokenizer` from the texts of ``vocab.json`` and ``merges.txt``.

    These files do not say how text is cut into words, so name the pre-tokenizer
    (GPT-2's files: ``"gpt2"``, the default). Lines starting with ``#version`` and blank
    lines in ``merges.txt`` are skipped. Special tokens must be in the vocabulary.
    """
    pt.check_pre_tokenizer(pre_tokenizer)
    if isinstance(special_tokens, str):
        raise ValueError("special_tokens must be a list of strings, not a single string.")
    vocab = _read_vocab(_parse_json(_decode_text(vocab_text, "vocab.json file"), "vocab.json file"), "vocab.json")
    merges: list[Pair] = []
    lines = _decode_text(merges_text, "merges.txt file").splitlines()
    for number, line in enumerate(lines, start=1):
        if line.startswith("#version") or not line.strip():
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"Line {number} of merges.txt ({line!r}) should be two tokens separated by one space, like 'u g'."
            )
        merges.append(_check_merge(f"Line {number} of merges.txt", parts[0], parts[1], vocab))
    specials = list(dict.fromkeys(special_tokens))
    for token in specials:
        if token not in vocab:
            raise ValueError(f"The special token {token!r} is not in vocab.json.")
    return Tokenizer(vocab, merges, pre_tokenizer=pre_tokenizer, special_tokens=specials, unk_token=unk_token)


def vocab_byte_level_hint(vocab_text: str | bytes, pre_tokenizer: str) -> str | None:
    """A sentence when ``vocab.json`` and the chosen pre-tokenizer do not seem to match, else None.

    The files do not say their pre-tokenizer. A byte-level vocabulary trained on text with spaces
    has ``Ġ`` (GPT-2's symbol for the space byte); one without it was most likely trained on
    characters, and reading it byte-level quietly adds 256 byte symbols it never had.

    >>> vocab_byte_level_hint('{"h": 0, "u": 1, "g": 2, "hug": 3}', "gpt2") is not None
    True
    >>> vocab_byte_level_hint('{"h": 0, "Ġ": 1, "Ġh": 2}', "gpt2") is None
    True
    """
    vocab = _read_vocab(_parse_json(_decode_text(vocab_text, "vocab.json file"), "vocab.json file"), "vocab.json")
    space = pt.bytes_to_unicode()[ord(" ")]
    if pre_tokenizer in pt.BYTE_LEVEL and space not in vocab:
        return (
            f"This vocab.json has no {space} (the space byte of a byte-level vocabulary), so it was probably not "
            f"trained byte-level: if its tokenizer cut words another way, pick that pre-tokenizer above "
            f"(read as {pre_tokenizer}, every text becomes bytes, and its {len(vocab):,} tokens gain the 256 "
            "byte symbols)."
        )
    return None


# ================================================================================================
# training log
# ================================================================================================
def training_log_csv(history: History) -> str:
    """One CSV row per merge: ``step,left,right,new_token,count,tied_with,tied_pairs`` (and
    ``score`` for WordPiece, as a decimal).

    ``tied_with`` is how many other pairs had the winner's count; ``tied_pairs`` lists them (as
    many as the run kept, at least the 23 after the winner) as a JSON array of ``[left, right]``
    pairs (``[]`` when there was no tie). JSON, because tokens may contain spaces, commas or ``|``.

    >>> from bpe.trainer import run_training
    >>> h = run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, num_merges=1)
    >>> print(training_log_csv(h), end="")
    step,left,right,new_token,count,tied_with,tied_pairs
    1,u,g,ug,20,0,[]
    """
    if not isinstance(history, History):
        raise ValueError(f"Expected a training History (from run_training), got {type(history).__name__}.")
    wordpiece = history.config.algorithm == "wordpiece"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["step", "left", "right", "new_token", "count", "tied_with", "tied_pairs"]
    writer.writerow(header + ["score"] if wordpiece else header)
    for step in range(1, history.num_merges + 1):
        state = history.state(step)
        left, right = state.pair
        others = [list(pair) for pair in state.tied[1:]]
        row = [
            step,
            left,
            right,
            state.new_token,
            state.count,
            state.num_tied - 1,
            json.dumps(others, ensure_ascii=False),
        ]
        if wordpiece:
            row.append(repr(float(state.score)) if state.score is not None else "")
        writer.writerow(row)
    return out.getvalue()


def export_problems(tok: Tokenizer) -> dict[str, str | None]:
    """Which formats can hold this tokenizer, checked cheaply before any file is built:
    ``{"tokenizer.json": None, "vocab.json + merges.txt": "why not"}`` (None means fine)."""
    problems: dict[str, str | None] = {"tokenizer.json": None, "vocab.json + merges.txt": None}
    if tok.algorithm == "bpe":
        try:
            _pre_tokenizer_json(tok.pre_tokenizer)
        except ValueError as exc:
            problems["tokenizer.json"] = str(exc)
    if tok.algorithm != "bpe":
        problems["vocab.json + merges.txt"] = "vocab.json + merges.txt is a BPE format; use tokenizer.json."
    elif any(c.isspace() for a, b in tok.merges for c in a + b):
        problems["vocab.json + merges.txt"] = (
            "merges.txt cannot hold tokens that contain whitespace (this scheme keeps spaces in its tokens); "
            "use tokenizer.json."
        )
    return problems


Tokenizer.file_formats = sys.modules[__name__]  # Tokenizer.save / Tokenizer.load use this module
