"""A model's tokenizer.json by Hub name, tested offline against a cache laid out as
huggingface_hub lays it out (models--org--name/snapshots/<rev>/tokenizer.json and refs/main).
Nothing is downloaded: each case runs in a fresh interpreter with HF_HUB_OFFLINE=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hub_server import lay_out_cache

import bpe

ROOT = Path(__file__).resolve().parents[2]


def run_offline(cache: Path, repo_id: str) -> dict:
    code = (
        "import json, sys, bpe.hub\n"
        "try:\n"
        "    tok = bpe.hub.from_hub(sys.argv[1])\n"
        "    print(json.dumps({'tokens': tok.tokenize('This is not a token.'), 'size': tok.vocab_size}))\n"
        "except ValueError as exc:\n"
        "    print(json.dumps({'error': str(exc)}))\n"
    )
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_HUB_CACHE": str(cache),
        "HF_HOME": str(cache / "home"),
        "PYTHONPATH": str(ROOT),
    }
    out = subprocess.run(
        [sys.executable, "-c", code, repo_id], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def gpt2_text() -> str:
    tok = bpe.train(["This is not a token. This is the course."] * 5, pre_tokenizer="gpt2", num_merges=30)
    return bpe.to_tokenizer_json(tok)


def test_a_cached_model_loads_offline(tmp_path, gpt2_text):
    lay_out_cache(tmp_path, "openai-community/gpt2", gpt2_text)
    result = run_offline(tmp_path, "openai-community/gpt2")
    assert result.get("tokens") == bpe.from_tokenizer_json(gpt2_text).tokenize("This is not a token.")


def test_offline_and_not_cached_says_so(tmp_path, gpt2_text):
    lay_out_cache(tmp_path, "openai-community/gpt2", gpt2_text)
    result = run_offline(tmp_path, "Xenova/gpt-4o")
    assert "not in this machine's Hugging Face cache" in result["error"]
    assert "HF_HUB_OFFLINE" in result["error"]


@pytest.mark.parametrize("name", ["", "gpt2 with spaces", "../../etc/passwd", "a/b/c", "x" * 300])
def test_bad_names_are_refused_before_any_download(name):
    with pytest.raises(ValueError, match="not a Hub model name"):
        bpe.hub.tokenizer_json_path(name)


def test_a_cached_file_that_is_not_a_tokenizer_says_which_model(tmp_path):
    lay_out_cache(tmp_path, "someone/broken", json.dumps({"model": {"type": "Unigram", "vocab": []}}))
    result = run_offline(tmp_path, "someone/broken")
    assert result["error"].startswith("someone/broken's tokenizer.json: ") and "Unigram" in result["error"]


def test_an_unreachable_hub_reads_the_cache_at_once(tmp_path, gpt2_text, monkeypatch):
    """Not offline by setting, but no network: one quick connection attempt, then the cache only (without
    it huggingface_hub retried for ~23 s before saying anything)."""
    import threading
    import time

    from huggingface_hub import constants

    lay_out_cache(tmp_path, "openai-community/gpt2", gpt2_text)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    tried, waited, here, sleep = [], [], threading.get_ident(), time.sleep

    def refused(address, timeout=None):
        tried.append(timeout)
        raise OSError("network is unreachable")

    def no_sleep(seconds):  # huggingface_hub waits between its retries: recorded here, not waited
        if threading.get_ident() != here:
            return sleep(seconds)
        waited.append(seconds)

    monkeypatch.setattr(bpe.hub.socket, "create_connection", refused)
    monkeypatch.setattr(time, "sleep", no_sleep)
    tok = bpe.hub.from_hub("openai-community/gpt2", cache_dir=str(tmp_path))
    assert tok.tokenize("This is not a token.") == bpe.from_tokenizer_json(gpt2_text).tokenize("This is not a token.")
    with pytest.raises(ValueError, match="Could not reach the Hugging Face Hub"):
        bpe.hub.from_hub("Xenova/gpt-4o", cache_dir=str(tmp_path))
    # One quick attempt per name (a few seconds at most), and no retry waited for.
    assert len(tried) == 2 and all(t is not None and t <= 3 for t in tried) and waited == []
