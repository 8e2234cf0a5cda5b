"""Faults of set AP's classes (tests/ap_trainers.py, tests/java/WordMapTrainer.java), pasted as the Check page reads
them: each is named at the step where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ap_trainers import BASE, ap_train
from check_support import SNIPPET_MERGES, PastedSet, check_pasted, pasted_first_difference
from faulty_trainers import CORPORA
from java_support import java_classes, run_java  # noqa: F401 (a fixture)

from bpe.check import Setup

CHECKS = PastedSet(
    ap_train,
    {
        "gpt2-bytes-hf": Setup("first", "gpt2", True),
        "chars-first": Setup("first", "none", False),
        "whole-bytes": Setup("first", "none", True),
    },
    BASE,
)
SENNRICH = Setup("first", "sennrich", False)


@pytest.mark.parametrize(
    ("corpus", "kind"), [(c, k) for c in CORPORA for k in ("gpt2-bytes-hf", "chars-first", "whole-bytes")]
)
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


def test_characters_stored_at_their_byte_offsets_are_named():
    # the old Check told a buffer whose zeros all come after the text's last character
    student, result = CHECKS.check("bytes", "rune-offsets")
    assert result.step == CHECKS.first_difference("bytes", student, "rune-offsets") == 1, result.cause
    assert result.kind == "missing" and "at its byte offset" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_ties_in_the_order_a_map_of_counts_gained_its_pairs_are_named(corpus):
    # the old Check led the handout with a substring update fault that counts the two pairs as we do
    student, result = CHECKS.check(corpus, "map-order")
    assert (result.kind, result.rule) == ("tie", "first-added"), result.cause
    assert result.step == CHECKS.first_difference(corpus, student, "map-order"), result.cause


def _java_run(classes, corpus: str, mode: str, tmp_path):
    path = tmp_path / f"{corpus}.txt"
    path.write_text(CORPORA[corpus], encoding="utf-8")
    out = run_java(classes, "WordMapTrainer", str(path), str(SNIPPET_MERGES[corpus]), mode)
    return [tuple(line.split(" ")) for line in out.splitlines()]


# on the handout the map's order makes our merges; the byte corpus holds characters outside the BMP, two chars each
# in Java: not emulated (bpe/java_order.py)
def test_ties_to_the_first_reached_in_a_java_map_of_words_are_named(java_classes, tmp_path):  # noqa: F811
    # the old Check told a tie rule of ours beside a loop fault, or the 'shortest' rule and an update fault
    merges = _java_run(java_classes, "handout", "symbols", tmp_path)
    assert check_pasted("handout", lambda text, n: merges, SENNRICH)[1].kind == "same"
    merges = _java_run(java_classes, "prose", "symbols", tmp_path)
    student, result = check_pasted("prose", lambda text, n: merges, SENNRICH)
    step = pasted_first_difference("prose", student, SENNRICH)
    assert step is not None and result.step == step, result.cause
    assert result.rule == "java-words-reached", result.cause


def test_a_java_map_of_words_with_a_text_replace_is_named_with_both_faults(java_classes, tmp_path):  # noqa: F811
    merges = _java_run(java_classes, "prose", "replace", tmp_path)
    student, result = check_pasted("prose", lambda text, n: merges, SENNRICH)
    assert result.step == pasted_first_difference("prose", student, SENNRICH), result.cause
    assert (result.rule, result.fault) == ("java-words-reached", "replace"), result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_ties_in_a_random_order_are_told_as_a_containers(corpus):
    # the old Check told a tie rule that follows a few ties by chance, or a count that is off
    student, result = CHECKS.check(corpus, "random-ties")
    assert result.step == CHECKS.first_difference(corpus, student, "random-ties"), result.cause
    assert (result.kind, result.rule, result.fault) == ("tie", None, None), result.cause
    assert "no rule we know" in result.cause and "hash map" in result.cause, result.cause


def test_ties_in_a_random_order_a_rule_and_a_fault_match_by_chance_are_told_as_a_containers():
    # the old Check told a tie rule (greatest-concat) with a loop fault (tail-lost) that changes no count at the step
    student, result = CHECKS.check("handout", "random-bytes")
    assert result.step == CHECKS.first_difference("handout", student, "random-bytes"), result.cause
    assert (result.kind, result.rule, result.fault) == ("tie", None, None), result.cause
    assert "no rule we know" in result.cause, result.cause


def test_ties_in_a_random_order_on_a_lowercased_text_are_told_with_the_lowercasing():
    # the old Check told a tie rule that follows a few steps, or a count that is off (the tie itself is one the
    # lowercasing leaves as it is, so no cleaning makes the student's choice there)
    student, result = CHECKS.check("prose", "lower-random")
    assert result.step == CHECKS.first_difference("prose", student, "lower-random"), result.cause
    assert (result.kind, result.rule) == ("tie", None), result.cause
    assert "no rule we know" in result.cause and "lowercases the text first" in result.cause, result.cause


def test_ties_told_as_a_containers_order_only_within_the_tie_rules_allowance(monkeypatch):
    # the replay that finds every merge of the greatest count is counted work too: a run it cannot afford is not told so
    from bpe import check_work

    assert "no rule we know" in CHECKS.check("prose", "random-ties")[1].cause
    monkeypatch.setitem(check_work.ALLOWANCES, "tie", 1_000)
    _, result = CHECKS.check("prose", "random-ties")
    assert "no rule we know" not in result.cause, result.cause
