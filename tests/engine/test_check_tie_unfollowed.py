"""A tie at the step where the runs part that no tie rule follows further (bpe.check): the verdict says it is a tie,
how ours breaks it, and which rule makes the student's choice and how far it follows, before what is certain about a
count."""

from __future__ import annotations

from faulty_trainers import CORPORA, EOT, train

from bpe.check import CS336_SETUP, diagnose
from bpe.formats.student_runs import StudentRun


def verdict(merges):
    student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
    return diagnose(CORPORA["handout"], student, CS336_SETUP, [EOT])[0]


def test_a_choice_one_tie_rule_makes_before_the_run_parts_from_it_is_told_as_a_tie():
    # the handout's first step ties (s, t) and (e, s) at 9: the pair seen first, (e, s), then a merge no rule makes;
    # the old Check said only that no tie rule follows the run, so a count is off
    good = train(CORPORA["handout"], 12)[1]
    assert good[0] == (b"s", b"t")
    result = verdict([(b"e", b"s"), (b"i", b"d"), (b"l", b"o")])
    assert (result.kind, result.step) == ("count", 1), result.cause
    assert "both counted 9 in our run: a tie, and ours breaks it by the 'greatest-bytes' rule" in result.cause
    assert "as CS336 asks" in result.cause
    # the pair seen first, the smallest pair and the smallest ids all take (e, s): the run cannot tell them apart
    told = "The rules 'first' (the pair seen first wins), 'hf' (the pair of smallest token ids wins, as in the "
    assert told in result.cause and "and 'lexicographic' (the smallest pair wins) make your choice here" in result.cause
    assert "through step 1, then part from it" in result.cause
    assert result.cause.index("a tie") < result.cause.index("a count is off")


def test_a_choice_no_tie_rule_makes_is_told_as_a_tie_or_a_count():
    # at step 5 (w, est), (n, e) and (e, w) tie at 6 after the handout's first four merges: (n, e) is neither the
    # greatest, the smallest nor the first seen
    good = train(CORPORA["handout"], 12)[1]
    result = verdict([*good[:4], (b"n", b"e"), (b"i", b"d")])
    assert (result.kind, result.step) == ("count", 5), result.cause
    assert "None of the tie rules we know (ours or students') makes your choice, so either" in result.cause
    assert "or a count is off:" in result.cause


def test_a_tie_rule_that_makes_the_choice_is_named_beside_a_selection_out_of_order():
    # (e, s), then (es, t) as the first rule goes on, then (i, d) at 3 where (o, w) counts 7
    result = verdict([(b"e", b"s"), (b"es", b"t"), (b"i", b"d")])
    assert (result.kind, result.step) == ("count", 1), result.cause
    assert "a tie the rules 'first' (the pair seen first wins), 'hf'" in result.cause
    assert "break as you do, though they follow your run only through step 2" in result.cause
