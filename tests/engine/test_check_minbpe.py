"""The Check on minbpe runs (``.model`` uploads): checked with minbpe's settings, and minbpe students' faults told."""

from __future__ import annotations

import pytest
from faulty_trainers import CORPORA
from minbpe_trainers import GPT4, train

from bpe.check import Setup, diagnose
from bpe.check_minbpe import minbpe_settings
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


@pytest.mark.parametrize("pattern", ["", GPT4])
def test_a_minbpe_model_is_checked_with_its_own_settings_on_a_text_with_a_special_token(pattern):
    """minbpe's train() trains on <|endoftext|> as text: no special token is split out."""
    run = read_student_text(train(CORPORA["prose"], VOCAB["prose"], pattern))
    found = minbpe_settings(run)
    assert found.setup == (REGEX if pattern else BASIC) and found.vocab_size == VOCAB["prose"]
    result, _ = diagnose(CORPORA["prose"], run, found.setup, (), vocab_size=found.vocab_size)
    assert result.kind == "same", result.cause


def test_a_minbpe_pattern_saved_as_a_compiled_patterns_repr_is_read_and_another_pattern_is_said():
    model = train(CORPORA["handout"], VOCAB["handout"], GPT4)
    saved = model.replace(GPT4, f"regex.Regex({GPT4!r}, flags=regex.V0)")
    assert minbpe_settings(read_student_text(saved)).setup == REGEX
    other = minbpe_settings(read_student_text(model.replace(GPT4, r"\w+|\s+")))
    assert other.setup is None and "none of ours" in other.pattern
    assert minbpe_settings(read_student_text("a b\n")) is None
