"""Set BG's class (tests/bg_trainers.py), pasted as the Check page reads it: an end mark that the text holds too."""

from __future__ import annotations

from bg_trainers import bg_original, bg_original_once, bg_train
from check_support import check_pasted

from bpe.check import Setup

WORDS = Setup("first", "sennrich", False)


def test_an_end_mark_the_text_holds_inside_words_is_told_where_it_changes_a_merge():
    # the old Check told the '_' mark and then "equals ours" on our words marked so, never that the mark and the
    # text's own '_' are counted as one symbol
    student, result = check_pasted("prose", bg_train, WORDS)
    assert result.kind == "word-marks", result.cause
    assert "is also a character of the text (as in" in result.cause, result.cause
    assert "parts from this one at step" in result.cause, result.cause


def test_an_end_mark_the_text_never_holds_is_not_told_so():
    _, result = check_pasted("handout", bg_train, WORDS)
    assert result.kind == "word-marks" and "is also a character of the text" not in result.cause, result.cause


def test_a_run_repeating_its_first_merge_is_also_put_down_to_counts_of_the_text_as_first_read():
    # the old Check said only that the merge never changes a word
    student, result = check_pasted("prose", bg_original, Setup("first", "sennrich", False))
    assert len(set(student.merges)) == 1 and len(student.merges) > 2
    assert (result.kind, result.fault) == ("merge-loop", "never-merges"), result.cause
    assert "counts the text as first read instead of the merged words" in result.cause, result.cause


def test_a_run_of_one_merge_kept_once_is_also_put_down_to_counts_of_the_text_as_first_read():
    # the old Check said only that the merge never changes a word
    student, result = check_pasted("prose", bg_original_once, Setup("first", "sennrich", False))
    assert len(student.merges) == 1
    assert "counts the text as first read instead of the merged words" in result.cause, result.cause
