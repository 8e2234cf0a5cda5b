"""A vocabulary that labels the bytes wrongly (bpe.check_relabel): told at step 1 with the first merge read back, then
the verdict on the merges read back; a correct run, or one from another text, is never read as relabelled."""

from __future__ import annotations

import pytest
from check_support import check
from faulty_trainers import CORPORA, EOT, IGNORES_INPUT, train
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

from bpe.check import CS336_SETUP, history_bytes, train_setup
from bpe.check_relabel import relabelled

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_ids_shifted_by_a_special_token_at_id_0_are_read_back_one_byte_higher(corpus):
    # the old Check said the trainer read another text: its first merge stands nowhere in ours
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, "ids-shifted", n)
    assert (result.kind, result.fault, result.step) == ("vocabulary", "shift", 1), result.cause
    assert "every byte is written one byte value lower, as if the special token took id 0" in result.cause
    assert "another text" not in result.cause
    assert f"all {n} merges agree" in result.cause.lower()
    assert relabelled(text, merges).merges == tuple(train(text, n)[1])


@pytest.mark.parametrize("corpus", CORPORA)
def test_every_byte_written_as_one_byte_is_told_as_a_vocabulary_with_one_byte(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    _, result = check(text, "loop-variable", n)
    assert (result.kind, result.fault, result.step) == ("vocabulary", "one-byte", 1), result.cause
    shown = "\\x0b" if corpus == "handout" else "O"  # i left over from the loop: the number of merges less one
    assert f"made of the one byte {shown}: " in result.cause and "maps every byte id to the same byte" in result.cause
    assert "Their lengths agree with ours for the first" in result.cause
    assert "another text" not in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_bytes_written_as_utf8_of_latin1_are_read_back_as_one_byte_each(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    _, result = check(text, "chr-vocab", n)
    if corpus != "bytes":  # ASCII text: chr(i).encode('utf-8') is bytes([i]), the run equals ours
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("vocabulary", "latin1", 1), result.cause
    assert "your merge 1 (Ã, ©) is our (\\xc3, \\xa9)" in result.cause
    assert "chr(i).encode('utf-8')" in result.cause and f"all {n} merges agree" in result.cause.lower()


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_correct_run_or_one_from_another_text_is_never_read_as_relabelled(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    assert relabelled(text, train(text, n)[1]) is None
    merges, result = check(text, IGNORES_INPUT, n)
    assert relabelled(text, merges) is None
    assert result.kind != "vocabulary", result.cause


@settings(max_examples=examples(60), deadline=None)
@given(
    words=st.lists(st.text("abcé \n", min_size=1, max_size=6), min_size=2, max_size=20), num_merges=st.integers(1, 12)
)
def test_a_correct_run_is_never_read_as_relabelled(words, num_merges):
    text = " ".join(words)
    merges = history_bytes(train_setup(text, CS336_SETUP, num_merges, [EOT]))
    assert relabelled(text, merges) is None
