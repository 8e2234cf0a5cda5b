"""bpe.popular: the pick-list's table and tiktoken's cache, found where tiktoken itself looks.

The oracle for the cache's layout is tiktoken's own reader (``tiktoken.load.read_file_cached``): given a
file we put where ``tiktoken_cache_path`` says, it must return it from the cache (this machine cannot
download, so a wrong place fails)."""

from __future__ import annotations

import hashlib
import inspect
import os
import tempfile

import pytest
import tiktoken.load
from tokenizer_files import rank_file

from bpe import popular

SMALL = rank_file({bytes([b]): b for b in range(256)} | {b"ab": 256}).encode()


@pytest.fixture
def small_cl100k(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    url, _, pattern = popular.TIKTOKEN_FILES["cl100k_base"]
    digest = hashlib.sha256(SMALL).hexdigest()
    monkeypatch.setitem(popular.TIKTOKEN_FILES, "cl100k_base", (url, digest, pattern))
    with open(popular.tiktoken_cache_path("cl100k_base"), "wb") as f:
        f.write(SMALL)
    return url, digest


def test_the_cached_file_is_where_tiktoken_reads_it(small_cl100k):
    url, digest = small_cl100k
    assert tiktoken.load.read_file_cached(url, digest) == SMALL
    assert popular.tiktoken_cached("cl100k_base") == SMALL


def test_a_file_that_is_not_the_published_one_is_ignored(small_cl100k, monkeypatch):
    url, _ = small_cl100k
    monkeypatch.setitem(popular.TIKTOKEN_FILES, "cl100k_base", (url, "0" * 64, "cl100k"))
    assert popular.tiktoken_cached("cl100k_base") is None


def test_missing_or_switched_off_caches_give_none(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    assert popular.tiktoken_cached("o200k_base") is None
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert popular.tiktoken_cache_path("o200k_base") is None and popular.tiktoken_cached("o200k_base") is None


def test_the_cache_directory_follows_tiktoken_s_variables():
    name = hashlib.sha1(popular.TIKTOKEN_FILES["o200k_base"][0].encode()).hexdigest()
    assert popular.tiktoken_cache_path("o200k_base", {"DATA_GYM_CACHE_DIR": "/d"}) == f"/d/{name}"
    assert popular.tiktoken_cache_path("o200k_base", {}) == os.path.join(tempfile.gettempdir(), "data-gym-cache", name)


def test_the_hashes_are_tiktoken_s():
    import tiktoken_ext.openai_public as published

    for encoding, (url, digest, _) in popular.TIKTOKEN_FILES.items():
        constructor = getattr(published, encoding)
        # tiktoken's constructors read the file; its URL and hash are in the constructor's source.
        source = inspect.getsource(constructor)
        assert url in source and digest in source, encoding


def test_every_pick_names_a_hub_repo_and_known_encodings():
    assert [p.label for p in popular.POPULAR] == [
        "GPT-2",
        "GPT-4 (cl100k)",
        "GPT-4o (o200k)",
        "Llama 3",
        "Mistral",
        "Qwen 2.5",
        "Phi-3",
        "Whisper",
        "BERT",
    ]
    for p in popular.POPULAR:
        assert p.repo_id.count("/") == 1 and not p.repo_id.startswith(("meta-llama/", "mistralai/")), p
        assert p.tiktoken is None or p.tiktoken in popular.TIKTOKEN_FILES
