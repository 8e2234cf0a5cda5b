"""A student's own BPE run, read from the files students' code writes, each told apart by its structure.

- GPT-2's ``merges.txt`` (lines ``a b``, with or without a ``#version`` line) and ``vocab.json``
  (an object of token -> id), and Hugging Face's ``tokenizer.json`` (read by :mod:`.tokenizer_json`);
- minbpe's ``.model`` (``minbpe v1``, the split pattern, the number of special tokens and their lines,
  then each merge as two token ids, ids 0-255 being the bytes and merge k making id 256 + k);
- subword-nmt's codes (``merges.txt``-like lines where a word's last symbol carries ``</w>``); a run where
  ``</w>`` is a symbol of its own (Sennrich et al.'s snippet: merges such as ``t </w>``) is read as plain merges;
- Stanford CS336's vocab and merges as JSON or as a pickle of plain values (:mod:`.cs336`);
- merges pasted as text: ``a b`` lines, or a Python list (``['s t', 'e st']``, ``[(b's', b't')]``).

Every run becomes a :class:`StudentRun` whose merges are pairs of byte strings, so runs on characters
and runs on bytes compare alike: a token written with GPT-2's byte characters (``Ġ`` for a space) is
mapped back to its bytes, any other token is taken as UTF-8.

Left out: comparing the run with ours (:mod:`bpe.check`).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..config import shown
from ..pre_tokenizers import unicode_to_bytes
from .cs336 import BytePair, read_cs336_pickle, read_cs336_value

END_OF_WORD = "</w>"
MAX_PASTE_CHARS = 2_000_000
EXPECTED = (
    "Expected one of: merges.txt (one merge per line, 'a b', optionally after a '#version' line), vocab.json (an "
    "object of token → id), tokenizer.json, minbpe's .model (first line 'minbpe v1'), subword-nmt codes (merges "
    'with </w>), CS336\'s vocab and merges as JSON ({"vocab": {id: bytes}, "merges": [[a, b], ...]}) or as a '
    "pickle of plain values, or merges pasted as 'a b' lines or a Python list."
)


@dataclass(frozen=True)
class StudentRun:
    """A student's merges as byte pairs, with what the files said about the vocabulary.

    ``byte_level``: its tokens start from bytes (minbpe, CS336, GPT-2's byte characters), not characters.
    ``end_of_word``: subword-nmt's codes, where a word's last symbol carries ``</w>``; not a run where ``</w>`` is
    a symbol of its own (merged as ``t </w>``), whose words are split as our ``sennrich`` pre-tokenizer splits them.
    """

    format: str
    merges: tuple[BytePair, ...]
    vocab_size: int | None = None
    byte_level: bool = False
    end_of_word: bool = False
    special_tokens: tuple[str, ...] = ()
    split_pattern: str | None = None  # a minbpe .model's split pattern ("" for a BasicTokenizer's); None: not said
    byte_chars: bool = False  # read as GPT-2's byte characters by a guess from the characters alone (_byte_level)
    id_pairs: tuple[tuple[int, int], ...] = ()  # a minbpe .model's merges as its ids, as written


def _byte_level(tokens: Sequence[str]) -> bool:
    """True if the tokens are written in GPT-2's byte characters: all of them are, and one at least is
    a shifted one (``Ġ``, ``Ċ``: U+0100 and up), which a character-level run would not hold."""
    table = unicode_to_bytes()
    chars = {c for t in tokens for c in t}
    return bool(chars) and chars <= table.keys() and any(ord(c) >= 256 for c in chars)


_BYTE_FALLBACK = re.compile(r"<0x([0-9A-Fa-f]{2})>")  # a byte written as SentencePiece's byte fallback shows it


def _fallback_written(tokens: Sequence[str]) -> bool:
    """True if the tokens write bytes as ``<0x0A>`` (a trainer on bytes that prints each byte outside printable ASCII
    so, as SentencePiece's byte fallback and Llama's vocabularies do) and hold no other character outside ASCII."""
    return any(_BYTE_FALLBACK.search(t) for t in tokens) and all(
        ord(c) < 0x80 for t in tokens for c in _BYTE_FALLBACK.sub("", t)
    )


def _to_bytes(token: str, byte_level: bool, fallback: bool = False) -> bytes:
    if fallback:
        parts = _BYTE_FALLBACK.split(token)  # text, a byte's two hex digits, text, ...
        return b"".join(bytes([int(p, 16)]) if k % 2 else p.encode("ascii") for k, p in enumerate(parts))
    if byte_level:
        table = unicode_to_bytes()
        return bytes(table[c] for c in token)
    return token.encode("utf-8")


def from_string_merges(
    fmt: str, merges: Sequence[tuple[str, str]], vocab: dict[str, int] | None = None, byte_level: bool | None = None
) -> StudentRun:
    """A run whose merges are written as token strings (merges.txt, vocab.json, tokenizer.json, pasted)."""
    tokens = [t for pair in merges for t in pair] + list(vocab or ())
    eow = _carries_end_of_word(merges)
    guessed = byte_level is None
    fallback = guessed and _fallback_written(tokens)
    if byte_level is None:
        byte_level = fallback or not eow and _byte_level(tokens)
    specials = tuple(t for t in (vocab or ()) if len(t) > 2 and t[0] in "<[" and t[-1] in ">]")
    return StudentRun(
        fmt,
        tuple((_to_bytes(a, byte_level, fallback), _to_bytes(b, byte_level, fallback)) for a, b in merges),
        vocab_size=len(vocab) if vocab is not None else None,
        byte_level=byte_level,
        end_of_word=eow,
        special_tokens=specials,
        byte_chars=guessed and byte_level and not fallback,
    )


def _carries_end_of_word(merges: Sequence[tuple[str, str]]) -> bool:
    """True for subword-nmt's codes: tokens end in ``</w>`` and none is ``</w>`` alone. subword-nmt glues it to a
    word's last character from the start, so it never stands alone; Sennrich et al.'s snippet adds it as a symbol of
    its own (``'l o w </w>'``), whose run merges it alone at least once (``t </w>``) before any token ends in it."""
    tokens = {t for pair in merges for t in pair}
    return END_OF_WORD not in tokens and any(t.endswith(END_OF_WORD) for t in tokens)


def _merge_lines(text: str) -> list[tuple[str, str]] | None:
    """``a b`` lines (after an optional ``#version`` line), or None if the text is not of that shape."""
    lines = text.splitlines()
    if lines and lines[0].startswith("#version"):
        lines = lines[1:]
    merges = []
    for line in lines:
        if not line.strip():
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            return None
        merges.append((parts[0], parts[1]))
    return merges or None


def _read_minbpe(text: str) -> StudentRun:
    lines = text.splitlines()
    try:
        num_special = int(lines[2])
        specials = [line.rsplit(" ", 1) for line in lines[3 : 3 + num_special]]
        pairs = [tuple(map(int, line.split())) for line in lines[3 + num_special :] if line.strip()]
    except (IndexError, ValueError):
        raise ValueError(
            "This looks like minbpe's .model ('minbpe v1') but its lines are not: the pattern, the number of special "
            "tokens, one 'token id' line per special token, then one 'id id' line per merge."
        ) from None
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for k, pair in enumerate(pairs):
        if len(pair) != 2 or pair[0] not in vocab or pair[1] not in vocab:
            raise ValueError(f"minbpe merge {k + 1} ({shown(pair)}) should be two ids of tokens made before it.")
        merges.append((vocab[pair[0]], vocab[pair[1]]))
        vocab[256 + k] = vocab[pair[0]] + vocab[pair[1]]
    return StudentRun(
        "minbpe .model",
        tuple(merges),
        vocab_size=256 + len(merges) + num_special,
        byte_level=True,
        special_tokens=tuple(s[0] for s in specials),
        split_pattern=lines[1].strip(),
        id_pairs=tuple(pairs),  # type: ignore[arg-type]
    )


def _cs336(fmt: str, vocab: dict[int, bytes] | None, merges: list[BytePair]) -> StudentRun:
    specials = tuple(
        t.decode("utf-8", "replace")
        for t in (vocab or {}).values()
        if len(t) > 2 and t[:1] in b"<[" and t[-1:] in b">]"
    )
    return StudentRun(
        fmt, tuple(merges), vocab_size=len(vocab) if vocab else None, byte_level=True, special_tokens=specials
    )


def _read_json(value: object) -> StudentRun:
    if isinstance(value, dict) and "model" in value:
        from .tokenizer_json import from_tokenizer_json

        tok = from_tokenizer_json(json.dumps(value))
        return from_string_merges("tokenizer.json", tok.merges, dict(tok.vocab), byte_level=tok.byte_level)
    if isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(v, int) for k, v in value.items()):
        if not all(k.isdigit() for k in value):
            return from_string_merges("vocab.json", [], value)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        merges = _merge_lines("\n".join(value))
        if merges is not None:
            return from_string_merges("merges (JSON list)", merges)
    return _cs336("CS336 JSON", *read_cs336_value(value))


def _read_python_list(text: str) -> StudentRun | None:
    """A pasted Python list of merges (``['s t', ...]`` or ``[(b's', b't'), ...]``), read with
    ``ast.literal_eval`` (literals only: nothing runs)."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        merges = _merge_lines("\n".join(value))
        return from_string_merges("pasted list", merges) if merges else None
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (list, tuple)) for v in value):
        if all(len(v) == 2 and all(isinstance(t, str) for t in v) for v in value):
            return from_string_merges("pasted list", [tuple(v) for v in value])
        try:
            return _cs336("pasted list", *read_cs336_value(list(value)))
        except ValueError:
            return None
    return None


def read_student_file(data: bytes, name: str = "the file") -> StudentRun:
    """Read one file of a student's run, recognised by its structure; a ValueError names what was expected."""
    if data[:1] == b"\x80":  # a pickle (protocol 2 and up) starts with the PROTO opcode
        try:
            return _cs336("CS336 pickle", *read_cs336_pickle(data))
        except ValueError as exc:
            message = f"{name}: {exc}"
        raise ValueError(message)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{name} is neither UTF-8 text nor a pickle. {EXPECTED}") from None
    return read_student_text(text, name)


def read_student_text(text: str, name: str = "the text") -> StudentRun:
    """Read a student's run from text (a file's or pasted), recognised by its structure."""
    if len(text) > MAX_PASTE_CHARS:
        raise ValueError(f"{name} has {len(text):,} characters; BPE Explorer reads at most {MAX_PASTE_CHARS:,}.")
    if not text.strip():
        raise ValueError(f"{name} is empty. {EXPECTED}")
    if text.startswith("minbpe v1"):
        return _read_minbpe(text)
    stripped = text.strip()
    if stripped[0] in "{[":
        try:
            value = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError):
            value = None
        if value is not None:
            try:
                return _read_json(value)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc} {EXPECTED}") from None
        run = _read_python_list(stripped)
        if run is not None:
            return run
    merges = _merge_lines(text)
    if merges is not None:
        return from_string_merges("subword-nmt codes" if _carries_end_of_word(merges) else "merges.txt", merges)
    raise ValueError(f"{name} is none of the formats BPE Explorer reads. {EXPECTED}")


def combine(runs: Sequence[StudentRun]) -> StudentRun:
    """One run from several files: the merges of the one that has merges, the vocabulary size of a
    vocabulary-only file (vocab.json beside merges.txt)."""
    with_merges = [r for r in runs if r.merges]
    if len(with_merges) != 1:
        raise ValueError(
            "Upload one file with merges (and optionally one vocabulary file beside it)"
            + ("; none of these files has merges." if not with_merges else f"; {len(with_merges)} files have merges.")
        )
    run = with_merges[0]
    vocab_sizes = [r.vocab_size for r in runs if not r.merges and r.vocab_size is not None]
    if vocab_sizes and run.vocab_size is None:
        specials = run.special_tokens or next((r.special_tokens for r in runs if not r.merges), ())
        run = StudentRun(
            f"{run.format} + vocabulary",
            run.merges,
            vocab_sizes[0],
            run.byte_level,
            run.end_of_word,
            specials,
        )
    return run
