"""The original BPE compression (tests/free_byte_trainers.py), pasted as the Check page reads it: its ties, to the
smallest byte values with each merged token written as a byte value the text does not use, are named where they
act."""

from __future__ import annotations

import pytest
from check_support import check_pasted, pasted_first_difference
from free_byte_trainers import free_byte_train

from bpe.check import Setup
from bpe.fault_replay import replay
from bpe.tie_keys import token_ids

WHOLE_BYTES = Setup("first", "none", True)


@pytest.mark.parametrize("corpus", ["handout", "prose", "bytes"])
def test_ties_to_the_smallest_byte_values_with_merged_tokens_in_free_bytes_are_named(corpus):
    # the old Check told the greatest-id or smallest-bytes rule that parts a few steps on, or a count at a tie
    student, result = check_pasted(corpus, free_byte_train, WHOLE_BYTES)
    assert (result.kind, result.step) == ("tie", pasted_first_difference(corpus, student, WHOLE_BYTES)), result.cause
    assert result.rule == "free-byte" and "the next byte value the text does not use" in result.cause, result.cause


def test_a_merged_token_takes_the_next_free_byte_value_and_wins_a_tie_over_the_texts_bytes():
    words = [(b"\x00", b"a", b"b", b"y", b"z", b"y", b"z")]  # 0x00 is the text's own: (y, z) is written as 0x01
    ids = token_ids(words, [(b"y", b"z")])
    assert ids.base == 5 and ids.free_bytes()[:2] == [1, 2]
    # after (y, z), written 1: (\0, a) = (0, 97) is smallest; after it, written 2, (yz, yz) = (1, 1) beats
    # (\0a, b) = (2, 98), which the smallest pair of bytes would take
    merges = [(b"y", b"z"), (b"\x00", b"a"), (b"yz", b"yz")]
    assert replay(words, [1], merges, tie="free-byte").reproduced == 3
    assert replay(words, [1], merges, tie="smallest-bytes").reproduced == 2
    assert replay(words, [1], [(b"y", b"z"), (b"yz", b"yz")], tie="free-byte").reproduced == 1


def test_a_run_written_in_characters_is_never_told_the_byte_value_rule():
    # a run of characters whose ties follow no rule (a C++ unordered_set's hash order) met the rule by chance: set W's
    # was told it; the rule is tried only on a run written in bytes
    def in_characters(text: str, n: int) -> list[tuple[str, str]]:
        return [(a.replace("Ġ", " "), b.replace("Ġ", " ")) for a, b in free_byte_train(text, n)]

    student, result = check_pasted("handout", in_characters, Setup("first", "none", False))
    assert not student.byte_level and result.step == 6, result.cause
    assert result.rule != "free-byte" and "free-byte" not in result.cause, result.cause
