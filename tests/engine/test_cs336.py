"""Stanford CS336 compatibility: the greatest-bytes tie rule against an independent CS336-style trainer
(tests/students.py), the handout's worked example as a preset, and the export in CS336's shapes."""

from __future__ import annotations

import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from students import GPT2_PAT, cs336_train

import bpe
from bpe.formats.cs336 import cs336_vocab_merges, read_cs336_json, read_cs336_pickle, to_cs336_json, to_cs336_pickle
from bpe.presets import PRESETS
from bpe.tie_order import token_bytes

# Stanford CS336 assignment 1, section 2.4 (the BPE training example), as printed in the handout.
HANDOUT_MERGES = ["s t", "e st", "o w", "l ow", "w est", "n e", "ne west", "w i", "wi d", "wid est", "low e", "lowe r"]


def our_byte_merges(text, n, rule, pre_tokenizer="gpt2"):
    states = list(bpe.train_steps([text], pre_tokenizer=pre_tokenizer, num_merges=n, tie_break=rule))
    return [(token_bytes(s.pair[0], pre_tokenizer), token_bytes(s.pair[1], pre_tokenizer)) for s in states[1:]]


@given(text=st.text(alphabet="ab c\nd'é🙂Ġ", max_size=60).filter(lambda t: t.strip()), n=st.integers(1, 25))
@settings(max_examples=examples(150), deadline=None)
def test_greatest_bytes_agrees_with_a_cs336_trainer(text, n):
    _, merges = cs336_train(text, n, special_tokens=(), pattern=GPT2_PAT)
    assert our_byte_merges(text, n, "greatest-bytes") == merges


def test_greatest_as_shown_and_as_bytes_differ_on_the_space_character():
    # " t at": (Ġ, t), (Ġ, a) and (a, t) tie at 1; Ġ (U+0120) is a late character but an early byte (0x20)
    assert our_byte_merges(" t at", 1, "greatest") == [(b" ", b"t")]
    assert our_byte_merges(" t at", 1, "greatest-bytes") == [(b"a", b"t")]
    assert "greatest-bytes" in bpe.TIE_RULE_SENTENCES["greatest"]


def test_the_cs336_preset_reproduces_the_handouts_merges():
    p = PRESETS["cs336"]
    states = list(bpe.train_steps(p.corpus(), **p.options))
    assert [" ".join(s.pair) for s in states[1:]] == HANDOUT_MERGES
    _, merges = cs336_train(p.texts[0], 12, pattern=None)  # the independent trainer, on bytes
    assert [f"{a.decode()} {b.decode()}" for a, b in merges] == HANDOUT_MERGES


def test_the_smallest_pair_rule_is_kept():
    p = PRESETS["cs336"]
    states = list(bpe.train_steps(p.corpus(), **{**p.options, "tie_break": "lexicographic"}))
    assert " ".join(states[1].pair) == "e s"


def test_export_in_cs336_shapes_round_trips_as_json_and_plain_pickle():
    p = PRESETS["cs336"]
    merges = [s.pair for s in list(bpe.train_steps(p.corpus(), **p.options))[1:]]
    vocab, byte_merges = cs336_vocab_merges(merges, "whitespace", ["<|endoftext|>"])
    assert vocab[0] == b"<|endoftext|>" and vocab[1 + ord("a")] == b"a" and len(vocab) == 1 + 256 + 12
    assert [vocab[i] for i in range(257, 263)] == [b"st", b"est", b"ow", b"low", b"west", b"ne"]  # the handout's
    assert byte_merges[0] == (b"s", b"t")
    assert read_cs336_json(to_cs336_json(vocab, byte_merges)) == (vocab, byte_merges)
    data = to_cs336_pickle(vocab, byte_merges)
    assert read_cs336_pickle(data) == (vocab, byte_merges)
    assert pickle.loads(data) == {"vocab": vocab, "merges": byte_merges}  # plain types: loads anywhere
    assert json.loads(to_cs336_json(vocab, byte_merges))["merges"][1] == ["e", "st"]


def test_export_of_a_byte_level_run_maps_byte_characters_back():
    vocab, merges = cs336_vocab_merges([("Ġ", "t"), ("h", "e"), ("Ġt", "he")], "gpt2")
    assert merges == [(b" ", b"t"), (b"h", b"e"), (b" t", b"he")] and vocab[258] == b" the"


def test_export_refuses_a_character_level_token_of_several_bytes():
    try:
        cs336_vocab_merges([("é", "t")], "whitespace")
    except ValueError as exc:
        assert "256 bytes" in str(exc) and "'é'" in str(exc)
    else:
        raise AssertionError("expected a ValueError")
