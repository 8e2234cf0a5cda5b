"""The field readers and writers every file format shares: text from bytes, JSON with a sentence for
each fault, a vocabulary, merges, one merge checked against the vocabulary, UTF-8 on the way out,
and JSON laid out for people.

Each reader raises a ValueError that names the file, the field and the fix; each knows nothing of
which format it serves. Left out: any one format's layout (see the other modules of
:mod:`bpe.formats`).

>>> read_merges([["a", "b"]], {"a": 0, "b": 1, "ab": 2}, "the file")
[('a', 'b')]
>>> print(format_json({"merges": [["a", "b"]]}))
{
  "merges": [
    ["a", "b"]
  ]
}
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from operator import itemgetter
from typing import Any, Union

from ..config import MAX_NESTING, MAX_TOKEN_ID, Pair, shown

PathLike = Union[str, "os.PathLike[str]"]


def decode_text(data: str | bytes | bytearray, what: str) -> str:
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


def parse_json(text: str, what: str) -> Any:
    if not text.strip():
        raise ValueError(f"The {what} is empty.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"The {what} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from None
    except RecursionError:
        raise ValueError(
            f"The {what} nests lists and objects too deeply to read; BPE Explorer reads at most {MAX_NESTING} levels."
        ) from None


def type_name(obj: Any) -> str:
    if isinstance(obj, dict):
        return str(obj.get("type", "an untyped component"))
    return shown(obj)


def read_vocab(vocab: Any, where: str) -> dict[str, int]:
    if not isinstance(vocab, dict):
        raise ValueError(f"The vocabulary in {where} should be an object mapping each token to its id.")
    if not vocab:
        raise ValueError(f"The vocabulary in {where} is empty.")
    values = vocab.values()
    if (
        set(map(type, values)) == {int}
        and min(values) >= 0
        and max(values) <= MAX_TOKEN_ID
        and len(set(values)) == len(vocab)
    ):  # an empty token is allowed, as in tokenizers and tiktoken (Whisper's id 50256): no text makes it
        return vocab  # the common case, checked at C speed; the loop below names any problem
    seen: dict[int, str] = {}
    for token, i in vocab.items():
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= MAX_TOKEN_ID:
            raise ValueError(
                f"The id of {shown(token)} in {where} should be a whole number from 0 to {MAX_TOKEN_ID:,}, "
                f"not {shown(i)}."
            )
        if i in seen:
            raise ValueError(
                f"The tokens {shown(seen[i])} and {shown(token)} in {where} share the id {i}; "
                "every token needs its own id."
            )
        seen[i] = token
    return dict(vocab)


def read_merges(merges: Any, vocab: dict[str, int], where: str, prefix: str | None = None) -> list[Pair]:
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
            raise ValueError(
                f'Merge {rank} in {where} ({shown(merge)}) should be two tokens, written ["u", "g"] or "u g".'
            )
        out.append(check_merge(f"Merge {rank} in {where}", parts[0], parts[1], vocab, prefix))
    return out


def check_merge(label: str, a: str, b: str, vocab: dict[str, int], prefix: str | None = None) -> Pair:
    for part in (a, b):
        if part not in vocab:
            raise ValueError(
                f"{label} ({shown(a)} {shown(b)}) uses the token {shown(part)}, which is not in the vocabulary."
            )
    made = a + (b[len(prefix) :] if prefix else b)
    if made not in vocab:
        raise ValueError(f"{label} ({shown(a)} {shown(b)}) makes {shown(made)}, which is not in the vocabulary.")
    return (a, b)


_dump = json.JSONEncoder(ensure_ascii=False).encode


def format_json(value: Any, indent: str = "") -> str:
    """JSON indented by two spaces, with short lists of plain values (a merge pair) on one line."""
    dump = _dump
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{dump(k)}: {format_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if len(value) <= 2 and not any(isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(dump(v) for v in value) + "]"
        return "[\n" + ",\n".join(inner + format_json(v, inner) for v in value) + "\n" + indent + "]"
    return dump(value)


def check_utf8(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"A token contains {exc.object[exc.start : exc.end]!r}, a lone surrogate that cannot be written as UTF-8."
        ) from None
    return text


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
