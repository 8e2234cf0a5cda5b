"""A run whose merges are saved as token ids (bpe.check_ids): told at step 1 as ids, with the verdict on the tokens
they stand for; a loop that adds byte values (runs of zero bytes too) is never read as ids."""

from __future__ import annotations

import pytest
from check_support import check
from faulty_trainers import CORPORA, INT_SUM, MERGE_IDS, train

from bpe.check_ids import id_merges

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_merges_saved_as_ids_are_told_as_ids_and_read_back_as_the_tokens_they_stand_for(corpus):
    # the old Check said the run adds the two values (115 + 116 = 231), which this trainer never does
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, MERGE_IDS, n)
    assert (result.kind, result.step) == ("merges-as-ids", 1), result.cause
    assert "Your merges are token ids, not pairs of bytes" in result.cause
    assert "count up by one per merge from 257" in result.cause
    assert f"all {n} merges agree" in result.cause and "adds the two values" not in result.cause
    assert id_merges(merges) == (train(text, n)[1], 257)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_loop_adding_byte_values_is_not_read_as_ids(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, INT_SUM, n)
    assert id_merges(merges) is None
    assert result.fault == "int-sum", result.cause
