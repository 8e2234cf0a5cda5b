"""One budget per request: a file's normaliser may not grow the text without
bound, and its regexes share one deadline per encode, not one per word. Each hostile file runs in a
child interpreter with a memory cap and a time limit, so a regression cannot take the machine down; what
the child allocated shows whether the limit was checked before the text was built, and a stand-in clock
shows the deadline is shared, so no assertion depends on how busy the machine is."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bpe import budget, formats

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP = 2 * 1024**3  # address space of the child interpreter
TIME_LIMIT = 60  # seconds for the child (without the growth limit the Replace file takes half a minute and gigabytes)


def hostile_json(normalizer: dict, pre_tokenizer: dict | None = None, pad_to: int = 20_000) -> str:
    """A small BPE tokenizer.json (about ``pad_to`` bytes) with the given normaliser."""
    vocab = {chr(c): i for i, c in enumerate(range(32, 127))}
    vocab["[UNK]"] = len(vocab)
    n = len(vocab)
    while len(json.dumps(vocab)) < pad_to - 2_000:
        vocab[f"tok{n}"] = n
        n += 1
    data = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "BPE", "unk_token": "[UNK]", "vocab": vocab, "merges": []},
    }
    return json.dumps(data)


REPLACE_EMPTY = {"type": "Replace", "pattern": {"Regex": ""}, "content": "x" * 1000}
PREPEND_1MB = {"type": "Prepend", "prepend": "x" * 1_000_000}

# ``peak``: the most memory Python held at once during the encode, beyond what it held before.
CHILD = """
import json, sys, tracemalloc
from bpe import formats
tok = formats.from_tokenizer_json(open(sys.argv[1]).read())
text = sys.argv[2] * int(sys.argv[3])
tracemalloc.start()
try:
    enc = tok.encode_full(text)
    result = {"tokens": len(enc.ids)}
except ValueError as exc:
    result = {"error": str(exc)}
print(json.dumps({**result, "peak": tracemalloc.get_traced_memory()[1]}))
"""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def encode_in_child(tmp_path: Path, file_text: str, unit: str, times: int) -> dict:
    path = tmp_path / "tokenizer.json"
    path.write_text(file_text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), unit, str(times)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        cwd=ROOT,
        preexec_fn=_capped,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(TIME_LIMIT + 30)
def test_a_replace_of_the_empty_pattern_is_stopped_by_the_growth_limit(tmp_path):
    text = hostile_json(REPLACE_EMPTY)
    assert 18_000 < len(text) < 22_000
    result = encode_in_child(tmp_path, text, "abcdef", 1_000)  # 6,000 characters
    assert result.get("error", "").startswith(
        "This tokenizer's Replace normalizer would turn 6,000 characters into 6,007,000 "
        "(more than 8 times the text): BPE Explorer stops there."
    ), result
    # Checked before the text is built: the 6,007,000 characters (half a minute and gigabytes with their
    # offsets) would take at least a byte each.
    assert result["peak"] < 6_007_000


@pytest.mark.timeout(TIME_LIMIT + 30)
def test_a_megabyte_prepend_is_stopped_by_the_growth_limit(tmp_path):
    result = encode_in_child(tmp_path, hostile_json(PREPEND_1MB), "ab ", 2_000)
    assert "Prepend normalizer would turn 6,000 characters into 1,006,000" in result.get("error", ""), result
    assert result["peak"] < 1_006_000  # checked before the text is built, as above


def test_the_growth_is_counted_over_the_whole_request_not_per_stretch():
    """Added tokens cut the text into stretches normalised one by one: the allowance is shared."""
    data = json.loads(hostile_json({"type": "Prepend", "prepend": "y" * 1_500}))
    data["added_tokens"] = [
        {"id": 0, "content": "!", "single_word": False, "lstrip": False, "rstrip": False, "normalized": False}
    ]
    tok = formats.from_tokenizer_json(json.dumps(data))
    assert len(tok.encode_full("ab!cd").ids) == 2 * 1_502 + 1  # 3,005 characters: within 8 x 5 + 4,096
    # each stretch alone would pass (2 -> 1,502), the three together do not (8 -> 4,508 > 4,160)
    with pytest.raises(ValueError, match="Prepend normalizer would turn 8 characters into 4,508 "):
        tok.encode_full("ab!cd!ef")


@pytest.mark.parametrize(
    "normalizer, text",
    [
        ({"type": "NFKD"}, "\ufdfa" * 200 + "word " * 2_000),  # U+FDFA: 18 characters under NFKD
        ({"type": "NFKC"}, "\ufdfa \ufb03 " * 150),
        ({"type": "BertNormalizer"}, "中文字符" * 5_000),  # each CJK character spaced: 3 times
        ({"type": "NFD"}, "한국어 " * 5_000),  # Hangul syllables: 3 jamo (or 2)
    ],
)
def test_legitimate_normalizers_stay_within_the_allowance(normalizer, text):
    tok = formats.from_tokenizer_json(hostile_json(normalizer, pad_to=5_000))
    assert tok.encode_full(text).ids


# -- one deadline per encode, not per word ----------------------------------------------------------
BACKTRACKING = {"type": "Split", "pattern": {"Regex": "(a|aa)+c"}, "behavior": "Isolated", "invert": False}


class StandInClock:
    """``time`` for :mod:`bpe.budget`: it moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def record_regex_timeouts(monkeypatch, after_each=None) -> list[float]:
    """The timeout each regex call of a file's pattern is given, in order; ``after_each()`` runs after each."""
    granted, given = [], budget.regex_timeout

    def recorded() -> float:
        granted.append(given())
        if after_each:
            after_each()
        return granted[-1]

    monkeypatch.setattr(budget, "regex_timeout", recorded)
    return granted


@pytest.mark.timeout(120)
def test_a_backtracking_split_pattern_shares_one_deadline_per_encode(monkeypatch):
    pre = {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, BACKTRACKING]}
    tok = formats.from_tokenizer_json(hostile_json(None, pre, pad_to=5_000))
    monkeypatch.setattr(budget, "SECONDS", 0.5)
    granted = record_regex_timeouts(monkeypatch)
    text = " ".join(["a" * 26] * 20)  # each word alone takes seconds to fail (Fibonacci backtracking)
    with pytest.raises(ValueError, match=r"ran longer than 0\.5 seconds on this text \(the limit for one request\)"):
        tok.encode_full(text)
    # No call was given more than the request's 0.5 s, and the stop came before the regex reached every word.
    assert granted and max(granted) <= 0.5 and len(granted) < 20

    # The same file on words its pattern cuts at once, with a clock that moves 0.2 s whenever a regex
    # starts: the words share one 0.5 s, so the fourth finds it spent (a deadline per word would give
    # each of the 20 words a fresh 0.5 s, and the encode would finish).
    clock = StandInClock()
    monkeypatch.setattr(budget, "time", types.SimpleNamespace(monotonic=clock.monotonic))

    def regex_runs() -> None:
        clock.now += 0.2

    granted = record_regex_timeouts(monkeypatch, after_each=regex_runs)
    with pytest.raises(ValueError, match=r"ran longer than 0\.5 seconds on this text \(the limit for one request\)"):
        tok.encode_full(" ".join(["aac"] * 20))
    assert granted == pytest.approx([0.5, 0.3, 0.1])
