"""Uploaded and downloaded tokenizer files, read off the serving interpreter and kept within one budget.

Streamlit serves every session from one Python interpreter, so reading a large tokenizer.json there
(seconds of JSON and dictionaries holding the interpreter lock) would stall every other session's clicks
and keep gigabytes (figures in ``docs/benchmarks.md``). Here each file is read in a process of its own (:func:`parse`), started
from the ``forkserver`` (never a copy of the server), one at a time (:data:`PARSERS`), with a memory
cap (``RLIMIT_AS``, :data:`PARSE_MEMORY`) and a time limit (:data:`PARSE_SECONDS`: the server kills
it then, and the process ends itself by ``SIGALRM`` shortly after even if the server is gone). The
parsed tokenizer comes back pickled; unpickling it is the only part that runs in the server.

Parsed tokenizers are shared by every session through :data:`STORE`, keyed by the SHA-256 of what
was read, within :data:`BUDGET` bytes for all of them together; each entry counts its pickle's size
times :data:`HELD_PER_PICKLED_BYTE` (from ``benchmarks/bench_uploads.py``). The least recently
used is set aside first; a session whose tokenizer was set aside reads its file again.

This module imports only ``bpe`` (never Streamlit), so the parsing processes stay small.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import threading
from collections import OrderedDict
from typing import Any

from bpe import formats, hub
from bpe.formats.fields import decode_text, parse_json, without_gc
from server import heap
from server.capped import CappedRunner, Sentences

# -- limits (stated in the UI and README) ---------------------------------------------------------
BUDGET = 512 * 2**20  # parsed tokenizers kept, all sessions together
PARSE_MEMORY = 2**30  # address space of one parsing process: a 20 MB tokenizer.json of 822,000 merges fits
# (Gemma's 514,906 merges, the most of the popular models, well within); a 30 MB one of 1.2 million does not
PARSE_SECONDS = 60.0  # one file's reading, from when its process starts
WAIT_SECONDS = 120.0  # how long a file waits for its turn while others are read
PARSERS = 1  # files read at once (the machine's other core is the server's)
HELD_PER_PICKLED_BYTE = 12  # server RSS per byte of pickle: measured 7.8 (200,000 tokens) to 11.6 (400,000, at peak)


def dumps(value: Any) -> bytes:
    """``value`` pickled, tokenizers included (each of their parts pickles without its word caches, by its ``__getstate__``)."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


class _Reader(io.RawIOBase):
    """Bytes for the unpickler, handed over by Python code: the C unpickler holds the interpreter lock
    for the whole of a ``pickle.loads`` (1.5 s for a 200,000-token tokenizer, every other session
    stalled), but it releases it when it calls back into Python code for each 64 KB frame it reads."""

    def __init__(self, data) -> None:
        self.data, self.at = memoryview(data), 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), len(self.data) - self.at)
        buffer[:n] = self.data[self.at : self.at + n]
        self.at += n
        return n

    def read(self, n: int = -1) -> bytes:
        n = len(self.data) - self.at if n < 0 else min(n, len(self.data) - self.at)
        self.at += n
        return self.data[self.at - n : self.at].tobytes()

    def readline(self, limit: int = -1) -> bytes:
        end = bytes(self.data[self.at :]).find(b"\n")  # only the pickle's first line, if any
        return self.read(len(self.data) - self.at if end < 0 else end + 1)


def loads(data) -> Any:
    """Unpickle what :func:`dumps` made, letting other threads run every 64 KB (see :class:`_Reader`)."""
    with without_gc():  # a full collection amid a million new objects held the lock 0.3 s
        value = pickle.Unpickler(_Reader(data)).load()
        # and the first collection after, of all of them at once, 0.55 s: they join the frozen heap
        # instead, as a stored run does (server/heap.py); Store.put unfreezes and collects on eviction.
        heap.refreeze(collect=False)
    return value


# -- what a parsing process runs (pure: it imports only bpe) -------------------------------------
def tokenizer_from_files(files: dict[str, bytes], pre_tokenizer: str, pattern: str = "cl100k"):
    """A tokenizer.json, a .tiktoken rank file, or a vocab.json with its merges.txt: (tokenizer, the files
    used, a hint to show or None: the tokenizer's own :attr:`~bpe.Tokenizer.notes` included); ValueError
    naming the file and the fix. JSON files are told apart by their structure (:func:`json_kind`), not
    by name or by one key."""
    tok, used, hint = _tokenizer_from_files(files, pre_tokenizer, pattern)
    notes = [n for n in (hint, *getattr(tok, "notes", ())) if n]
    return tok, used, " ".join(notes) or None


def _tokenizer_from_files(files: dict[str, bytes], pre_tokenizer: str, pattern: str):
    ranks = [n for n in files if n.endswith(".tiktoken")]
    if ranks:
        if len(files) > 1:
            others = ", ".join(n for n in files if n != ranks[-1])
            raise ValueError(
                f"{ranks[-1]} is a tiktoken rank file, which is read on its own: remove {others} from the list."
            )
        return _named(ranks[0], formats.from_tiktoken, files[ranks[0]], pattern, name=ranks[0]), ranks[0], None
    jsons, txts = [n for n in files if n.endswith(".json")], [n for n in files if n.endswith(".txt")]
    kinds = {n: json_kind(files[n]) for n in jsons}
    vocabs = [n for n in jsons if kinds[n] == "vocab"]
    if len(txts) > 1:
        raise ValueError(
            f"There are {len(txts)} merges files ({', '.join(txts)}): remove all but the one that "
            "belongs to the vocab.json."
        )
    if txts and vocabs:  # vocab.json + merges.txt, even with a tokenizer.json still in the list
        vocab, merges = vocabs[-1], txts[0]
        tok = _named(f"{vocab} + {merges}", formats.from_vocab_merges, files[vocab], files[merges], pre_tokenizer)
        others = [n for n in jsons if n != vocab]
        hint = (
            f"Using {vocab} + {merges}; remove {', '.join(others)} from the list to tidy up."
            if others
            else formats.vocab_byte_level_hint(files[vocab], pre_tokenizer)
        )
        return tok, f"{vocab} + {merges}", hint
    if txts:
        raise ValueError(
            f"{txts[0]} holds merges without their vocabulary: add the vocab.json that goes with it "
            "(both files together), or upload a tokenizer.json instead."
        )
    full = [n for n in jsons if kinds[n] == "tokenizer"]
    if vocabs and not full:
        raise ValueError(
            f"{vocabs[-1]} is a vocabulary without its merges: add the merges.txt that goes with it "
            "(both files together), or upload a tokenizer.json instead."
        )
    if not full:
        other = next((n for n in jsons if kinds[n] != "vocab"), None)
        if other is not None and kinds[other] == "invalid":  # the reader's own sentence: where and why
            parse_json(decode_text(files[other], f"file {other}"), f"file {other}")
        if other is not None:
            raise ValueError(
                f'{other} is neither a tokenizer.json (an object whose "model" is an object with a "type" '
                'or a "vocab") nor a vocab.json (an object mapping each token to a whole-number id).'
            )
        raise ValueError(
            "Upload one tokenizer.json, one .tiktoken file, or one vocab.json together with its merges.txt."
        )
    tok = _named(full[-1], formats.from_tokenizer_json, files[full[-1]])  # several: the one uploaded last
    others = [n for n in jsons if n != full[-1]]
    hint = (
        (f"Using the last file uploaded, {full[-1]}; remove the others ({', '.join(others)}) from the list to tidy up.")
        if others
        else None
    )
    return tok, full[-1], hint


def _named(about: str, read, *args, **kwargs):
    """``read(*args)``, its ValueError starting with the name of the file it is about."""
    try:
        return read(*args, **kwargs)
    except ValueError as exc:
        message = str(exc)
        if about in message:
            raise
        raise ValueError(f"{about}: {message}") from None


def json_kind(data: bytes) -> str:
    """What a JSON upload is, by its structure, never by one key's presence: ``"tokenizer"`` (an object
    whose ``"model"`` is an object with a ``"type"`` or a ``"vocab"``), ``"vocab"`` (a non-empty object
    mapping every token to an integer id; ``"model"`` is an ordinary token of GPT-2's, id 19849),
    ``"json"`` (anything else) or ``"invalid"`` (not JSON)."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return "invalid"
    if not isinstance(value, dict) or not value:
        return "json"
    model = value.get("model")
    if isinstance(model, dict) and ("type" in model or "vocab" in model):
        return "tokenizer"
    if all(type(v) is int for v in value.values()):
        return "vocab"
    return "json"


def _read_hub(repo_id: str, path: str):
    return hub.read_tokenizer_json(repo_id, path)


READERS = {"files": tokenizer_from_files, "hub": _read_hub}


_RUNNER = CappedRunner(
    PARSERS,
    WAIT_SECONDS,
    Sentences(
        busy="The server has been reading other sessions' files for over {wait:.0f} s: try again in a minute.",
        too_slow="Reading the file took longer than the {seconds:.0f} s limit, so it was stopped: upload a smaller "
        "tokenizer file.",
        too_big="Reading the file needed more than the {memory} of memory one file may use, so it was stopped: "
        "upload a smaller tokenizer file.",
        unexpected="Reading the file failed unexpectedly ({kind}); please report it.",
    ),
)


def _mb(n: float) -> str:
    return f"{n / 2**20:,.0f} MB"


def parse(kind: str, *args, memory: int | None = None, seconds: float | None = None) -> tuple[Any, int]:
    """``READERS[kind](*args)`` run in a process of its own: (its value, the size of its pickle).
    ValueError with one sentence when the file is wrong, or reading it needs more than the memory cap
    or the time limit, or other files keep the reader busy too long."""
    memory = PARSE_MEMORY if memory is None else memory
    seconds = PARSE_SECONDS if seconds is None else seconds
    pickled = _RUNNER.run(READERS[kind], args, memory=memory, seconds=seconds)
    return loads(pickled), len(pickled)


# -- the store shared by every session ----------------------------------------------------------------
class Store:
    """Parsed tokenizers by key within ``budget`` bytes (each entry's size as measured when it arrived);
    the least recently used are set aside first."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.entries: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()
        self.key_locks: dict[str, threading.Lock] = {}

    def get(self, key: str):
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            self.entries.move_to_end(key)
            return entry[0]

    def used(self) -> int:
        with self.lock:
            return sum(size for _, size in self.entries.values())

    def put(self, key: str, value: Any, size: int) -> None:
        """Keep ``value``, setting aside the least recently used entries to make room; evicted ones are
        collected (a tokenizer holds a reference cycle through its word cache, and sits in the frozen heap)."""
        if size > self.budget:
            raise ValueError(
                f"Once read, this tokenizer would take about {_mb(size)} of the server's memory; uploaded "
                f"tokenizers may take {_mb(self.budget)} in all: upload a smaller one."
            )
        evicted = []
        with self.lock:
            self.entries.pop(key, None)
            while self.entries and sum(s for _, s in self.entries.values()) + size > self.budget:
                evicted.append(self.entries.popitem(last=False))
            self.entries[key] = (value, size)
        if evicted:
            heap.watch_evicted([value for _, (value, _) in evicted])  # one a page still showed goes later
            del evicted
            heap.refreeze(collect=True)

    def get_or_parse(self, key: str, kind: str, *args) -> Any:
        """The entry for ``key``, parsed by ``parse(kind, *args)`` if absent (once, however many ask)."""
        value = self.get(key)
        if value is not None:
            return value
        with self.lock:
            key_lock = self.key_locks.setdefault(key, threading.Lock())
        if not key_lock.acquire(timeout=WAIT_SECONDS + PARSE_SECONDS):
            raise ValueError("Another session is reading the same file: try again in a minute.")
        try:
            value = self.get(key)
            if value is None:
                value, pickled = parse(kind, *args)
                self.put(key, value, pickled * HELD_PER_PICKLED_BYTE)
            return value
        finally:
            key_lock.release()
            with self.lock:
                self.key_locks.pop(key, None)


STORE = Store(BUDGET)


def files_key(files: dict[str, bytes], pre_tokenizer: str, pattern: str) -> str:
    """The SHA-256 of an upload: its files' names and contents, and the options it is read with."""
    h = hashlib.sha256()
    for name, data in files.items():
        h.update(hashlib.sha256(name.encode()).digest() + hashlib.sha256(data).digest())
    h.update(f"\0{pre_tokenizer}\0{pattern}".encode())
    return h.hexdigest()


def read_files(files: dict[str, bytes], pre_tokenizer: str, pattern: str = "cl100k") -> tuple[str, Any]:
    """(the store's key, (tokenizer, files used, hint)) for an upload, parsed off the server once."""
    key = files_key(files, pre_tokenizer, pattern)
    return key, STORE.get_or_parse(key, "files", files, pre_tokenizer, pattern)


def rss_bytes() -> int:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
