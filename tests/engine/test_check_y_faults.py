"""Faults of set Y's classes (tests/y_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import PastedSet
from faulty_trainers import CORPORA
from y_trainers import BASE, y_train

from bpe.check import Setup

SETUPS = {
    "words-eow": Setup("first", "sennrich", False),
    "whole-chars": Setup("first", "none", False),
    "whole-bytes": Setup("first", "none", True),
}


CHECKS = PastedSet(y_train, SETUPS, BASE)
check_y = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in ("words-eow", "whole-chars")])
def test_the_trainer_without_a_fault_is_same(corpus, kind):
    _, result = check_y(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_whole_words_as_symbols_are_named(corpus):
    # the old Check told "your merges are not from this corpus ... read another text"
    student, result = check_y(corpus, "word-symbols")
    assert (result.kind, result.step) == ("words-as-symbols", first_difference(corpus, student, "word-symbols"))
    assert "your symbols are whole words" in result.cause and "another text" not in result.cause, result.cause
    assert f"all {len(student.merges)} of your merges" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_letters_outside_a_z_deleted_are_told_apart_from_accents_dropped(corpus):
    # the old Check told accents dropped by NFKD on the bytes text ('café' read as 'cafe', where the run has 'caf')
    student, result = check_y(corpus, "az-delete")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "az-delete")), result.cause
    assert "deletes every character other than a-z" in result.cause and "NFKD with" not in result.cause, result.cause
    assert f"all {len(student.merges)} of yours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose", "bytes"])
def test_pairs_counted_without_overlap_are_named_at_the_first_step_too(corpus):
    # on the prose the runs of spaces part at step 1, which the old Check told as a first merge missing from the list
    # (the student's list holds our first merge, later); on the handout they part at step 10, told so before too
    student, result = check_y(corpus, "nonoverlap")
    assert (result.kind, result.step) == ("overlap", first_difference(corpus, student, "nonoverlap")), result.cause
    assert "without overlaps" in result.cause and "missing from your list" not in result.cause, result.cause


def test_a_text_read_past_its_end_by_its_byte_count_is_told():
    # the old Check told "your trainer read another text than the file it was given"
    student, result = check_y("bytes", "size-bytes")
    assert (result.kind, result.step) == ("missing", 1), result.cause
    assert "reads past the text's end" in result.cause and "size in bytes (1392" in result.cause, result.cause
    assert "another text" not in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_text_read_to_its_end_is_same(corpus):
    # an ASCII text's byte count is its number of characters: the trainer reads no NUL
    _, result = check_y(corpus, "size-bytes")
    assert result.kind == "same", result.cause


def test_the_last_symbol_dropped_is_named_where_it_alone_makes_the_choice():
    # on the prose the drop lowers (a, i) to 43 against a pair ours ties with at 44; the old Check told a tie broken
    # by the smallest-bytes rule, which follows only three merges (the smallest-id rule acts later)
    student, result = check_y("prose", "tail-lost-ids")
    assert (result.kind, result.step) == ("merge-loop", first_difference("prose", student, "tail-lost-ids"))
    assert result.fault == "tail-lost" and result.rule == "smallest-id", result.cause
    assert "which alone makes your choice here" in result.cause, result.cause
    assert f"through step {len(student.merges)}" in result.cause, result.cause


def test_utf16_units_with_ties_to_the_last_pair_are_named_together():
    # the old Check told a tie no rule follows (the last-pair rule makes step 1, the units' halves step 2)
    student, result = check_y("bytes", "units-last")
    assert result.step == first_difference("bytes", student, "units-last"), result.cause
    assert result.rule == "last-recounted" and "UTF-16 code units" in result.cause, result.cause
    assert f"through step {len(student.merges)}" in result.cause, result.cause
