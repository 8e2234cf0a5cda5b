"""bpe.corpora: size bounds, determinism, encoding and order of the English corpus."""

from __future__ import annotations

import ast
import hashlib
import os
import pydoc_data.topics
import subprocess
import sys
from pathlib import Path

import pytest

from bpe.corpora import _docstrings, available_bytes, corpus_lines, english_corpus

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("n_bytes", [100_000, 1_000_000])
def test_size_is_within_bounds(n_bytes: int) -> None:
    size = len(english_corpus(n_bytes).encode("utf-8"))
    assert 0.95 * n_bytes <= size <= n_bytes


@pytest.mark.parametrize("n_bytes", [1, 2, 3, 7, 20, 100, 1_000])
def test_tiny_requests_stay_within_bounds(n_bytes: int) -> None:
    size = len(english_corpus(n_bytes).encode("utf-8"))
    assert min(0.95 * n_bytes, n_bytes - 3) <= size <= n_bytes


def test_repeats_beyond_the_base_text() -> None:
    base = available_bytes()
    n_bytes = 2 * base + 1_000
    text = english_corpus(n_bytes)
    size = len(text.encode("utf-8"))
    assert 0.95 * n_bytes <= size <= n_bytes
    # The second copy starts right after the first one and a blank line.
    first = english_corpus(base)
    assert len(first.encode("utf-8")) == base
    assert text.startswith(first + "\n\n" + first[:1_000])


def test_is_valid_utf8_and_never_splits_a_character() -> None:
    # Topics are ASCII-heavy; this size reaches docstrings with non-ASCII text.
    for n_bytes in (1_000_000, 1_000_001, 1_000_002, 1_000_003):
        data = english_corpus(n_bytes).encode("utf-8")
        data.decode("utf-8", errors="strict")
    assert any(ord(ch) > 127 for ch in english_corpus(1_000_000))


def test_starts_with_the_first_pydoc_topic() -> None:
    topics = pydoc_data.topics.topics
    first = topics[sorted(topics)[0]]
    assert english_corpus(100_000).startswith(first[:500])
    # and the second topic follows after a blank line
    second = topics[sorted(topics)[1]]
    assert english_corpus(100_000).startswith(first + "\n\n" + second[:200])


def test_prefixes_agree() -> None:
    # A shorter corpus is a prefix of a longer one: the cut only trims the end.
    long = english_corpus(1_000_000)
    for n_bytes in (10, 5_000, 123_456, 700_000):
        assert long.startswith(english_corpus(n_bytes))


def test_same_sha256_in_separate_processes() -> None:
    # Different hash seeds: nothing may depend on set or dict hashing order.
    # 3 MB covers every stdlib file and the repetition step.
    code = (
        "import hashlib; from bpe.corpora import english_corpus; "
        "print(hashlib.sha256(english_corpus(3_000_000).encode('utf-8')).hexdigest())"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in ("0", "4242")
    ]
    digests = []
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        digests.append(out.strip())
    assert len(digests[0]) == 64
    assert digests[0] == digests[1]
    expected = hashlib.sha256(english_corpus(3_000_000).encode("utf-8")).hexdigest()
    assert digests[0] == expected


@pytest.mark.parametrize("n_bytes", [0, -1, -1_000_000])
def test_rejects_non_positive_sizes(n_bytes: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        english_corpus(n_bytes)
    with pytest.raises(ValueError, match="positive"):
        corpus_lines(n_bytes)


def test_corpus_lines_are_the_non_blank_lines() -> None:
    text = english_corpus(50_000)
    lines = corpus_lines(50_000)
    assert lines and all(line.strip() for line in lines)
    assert "\n".join(lines) == "\n".join(line for line in text.split("\n") if line.strip())


def test_docstrings_in_source_order_including_nested_blocks() -> None:
    source = b'''"""mod"""
class A:
    """A"""
    def f(self):
        """A.f"""
        def inner():
            """inner"""
try:
    def g():
        """g"""
except ImportError:
    def h():
        """h"""
else:
    pass
finally:
    async def k():
        """k"""
match x:
    case 1:
        class B:
            """B"""
def no_doc():
    return lambda: None
'''
    docs = _docstrings(source)
    assert docs == ["mod", "A", "A.f", "inner", "g", "h", "k", "B"]
    # Same set as a full ast.walk: walking statements only misses nothing.
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    every = [ast.get_docstring(n) for n in ast.walk(ast.parse(source)) if isinstance(n, nodes)]
    assert sorted(docs) == sorted(d for d in every if d)
