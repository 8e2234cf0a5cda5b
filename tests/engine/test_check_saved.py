"""The Check against a saved run (a .bpe run file written by ``python -m bpe train``) instead of a corpus:
faulty students' runs of tests/faulty_trainers.py, trained on the prose corpus, compared with the run the
command line saved from the same text. The step comes from the saved run; the cause where its word counts
tell it, and what they cannot tell is said."""

from __future__ import annotations

import pickle

import pytest
from faulty_trainers import CORPORA, EOT, LOOP_FAULTS, train

import bpe
from bpe import cli
from bpe.check_saved import WITHOUT_CORPUS, compare_saved
from bpe.formats import run_file
from bpe.formats.student_runs import StudentRun, read_student_file

TEXT = CORPORA["prose"]
MERGES = 80


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """The run the command line saves from the prose corpus, as the Check reads it."""
    folder = tmp_path_factory.mktemp("saved")
    (folder / "corpus.en").write_text(TEXT, encoding="utf-8")
    out = folder / "run.bpe"
    argv = ["train", str(folder / "corpus.en"), "--num-merges", str(MERGES), "--special-token", EOT]
    argv += ["--tie-rule", "greatest-bytes", "--pre-tokenizer", "gpt2", "--out", str(out), "--workers", "1", "--quiet"]
    assert cli.main(argv) == 0
    return run_file.load_run(out)


def student(fault):
    return read_student_file(pickle.dumps(train(TEXT, MERGES, fault)), "run.pkl")


def first_difference(one, other) -> int | None:
    return next((k for k, (a, b) in enumerate(zip(one, other), start=1) if a != b), None)


def test_a_correct_run_equals_the_saved_run(saved):
    result, ranked = compare_saved(saved, student(None))
    assert result.kind == "same" and result.step is None
    assert result.cause == f"Your run equals ours with {result.setup.sentence()}: all {MERGES} merges agree."
    assert result.setup.sentence().startswith("gpt2 pre-tokenization, the greatest-bytes tie rule")
    assert ranked[0][1] == MERGES


@pytest.mark.parametrize("fault", ["left-symbol", "stale", "frozen"])
def test_a_merge_loop_fault_is_named_at_the_step_where_it_leaves_the_saved_run(saved, fault):
    run = student(fault)
    step = first_difference(bpe.check.history_bytes(saved), run.merges)
    result, _ = compare_saved(saved, run)
    same_merges = {f for f in LOOP_FAULTS if train(TEXT, MERGES, f)[1] == list(run.merges)}
    assert (result.kind, result.step) == ("merge-loop", step) and result.fault in same_merges, result.cause
    assert WITHOUT_CORPUS not in result.cause  # the word counts tell a loop fault whole


def test_what_the_word_counts_cannot_tell_is_said(saved):
    run = student("whitespace")  # whitespace kept on words: only the text could show it
    result, _ = compare_saved(saved, run)
    assert result.step == first_difference(bpe.check.history_bytes(saved), run.merges)
    assert result.cause.endswith(WITHOUT_CORPUS)


def test_a_saved_run_its_word_counts_do_not_remake_gives_the_step_and_says_why_no_cause():
    options = dict(pre_tokenizer="gpt2", num_merges=20, tie_break="greatest-bytes")
    counts = bpe.run_training(TEXT.split(EOT), **options).pair_counts_after(4)
    rare = min(counts, key=lambda p: (counts[p], p))  # a pair no tie rule merges at step 5: a what-if forces it
    what_if = bpe.run_training(TEXT.split(EOT), **options, forced_merges={5: rare})
    saved = run_file.loads(run_file.dumps(what_if))
    run = student(None)
    result, ranked = compare_saved(saved, run)
    assert (result.kind, result.step, result.theirs) == ("unknown", 5, run.merges[4]) and ranked == []
    assert result.ours == bpe.check.history_bytes(saved)[4] and result.our_count == counts[rare]
    assert "the cause cannot be told without the corpus" in result.cause


def test_a_run_the_check_cannot_compare_gets_a_sentence():
    wordpiece = bpe.run_training("low lower lowest", algorithm="wordpiece", num_merges=3)
    with pytest.raises(ValueError, match="trained with wordpiece; the check compares BPE merges"):
        compare_saved(wordpiece, student(None))


def test_a_run_going_on_past_a_saved_run_its_counts_do_not_remake_is_told_where_the_saved_run_ends():
    options = dict(pre_tokenizer="gpt2", num_merges=12, tie_break="greatest-bytes")
    counts = bpe.run_training(TEXT.split(EOT), **options).pair_counts_after(4)
    rare = min(counts, key=lambda p: (counts[p], p))
    saved = bpe.run_training(TEXT.split(EOT), **options, forced_merges={5: rare})
    ours = bpe.check.history_bytes(saved)
    run = StudentRun("CS336 pickle", (*ours, (b"q", b"z")), byte_level=True)  # every saved merge, then one more
    result, _ = compare_saved(saved, run)
    assert (result.kind, result.step, result.theirs) == ("past-saved", 13, (b"q", b"z"))
    assert result.cause.startswith("All 12 merges of the saved run agree with yours; yours goes on with (q, z)")
