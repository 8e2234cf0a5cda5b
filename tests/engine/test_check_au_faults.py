"""Set AU's classes, pasted as the Check page reads them: a run of characters is read as what it is."""

from __future__ import annotations

import pytest
from ar_trainers import ar_train
from au_trainers import BASE, au_train
from check_support import PastedSet
from faulty_trainers import CORPORA
from snippet_trainers import pasted

from bpe.check import Setup, diagnose
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

WORDS = Setup("first", "whitespace", False)
CHECKS = PastedSet(au_train, {"words-first": Setup("first", "whitespace", False)}, BASE)
TEXT = "ĀĀĀĀ ĀĀĀ ĀĀĀĀ ĀĀ low lower lowest newer wider " * 3  # 'Ā' (U+0100) is GPT-2's byte character for 0x00


def test_a_run_of_characters_all_in_gpt2s_table_is_read_as_characters():
    # the old Check read 'Ā Ā' as GPT-2's characters for two NUL bytes and told NUL symbols read past the text's end
    student = read_student_text(pasted(ar_train(TEXT, 8, "words-first")), "The pasted text")
    assert student.byte_level and student.byte_chars  # what the characters alone say
    result, _ = diagnose(corpus_of("text", "", TEXT, ""), student, WORDS, (), num_merges=8)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_of_characters_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "words-first")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_merge_that_rewrites_every_word_and_loses_its_last_symbol_is_named(corpus):
    # the old Check told pairs with a merged token never counted, or a count off by no known fault
    student, result = CHECKS.check(corpus, "tail-every")
    assert result.step == CHECKS.first_difference(corpus, student, "tail-every"), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "tail-lost-every"), result.cause
