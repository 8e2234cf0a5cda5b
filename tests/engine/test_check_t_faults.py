"""Faults of set T's classes (tests/t_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES
from faulty_trainers import CORPORA
from snippet_trainers import pasted
from t_trainers import t_train

from bpe.check import Setup, diagnose
from bpe.check_setup import history_bytes, train_setup
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

SETUP = Setup("first", "sennrich", False)


def check_t(corpus: str, fault: str | None, setup: Setup = SETUP):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges = t_train(text, n, fault)
    student = read_student_text(pasted(merges), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup, (), num_merges=n)
    return merges, result


def first_difference(corpus: str, merges, setup: Setup = SETUP) -> int | None:
    text = CORPORA[corpus]
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), setup, len(merges) + 1))
    theirs = [(a.encode(), b.encode()) for a, b in merges]
    return next((k for k, (a, b) in enumerate(zip(ours, theirs), start=1) if a != b), None)


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = check_t(corpus, None)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_first_merge_never_recorded_is_told_at_step_1(corpus):
    # the old Check told a pair the corpus never has, a-z cleaning or another pre-tokenizer
    merges, result = check_t(corpus, "first-unrecorded")
    assert (result.kind, result.step) == ("first-missing", 1), result.cause
    assert "the first merge is missing from your list" in result.cause
    assert "all" in result.cause and "merges agree" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_lines_read_as_words_of_lowercased_text_are_both_named(corpus):
    # the old Check told a pair our corpus never has (a different byte base or pre-tokenizer) on the bytes text
    merges, result = check_t(corpus, "lower+lines-as-words")
    assert result.step == first_difference(corpus, merges), result.cause
    if corpus == "handout":  # no capital: the reader alone
        assert (result.kind, result.fault) == ("reading", "lines-flattened"), result.cause
    elif corpus == "bytes":
        assert (result.kind, result.fault) == ("reading", "lines-flattened"), result.cause
        assert "your text is lowercased, and your corpus is read line by line" in result.cause
    else:  # prose: lowercasing alone makes the first merges
        assert result.kind in ("case", "reading"), result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_reader_of_the_first_line_only_is_named(corpus):
    # the old Check told a count that is off
    merges, result = check_t(corpus, "first-line")
    step = first_difference(corpus, merges)
    if step is None:  # the handout and the bytes text are one line each: nothing changes
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("reading", "first-line", step), result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_as_the_pieces_of_a_split_on_nonword_characters_are_named(corpus):
    # the old Check told a count or heap fault: re.split(r'\W+') drops every punctuation mark and symbol
    merges, result = check_t(corpus, "nonword-split")
    step = first_difference(corpus, merges)
    if step is None:
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("cleaning", step), result.cause
    # on the bytes text every symbol stands at a word's end: punctuation stripped from word ends is as good
    assert "punctuation" in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("cleaning", ["word-edges"])
def test_a_text_cleaned_of_punctuation_with_words_marked_is_told_with_both(corpus, cleaning):
    # the old Check named only the '_' end marker, then a count that differs on the marked words
    merges, result = check_t(corpus, f"{cleaning}+end-underscore")
    step = first_difference(corpus, merges)
    assert (result.kind, result.step) == ("word-marks", step), result.cause
    if corpus == "handout":  # no punctuation to clean
        return
    assert "punctuation" in result.cause and "end in the symbol '_'" in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("tie", ["second-first", "shortest"])
def test_a_students_tie_rule_on_the_second_symbol_or_the_shortest_token_is_named(corpus, tie):
    # the old Check told a tie no rule follows, or a count that is off
    merges, result = check_t(corpus, tie)
    step = first_difference(corpus, merges)
    if step is None:
        assert result.kind == "same", result.cause
        return
    assert result.step == step, result.cause
    assert (result.kind, result.rule) == ("tie", tie), result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_tie_on_the_second_symbol_with_words_marked_is_told_with_both(corpus):
    # the old Check named only the '_' end marker where the tie rule acts first (the handout's step 1)
    merges, result = check_t(corpus, "second-first+end-underscore")
    step = first_difference(corpus, merges)
    assert (result.kind, result.step) == ("word-marks", step), result.cause
    assert "end in the symbol '_'" in result.cause
    if corpus == "handout":  # the tie at step 1: (e, s), (s, t) and (t, _) all counted 9
        assert "'second-first' rule" in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_marked_at_both_ends_with_underscores_are_told(corpus):
    # the old Check told a pair the corpus never has, or merges not from this corpus
    setup = Setup("lexicographic", "sennrich", False)  # a course's smallest-pair rule (Hacettepe's AIN442)
    merges, result = check_t(corpus, "shortest+start-underscore+end-underscore", setup)
    step = first_difference(corpus, merges, setup)
    assert (result.kind, result.step) == ("word-marks", step), result.cause
    assert "start with the symbol '_'" in result.cause and "end in the symbol '_'" in result.cause
