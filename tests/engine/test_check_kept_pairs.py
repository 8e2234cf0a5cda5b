"""Count updates that only add (bpe.kept_pairs): the pairs a merge destroys never subtracted, alone or with the right
pair built from the pair's own second symbol; the Check names the fault at the step where the run parts."""

from __future__ import annotations

import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, ONLY_ADDED, train

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("fault", ONLY_ADDED)
@pytest.mark.parametrize("corpus", CORPORA)
def test_an_update_that_never_subtracts_is_named_at_its_step(corpus, fault):
    # the old Check said a pair no word holds came from pairs beside merged tokens made wrongly, or 'keep-right'
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(merges, train(text, n)[1])
    assert (result.kind, result.fault, result.step) == ("merge-loop", fault, step), result.cause
    assert "never subtract" in result.cause
    if fault.endswith("own-right"):
        assert "tokens[i + 1] where tokens[i + 2] is meant" in result.cause


def test_the_pair_kept_is_blamed_on_the_merge_that_destroyed_it():
    _, result = check(CORPORA["handout"], "never-subtracted", MERGES["handout"])
    assert (
        "for the merge (s, t) only adds the pairs beside each st: the old pairs it destroyed are never" in result.cause
    )
