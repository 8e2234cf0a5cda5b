"""BPE Explorer's run file (``.bpe``): one whole training run, every step, saved compactly and read back exactly.

The command line (``python -m bpe train ... --out run.bpe``) writes it; the app opens it to step through a
run trained elsewhere. A file is:

1. the magic bytes ``\\x89BPE-RUN\\r\\n\\x1a\\n`` (a PNG-style signature: a file mangled by a text-mode copy
   no longer starts with them), then the format version as a 2-byte little-endian number (now 1);
2. the length of a JSON header (4 bytes, little-endian) and the header: the training options, the run's
   few scalars, and for each part of the run its name, item type, item count and byte length;
3. one zlib stream holding the parts one after the other: integer sequences as little-endian arrays,
   sequences of sequences (:class:`~bpe.ragged.Ragged`) as their two arrays, strings joined by a
   character none of them holds. What the parts are is the history's (:meth:`bpe.History.saved_parts`);
   how they are laid out is this module's alone.

Reading checks the signature, the version and that the parts fit together (lengths, ids in range) and
raises a ValueError with a sentence otherwise: a damaged or foreign file never gives a run that fails later.
Nothing in a run file is executed (no pickle).

Left out: the corpus itself (a run keeps its distinct words and their counts, not the text) and the caches
a run builds as it is read.

>>> import bpe
>>> run = bpe.run_training("low lower lowest", num_merges=3)
>>> loads(dumps(run)).merges == run.merges
True
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from array import array
from fractions import Fraction

from ..config import TrainConfig
from ..history import History
from ..ragged import Ragged

MAGIC = b"\x89BPE-RUN\r\n\x1a\n"
VERSION = 1
SUFFIX = ".bpe"
_PREFIX = struct.Struct("<HI")  # version, header length
_SEPARATORS = "\x00\n\x01\x02\x03\x1f\t "  # the first one no string holds joins them
MAX_HEADER_BYTES = 1 << 20

# How each part of a run is stored: "strings" (joined), "ints" (a list or tuple of whole numbers, as an
# array), "array" (an array, its own type), "ragged" (two arrays), "bools" (one byte each), "triples"
# (the merges: three ids each), "json" (a few scalars, in the header).
KINDS = {
    "words": "strings",
    "symbols": "strings",
    "freqs": "ints",
    "num_base": "json",
    "initial_splits": "ragged",
    "merges": "triples",
    "merge_counts": "ints",
    "merge_scores": "json",
    "merge_added": "bools",
    "merge_forced": "bools",
    "ties": "ragged",
    "num_ties": "ints",
    "vocab_len_after": "ints",
    "word_steps": "ragged",
    "stop_reason": "json",
    "stop_count": "json",
    "total_tokens_after": "ints",
}  # every other part is an "array"
_TUPLES = frozenset({"words", "freqs"})  # parts the history holds as tuples, not lists


def _little(values: array) -> bytes:
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _from_little(code: str, data) -> array:
    values = array(code)
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def _encode(name: str, kind: str, value) -> list[tuple[str, str, int, bytes]]:
    """The sections of one part: (section name, item type, item count, bytes)."""
    if kind == "strings":
        joined = "".join(value)
        sep = next((s for s in _SEPARATORS if s not in joined), None)
        if sep is None:
            raise ValueError(f"The run's {name} hold every separator character; it cannot be saved.")
        return [(name, "U" + sep, len(value), sep.join(value).encode("utf-8", "surrogatepass"))]
    if kind == "ints":
        return [(name, "Q", len(value), _little(array("Q", value)))]
    if kind == "array":
        return [(name, value.typecode, len(value), _little(value))]
    if kind == "ragged":
        return [
            (name, value.flat.typecode, len(value.flat), _little(value.flat)),
            (name + ".start", "Q", len(value.start), _little(value.start)),
        ]
    if kind == "bools":
        return [(name, "B", len(value), bytes(map(bool, value)))]
    if kind == "triples":
        return [(name, "I", 3 * len(value), _little(array("I", [i for m in value for i in m])))]
    raise AssertionError(kind)


def _config_json(config: TrainConfig) -> dict:
    fields = {name: getattr(config, name) for name in TrainConfig.__dataclass_fields__}
    fields["special_tokens"] = list(config.special_tokens)
    fields["forced_merges"] = [[step, list(pair)] for step, pair in config.forced_merges]
    return fields


def dumps(history: History, level: int = 1) -> bytes:
    """The run file of a whole run (zlib ``level``: 1, the default, writes fastest; 9 smallest, for a few percent)."""
    parts = history.saved_parts()
    scalars = {}
    sections = []
    for name, value in parts.items():
        kind = KINDS.get(name, "array")
        if kind == "json":
            if name == "merge_scores":
                value = None if all(s is None for s in value) else [None if s is None else str(s) for s in value]
            scalars[name] = value
        else:
            sections += _encode(name, kind, value)
    header = {
        "config": _config_json(history.config),
        "scalars": scalars,
        "sections": [[name, code, count, len(data)] for name, code, count, data in sections],
    }
    head = json.dumps(header, ensure_ascii=True).encode("ascii")
    packer = zlib.compressobj(level)
    body = [packer.compress(data) for *_, data in sections]
    body.append(packer.flush())
    return b"".join([MAGIC, _PREFIX.pack(VERSION, len(head)), head, *body])


def save_run(history: History, path, level: int = 1) -> int:
    """Write the run file to ``path``; returns its size in bytes."""
    data = dumps(history, level)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def load_run(path) -> History:
    """The run saved at ``path`` (a ValueError says why a file cannot be read)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise ValueError(f"Cannot read the run file {path}: {exc.strerror or exc}.") from None
    return loads(data)


def is_run_file(data: bytes) -> bool:
    """Whether ``data`` starts with a run file's signature."""
    return data[: len(MAGIC)] == MAGIC


def loads(data: bytes) -> History:
    """The run a run file holds; a ValueError with a sentence for a file that is not one, is damaged, or is of
    another version."""
    if not is_run_file(data):
        raise ValueError(
            "This is not a BPE Explorer run file: it does not start with the run file signature. Give a file "
            f"written by `python -m bpe train ... --out run{SUFFIX}`."
        )
    start = len(MAGIC)
    if len(data) < start + _PREFIX.size:
        raise ValueError("The run file is cut short: it ends right after its signature.")
    version, head_len = _PREFIX.unpack_from(data, start)
    if version != VERSION:
        advice = "A newer BPE Explorer wrote it: update this one" if version > VERSION else "Train the run again"
        raise ValueError(
            f"The run file is of version {version}; this BPE Explorer reads version {VERSION} only. {advice}."
        )
    start += _PREFIX.size
    if head_len > MAX_HEADER_BYTES or start + head_len > len(data):
        raise ValueError("The run file is damaged: its header is cut short or too long.")
    try:
        header = json.loads(data[start : start + head_len])
    except ValueError:  # not JSON, or not UTF-8
        raise ValueError("The run file is damaged: its header cannot be read.") from None
    try:
        config = _config(header["config"])
        scalars = dict(header["scalars"])
        sections = [(str(n), str(c), int(k), int(b)) for n, c, k, b in header["sections"]]
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"The run file is damaged: its header is not what a run file holds ({exc!r}).") from None
    total = sum(size for *_, size in sections)
    unpacker = zlib.decompressobj()
    try:
        body = unpacker.decompress(data[start + head_len :], total + 1)
    except zlib.error:
        raise ValueError("The run file is damaged: its contents cannot be decompressed.") from None
    if len(body) != total or not unpacker.eof:
        raise ValueError(f"The run file is damaged or cut short: it holds {len(body):,} bytes of its {total:,}.")
    parts = _decode(sections, memoryview(body), scalars)
    return _checked(History.from_saved_parts(config, parts))


def _config(fields: dict) -> TrainConfig:
    fields = dict(fields)
    fields["special_tokens"] = tuple(fields.get("special_tokens", ()))
    fields["forced_merges"] = tuple((int(step), tuple(pair)) for step, pair in fields.get("forced_merges", ()))
    unknown = set(fields) - set(TrainConfig.__dataclass_fields__)
    if unknown:
        raise ValueError(
            f"The run file is damaged: its options name {', '.join(sorted(unknown))}, which a run has not."
        )
    return TrainConfig(**fields)


def _decode(sections: list[tuple[str, str, int, int]], body: memoryview, scalars: dict) -> dict[str, object]:
    raw: dict[str, object] = {}
    pos = 0
    for name, code, count, size in sections:
        data = body[pos : pos + size]
        pos += size
        try:
            if code.startswith("U"):
                text = str(data, "utf-8", "surrogatepass")
                value: object = text.split(code[1:]) if count else []
            elif code == "B":
                value = [bool(b) for b in data]
            else:
                value = _from_little(code, data)
        except (ValueError, UnicodeDecodeError, TypeError):
            raise ValueError(f"The run file is damaged: its {name} cannot be read.") from None
        if len(value) != count:
            raise ValueError(f"The run file is damaged: its {name} holds {len(value):,} items, not {count:,}.")
        raw[name] = value
    parts: dict[str, object] = {}
    try:
        for name, kind in KINDS.items():
            if kind == "json":
                value = scalars[name]
                if name == "merge_scores":
                    value = [None] * len(raw["merge_counts"]) if value is None else [s and Fraction(s) for s in value]
            elif kind == "ragged":
                value = Ragged(raw[name].typecode, ())
                value.flat, value.start = raw[name], raw[name + ".start"]
            elif kind == "triples":
                flat = raw[name].tolist()
                value = list(zip(flat[0::3], flat[1::3], flat[2::3]))
            elif kind in ("ints",):
                value = raw[name].tolist()
            else:
                value = raw[name]
            parts[name] = tuple(value) if name in _TUPLES else value
        for name in raw:
            if name not in KINDS and not name.endswith(".start"):
                parts[name] = raw[name]
    except (KeyError, ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"The run file is damaged: a part of the run is missing or unreadable ({exc!r}).") from None
    return parts


def _checked(h: History) -> History:
    """The run, if its parts fit together; else a ValueError (cheap checks: lengths and id ranges)."""
    n, words, symbols = len(h.merges), len(h.words), len(h.symbols)
    problems = []
    per_merge = ("merge_counts", "merge_scores", "merge_added", "merge_forced", "ties", "num_ties")
    problems += [name for name in per_merge if len(getattr(h, name)) != n]
    problems += [
        name for name in ("vocab_len_after", "total_tokens_after", "step_words_start") if len(getattr(h, name)) != n + 1
    ]
    problems += [name for name in ("log_start", "top_start") if len(getattr(h, name)) != n + 2]
    problems += [name for name in ("freqs", "initial_splits", "word_steps") if len(getattr(h, name)) != words]
    for name in ("initial_splits", "ties", "word_steps"):
        r = getattr(h, name)
        starts = r.start.tolist()
        if starts[0] != 0 or starts[-1] != len(r.flat) or starts != sorted(starts):  # sorting a sorted list: one C pass
            problems.append(name)
    if len(set(h.symbols)) != symbols or not 0 <= h.num_base <= symbols:
        problems.append("symbols")
    if max(map(max, h.merges), default=0) >= symbols or max(h.initial_splits.flat, default=0) >= symbols:
        problems.append("merges")
    logs = len(h.log_pair)
    if {len(h.log_step), len(h.log_count), len(h.log_prev)} != {logs} or max(h.log_prev, default=-1) >= logs:
        problems.append("log")
    if max(h.log_start, default=0) > logs or max(h.step_words, default=0) >= max(words, 1):
        problems.append("log_start")
    if problems:
        raise ValueError(
            f"The run file is damaged: its {', '.join(dict.fromkeys(problems))} do not fit the rest of the run."
        )
    return h
