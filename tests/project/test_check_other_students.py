"""Set Q's harness pastes a student's merges as the Check page reads them and decides "differs" by our own run."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import check_other_students as q  # noqa: E402

# Sennrich et al.'s snippet on the handout: our run with the sennrich pre-tokenizer and the first tie rule
HANDOUT_SNIPPET = [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("n", "e"), ("ne", "w"),
                   ("new", "est</w>"), ("low", "</w>"), ("w", "i")]  # fmt: skip

ADAPTER = """
FAMILY = "sennrich"


def train(text, path, num_merges):
    if text.startswith("low low"):
        return {merges!r}[:num_merges]
    return [(" ", "t")]  # a token holding whitespace
"""


def _owner(tmp_path: Path, merges) -> Path:
    (tmp_path / "owner").mkdir()
    (tmp_path / "owner" / "adapter.py").write_text(ADAPTER.format(merges=merges))
    return tmp_path


def test_runs_are_pasted_as_lines_or_a_list_and_compared_with_our_run(tmp_path):
    rows = {r["corpus"]: r for r in q.record(_owner(tmp_path, HANDOUT_SNIPPET), set())}
    assert rows["handout"]["pasted"] == "\n".join(f"{a} {b}" for a, b in HANDOUT_SNIPPET)
    assert rows["handout"]["differs"] is False
    assert rows["prose"]["pasted"] == "[(' ', 't')]"  # 'a b' lines cannot hold a space
    assert rows["prose"]["differs"] is True and rows["prose"]["first_difference"] == 1


def test_a_run_one_merge_off_differs_at_that_step(tmp_path):
    wrong = HANDOUT_SNIPPET[:3] + [("o", "w")] + HANDOUT_SNIPPET[4:]
    rows = {r["corpus"]: r for r in q.record(_owner(tmp_path, wrong), set())}
    assert rows["handout"]["differs"] is True and rows["handout"]["first_difference"] == 4


def test_the_snippets_run_is_told_same(tmp_path):
    rows = [r for r in q.record(_owner(tmp_path, HANDOUT_SNIPPET), set()) if r["corpus"] == "handout"]
    assert q.check(rows)[0]["kind"] == "same"
