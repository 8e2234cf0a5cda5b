"""Set AU's classes, pasted as the Check page reads them: a run of characters is read as what it is."""

from __future__ import annotations

from ar_trainers import ar_train
from snippet_trainers import pasted

from bpe.check import Setup, diagnose
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

WORDS = Setup("first", "whitespace", False)
TEXT = "ĀĀĀĀ ĀĀĀ ĀĀĀĀ ĀĀ low lower lowest newer wider " * 3  # 'Ā' (U+0100) is GPT-2's byte character for 0x00


def test_a_run_of_characters_all_in_gpt2s_table_is_read_as_characters():
    # the old Check read 'Ā Ā' as GPT-2's characters for two NUL bytes and told NUL symbols read past the text's end
    student = read_student_text(pasted(ar_train(TEXT, 8, "words-first")), "The pasted text")
    assert student.byte_level and student.byte_chars  # what the characters alone say
    result, _ = diagnose(corpus_of("text", "", TEXT, ""), student, WORDS, (), num_merges=8)
    assert result.kind == "same", result.cause
