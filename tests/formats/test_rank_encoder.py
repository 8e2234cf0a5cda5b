"""Rank files encoded by rank (bpe/models/rank_bpe.py, bpe/pipeline/rank_encoder.py), against tiktoken, and their merges
derived only when a merge view asks: the speed must not cost exactness."""

from __future__ import annotations

import base64
import json

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizer_families import random_text
from tokenizer_files import byte_level_bpe, rank_file

from bpe import pre_tokenizers as pt
from bpe.corpora import corpus_lines
from bpe.formats import rank_files
from bpe.formats.rank_files import PATTERNS, from_tiktoken, read_ranks
from bpe.models.rank_bpe import rank_bounds, rank_bounds_heap
from server import uploads


@pytest.fixture(scope="module")
def reachable() -> dict[bytes, int]:
    """A byte-level BPE trained by ``tokenizers`` as a rank table: the 256 bytes, then each merge's token."""
    tok = byte_level_bpe(corpus_lines(5_000), 800)
    out = {bytes([b]): b for b in range(256)}
    for a, b in json.loads(tok.to_str())["model"]["merges"]:
        out.setdefault(pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b), len(out))
    return out


def with_unreachable(ranks: dict[bytes, int], moved: int = 60) -> dict[bytes, int]:
    """``ranks`` with ``moved`` of its longer tokens moved to just after the 256 bytes: no merge of lower
    ranks builds them (as in Llama 3's tokenizer.model), yet tiktoken makes them."""
    order = sorted(ranks, key=ranks.get)
    longer = [t for t in order[256:] if len(t) >= 3][::7][:moved]
    rest = [t for t in order[256:] if t not in set(longer)]
    return {t: i for i, t in enumerate(order[:256] + longer + rest)}


@pytest.fixture(scope="module", params=["reachable", "unreachable"])
def pair(request, reachable):
    table = reachable if request.param == "reachable" else with_unreachable(reachable)
    ours = from_tiktoken(rank_file(table).encode(), "o200k", special_tokens={})
    theirs = tiktoken.Encoding(name=request.param, pat_str=PATTERNS["o200k"], mergeable_ranks=table, special_tokens={})
    return table, ours, theirs


WORDS = sorted({w for line in corpus_lines(2_000) for w in line.split()})[:300]
# long runs (the heap, over 16 bytes), words of tokens glued together, and any assigned characters
long_word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=17, max_size=120)
texts = (
    st.lists(
        st.sampled_from(WORDS) | st.sampled_from([" ", "  ", "\n", "'s", "日本語", "é", "🙂"]) | long_word, max_size=20
    ).map("".join)
    | st.lists(st.sampled_from(WORDS), min_size=2, max_size=6).map("".join)
    | random_text
)


@given(text=texts)
@settings(max_examples=examples(200), deadline=None)
def test_the_by_rank_encoder_equals_tiktoken_on_random_strings(pair, text):
    """For a rank file whose every token is built from lower ranks and for one with 60 that are not."""
    _, ours, theirs = pair
    want = theirs.encode_ordinary(text)
    assert ours.encode(text) == want  # the ids-only path, cold then warm (its word cache)
    assert ours.encode(text) == want
    assert list(ours.encode_full(text).ids) == want


def test_a_k_merges_view_encodes_with_the_ranks_below_its_last_merge(pair):
    """with_merges(k) keeps the ranks below the k-th merge's token: tiktoken on the cut table, and the
    view's word cache is its own (the full tokenizer's ids are not reused)."""
    table, ours, _ = pair
    text = " ".join(corpus_lines(3_000))
    full = ours.encode(text)
    k = 200
    limit = table[pt.symbols_to_bytes(ours.merges[k][0] + ours.merges[k][1])]
    cut = {t: r for t, r in table.items() if r < limit}
    small = tiktoken.Encoding(name="cut", pat_str=PATTERNS["o200k"], mergeable_ranks=cut, special_tokens={})
    assert ours.with_merges(k).encode(text) == small.encode_ordinary(text) != full
    assert ours.encode(text) == full


def test_merges_are_derived_only_when_a_merge_view_asks_and_equal_the_eager_ones(pair, monkeypatch):
    table, _, _ = pair
    calls, derive = [], rank_files.reachable_merges

    def counting(ranks):
        calls.append(len(ranks))
        return derive(ranks)

    monkeypatch.setattr(rank_files, "reachable_merges", counting)
    tok = from_tiktoken(rank_file(table), "o200k", special_tokens={})
    tok.encode("The merge tree of a token.")
    tok.encode_full("The merge tree of a token.")
    assert calls == [] and not tok.derived  # loading and encoding need no merges
    eager, unreachable = derive(table)  # the eager derivation, on the file's bytes
    assert tok.merges == [(pt.bytes_to_symbols(a), pt.bytes_to_symbols(b)) for a, b in eager]
    assert calls == [len(table)]
    tok.merge_tree(tok.merges[-1][0] + tok.merges[-1][1])
    tok.trace("a token")
    assert calls == [len(table)]  # once
    assert bool(unreachable) == bool(tok.notes)
    if unreachable:
        assert f"{len(unreachable):,} tokens of this rank file cannot be built" in tok.notes[0]
        assert tok.unreachable(tok.id_to_token[unreachable[0]])


@given(
    word=st.text("abc", min_size=2, max_size=60),
    table=st.lists(st.text("abc", min_size=2, max_size=6), max_size=40, unique=True),
    limit=st.integers(0, 45),
)
@settings(max_examples=examples(300), deadline=None)
def test_the_heap_merges_as_the_scan_does(word, table, limit):
    ranks = {t: r for r, t in enumerate(table)}
    assert rank_bounds_heap(ranks.get, word, limit) == rank_bounds(ranks.get, word, limit)


line = st.tuples(st.binary(min_size=0, max_size=6), st.integers(0, 10**6))


@given(rows=st.lists(line, min_size=1, max_size=20), blank=st.booleans(), crlf=st.booleans())
@settings(max_examples=examples(200), deadline=None)
def test_the_fast_reading_of_a_rank_file_reads_as_the_line_by_line_one(rows, blank, crlf):
    """Well-formed or not: the same table, or the same sentence (from the line-by-line reading)."""
    base = [(bytes([b]), 2_000_000 + b) for b in range(256)]
    lines = [f"{base64.b64encode(t).decode() or '='} {r}" for t, r in base + rows]
    text = ("\r\n" if crlf else "\n").join(lines[:5] + ([""] if blank else []) + lines[5:])
    try:
        want = rank_files._read_ranks(text, "f")
    except ValueError as exc:
        with pytest.raises(ValueError) as got:
            read_ranks(text.encode(), "f")
        assert str(got.value) == str(exc)
    else:
        assert read_ranks(text.encode(), "f") == want
        assert rank_files._read_ranks_fast(text.encode()) == want  # a well-formed file takes the fast way


def test_a_rank_file_read_for_the_server_arrives_with_its_merges_derived(reachable):
    """The upload's reading process derives the merges (it reads the notes), so the merge views never
    derive them in the server, holding other sessions."""
    (tok, used, _), _ = uploads.parse("files", {"r.tiktoken": rank_file(reachable).encode()}, "gpt2", "o200k")
    assert used == "r.tiktoken" and tok.derived
    assert tok.encode("the merge tree") == from_tiktoken(rank_file(reachable), "o200k").encode("the merge tree")


def test_the_ids_cache_keeps_short_words_only_and_stays_bounded(pair, monkeypatch):
    """encode()'s word cache: a word over 256 characters is encoded but not kept, and a cache that would
    overflow starts again with the words of this call (the ids stay tiktoken's throughout)."""
    from bpe.pipeline import rank_encoder

    _, ours, theirs = pair
    ours.clear_caches()
    long = "x" * 300
    text = f"hello {long} world"
    assert ours.encode(text) == theirs.encode_ordinary(text)
    assert long not in ours.text.ids_cache and " world" in ours.text.ids_cache
    monkeypatch.setattr(rank_encoder, "WORD_CACHE_SIZE", 4)
    many = " ".join(WORDS[:20])
    assert ours.encode(many) == theirs.encode_ordinary(many)
    assert ours.text.ids_cache and set(ours.text.ids_cache) <= set(
        ours.pipeline.fast.findall(many)
    )  # started again with this call's words
    assert ours.encode(many) == theirs.encode_ordinary(many)
