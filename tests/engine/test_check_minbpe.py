"""The Check on minbpe runs (``.model`` uploads): checked with minbpe's settings, and minbpe students' faults told."""

from __future__ import annotations

import pytest
from faulty_trainers import CORPORA
from minbpe_trainers import EOT, GPT4, train

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


def parting_step(corpus: str, pattern: str, fault: str) -> int:
    """The first merge where the faulty run parts from minbpe's own (by the trainers, not by the Check)."""
    theirs = train(CORPORA[corpus], VOCAB[corpus], pattern, fault).splitlines()[3:]
    ours = train(CORPORA[corpus], VOCAB[corpus], pattern).splitlines()[3:]
    return next(i + 1 for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_that_drops_the_last_symbol_after_a_pair_at_a_words_end_is_named(corpus):
    """The scan compares each id with the one before, from the second, and appends the last id after it only when
    the output does not end in the new token: a word whose pair sits third- and second-to-last loses its last id."""
    result = check(corpus, GPT4, "lost-last")
    assert (result.kind, result.fault) == ("merge-loop", "lost-last-scan"), result.cause
    assert result.step == parting_step(corpus, GPT4, "lost-last")
    assert "loses its last symbol" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_base_of_the_corpuss_distinct_bytes_renumbered_from_zero_is_told_and_read_back(corpus):
    """The .model's ids are not bytes: read back through the trainer's numbering, every merge is minbpe's."""
    result = check(corpus, "", "renumbered")
    assert (result.kind, result.fault, result.step) == ("vocabulary", "renumbered", 1), result.cause
    assert "ids are not bytes" in result.cause and "distinct bytes" in result.cause
    # read back, the run goes past its target: it made vocab_size - k merges, not vocab_size - 256
    assert result.later_kind == "goes-past" and f"asks for {VOCAB[corpus] - 256}" in result.cause


@pytest.mark.parametrize("pattern", ["", GPT4])
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_special_token_split_out_where_minbpe_trains_on_it_is_named(corpus, pattern):
    """minbpe's train() takes <|endoftext|> as text; a trainer that splits it out first never counts its bytes."""
    result = check(corpus, pattern, "special-split")
    if EOT not in CORPORA[corpus]:
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("split-specials", parting_step(corpus, pattern, "special-split"))
    assert "split the special token <|endoftext|> out" in result.cause, result.cause


@pytest.mark.parametrize(("pattern", "corpus"), [("", "prose"), ("", "bytes"), (GPT4, "prose"), (GPT4, "bytes")])
def test_a_merge_that_steps_past_the_symbol_after_each_new_token_is_named(pattern, corpus):
    """At a tie our first-seen rule is replayed as minbpe keeps it (a fresh count over the text in order), so a loop
    fault that acts at a tie is found. (On the handout's one sequence a count of each word's pairs as a set makes
    the same 12 merges and is named first; with GPT-4's pattern the fault never acts there.)"""
    result = check(corpus, pattern, "skip-next")
    assert (result.kind, result.fault) == ("merge-loop", "skips-next"), result.cause
    assert result.step == parting_step(corpus, pattern, "skip-next")


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_basic_tokenizer_splitting_with_gpt4s_pattern_and_ties_to_the_greatest_ids_names_the_pattern_first(corpus):
    """The pre-tokenizer acts first where it parts the runs; the tie rule under it is told after it."""
    fault = "gpt4-basic+greatest-ids"
    result = check(corpus, "", fault)
    step = parting_step(corpus, "", fault)
    assert result.step == step, result.cause
    by_pattern = parting_step(corpus, "", "gpt4-basic") == step  # else the tie acts first, on the one sequence too
    if by_pattern:
        assert result.kind == "pre-tokenizer" and "gpt4" in result.cause, result.cause
        assert result.later_kind == "tie" and result.rule == "greatest-id", result.cause
    else:
        assert "greatest" in (result.rule or "") or "greatest" in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_basic_tokenizer_with_ties_to_the_greatest_ids_and_a_merge_that_steps_past_the_next_id_is_told_both(corpus):
    """Avo-k (set P): on the prose, one sequence of 2,996 characters, the old Check's search for a tie rule with a
    loop fault spent its allowance on other rules first and named a chunked reader instead."""
    fault = "greatest-ids+skip-next"
    result = check(corpus, "", fault)
    assert result.step == parting_step(corpus, "", fault), result.cause
    assert (result.rule, result.fault) == ("greatest-id", "skips-next"), result.cause
    assert "two faults at once" in result.cause


@pytest.mark.parametrize(("corpus", "asked"), [("prose", 400), ("bytes", 300)])
def test_a_run_one_merge_short_of_a_round_size_is_asked_about_when_no_size_is_given(corpus, asked):
    """A minbpe ``.model`` does not hold the vocabulary size asked for: a run one token short of a size people
    ask for is still "same" (it may be right), with the question; given the size, it stops short."""
    short = read_student_text(train(CORPORA[corpus], asked, GPT4, "one-short"))
    result = diagnose(CORPORA[corpus], short, REGEX, ())[0]
    assert result.kind == "same", result.cause
    assert f"one short of {asked}: if you asked for {asked}, your loop stops one merge early" in result.cause
    given = diagnose(CORPORA[corpus], short, REGEX, (), vocab_size=asked)[0]
    assert given.kind == "stops-early" and given.step == asked - 256, given.cause
    right = diagnose(CORPORA[corpus], read_student_text(train(CORPORA[corpus], asked, GPT4)), REGEX, ())[0]
    assert right.kind == "same" and "if you asked" not in right.cause, right.cause
