"""A merge that works from each word's end (bpe.occurrence_order): tests/faulty_trainers.py's right-to-left merge, alone
and with the file read line by line (xieweibbz's trainer), named with its step on the three corpora."""

from __future__ import annotations

import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, EOT, RIGHT_TO_LEFT, train

from bpe import check_work
from bpe.check_setup import CS336_SETUP
from bpe.occurrence_order import merge_from_end, merge_from_start, right_to_left_read

MERGES = {"handout": 12, "prose": 190, "bytes": 80}


@pytest.mark.parametrize("fault", [RIGHT_TO_LEFT, f"lines+{RIGHT_TO_LEFT}"])
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_from_the_word_s_end_is_named_with_its_step(corpus, fault):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no word holds a run of three of a merged symbol: the order changes nothing
        assert result.kind == "same"
        return
    reader = fault != RIGHT_TO_LEFT and train(text, n, "lines")[1] != train(text, n)[1]  # both faults tell
    assert (result.kind, result.fault, result.step) == ("merge-loop", "right-to-left", step), result.cause
    assert "occurrences in a word in another order than left to right: from the end of the word" in result.cause
    assert f"makes all {n} of your merges" in result.cause
    if reader:
        assert "your corpus is pre-tokenized line by line" in result.cause


def test_a_run_of_three_is_split_at_its_start_from_the_end():
    a = b"a"
    assert merge_from_end([a, a, a], (a, a)) == [a, b"aa"]
    assert merge_from_start([a, a, a], (a, a)) == [b"aa", a]
    assert merge_from_end([a, a, a, a, b"b"], (a, a)) == [b"aa", b"aa", b"b"]


def test_the_end_first_merge_on_a_reader_s_counts_spends_the_readers_allowance(monkeypatch):
    # its readings of the text and its replays were work no allowance counted: on 200,000 characters they ran on
    # after the check's safety net had passed
    text, n = CORPORA["prose"], MERGES["prose"]
    merges, ours = train(text, n, f"lines+{RIGHT_TO_LEFT}")[1], train(text, n)[1]
    step = first_difference(ours, merges)
    args = (text, CS336_SETUP, [EOT], merges, step, ours[step - 1], "greatest-bytes")
    found = right_to_left_read(*args)
    assert found is not None and found[2].name == "lines"
    monkeypatch.setitem(check_work.ALLOWANCES, "count", 0)
    assert right_to_left_read(*args) is None
