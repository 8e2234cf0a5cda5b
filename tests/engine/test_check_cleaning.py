"""Runs of a trainer whose text was cleaned or whose words were marked before counting (tests/cleaning_trainers.py),
pasted as the Check page reads them: the cleaning or the marks are named at the step where the runs part, and the
trainer's correct run is "same"."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES, first_difference
from cleaning_trainers import BYTES_FAULTS, CLEANING_FAULTS, SEQUENCE_FAULTS, clean_train
from faulty_trainers import CORPORA
from scratch_trainers import SCRATCH_FAULTS, scratch_train
from snippet_trainers import pasted

from bpe.check import Setup, diagnose
from bpe.check_setup import history_bytes, train_setup
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

SETUPS = {
    "words": Setup("first", "sennrich", False),
    "sequence": Setup("first", "none", False),
    "bytes": Setup("first", "whitespace", True),
}
KIND = {**dict.fromkeys(CLEANING_FAULTS, "words"), **dict.fromkeys(SEQUENCE_FAULTS, "sequence"), "g-utf8": "bytes"}
SAID = {
    "punct-split": "cuts punctuation off its words as words of their own",
    "strip-ends": "strips punctuation from each word's ends",
    "punct-delete": "deletes every ASCII punctuation mark",
    "space-split": "cuts its words at single spaces only (split(' '))",
    "rare-words": "drops the words seen only once",
    "az-words": "drops every word that holds a character outside a-z",
    "alpha-words": "keeps only the words made of letters alone (str.isalpha)",
    "spaces": "collapses every run of whitespace to one space",
    "sentences": "cuts the text into sentences",
    "g-utf8": "the two bytes C4 A0",
    "end-tag": "end in the symbol '</end>' where ours end in '</w>'",
    "start-underscore": "start with the symbol '_' (a word-start symbol",
    "angle": "start with the symbol '<' (a word-start symbol before each word's first character) and end in the "
    "symbol '>'",
    "stop-across": "our first merge across a space between two words",
    "space-skip": "never merges a space with anything",
}
MARKS = ("end-tag", "start-underscore", "angle")


def _checked(corpus: str, fault: str | None, kind: str):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges = clean_train(text, n, fault, kind)
    if fault == "start-underscore" and not any("_" in a + b for a, b in merges):
        return None, None  # the marks never show: the run is one on words split at whitespace
    if not merges:
        return None, None  # the cleaning leaves no word (no word of a-z only in the byte-level corpus)
    student = read_student_text(pasted(merges), "The pasted text")
    setup = SETUPS[kind]
    typed = corpus_of("text", "", text, "")
    result, _ = diagnose(typed, student, setup, (), num_merges=n)
    ours = history_bytes(train_setup(typed, setup, n))
    return first_difference(ours, list(student.merges)), result


@pytest.mark.parametrize("kind", SETUPS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_the_trainers_correct_run_is_same(corpus, kind):
    step, result = _checked(corpus, None, kind)
    assert step is None and result.kind == "same", result.cause


@pytest.mark.parametrize("fault", [*CLEANING_FAULTS, *SEQUENCE_FAULTS, *BYTES_FAULTS])
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_cleaning_or_marking_is_named_where_the_runs_part(corpus, fault):
    # the old Check said the merges are not from this corpus, a count is off, or only that the run stops short
    step, result = _checked(corpus, fault, KIND[fault])
    if result is None:
        return
    if step is None:  # the corpus holds nothing the cleaning changes
        assert result.kind == "same", result.cause
        return
    kind = "word-marks" if fault in MARKS else "stops-early" if fault == "stop-across" else "cleaning"
    text = CORPORA[corpus]
    if fault == "spaces" and " ".join(text.split()) == text.strip():  # only the last space dropped: a reader that
        assert (result.kind, result.step) == ("reading", step), result.cause  # never reads it is named first
        return
    if fault == "space-skip" and not any(c in text for c in "\n\t"):  # words cut at whitespace make the run too
        kind = "pre-tokenizer"
    assert (result.kind, result.step) == (kind, step), result.cause
    assert SAID[fault] in result.cause, result.cause
    if kind == "cleaning":  # the old Check said "a count that differs" of two pairs it showed counted alike
        tie = result.our_count == result.their_count
        said = "a tie, decided by how the text is cleaned" if tie else "a count that differs, from how the text is"
        assert said in result.cause, result.cause


@pytest.mark.parametrize("fault", [None, *SCRATCH_FAULTS])
@pytest.mark.parametrize("corpus", CORPORA)
def test_an_incremental_trainers_fault_is_named_where_the_runs_part(corpus, fault):
    # the old Check told a count that is off, or a pair no word holds
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges = scratch_train(text, n, fault)
    student = read_student_text(pasted(merges), "The pasted text")
    setup = Setup("lexicographic", "sennrich", False)
    typed = corpus_of("text", "", text, "")
    result, _ = diagnose(typed, student, setup, (), num_merges=n)
    step = first_difference(history_bytes(train_setup(typed, setup, n)), list(student.merges))
    if fault is None:
        assert step is None and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", fault, step), result.cause
    assert "never updated after the first merge" in result.cause


def test_a_cleaning_and_then_a_tie_rule_of_the_students_own_are_both_named():
    # the old Check named the cleaning only as far as our tie rule follows it, so a reader cut at even bytes that
    # went as far came first, and the student's tie rule where the cleaned run parts was never told
    text = "xyzq xyzw xyzr xyzs xyzt xyzu xyzv\n" + "cd cd cd ab ab ab gh gh gh ef ef ef\n" * 2
    merges = clean_train(text, 8, "rare-words", smallest=True)
    student = read_student_text(pasted(merges), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, SETUPS["words"], (), num_merges=8)
    assert (result.kind, result.step) == ("cleaning", 1), result.cause
    assert SAID["rare-words"] in result.cause
    assert (result.later_kind, result.later_step, result.rule) == ("tie", 1, "lexicographic"), result.cause


def test_cleanings_that_follow_a_run_equally_far_short_of_its_end_are_both_said():
    # GPT-2's pattern with whitespace kept whole and runs of spaces put on the next word make the same first merges
    # of a Go trainer's run (regexp has no lookahead); the old Check named the first alone
    from bpe.check_cleaned import Cleaned, CleanedFound, also_told

    prefix, whole = Cleaned(("ws-prefix",), 6, "", 10, "a"), Cleaned(("ws-whole",), 6, "", 10, "b")
    said = also_told(CleanedFound(prefix, (prefix, whole), (prefix, whole)), 150)
    assert said.startswith(" Or your run cuts its words with GPT-2's pattern") and "as far" in said, said
    assert also_told(CleanedFound(prefix, (prefix,), (prefix,)), 150) == ""
