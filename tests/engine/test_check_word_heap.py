"""A heap of (-count, id, id) pushed as each merged word's pairs are added back (bpe.replay_heaps.WordHeap): named
where it hides a tie, told as the smallest-id tie rule where that rule alone makes every merge."""

from __future__ import annotations

import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, WORD_HEAP, train

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_heap_pushed_as_words_are_added_back_is_named_or_told_as_its_tie_rule(corpus):
    # the old Check said the words are never merged (substring counts) on the prose
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, WORD_HEAP, n)
    step = first_difference(train(text, n)[1], merges)
    assert result.step == step, result.cause
    if corpus == "prose":  # a pair whose count a later word lowered is never offered: (e, r) at step 8
        assert (result.kind, result.fault) == ("merge-loop", "lazy-heap-words"), result.cause
        assert "your min-heap pops the smaller pair, (a, i)" in result.cause
    else:  # the heap's order of ties alone makes every merge: the simpler cause, a tie rule, is told
        assert result.kind == "tie" and result.rule in ("hf", "smallest-id"), result.cause
        assert f"all {n} merges agree" in result.cause or "a tie broken by the 'smallest-id' rule" in result.cause
