"""The Check on minbpe runs (``.model`` uploads): checked with minbpe's settings, and minbpe students' faults told."""

from __future__ import annotations

import pytest
from faulty_trainers import CORPORA
from minbpe_trainers import GPT4, train

from bpe.check import Setup, diagnose
from bpe.formats.student_runs import read_student_text

VOCAB = {"handout": 256 + 12, "prose": 256 + 190, "bytes": 256 + 80}
BASIC, REGEX = Setup("first", "none", True), Setup("first", "gpt4", True)


def check(corpus: str, pattern: str, fault: str = ""):
    run = read_student_text(train(CORPORA[corpus], VOCAB[corpus], pattern, fault))
    setup = REGEX if pattern else BASIC
    return diagnose(CORPORA[corpus], run, setup, (), vocab_size=VOCAB[corpus])[0]


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("pattern", ["", GPT4])
def test_a_correct_minbpe_run_is_the_same_with_minbpes_settings(corpus, pattern):
    result = check(corpus, pattern)
    assert result.kind == "same", result.cause


def test_a_tie_to_the_smallest_ids_in_a_byte_run_is_not_told_it_stops_short():
    """The target size is the run's: 256 bytes and one id per merge, whatever base the settings named count."""
    result = check("handout", GPT4, "smallest-ids")
    assert result.kind == "tie" and result.step == 5, result.cause
    assert "stops short" not in result.cause
