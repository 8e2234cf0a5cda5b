"""The fault of set AM's class (tests/am_trainers.py), pasted as the Check page reads it: named at the step where it
acts, and the trainer without it is "same"."""

from __future__ import annotations

import pytest
from am_trainers import BASE, am_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(am_train, {"whole-bytes": Setup("first", "none", True)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "whole-bytes")
    assert result.kind == "same", result.cause


def test_a_newline_added_after_the_last_line_is_named():
    # the old Check told no tie rule it knows, or a count of the pair holding the line break too high
    student, result = CHECKS.check("prose", "newline-end")
    step = CHECKS.first_difference("prose", student, "newline-end")
    assert step is not None and (result.kind, result.step) == ("cleaning", step), result.cause
    assert "newline added after its last line" in result.cause, result.cause


def test_a_last_line_stripped_of_its_whitespace_is_said_beside_a_reading_that_stops_short():
    # the byte corpus is one line ending in a space: line.strip() and a reading one character short drop the same
    # character, and the old Check named the second alone
    student, result = CHECKS.check("bytes", "stripped")
    assert result.step == CHECKS.first_difference("bytes", student, "stripped"), result.cause
    assert "one character before the end" in result.cause and "line.strip()" in result.cause, result.cause
