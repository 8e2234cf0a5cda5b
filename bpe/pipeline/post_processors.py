"""Post-processors of a ``tokenizer.json``, for their one effect this engine applies: offset trimming.

ByteLevel's and Roberta's ``trim_offsets`` move a token's offsets past the spaces it starts with
(:func:`offset_trimming` reads the setting, :func:`trim_offsets` applies it).

Left out: templates (``[CLS] ... [SEP]``, ``<s> ... </s>``): they are kept for saving but not applied,
so compare with ``add_special_tokens=False``.
"""

from __future__ import annotations

from typing import Any

from .. import pre_tokenizers as pt
from ..config import Span
from .piece import is_whitespace
from .pre_tokenizers import component_name

POST_PROCESSORS = ("ByteLevel", "RobertaProcessing", "BertProcessing", "TemplateProcessing", "Sequence")


def offset_trimming(obj: Any) -> bool | None:
    """None when the post-processor leaves offsets alone, else its ``add_prefix_space``."""
    if obj is None:
        return None
    if not isinstance(obj, dict) or obj.get("type") not in POST_PROCESSORS:
        raise ValueError(
            f"This file's post-processor {component_name(obj)} is not one BPE Explorer reads "
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
