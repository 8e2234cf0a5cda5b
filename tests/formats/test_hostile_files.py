"""Hostile tokenizer files: deep nesting at any depth, ids past any table, and a
huge value quoted in an error all get one short sentence, never a traceback. Inputs are bounded
(the largest is one 20 MB string) and each test has a time limit."""

from __future__ import annotations

import json

import pytest

from bpe import formats
from bpe.config import MAX_NESTING, MAX_TOKEN_ID, shown

pytestmark = pytest.mark.timeout(120)


def tokenizer_json(**parts) -> dict:
    vocab = {c: i for i, c in enumerate("abcdefgh")}
    vocab.update({"[UNK]": 8, "ab": 9})
    data = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "BPE", "unk_token": "[UNK]", "vocab": vocab, "merges": [["a", "b"]]},
    }
    data.update(parts)
    return data


def nested_text(key: str, inner_key: str, leaf: str, depth: int) -> str:
    """The file's text with ``key`` a Sequence of a Sequence ... ``depth`` levels, built as text (the
    json module cannot write what it cannot read)."""
    head, tail = json.dumps(tokenizer_json()).split(f'"{key}": null')
    opening = f'{{"type": "Sequence", "{inner_key}": ['
    return head + f'"{key}": ' + opening * depth + leaf + "]}" * depth + tail


COMPONENTS = [
    ("normalizer", "normalizers", '{"type": "Lowercase"}'),
    ("pre_tokenizer", "pretokenizers", '{"type": "WhitespaceSplit"}'),
    ("decoder", "decoders", '{"type": "Fuse"}'),
]


@pytest.mark.parametrize("key, inner_key, leaf", COMPONENTS)
@pytest.mark.parametrize("depth", [450, 100_000])
def test_components_nested_at_any_depth_get_a_sentence(key, inner_key, leaf, depth):
    text = nested_text(key, inner_key, leaf, depth)
    with pytest.raises(ValueError) as caught:
        formats.from_tokenizer_json(text)
    message = str(caught.value)
    assert f"at most {MAX_NESTING}" in message, message
    if depth == 450:  # parsed, then refused by the nesting limit, naming the component
        assert message.startswith(f"The file's {key} nests more than {MAX_NESTING} levels deep"), message
    else:  # too deep even for the JSON parser
        assert "nests lists and objects too deeply to read" in message, message


def test_a_sequence_within_the_limit_still_loads_and_encodes():
    text = nested_text("normalizer", "normalizers", '{"type": "Lowercase"}', 20)
    assert formats.from_tokenizer_json(text).encode_full("AB").tokens == ("ab",)


@pytest.mark.parametrize("bad", [10**40, MAX_TOKEN_ID + 1])
def test_an_added_token_id_past_the_id_range_is_refused(bad):
    added = [{"id": bad, "content": "<x>", "special": True}]
    with pytest.raises(ValueError, match=f"from 0 to {MAX_TOKEN_ID:,}"):
        formats.from_tokenizer_json(json.dumps(tokenizer_json(added_tokens=added)))


def test_a_vocabulary_id_past_the_id_range_is_refused():
    data = tokenizer_json()
    data["model"]["vocab"]["ab"] = 10**40
    with pytest.raises(ValueError, match=f"from 0 to {MAX_TOKEN_ID:,}"):
        formats.from_tokenizer_json(json.dumps(data))


def test_the_largest_id_still_loads():
    added = [{"id": MAX_TOKEN_ID, "content": "<x>", "special": True}]
    tok = formats.from_tokenizer_json(json.dumps(tokenizer_json(added_tokens=added)))
    assert tok.encode_full("ab<x>").ids == (9, MAX_TOKEN_ID)


def test_a_rank_past_the_id_range_is_refused():
    import base64

    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines.append(f"{base64.b64encode(b'ab').decode()} {10**40}")
    with pytest.raises(ValueError, match=f"from 0 to {MAX_TOKEN_ID:,}"):
        formats.read_ranks("\n".join(lines))


# -- a 20 MB value is not echoed whole ----------------------------------------------------------------
HUGE = "x" * 20_000_000


@pytest.mark.parametrize(
    "merges",
    [[[HUGE, "b"]], [HUGE + " b"], [[HUGE]], [["a", "b"], [HUGE, "b", "c"]], [HUGE]],
    ids=["pair", "string", "one-part", "three-parts", "one-token-string"],
)
def test_a_20_mb_merge_entry_gives_a_short_error(merges):
    data = tokenizer_json()
    data["model"]["merges"] = merges
    with pytest.raises(ValueError) as caught:
        formats.from_tokenizer_json(json.dumps(data))
    assert len(str(caught.value)) < 500, str(caught.value)[:600]
    assert "characters)" in str(caught.value)  # the length is said


@pytest.mark.parametrize(
    "part",
    [
        {"normalizer": {"type": "Prepend", "prepend": [HUGE]}},
        {"normalizer": {"type": HUGE}},
        {"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(" + HUGE}, "behavior": "Isolated"}},
        {"decoder": HUGE},
        {"added_tokens": [{"id": 20, "content": HUGE, "special": True, "x": 1}, {"id": 20, "content": "y"}]},
    ],
    ids=["prepend", "normalizer-type", "regex", "decoder", "added"],
)
def test_other_huge_values_are_cut_in_errors(part):
    with pytest.raises(ValueError) as caught:
        formats.from_tokenizer_json(json.dumps(tokenizer_json(**part)))
    assert len(str(caught.value)) < 500, str(caught.value)[:600]


def test_shown_cuts_long_values_and_says_their_length():
    assert shown("ab") == "'ab'"
    assert shown(HUGE).endswith("… (20,000,002 characters)") and len(shown(HUGE)) < 120
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert shown(deep) == "a list nested too deeply to show"
