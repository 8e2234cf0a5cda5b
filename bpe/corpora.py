"""Real English text for training demos, built from what ships with CPython.

No download, no data file in the repo: the corpus is assembled on demand from
prose that every Python install already has. In this order:

1. The values of ``pydoc_data.topics.topics`` (the language-reference prose
   that ``help("assert")`` prints), in sorted key order.
2. The docstrings (module, class, function) of the standard-library ``.py``
   files under the directory of the ``os`` module (the same directory as
   ``sysconfig.get_paths()["stdlib"]``), in sorted relative-path order, each
   file's docstrings in source order. Sources are read with ``ast.parse`` and
   never imported: importing would run module code, be slow, and could print or
   fail on some platforms.

Pieces are joined with a blank line ("\\n\\n"). A request larger than that base
text gets the whole sequence repeated (copies joined by a blank line too), so
very large corpora contain duplicated text: pair counts scale up uniformly but
no new vocabulary appears. Use :func:`available_bytes` to see where that starts
(2,112,963 bytes on CPython 3.11.7).

Cost: the text is built lazily and cached per process. Requests covered by the
pydoc topics (about 0.47 MB) are instant; beyond that, stdlib files are parsed
in order, and parsing all of them (about 11 MB of source) is what the first
request past the base text pays, a few seconds on a slow machine.

Left out, on purpose:

- ``test``/``tests``/``idlelib``/``site-packages``/``lib2to3`` directories:
  test docstrings are repetitive boilerplate, idlelib and lib2to3 are tools
  rather than library prose, and site-packages differs between installs.
- Files that fail to decode or parse (a few deliberately broken fixtures), and
  docstrings that are not valid UTF-8 (lone surrogates written as escapes), so
  the result always encodes cleanly.
- Code and comments: only prose is wanted.

The text is identical across runs on the same Python version (sorted
traversal, nothing depends on set or hash order). Other Python versions ship
other docs, so the corpus, and anything trained on it, differs between them.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

# Directory names whose contents are never read (the module docstring says why).
_SKIP_DIRS: frozenset[str] = frozenset({"test", "tests", "idlelib", "site-packages", "lib2to3"})

# Between pieces, and between repetitions of the whole sequence.
_SEP = b"\n\n"

# The node types ast.get_docstring accepts; anything else raises TypeError.
_DOCSTRING_NODES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
# The nodes that make up statement blocks (try/except handlers and match cases
# hold statements too); every def or class is reachable through these alone.
_BLOCK_NODES = (ast.stmt, ast.excepthandler, ast.match_case)

# Errors that mean "this one file is unusable", always the same way for the same
# file, so skipping it keeps the corpus deterministic.
_BAD_FILE_ERRORS = (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError)


def _stdlib_dir() -> Path:
    # The directory holding os.py is the stdlib directory; asking the module
    # that is always imported avoids trusting sysconfig in unusual venv layouts.
    return Path(os.__file__).resolve().parent


def _stdlib_sources() -> list[Path]:
    """Every stdlib .py file outside the skipped directories, sorted by relative path."""
    root = _stdlib_dir()
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        # Pruning in place stops os.walk from descending into skipped trees
        # at all (site-packages alone can dwarf the stdlib).
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS]
        for name in filenames:
            if name.endswith(".py"):
                path = Path(dirpath) / name
                found.append((path.relative_to(root).as_posix(), path))
    # Sort on the posix relative path: independent of the filesystem's listing
    # order and of the OS path separator.
    found.sort(key=lambda item: item[0])
    return [path for _, path in found]


def _docstrings(source: bytes) -> list[str]:
    """Docstrings of a module and of every class/function in it, in source order."""
    # ast.parse on bytes honours PEP 263 coding cookies, so no encoding guessing.
    tree = ast.parse(source)
    out: list[str] = []
    # Depth-first in field order (= source order) rather than ast.walk's
    # breadth-first order, so a class docstring is followed by its methods'.
    # Only statement lists are followed: a def or class can never sit inside an
    # expression, and skipping the expressions visits ~7x fewer nodes.
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _DOCSTRING_NODES):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                out.append(doc)
        children: list[ast.AST] = []
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                children.extend(child for child in value if isinstance(child, _BLOCK_NODES))
        stack.extend(reversed(children))
    return out


def _iter_pieces() -> Iterator[bytes]:
    """Every piece of the base text, UTF-8 encoded, in corpus order."""
    import pydoc_data.topics  # a plain dict of strings: cheap and side-effect free

    topics: dict[str, str] = pydoc_data.topics.topics
    texts: Iterator[str] = (topics[key] for key in sorted(topics))
    yield from _encoded(texts)
    # Listing and parsing files only starts once the topics are used up, so
    # small requests never touch the filesystem.
    for path in _stdlib_sources():
        try:
            docs = _docstrings(path.read_bytes())
        except _BAD_FILE_ERRORS:
            continue
        yield from _encoded(iter(docs))


def _encoded(texts: Iterator[str]) -> Iterator[bytes]:
    for text in texts:
        if not text.strip():
            continue  # blank pieces would only stack up blank lines
        try:
            yield text.encode("utf-8")
        except UnicodeEncodeError:
            # Lone surrogates are valid in str but not in UTF-8; dropping the
            # whole piece keeps the corpus valid text for byte-level BPE.
            continue


class _BaseText:
    """The base text (before repetition), grown only as far as callers need.

    Parsing the whole stdlib takes seconds, but a 100 kB request is covered by
    the pydoc topics alone, so pieces are pulled from the generator lazily and
    kept for the life of the process. Because the order is fixed, a prefix
    built now is the same as the prefix of the fully built text.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # Streamlit runs sessions in threads
        self._pieces = _iter_pieces()
        self._buf = bytearray()
        self._complete = False

    def prefix(self, n_bytes: int) -> tuple[bytes, bool]:
        """At least n_bytes of the base text if it has that many (else all of it),
        and whether that is the complete base text."""
        with self._lock:
            while not self._complete and len(self._buf) < n_bytes:
                piece = next(self._pieces, None)
                if piece is None:
                    self._complete = True
                    break
                if self._buf:
                    self._buf += _SEP
                self._buf += piece
            return bytes(self._buf), self._complete


@functools.lru_cache(maxsize=1)
def _base_text() -> _BaseText:
    # One per process: building reads hundreds of files.
    return _BaseText()


def _grow(n_bytes: int) -> tuple[bytes, bool]:
    try:
        return _base_text().prefix(n_bytes)
    except BaseException:
        # An unexpected failure (MemoryError, KeyboardInterrupt) leaves the
        # generator dead; a fresh builder next time beats a silently short corpus.
        _base_text.cache_clear()
        raise


def available_bytes() -> int:
    """Size in UTF-8 bytes of the base text, i.e. where repetition starts."""
    data, _ = _grow(sys.maxsize)  # more than any base text: grows until complete
    return len(data)


def english_corpus(n_bytes: int) -> str:
    """Return at most n_bytes UTF-8 bytes of English text (sources: module docstring).

    The cut is at the last paragraph break that fits, else the last line break,
    else the last character boundary, so no UTF-8 character is split. A break
    only counts if it keeps at least 95% of n_bytes, so small requests are not
    cut back to a single short paragraph: the result is always at least
    min(0.95 * n_bytes, n_bytes - 3) bytes. Beyond :func:`available_bytes`, the
    base text is repeated as often as needed.
    """
    if not isinstance(n_bytes, int) or isinstance(n_bytes, bool):
        raise TypeError(f"n_bytes must be an int, got {type(n_bytes).__name__}.")
    if n_bytes <= 0:
        raise ValueError(f"n_bytes must be a positive number of bytes, got {n_bytes}.")
    # Two bytes of slack let the search below see a paragraph break that starts
    # exactly at the limit (the text before it is then exactly n_bytes long).
    want = n_bytes + len(_SEP)
    data, complete = _grow(want)
    if complete and len(data) < want:
        # c copies joined by _SEP are c * (len + len(_SEP)) - len(_SEP) bytes.
        copies = -(-(want + len(_SEP)) // (len(data) + len(_SEP)))  # ceiling division
        data = _SEP.join([data] * copies)
    if len(data) <= n_bytes:
        return data.decode("utf-8")

    keep_at_least = n_bytes - n_bytes // 20
    cut = data.rfind(b"\n\n", 0, n_bytes + 2)
    if cut < keep_at_least:
        cut = data.rfind(b"\n", 0, n_bytes + 1)
    if cut < keep_at_least or cut <= 0:
        # No usable break: step back over UTF-8 continuation bytes (0b10xxxxxx)
        # so the cut lands on the first byte of a character.
        cut = n_bytes
        while cut > 0 and (data[cut] & 0xC0) == 0x80:
            cut -= 1
    # "\n" is ASCII and never inside a multi-byte sequence, so every cut above
    # is a character boundary and strict decoding cannot fail.
    return data[:cut].decode("utf-8")


def corpus_lines(n_bytes: int) -> list[str]:
    """The non-blank lines of english_corpus(n_bytes), for trainers fed line by line."""
    # split("\n") rather than splitlines(): splitlines also breaks on form feeds
    # and other rare separators found in docstrings, which would make the lines
    # disagree with what a reader sees in the text.
    return [line for line in english_corpus(n_bytes).split("\n") if line.strip()]
