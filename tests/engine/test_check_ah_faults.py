"""Faults of set AH's classes (tests/ah_trainers.py, tests/java/PairTrainer.java), pasted as the Check page reads them:
each is named at the step where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ah_trainers import BASE, ah_train
from check_support import SNIPPET_MERGES, PastedSet, check_pasted, pasted_first_difference
from faulty_trainers import CORPORA
from java_support import java_classes, run_java  # noqa: F401 (a fixture)

from bpe.check import Setup

SETUPS = {
    "chars-first": Setup("first", "none", False),
    "words-first": Setup("first", "whitespace", False),
    "gpt2-bytes-hf": Setup("first", "gpt2", True),
}
CHECKS = PastedSet(ah_train, SETUPS, BASE)
WORDS = Setup("first", "whitespace", False)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in ("chars-first", "words-first")])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


# on the byte corpus a word left half-merged makes the same merges, and that older fault is named
@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_merge_only_at_the_first_left_symbol_of_a_word_is_named(corpus):
    # the old Check told a loop that skips every second word holding the pair (on the handout)
    student, result = CHECKS.check(corpus, "first-left")
    assert (result.kind, result.fault) == ("merge-loop", "first-left"), result.cause
    assert result.step == CHECKS.first_difference(corpus, student, "first-left"), result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_ties_to_the_smallest_ids_written_as_text_are_named(corpus):
    # the old Check told a space-suffix cut, an overlap-index loop fault or the hf rule
    student, result = CHECKS.check(corpus, "id-text")
    assert (result.kind, result.rule) == ("tie", "first-id-text"), result.cause
    assert result.step == CHECKS.first_difference(corpus, student, "id-text"), result.cause


def test_ties_to_the_least_sum_of_ids_are_named():
    # the old Check told a count one too low
    student, result = CHECKS.check("handout", "id-sum")
    assert (result.kind, result.rule) == ("tie", "first-id-sum"), result.cause
    assert result.step == CHECKS.first_difference("handout", student, "id-sum"), result.cause


def test_a_whitespace_run_kept_whole_is_named_with_the_tie_rule_after_it():
    # the old Check told a text not cut into words: the cut makes the first merges, the hf rule the rest, and a
    # cleaning was followed only by the students' own tie keys, not by the page's rules
    student, result = CHECKS.check("prose", "ws-whole-hf")
    assert (result.kind, result.step) == ("cleaning", CHECKS.first_difference("prose", student, "ws-whole-hf"))
    assert "no lookahead" in result.cause and "'hf' rule" in result.cause, result.cause


def _java_run(classes, corpus: str, mode: str, tmp_path):
    path = tmp_path / f"{corpus}.txt"
    path.write_text(CORPORA[corpus], encoding="utf-8")
    out = run_java(classes, "PairTrainer", str(path), str(SNIPPET_MERGES[corpus]), mode)
    return [tuple(line.split(" ")) for line in out.splitlines()]


# the byte corpus holds characters outside the BMP, two chars each in Java: not emulated (bpe/java_order.py)
@pytest.mark.parametrize("corpus", ["handout", "prose"])
@pytest.mark.parametrize(("mode", "rule"), [("put", "java-hashmap"), ("merge", "java-hashmap-merge")])
def test_ties_in_a_java_hashmaps_order_are_named(java_classes, tmp_path, corpus, mode, rule):  # noqa: F811
    # the old Check told no pre-tokenization, or a tie rule of ours that happens to follow a short run
    merges = _java_run(java_classes, corpus, mode, tmp_path)
    student, result = check_pasted(corpus, lambda text, n: merges, WORDS)
    step = pasted_first_difference(corpus, student, WORDS)
    assert step is not None and result.step == step, result.cause
    assert result.rule == rule or f"'{rule}'" in result.cause, result.cause  # beside a rule of ours, where both fit
