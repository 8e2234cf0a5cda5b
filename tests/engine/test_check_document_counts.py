"""Documents' word counts joined with ``Counter |=`` (bpe.document_counts): each word keeps its largest count in one
document; the Check names the reader at the step where the run parts, and a text of one document is 'same'."""

from __future__ import annotations

import faulty_trainers
import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, DOCUMENTS_MAX, EOT, train

from bpe.count_faults import COUNT_FAULTS, Reading

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_counts_joined_by_a_union_are_named_with_a_word_counted_as_in_one_document(corpus):
    # the old Check said the run does not cut the text into words (no pre-tokenization)
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, DOCUMENTS_MAX, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # one document: the union of one count is the count
        assert EOT not in text and result.kind == "same", result.cause
        return
    assert (result.kind, result.step, result.fault) == ("reading", step, "documents-max"), result.cause
    assert COUNT_FAULTS["documents-max"].sentence in result.cause
    assert "'␣the' counts 6 where it occurs 48 times" in result.cause


def test_the_union_reader_counts_the_words_as_the_faulty_trainer_does():
    text = CORPORA["prose"]
    counts, _ = COUNT_FAULTS["documents-max"].count(Reading(text, "gpt2", [EOT]), 1)
    expected = faulty_trainers.word_counts(text, DOCUMENTS_MAX)
    assert +counts == {b"".join(w).decode("utf-8"): k for w, k in expected.items()}
