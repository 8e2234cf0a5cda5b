"""Saved run files kept on disk by their digest (server/run_files.py): read back as written, kept once, the least
recently used going first past the budget, and nothing read for a name that is not a digest."""

from __future__ import annotations

import hashlib
import os

import pytest

from server import run_files


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_file_is_read_back_as_written_and_kept_once():
    data = b"bpe run \x00\xff" * 1000
    digest = run_files.keep(data)
    assert digest == hashlib.sha256(data).hexdigest() and run_files.read(digest) == data
    assert run_files.keep(data) == digest and len(list(run_files.folder().iterdir())) == 1


def test_past_the_budget_the_least_recently_used_go_first():
    old, used, new = (bytes([k]) * 1000 for k in range(3))
    keys = [run_files.keep(old), run_files.keep(used)]
    for k, path in enumerate(sorted(run_files.folder().glob("*.bpe"), key=lambda p: keys.index(p.stem))):
        os.utime(path, (1_000 + k, 1_000 + k))  # old, then used, in the past
    assert run_files.read(keys[1]) == used  # reading marks it used now
    run_files.keep(new, budget=2_000)
    assert run_files.read(keys[0]) is None and run_files.read(keys[1]) == used
    assert run_files.read(hashlib.sha256(new).hexdigest()) == new


@pytest.mark.parametrize("name", ["../../etc/passwd", "0" * 63, "A" * 64, ""])
def test_a_name_that_is_not_a_digest_reads_nothing(name):
    assert run_files.read(name) is None
