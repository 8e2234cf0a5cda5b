"""Word counts of text files too large to hold in memory: cut into chunks, each counted on its own.

This is the costly part of training on an assignment-size corpus (reading and pre-tokenizing
gigabytes); the merges then run on the counts alone. The steps, as Stanford CS336's assignment 1
handout describes them:

1. :func:`file_chunks` cuts each file into byte ranges of about ``chunk_bytes``. A cut is moved
   forward to the next place where cutting changes no word (:func:`find_chunk_boundaries`): the start
   of a special token (documents never share a word), or, in a long stretch without one, just after a
   line break that follows a printable ASCII character and precedes an ASCII letter (``x\\nThe``):
   every pre-tokenizer ends a word at that line break, so the pieces on either side are cut alike.
2. :func:`count_chunk` reads one range, splits the special tokens out, and counts the words the
   pre-tokenizer cuts (as typed: byte-level schemes map the bytes later, in the trainer). The parts that
   are all ASCII are cut by an equal pattern in the standard library's faster ``re`` (:func:`find_words`).
3. The chunks' counts are added in file and chunk order, so the words keep their first-seen order
   (the ``"first"`` tie rule depends on it): the result equals :func:`bpe.count_words` on the whole text.

:func:`count_files` runs step 2 in worker processes (``multiprocessing``), or on a Dask cluster
(:func:`count_files_dask`: a ``dask.distributed`` client, e.g. a ``LocalCluster``); both give the same
counts. Each chunk also reports the seconds it spent reading, pre-tokenizing and counting.

Left out: special tokens that overlap one another (``"ab"`` and ``"bc"``), and cuts inside a stretch
without a special token when a special token holds a line break (such a stretch is one chunk).
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import add

from .pre_tokenizers import GPT2_PATTERN, check_pre_tokenizer, word_pattern

CHUNK_BYTES = 4 << 20  # at most about 4 MB a chunk: a worker's memory for one chunk stays small
# At least this many chunks a worker when the text allows: the last chunks to finish are then short, so no
# worker idles long at the end waiting for another's (5 chunks on 2 workers would leave one idle a fifth).
CHUNKS_PER_WORKER = 4
MIN_CHUNK_BYTES = 256 << 10  # smaller chunks would cost more in their trip than their counting
SEARCH_BYTES = 1 << 16  # how far a cut looks at a time for its boundary
BOM = b"\xef\xbb\xbf"
# After this byte and before an ASCII letter, a line break ends a word for every pre-tokenizer.
_SAFE_BREAK = re.compile(rb"[!-~]\n(?=[A-Za-z])")

# A pre-tokenizer's pattern (gpt2's, the command line's default) for text that is all ASCII, in the standard
# library's `re`, which finds its words about twice as fast as the `regex` package (the Unicode classes need `regex`). On ASCII text they match alike: \p{L} is
# [A-Za-z], \p{N} is [0-9], and \s is the same six characters in both (tests/engine/test_cli.py checks).
ASCII_PATTERNS = {
    "gpt2": re.compile(
        GPT2_PATTERN.replace(r" ?\p{L}+", " ?[A-Za-z]+")
        .replace(r" ?\p{N}+", " ?[0-9]+")
        .replace(r"\p{L}\p{N}", "A-Za-z0-9"),
        re.ASCII,
    ),
}
BLOCK_CHARS = 1 << 16  # text that is not all ASCII is looked at in blocks of about this many characters
# The same safe line break as _SAFE_BREAK, in text: a block ends just after it.
_SAFE_TEXT_BREAK = re.compile(r"[!-~]\n(?=[A-Za-z])")

Progress = Callable[[int, int], None]  # (bytes counted so far, bytes in all)


@dataclass(frozen=True)
class Chunk:
    """A byte range of one file: ``data[start:end]``."""

    path: str
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class Timings:
    """CPU seconds spent on each part of counting (the counting thread's own: on a busy machine wall time
    would count the waits too), added over the chunks and so over the workers."""

    reading: float = 0.0
    pre_tokenizing: float = 0.0
    counting: float = 0.0
    chunks: int = 0
    bytes: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    def add(self, other: Timings) -> None:
        self.reading += other.reading
        self.pre_tokenizing += other.pre_tokenizing
        self.counting += other.counting
        self.chunks += other.chunks
        self.bytes += other.bytes


def _cut_pattern(special_tokens: Sequence[str]) -> re.Pattern[bytes]:
    """Where a cut may fall: before a special token, or after a safe line break (see the module docstring)."""
    alternatives = [re.escape(t.encode("utf-8")) for t in sorted(special_tokens, key=len, reverse=True)]
    if not any("\n" in t for t in special_tokens):
        alternatives.append(_SAFE_BREAK.pattern)
    return re.compile(b"|".join(alternatives))


def _cut_at(match: re.Match[bytes], special: frozenset[bytes]) -> int:
    """The offset a match cuts at: a special token's start, or just after a safe line break."""
    return match.start() if match.group() in special else match.start() + 2


def find_chunk_boundaries(file, desired_chunks: int, special_tokens: Sequence[str] = ()) -> list[int]:
    """Offsets that cut an open binary file into about ``desired_chunks`` pieces (first 0, last its size).

    Evenly spaced guesses, each moved forward to the next boundary (see the module docstring); guesses
    that end at the same place are merged, so a file with no boundary is one chunk.
    """
    file.seek(0, os.SEEK_END)
    size = file.tell()
    if size == 0:
        return [0]
    desired_chunks = max(1, desired_chunks)
    pattern = _cut_pattern(special_tokens)
    special = frozenset(t.encode("utf-8") for t in special_tokens)
    longest = max((len(t) for t in special), default=0) + 2
    bounds = [0]
    for k in range(1, desired_chunks):
        guess = max(size * k // desired_chunks, bounds[-1] + 1)
        bounds.append(_next_boundary(file, guess, size, pattern, special, longest))
    bounds.append(size)
    return sorted(set(bounds))


def _next_boundary(file, pos: int, size: int, pattern, special: frozenset[bytes], overlap: int) -> int:
    """The first boundary at or after ``pos`` (``size`` if there is none)."""
    while pos < size:
        file.seek(pos)
        window = file.read(SEARCH_BYTES + overlap)
        match = pattern.search(window)
        if match is not None:
            return min(pos + _cut_at(match, special), size)
        pos += SEARCH_BYTES  # the next window overlaps this one, so a boundary across the edge is found
    return size


def file_chunks(
    paths: Iterable[str], special_tokens: Sequence[str] = (), chunk_bytes: int = CHUNK_BYTES, min_chunks: int = 1
) -> list[Chunk]:
    """Every file cut into chunks of about ``chunk_bytes`` at boundaries, in file order; smaller chunks (down
    to :data:`MIN_CHUNK_BYTES`) when that is needed to make at least ``min_chunks`` of them in all."""
    if chunk_bytes < 1:
        raise ValueError(f"The chunk size must be at least 1 byte, not {chunk_bytes}.")
    paths = [os.fspath(path) for path in paths]
    try:
        sizes = [os.path.getsize(path) for path in paths]
    except OSError as exc:
        raise ValueError(f"Cannot read {exc.filename}: {exc.strerror or exc}.") from None
    if min_chunks > 1:
        even_share = max(MIN_CHUNK_BYTES, -(-sum(sizes) // min_chunks))
        chunk_bytes = min(chunk_bytes, even_share)
    chunks = []
    for path, size in zip(paths, sizes):
        try:
            with open(path, "rb") as f:
                bounds = find_chunk_boundaries(f, -(-size // chunk_bytes), special_tokens)
        except OSError as exc:
            raise ValueError(f"Cannot read {path}: {exc.strerror or exc}.") from None
        chunks += [Chunk(path, a, b) for a, b in zip(bounds, bounds[1:])]
    return chunks


def count_chunk(chunk: Chunk, pre_tokenizer: str, special_tokens: Sequence[str] = ()) -> tuple[dict[str, int], Timings]:
    """The word counts of one chunk (words as the pre-tokenizer cuts them, not byte-mapped), in first-seen
    order, and the seconds spent on each part. A ValueError names the file and the first byte that is not UTF-8."""
    pattern = word_pattern(pre_tokenizer)
    t0 = time.thread_time()
    with open(chunk.path, "rb") as f:
        f.seek(chunk.start)
        data = f.read(chunk.size)
    if chunk.start == 0 and data.startswith(BOM):
        data = data[len(BOM) :]  # as a UTF-8 file opened with utf-8-sig
        offset = len(BOM)
    else:
        offset = chunk.start
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{chunk.path} is not UTF-8 text (byte {offset + exc.start:,} cannot be decoded); save it as UTF-8."
        ) from None
    del data
    t1 = time.thread_time()
    if special_tokens:
        split = re.compile("|".join(re.escape(s) for s in sorted(special_tokens, key=len, reverse=True)))
        pieces = split.split(text)
    else:
        pieces = [text]
    del text
    fast = ASCII_PATTERNS.get(pre_tokenizer)
    words = [w for piece in pieces for w in find_words(piece, pattern, fast)]
    del pieces
    t2 = time.thread_time()
    counts = Counter(words)  # counts in C and keeps first-seen order
    t3 = time.thread_time()
    return dict(counts), Timings(t1 - t0, t2 - t1, t3 - t2, 1, chunk.size)


def find_words(text: str, pattern, ascii_pattern=None) -> list[str]:
    """``pattern.findall(text)``, with ``ascii_pattern`` (its equal on ASCII text, or None) on the parts that
    are all ASCII: blocks of about :data:`BLOCK_CHARS` cut at safe line breaks, where cutting changes no word."""
    if ascii_pattern is None:
        return pattern.findall(text)
    if text.isascii():
        return ascii_pattern.findall(text)
    if len(text) <= BLOCK_CHARS:
        return pattern.findall(text)
    words: list[str] = []
    start, end = 0, len(text)
    while start < end:
        cut = _SAFE_TEXT_BREAK.search(text, start + BLOCK_CHARS)
        stop = cut.start() + 2 if cut else end
        block = text[start:stop]
        words += (ascii_pattern if block.isascii() else pattern).findall(block)
        start = stop
    return words


def _count_one(args: tuple[Chunk, str, tuple[str, ...]]) -> tuple[dict[str, int], Timings]:
    return count_chunk(*args)


def add_counts(results: Iterable[tuple[dict[str, int], Timings]], progress: Progress | None, total: int):
    """Add the chunks' counts in the order given (first-seen order across chunks); returns (counts, timings)."""
    counts: dict[str, int] = {}
    timings = Timings()
    merging = 0.0
    for chunk_counts, chunk_timings in results:
        t = time.thread_time()
        # counts[w] += n for each word, in C (Counter.update runs a Python loop over a mapping): dict.update
        # keeps a known word where it is and appends a new one, so words stay in first-seen order.
        get = counts.get
        counts.update(zip(chunk_counts, map(add, chunk_counts.values(), map(get, chunk_counts, repeat(0)))))
        merging += time.thread_time() - t
        timings.add(chunk_timings)
        if progress is not None:
            progress(timings.bytes, total)
    timings.extra["adding chunks"] = merging
    if not counts:
        raise ValueError("The corpus is empty (or only whitespace and special tokens): give files with some text.")
    return counts, timings


def count_files(
    paths: Iterable[str],
    pre_tokenizer: str,
    special_tokens: Sequence[str] = (),
    *,
    workers: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    progress: Progress | None = None,
    start_method: str = "spawn",
) -> tuple[dict[str, int], Timings]:
    """Word counts of the files, counted chunk by chunk in ``workers`` processes (default: one per CPU;
    1: in this process). Equal to :func:`bpe.count_words` on the files' texts split at the special tokens.

    The workers are spawned (a fresh interpreter each), since a caller may hold threads (a Dask client, a web
    server) that forking would copy mid-work; a caller that holds none may pass ``start_method="fork"``, and
    its workers start without importing anything again."""
    check_pre_tokenizer(pre_tokenizer)
    specials = tuple(special_tokens)
    workers = workers or os.cpu_count() or 1
    chunks = file_chunks(paths, specials, chunk_bytes, min_chunks=CHUNKS_PER_WORKER * workers if workers > 1 else 1)
    total = sum(c.size for c in chunks)
    jobs = [(c, pre_tokenizer, specials) for c in chunks]
    workers = min(workers, max(1, len(chunks)))
    if workers == 1:
        return add_counts(map(_count_one, jobs), progress, total)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # An executor, not a multiprocessing.Pool: a worker that dies fails the call (BrokenProcessPool) where a
    # Pool would wait for its result for ever.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(start_method)) as pool:
        try:
            return add_counts(pool.map(_count_one, jobs), progress, total)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def count_files_dask(
    paths: Iterable[str],
    pre_tokenizer: str,
    special_tokens: Sequence[str] = (),
    *,
    client,
    chunk_bytes: int = CHUNK_BYTES,
    progress: Progress | None = None,
) -> tuple[dict[str, int], Timings]:
    """:func:`count_files` with the chunks counted on a ``dask.distributed`` cluster through ``client``.

    Each worker reads its chunks from the files itself, so every worker must see the files at the same
    paths (one machine, or a shared file system). Results are added in chunk order as they arrive."""
    from dask.distributed import as_completed

    check_pre_tokenizer(pre_tokenizer)
    specials = tuple(special_tokens)
    threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
    chunks = file_chunks(paths, specials, chunk_bytes, min_chunks=CHUNKS_PER_WORKER * max(1, threads))
    total = sum(c.size for c in chunks)
    futures = client.map(count_chunk, chunks, pre_tokenizer=pre_tokenizer, special_tokens=specials, pure=False)
    return add_counts(_in_order(futures, as_completed), progress, total)


def _in_order(futures: list, as_completed) -> Iterator:
    """Each future's result in list order, taken as soon as it and all before it are done (a finished
    result is released from the cluster once read)."""
    index = {f.key: i for i, f in enumerate(futures)}
    done: dict[int, object] = {}
    following = 0
    for future in as_completed(futures):
        done[index[future.key]] = future.result()
        future.release()
        while following in done:
            yield done.pop(following)
            following += 1
