"""Stanford CS336's shapes of a BPE run: ``vocab: dict[int, bytes]`` and ``merges: list[tuple[bytes, bytes]]``.

CS336's assignment 1 asks ``train_bpe`` for exactly these two values: the vocabulary maps ids to byte
strings (the special tokens, the 256 single bytes, then one token per merge), and the merges are pairs
of byte strings in the order they were made. Students save them as JSON or as a pickle.

Writing: :func:`cs336_vocab_merges` builds both from our merges, :func:`to_cs336_json` writes them as
JSON (byte strings as text where each character is one byte, U+0000 to U+00FF, so ``b"st"`` reads
``"st"``), :func:`to_cs336_pickle` as a pickle of plain dicts, lists, tuples, bytes and ints.

Reading: :func:`read_cs336_json` and :func:`read_cs336_pickle`. A pickle is read by an unpickler whose
``find_class`` refuses every class, so a file that names a function (``os.system``) or a class is refused
before anything in it runs; what it builds may only be dicts, lists, tuples, bytes, ints, strings,
floats, booleans and None. A pickle can hold one list many times (its memo): every walk here visits
a shared list once, the nesting is bounded (:data:`~bpe.config.MAX_NESTING`), and a token is bounded
(:data:`MAX_TOKEN_BYTES`) before it is copied, so a small file cannot make reading it exponential.

>>> vocab, merges = cs336_vocab_merges([("s", "t"), ("e", "st")], "whitespace", ["<|endoftext|>"])
>>> vocab[0], vocab[1], vocab[257], vocab[258], merges
(b'<|endoftext|>', b'\\x00', b'st', b'est', [(b's', b't'), (b'e', b'st')])

Left out: training (the trainer's) and CS336's ``Tokenizer`` class (encoding is :mod:`bpe.tokenizer`'s).
"""

from __future__ import annotations

import io
import json
import pickle
from collections.abc import Iterable, Sequence
from typing import Any

from ..config import MAX_NESTING, Pair, shown
from ..tie_order import token_bytes

BytePair = tuple[bytes, bytes]
PLAIN_TYPES = (dict, list, tuple, bytes, int, str, float, bool, type(None))
MAX_PICKLE_BYTES = 50_000_000
MAX_TOKEN_BYTES = 40_000  # a token of a word of jobs.MAX_WORD_CHARS (10,000) characters of 4 UTF-8 bytes each


def cs336_vocab_merges(
    merges: Sequence[Pair], pre_tokenizer: str, special_tokens: Iterable[str] = ()
) -> tuple[dict[int, bytes], list[BytePair]]:
    """Our merges (token strings) in CS336's shapes; raise a ValueError if a merge's part is not a
    token of CS336's vocabulary (a character of several bytes in a character-level run)."""
    vocab: dict[int, bytes] = {}
    for token in dict.fromkeys(special_tokens):
        vocab[len(vocab)] = token.encode("utf-8")
    for b in range(256):
        vocab[len(vocab)] = bytes([b])
    known = set(vocab.values())
    out: list[BytePair] = []
    for a, b in merges:
        pair = (token_bytes(a, pre_tokenizer), token_bytes(b, pre_tokenizer))
        for part, text in zip(pair, (a, b)):
            if part not in known:
                raise ValueError(
                    f"CS336's vocabulary starts from the 256 bytes, but this run's token {shown(text)} is "
                    f"{len(part)} bytes that no merge made: train with gpt2 or gpt4 pre-tokenization to export it."
                )
        out.append(pair)
        if pair[0] + pair[1] not in known:
            vocab[len(vocab)] = pair[0] + pair[1]
            known.add(pair[0] + pair[1])
    return vocab, out


def _text(data: bytes) -> str:
    return data.decode("latin-1")  # one character per byte, U+0000 to U+00FF


def to_cs336_json(vocab: dict[int, bytes], merges: Sequence[BytePair]) -> str:
    """``{"vocab": {"id": bytes as text}, "merges": [[bytes as text, bytes as text], ...]}``."""
    data = {"vocab": {str(i): _text(t) for i, t in vocab.items()}, "merges": [[_text(a), _text(b)] for a, b in merges]}
    return json.dumps(data, ensure_ascii=False, indent=1)


def to_cs336_pickle(vocab: dict[int, bytes], merges: Sequence[BytePair]) -> bytes:
    """A pickle of ``{"vocab": dict[int, bytes], "merges": list[tuple[bytes, bytes]]}``: plain types only."""
    return pickle.dumps({"vocab": dict(vocab), "merges": list(merges)}, protocol=4)


class _Refused(pickle.UnpicklingError):
    """A pickle named a class or function (its ``module.name`` is the message)."""


class _PlainUnpickler(pickle.Unpickler):
    """Refuses every class and function a pickle names, so nothing in the file runs."""

    def find_class(self, module: str, name: str) -> Any:
        raise _Refused(f"{module}.{name}")


def _check_plain(value: Any) -> None:
    """Raise a ValueError unless ``value`` holds only plain values (:data:`PLAIN_TYPES`), nested at most
    :data:`~bpe.config.MAX_NESTING` deep."""
    stack, seen = [(value, 1)], set()
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list, tuple)):
            # A pickle can hold one list many times (or inside itself): each is checked once, so a file of
            # shared references cannot make this walk exponential or endless.
            if id(item) in seen:
                continue
            seen.add(id(item))
            if depth > MAX_NESTING:
                raise ValueError(f"The pickle nests lists more than {MAX_NESTING} levels deep; a BPE run needs 3.")
        if type(item) not in PLAIN_TYPES:
            raise ValueError(
                f"The pickle holds a {type(item).__name__}; BPE Explorer reads only dicts, lists, tuples, bytes, "
                "ints, strings, floats, booleans and None."
            )
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item.keys())
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)


def load_plain_pickle(data: bytes) -> Any:
    """The plain value a pickle holds, read without running anything (see the module's docstring)."""
    if len(data) > MAX_PICKLE_BYTES:
        raise ValueError(f"The pickle is {len(data):,} bytes; BPE Explorer reads at most {MAX_PICKLE_BYTES:,}.")
    try:
        value = _PlainUnpickler(io.BytesIO(data)).load()
    except _Refused as exc:
        raise ValueError(
            f"The pickle names {shown(str(exc))}, and BPE Explorer refuses any pickle that names a class or a "
            "function (loading it could run code): save plain dicts, lists, tuples, bytes, ints and strings."
        ) from None
    except pickle.UnpicklingError as exc:
        raise ValueError(f"The file is not a readable pickle ({shown(str(exc))}).") from None
    except RecursionError:
        raise ValueError("The pickle nests too deeply to read.") from None
    except Exception as exc:  # a truncated or corrupt pickle raises EOFError, ValueError, KeyError, ...
        raise ValueError(f"The file is not a readable pickle ({type(exc).__name__}).") from None
    _check_plain(value)
    return value


def _as_bytes(value: Any, where: str, made: dict[int, bytes] | None = None) -> bytes:
    """A byte string as students write it: bytes, a list of byte values, or text (one character per
    byte when every character is below U+0100, else UTF-8); at most :data:`MAX_TOKEN_BYTES` long,
    checked before it is copied. ``made``: the lists already read (by ``id``), so a list a pickle
    shares among many merges is read once."""
    if isinstance(value, (bytes, list, str)) and len(value) > MAX_TOKEN_BYTES:
        unit = {bytes: "bytes", list: "values"}.get(type(value), "characters")
        raise ValueError(
            f"{where} has {len(value):,} {unit}; BPE Explorer reads tokens of up to {MAX_TOKEN_BYTES:,} bytes."
        )
    if isinstance(value, bytes):
        return value
    if made is not None and isinstance(value, list) and id(value) in made:
        return made[id(value)]
    if isinstance(value, list) and all(type(v) is int and 0 <= v < 256 for v in value):
        if made is not None:
            made[id(value)] = bytes(value)  # the list stays alive in the value being read: its id is not reused
            return made[id(value)]
        return bytes(value)
    if isinstance(value, str):
        return value.encode("latin-1") if all(ord(c) < 256 for c in value) else value.encode("utf-8")
    raise ValueError(f"{where} should be a byte string, not {shown(value)}.")


def _read_merges(value: Any) -> list[BytePair]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"CS336 merges should be a list of pairs, not a {type(value).__name__}.")
    out, made = [], {}
    for k, pair in enumerate(value, start=1):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"CS336 merge {k} should be a pair of byte strings, not {shown(pair)}.")
        out.append(
            (_as_bytes(pair[0], f"Merge {k}'s left part", made), _as_bytes(pair[1], f"Merge {k}'s right part", made))
        )
    return out


def _read_vocab(value: Any) -> dict[int, bytes]:
    if not isinstance(value, dict):
        raise ValueError(f"A CS336 vocabulary should map ids to byte strings, not be a {type(value).__name__}.")
    vocab, made = {}, {}
    for key, token in value.items():
        try:
            i = int(key)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"A CS336 vocabulary's keys are ids (whole numbers), not {shown(key)}.") from None
        vocab[i] = _as_bytes(token, f"Token {i}", made)
    return vocab


def read_cs336_value(value: Any) -> tuple[dict[int, bytes] | None, list[BytePair]]:
    """(vocab or None, merges) from what a student saved: ``{"vocab": ..., "merges": ...}``, a pair
    ``(vocab, merges)``, or the merges alone."""
    if isinstance(value, dict) and "merges" in value:
        vocab = _read_vocab(value["vocab"]) if value.get("vocab") is not None else None
        return vocab, _read_merges(value["merges"])
    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[0], dict):
        return _read_vocab(value[0]), _read_merges(value[1])
    if isinstance(value, (list, tuple)):
        return None, _read_merges(value)
    raise ValueError(
        'Expected CS336 merges: {"vocab": {id: bytes}, "merges": [[a, b], ...]}, a pair (vocab, merges), or the '
        "merges alone."
    )


def read_cs336_json(text: str) -> tuple[dict[int, bytes] | None, list[BytePair]]:
    """A CS336 run saved as JSON (see :func:`read_cs336_value` for the shapes)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"The file is not JSON: {exc.msg} at line {exc.lineno}.") from None
    return read_cs336_value(value)


def read_cs336_pickle(data: bytes) -> tuple[dict[int, bytes] | None, list[BytePair]]:
    """A CS336 run saved as a pickle of plain values (nothing in it runs)."""
    return read_cs336_value(load_plain_pickle(data))
