"""Set BJ's class (tests/bj_trainers.py), pasted as the Check page reads it: a merge through ``' '.join`` and
``split()`` that loses the text's spaces."""

from __future__ import annotations

import pytest
from bj_trainers import bj_train
from check_support import check_pasted, pasted_first_difference

from bpe.check import Setup

WHOLE = Setup("first", "none", False)


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_merge_that_splits_back_with_split_and_loses_the_spaces_is_named(corpus):
    # the old Check told an update subtracting the pairs beside every space, or overlapping starts collapsed (on the
    # handout, one line whose first merge holds no space, a reader dropping the whitespace makes the same merges, and
    # is named first)
    student, result = check_pasted(corpus, bj_train, WHOLE)
    assert result.step == pasted_first_difference(corpus, student, WHOLE), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "split-spaces"), result.cause
