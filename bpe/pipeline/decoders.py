"""Decoders of a ``tokenizer.json``: how a file's tokens become text again.

:func:`build_decoder` reads ByteLevel, Metaspace, WordPiece, BPEDecoder, Fuse, Strip, Replace,
ByteFallback and Sequence (:data:`DECODERS`), each as ``tokenizers``' ``decoders/*`` does it,
as a function from a list of tokens to a list of strings.

Left out: CTC and any other decoder: it raises a ValueError that names it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import budget
from .. import pre_tokenizers as pt
from ..config import shown
from .onig import compile_pattern, match_spans
from .pre_tokenizers import Metaspace, component_name

DECODERS = ("ByteLevel", "Metaspace", "WordPiece", "BPEDecoder", "Fuse", "Strip", "Replace", "ByteFallback", "Sequence")


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
        raise ValueError(f"The file's decoder should be an object, not {shown(obj)}.")
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
        pattern = compile_pattern(obj.get("pattern"), "Replace decoder")
        content = obj.get("content", "")
        if pattern is None:
            return lambda tokens: list(tokens)

        def replace(tokens):
            out = []
            for t in tokens:
                matches = match_spans(pattern, t)  # in Oniguruma's order (Pattern::find_matches)
                if matches:
                    removed = sum(e - s for s, e in matches)
                    budget.grow(len(t) - removed + len(matches) * len(content), "Replace decoder", len(t))
                    parts, last = [], 0
                    for s, e in matches:
                        parts += (t[last:s], content)
                        last = e
                    t = "".join(parts) + t[last:]
                out.append(t)
            return out

        return replace
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
        f"This file's decoder {component_name(obj)} is not one BPE Explorer reads (it reads {', '.join(DECODERS)})."
    )
