"""bpe.formats.run_file: a saved run reads back exactly, and a bad file gets a sentence, never a broken run."""

from __future__ import annotations

import struct
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

import bpe
from bpe.formats import run_file
from bpe.ragged import Ragged

COURSE = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5


def parts(history: bpe.History) -> dict:
    out = {}
    for name, value in history.saved_parts().items():
        out[name] = (value.flat, value.start) if isinstance(value, Ragged) else value
    return out


def assert_same(one: bpe.History, other: bpe.History) -> None:
    """The same parts (values and types) and the same answers to what a page asks of a step."""
    a, b = parts(one), parts(other)
    assert a == b
    assert {k: type(v) for k, v in a.items()} == {k: type(v) for k, v in b.items()}
    assert one.config == other.config and one.symbol_ids == other.symbol_ids and one.last_entry == other.last_entry
    for step in sorted({0, one.num_merges // 2, one.num_merges}):
        x, y = one.state(step), other.state(step)
        assert one.top_after(step) == other.top_after(step)
        assert dict(x.splits) == dict(y.splits) and dict(x.pair_counts) == dict(y.pair_counts)
        assert x.stop_sentence == y.stop_sentence and x.vocab == y.vocab


text = st.text(st.sampled_from("aabbcé \n.'😀sZ"), min_size=1, max_size=80)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    corpus=text,
    pre_tokenizer=st.sampled_from(bpe.PRE_TOKENIZERS),
    tie_rule=st.sampled_from(bpe.TIE_RULES),
    algorithm=st.sampled_from(bpe.ALGORITHMS),
    merges=st.integers(0, 25),
    specials=st.lists(st.sampled_from(["<|endoftext|>", "[PAD]"]), max_size=2),
)
def test_a_run_reads_back_exactly(corpus, pre_tokenizer, tie_rule, algorithm, merges, specials):
    try:
        run = bpe.run_training(
            corpus,
            pre_tokenizer=pre_tokenizer,
            num_merges=merges,
            tie_break=tie_rule,
            algorithm=algorithm,
            special_tokens=specials,
        )
    except ValueError:
        return  # only whitespace: no run to save
    assert_same(run_file.loads(run_file.dumps(run)), run)


def test_wordpiece_scores_forced_merges_and_the_byte_alphabet_read_back(tmp_path):
    run = bpe.run_training(COURSE, algorithm="wordpiece", num_merges=6, forced_merges={2: ("p", "##u")})
    assert any(s is not None for s in run.merge_scores) and run.merge_forced[1]
    path = tmp_path / "run.bpe"
    assert run_file.save_run(run, path) == path.stat().st_size
    assert_same(run_file.load_run(path), run)
    byte_run = bpe.run_training(COURSE, pre_tokenizer="gpt2", full_byte_alphabet=True, vocab_size=262)
    assert_same(run_file.loads(run_file.dumps(byte_run, level=1)), byte_run)


def test_words_holding_the_usual_separators_read_back():
    """space-suffix words hold spaces and line breaks, and a text may hold NUL: the separator is one they lack."""
    run = bpe.run_training("a\x00b \nc\x01 a\x00b \n\t", pre_tokenizer="space-suffix", num_merges=3)
    assert_same(run_file.loads(run_file.dumps(run)), run)


def test_a_saved_run_is_compact():
    run = bpe.run_training(COURSE * 50, num_merges=10)
    assert len(run_file.dumps(run)) < run.nbytes()


@pytest.fixture(scope="module")
def saved() -> bytes:
    return run_file.dumps(bpe.run_training(COURSE, pre_tokenizer="gpt2", num_merges=8))


def header_end(data: bytes) -> int:
    _, head_len = struct.unpack_from("<HI", data, len(run_file.MAGIC))
    return len(run_file.MAGIC) + 6 + head_len


@pytest.mark.parametrize(
    ("damage", "sentence"),
    [
        (lambda d: b"", "not a BPE Explorer run file"),
        (lambda d: b'{"model": {"type": "BPE"}}', "not a BPE Explorer run file"),
        (lambda d: d[: len(run_file.MAGIC) + 3], "cut short"),
        (lambda d: d[: header_end(d) - 5], "header is cut short"),
        (lambda d: d[:-20], "damaged"),
        (lambda d: d[: header_end(d)] + b"\x00" * 40, "cannot be decompressed"),
        (lambda d: d.replace(b'"sections"', b'"sectionz"'), "header is not what a run file holds"),
        (lambda d: d.replace(b'"tie_break": "first"', b'"tie_break": "fir5t"'), "Unknown tie rule"),
        (lambda d: d.replace(b'"config"', b'"config['), "header cannot be read"),
    ],
)
def test_a_damaged_file_gets_a_sentence(saved, damage, sentence):
    with pytest.raises(ValueError, match=sentence):
        run_file.loads(damage(saved))


@pytest.mark.parametrize(("version", "advice"), [(0, "Train the run again"), (2, "update this one")])
def test_another_version_gets_a_sentence(saved, version, advice):
    data = saved[: len(run_file.MAGIC)] + struct.pack("<H", version) + saved[len(run_file.MAGIC) + 2 :]
    with pytest.raises(ValueError, match=f"version {version}; this BPE Explorer reads version 1 only. .*{advice}"):
        run_file.loads(data)


def test_parts_that_do_not_fit_together_get_a_sentence():
    """A file whose parts decompress but disagree (lengths, ids past the symbol table) is refused when read,
    not when a page later steps into it."""
    run = bpe.run_training(COURSE, num_merges=4)
    run.finish()
    run.num_ties = run.num_ties[:-1]
    with pytest.raises(ValueError, match="damaged: its num_ties do not fit"):
        run_file.loads(run_file.dumps(run))
    run = bpe.run_training(COURSE, num_merges=4)
    run.merges[0] = (0, 1, 999)
    with pytest.raises(ValueError, match="damaged: its merges do not fit"):
        run_file.loads(run_file.dumps(run))


def test_a_section_longer_than_declared_is_refused(saved):
    end = header_end(saved)
    body = zlib.decompress(saved[end:]) + b"\x00" * 8
    with pytest.raises(ValueError, match="damaged or cut short"):
        run_file.loads(saved[:end] + zlib.compress(body))
