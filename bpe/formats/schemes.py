"""BPE Explorer's own training schemes as ``tokenizer.json`` components, both ways.

Writing: :func:`pre_tokenizer_json` gives the pre-tokenizer of each scheme, so that the ``tokenizers``
library cuts text into the same words (``sennrich`` has none: see :mod:`bpe.formats.tokenizer_json`).
Reading: :func:`own_scheme` says whether a file is one our schemes cut exactly like ``tokenizers`` (a
known pre-tokenizer, no normaliser, offsets left alone, default model options, plain added tokens)
and which scheme; any other file is read with its own components (:mod:`bpe.pipeline`).

Left out: the model, the vocabulary and the merges (see :mod:`bpe.formats.tokenizer_json`).

>>> pre_tokenizer_json("whitespace")
{'type': 'WhitespaceSplit'}
>>> detect_pre_tokenizer({"type": "WhitespaceSplit"})
'whitespace'
"""

from __future__ import annotations

from typing import Any

from .. import pre_tokenizers as pt
from ..config import WORDPIECE_PREFIX, shown
from ..pipeline import offset_trimming
from .fields import type_name

# The space-suffix scheme's pattern (bpe.pre_tokenizers'), as a tokenizers Split regex.
SPACE_SUFFIX_PATTERN = r"\S+\s*|\s+"


def byte_level_json(use_regex: bool) -> dict[str, Any]:
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": use_regex}


def split_json(pattern: str) -> dict[str, Any]:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def pre_tokenizer_json(name: str) -> dict[str, Any]:
    if name == "gpt2":
        return byte_level_json(True)
    if name == "gpt4":
        return {"type": "Sequence", "pretokenizers": [split_json(pt.GPT4_PATTERN), byte_level_json(False)]}
    if name == "whitespace":
        return {"type": "WhitespaceSplit"}
    if name == "space-suffix":
        return split_json(SPACE_SUFFIX_PATTERN)
    raise ValueError(  # sennrich
        "A 'sennrich' tokenizer cannot be saved as tokenizer.json: its words end in a separate </w> "
        "symbol, while the tokenizers library glues </w> onto the last letter, so it would cut words "
        "differently. Save it as vocab.json + merges.txt instead."
    )


def split_pattern(obj: dict[str, Any]) -> str | None:
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


def detect_pre_tokenizer(obj: Any) -> str:
    """Our scheme name for a tokenizer.json pre-tokenizer, or a ValueError naming it."""
    known = (
        "BPE Explorer reads files whose pre-tokenizer is ByteLevel (GPT-2), the GPT-4 Split followed "
        "by ByteLevel, WhitespaceSplit, or its own space-suffix Split."
    )
    if obj is None:
        raise ValueError("This file has no pre-tokenizer (the whole text would be one word). " + known)
    if not isinstance(obj, dict):
        raise ValueError(f"The file's pre_tokenizer should be an object, not {shown(obj)}.")
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
    if kind == "Split" and split_pattern(obj) == SPACE_SUFFIX_PATTERN:
        return "space-suffix"
    if kind == "Sequence":
        parts = obj.get("pretokenizers")
        if not isinstance(parts, list):
            raise ValueError("The file's Sequence pre-tokenizer has no list of 'pretokenizers'.")
        if len(parts) == 1:
            return detect_pre_tokenizer(parts[0])
        if len(parts) == 2 and all(isinstance(p, dict) for p in parts):
            split, byte_level = parts
            if byte_level.get("type") == "ByteLevel" and not byte_level.get("use_regex", True):
                pattern = split_pattern(split)
                if pattern in (pt.GPT4_PATTERN, pt.GPT2_PATTERN):
                    _check_byte_level(byte_level)
                    return "gpt4" if pattern == pt.GPT4_PATTERN else "gpt2"
        names = ", ".join(type_name(p) for p in parts)
        raise ValueError(
            f"This file's pre-tokenizer is a Sequence of {names}, which is not one BPE Explorer knows. " + known
        )
    if kind == "Split":
        pattern = split_pattern(obj)
        with_pattern = f" with the pattern {shown(pattern)}" if pattern else ""
        raise ValueError(
            f"This file's pre-tokenizer is a Split{with_pattern}, which is not one BPE Explorer knows. " + known
        )
    raise ValueError(f"This file's pre-tokenizer is {type_name(obj)}, which BPE Explorer does not know. " + known)


_MODEL_DEFAULTS = {
    "dropout": (None, 0, 0.0),
    "byte_fallback": (False, None),
    "continuing_subword_prefix": (None, ""),
    "end_of_word_suffix": (None, ""),
    "fuse_unk": (False, None),
    "ignore_merges": (False, None),
}


def own_scheme(data: dict, model: dict) -> str | None:
    """The scheme name when the file is one BPE Explorer's own schemes cut exactly like ``tokenizers``
    (a known pre-tokenizer, no normaliser, offsets left alone, default model options, plain added
    tokens), else None."""
    normalizer = data.get("normalizer")
    if normalizer is not None and not (
        isinstance(normalizer, dict) and normalizer.get("type") == "Sequence" and not normalizer.get("normalizers")
    ):
        return None
    try:
        scheme = detect_pre_tokenizer(data.get("pre_tokenizer"))
        if offset_trimming(data.get("post_processor")) is not None:
            return None
    except ValueError:
        return None
    if model.get("type", "BPE") == "BPE":
        if any(model.get(k) not in ok for k, ok in _MODEL_DEFAULTS.items()):
            return None
    elif model.get("continuing_subword_prefix", WORDPIECE_PREFIX) != WORDPIECE_PREFIX:
        return None
    added = data.get("added_tokens") or []
    if not isinstance(added, list) or any(
        isinstance(a, dict) and (a.get("lstrip") or a.get("rstrip") or a.get("single_word")) for a in added
    ):
        return None
    decoder = data.get("decoder")
    decoder_type = decoder.get("type") if isinstance(decoder, dict) else decoder
    vocab = model.get("vocab")
    if scheme in pt.BYTE_LEVEL:
        if decoder_type not in (None, "ByteLevel"):
            return None
        if isinstance(vocab, dict) and not all(sym in vocab for sym in pt.bytes_to_unicode().values()):
            return None  # ours appends the missing bytes; tokenizers would drop them
    elif model.get("type", "BPE") == "BPE":
        if decoder_type not in (None, "Fuse") or (decoder_type == "Fuse") != (scheme == "space-suffix"):
            return None
        unk = model.get("unk_token")
        if unk is None or (isinstance(vocab, dict) and unk not in vocab):
            return None  # ours adds [UNK]; tokenizers would drop unknown characters or fail
    return scheme
