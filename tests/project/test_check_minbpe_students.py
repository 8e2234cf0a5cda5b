"""The minbpe students' benchmark runs a student's tokenizer as written and records the .model they would upload."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import check_minbpe_students as harness  # noqa: E402

# a minbpe-shaped package written for this test: minbpe's loop (the whole text one sequence, the first-seen tie)
BASE = """
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
"""
BASIC = """
import regex  # the regex package, not the student's own minbpe/regex.py beside this file

from .base import get_stats, merge


class BasicTokenizer:
    def train(self, text, vocab_size, verbose=False):
        ids, self.merges = list(text.encode("utf-8")), {}
        for i in range(vocab_size - 256):
            stats = get_stats(ids)
            pair = max(stats, key=stats.get)
            ids = merge(ids, pair, 256 + i)
            self.merges[pair] = 256 + i
"""
OWN_REGEX = "raise ImportError('the student regex.py was imported in place of the regex package')\n"
# merges kept as {new id: (id, id)} under another name, and a train that returns nothing
INVERTED = """
from minbpe.base import get_stats, merge


class Tokenizer:
    def train(self, text, vocab_size):
        ids, self._vocab = list(text.encode("utf-8")), {}
        for i in range(vocab_size - 256):
            stats = get_stats(ids)
            pair = max(stats, key=stats.get)
            ids = merge(ids, pair, 256 + i)
            self._vocab[256 + i] = pair
"""


def student(tmp_path: Path, trainers: list[dict]) -> Path:
    folder = tmp_path / "students" / "owner"
    files = {"minbpe/__init__.py": "", "minbpe/base.py": BASE, "minbpe/basic.py": BASIC, "minbpe/regex.py": OWN_REGEX,
             "mine.py": INVERTED, "p_trainers.json": json.dumps(trainers)}  # fmt: skip
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder.parent


def test_a_package_with_its_own_regex_module_runs_and_its_merges_equal_minbpe(tmp_path):
    folder = student(tmp_path, [{"kind": "basic", "file": "minbpe/basic.py", "class": "BasicTokenizer"}])
    rows = harness.record(folder, set())
    assert [r.get("why") for r in rows] == [None] * 3
    assert [(r["corpus"], r["differs"], r["source"]) for r in rows] == [
        ("handout", False, "merges"), ("prose", False, "merges"), ("bytes", False, "merges")]  # fmt: skip
    assert [r["merges"] for r in rows] == [n - 256 for n in harness.VOCAB.values()]


def test_merges_kept_as_new_id_to_pair_under_another_name_are_found_and_checked_same(tmp_path):
    folder = student(tmp_path, [{"kind": "basic", "file": "mine.py", "class": "Tokenizer"}])
    rows = harness.record(folder, set())
    assert [r["differs"] for r in rows] == [False] * 3
    assert harness.check(rows[0])["verdict"] == "same"
