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


def _whole_text_bytes(text: str, n: int) -> list[tuple[bytes, bytes]]:
    """A trainer with no pre-tokenizer: the text one byte sequence, the first-seen pair of greatest count."""
    ids, merges = [bytes([b]) for b in text.encode("utf-8")], []
    for _ in range(n):
        counts: dict[tuple[bytes, bytes], int] = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        merges.append(best)
        out, i = [], 0
        while i < len(ids):
            if ids[i : i + 2] == list(best):
                out.append(best[0] + best[1])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return merges


def test_a_family_names_its_byte_base():
    """Set S's no-pre-tokenizer families: over bytes they are the whole-text byte trainer; over characters a
    multi-byte character is one symbol from the start."""
    assert q.setup_of("none-bytes")[0].byte_base and not q.setup_of("none-chars")[0].byte_base
    assert q.setup_of("hf")[0].byte_base  # a family of three elements keeps the page's rule (bytes for gpt2)
    for name, text in q.CORPORA.items():
        assert q.reference("none-bytes", text, q.MERGES[name]) == _whole_text_bytes(text, q.MERGES[name])
    chars = q.reference("none-chars", q.CORPORA["bytes"], q.MERGES["bytes"])
    assert chars != q.reference("none-bytes", q.CORPORA["bytes"], q.MERGES["bytes"])
    assert all(len(tok.decode("utf-8")) >= 1 for pair in chars for tok in pair)  # whole characters only


SUBWORD_NMT = """
FAMILY = "sennrich-greatest-eow"


def train(text, path, num_merges):
    words = {}
    for w in text.split():
        symbols = tuple(w[:-1]) + (w[-1] + "</w>",)  # subword-nmt: the last character carries the end of word
        words[symbols] = words.get(symbols, 0) + 1
    merges = []
    for _ in range(num_merges):
        counts = {}
        for w, c in words.items():
            for pair in zip(w, w[1:]):
                counts[pair] = counts.get(pair, 0) + c
        best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
        merges.append(best)
        new = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if w[i : i + 2] == best:
                    out.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + c
        words = new
    return merges
"""


def test_subword_nmt_codes_are_compared_with_our_run_on_such_words(tmp_path):
    (tmp_path / "owner").mkdir()
    (tmp_path / "owner" / "adapter.py").write_text(SUBWORD_NMT)
    rows = q.record(tmp_path, set())
    assert {r["format"] for r in rows} == {"subword-nmt codes"}
    assert [r["differs"] for r in rows] == [False, False, False]
