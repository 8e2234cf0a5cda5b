"""``.tiktoken`` rank files read as tiktoken reads them. The fixture is made offline from a tokenizer trained with the
``tokenizers`` library (bytes ranked by value, then each merge in order), and checked against
tiktoken's own ``Encoding`` built from the same ranks."""

from __future__ import annotations

import json
import unicodedata

import pytest
import tiktoken
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizer_files import rank_file
from tokenizers import decoders, models, trainers
from tokenizers import pre_tokenizers as hf_pre

import bpe
from bpe import pre_tokenizers as pt
from bpe.corpora import corpus_lines
from bpe.formats.rank_files import PATTERNS, from_tiktoken, merges_from_ranks, read_ranks

END = "<|endoftext|>"
TEXTS = [
    "Hello world! This is a test.",
    "Numbers 1234567 3.14159",
    "don't  WON'T I'M",
    "  \n\n  trailing  ",
    "line one  \nline two\t\n",
    "def f(x):\r\n\treturn x ** 2",
    "日本語のテキスト 中文",
    "مرحبا بالعالم",
    "👩‍👩‍👧‍👦 👍🏽 🇫🇷",
    "e\u0301 café",
    f"a{END}b {END} c",
    "",
    " ",
    "x" * 500,
]


@pytest.fixture(scope="module")
def ranks() -> dict[bytes, int]:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        corpus_lines(30_000) + TEXTS * 10,
        trainer=trainers.BpeTrainer(vocab_size=1500, show_progress=False, initial_alphabet=hf_pre.ByteLevel.alphabet()),
    )
    merges = json.loads(tok.to_str())["model"]["merges"]
    out = {bytes([b]): b for b in range(256)}
    for a, b in merges:
        token = pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b)
        out.setdefault(token, len(out))
    return out


@pytest.fixture(scope="module", params=["gpt2", "cl100k", "o200k"])
def pair(request, ranks):
    name = request.param
    specials = {END: len(ranks)}
    ours = from_tiktoken(rank_file(ranks), name, special_tokens=specials)
    theirs = tiktoken.Encoding(
        name=f"test-{name}", pat_str=PATTERNS[name], mergeable_ranks=ranks, special_tokens=specials
    )
    return ours, theirs


def check(ours: bpe.Tokenizer, theirs: tiktoken.Encoding, text: str) -> None:
    ids = theirs.encode(text, allowed_special="all")
    enc = ours.encode_full(text)
    assert list(enc.ids) == ids, text
    assert ours.decode(ids) == theirs.decode(ids), text
    if text:
        assert enc.offsets[0][0] == 0 and enc.offsets[-1][1] == len(text)


def test_rank_file_encodes_like_tiktoken(pair):
    ours, theirs = pair
    for text in TEXTS:
        check(ours, theirs, text)


ASSIGNED = st.characters(exclude_categories=["Cn", "Cs"]).filter(
    lambda c: unicodedata.ucd_3_2_0.category(c) not in ("Cn", "Cs")
)
POOL = list("aZ 9\t\r\n'.,!") + ["  ", "123456", "'s", "'LL", "\n\n", "e\u0301", "👍🏽", END, "日本"]


@given(text=st.lists(st.sampled_from(POOL) | st.text(ASSIGNED, max_size=3), max_size=25).map("".join))
@settings(max_examples=examples(60), deadline=None)
def test_random_text_encodes_like_tiktoken(ranks, text):
    for name in PATTERNS:
        specials = {END: len(ranks)}
        theirs = tiktoken.Encoding(
            name=f"t-{name}", pat_str=PATTERNS[name], mergeable_ranks=ranks, special_tokens=specials
        )
        check(_cached(name, ranks), theirs, text)


_tok_cache: dict[str, bpe.Tokenizer] = {}


def _cached(name, ranks):
    if name not in _tok_cache:
        _tok_cache[name] = from_tiktoken(rank_file(ranks), name, special_tokens={END: len(ranks)})
    return _tok_cache[name]


def test_merges_rebuild_every_token_and_ids_are_ranks(ranks):
    merges = merges_from_ranks(ranks)
    assert len(merges) == len(ranks) - 256
    assert all(a + b in ranks for a, b in merges)
    tok = _cached("cl100k", ranks)
    assert tok.vocab[pt.bytes_to_symbols(b"a")] == ranks[b"a"]
    assert tok.byte_level and tok.merge_tree(tok.tokenize(" the")[0]) != tok.tokenize(" the")[0]


def test_saved_as_tokenizer_json_tokenizers_agrees_with_tiktoken(ranks, tmp_path):
    """The pattern is written with Oniguruma's atomic group and \\z, so tokenizers cuts like tiktoken."""
    ours = _cached("cl100k", ranks)
    bpe.save(ours, tmp_path / "t.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    theirs = tiktoken.Encoding(
        name="t", pat_str=PATTERNS["cl100k"], mergeable_ranks=ranks, special_tokens={END: len(ranks)}
    )
    for text in TEXTS:
        assert hf.encode(text, add_special_tokens=False).ids == theirs.encode(text, allowed_special="all"), text


def test_typed_pattern(ranks):
    tok = from_tiktoken(rank_file(ranks), r"\S+|\s+", special_tokens={})
    theirs = tiktoken.Encoding(name="typed", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    for text in TEXTS:
        assert tok.encode(text) == theirs.encode(text, disallowed_special=())


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "holds no ranks"),
        ("not-base64!! 0\n", "Line 1"),
        ("YQ== x\n", "Line 1"),
        ("YQ== 0\nYQ== 1\n", "repeats"),
        ("YQ== 0\n", "lacks 255 of the 256"),
        (b"\xff\xfe", "not a .tiktoken rank file"),
    ],
)
def test_bad_rank_files_say_why(text, named):
    with pytest.raises(ValueError, match=named):
        read_ranks(text)


def test_bad_pattern_is_refused(ranks):
    with pytest.raises(ValueError, match="not a regex"):
        from_tiktoken(rank_file(ranks), "(?<")


def test_a_pattern_that_runs_too_long_is_stopped_with_a_sentence(ranks, monkeypatch):
    """A typed (or a file's) pattern runs under a time limit, so it cannot hold the server."""
    from bpe import budget

    tok = from_tiktoken(rank_file(ranks), r"(\w|\s)+?(?=!)|.", special_tokens={})
    monkeypatch.setattr(budget, "SECONDS", 1e-6)
    with pytest.raises(ValueError, match="ran longer than"):
        tok.encode("word " * 20_000)


# -- deriving merges grows O(n log n) in a token's length, with the same merges ----------
def _doubling_ranks(longest: int) -> dict[bytes, int]:
    """The 256 single bytes, then b"a" * 2, 4, 8, ... up to ``longest`` bytes."""
    ranks = {bytes([b]): b for b in range(256)}
    k = 2
    while k <= longest:
        ranks[b"a" * k] = len(ranks)
        k *= 2
    return ranks


def _derive_heap_operations(longest: int, monkeypatch) -> int:
    """Heap pushes and pops that deriving the merges of runs of up to ``longest`` bytes takes: a count of
    the work, the same on a loaded machine as on an idle one."""
    from bpe.formats import rank_files

    count = [0]

    def counted(operation):
        def call(*args):
            count[0] += 1
            return operation(*args)

        return call

    monkeypatch.setattr(rank_files, "heappush", counted(rank_files.heappush))
    monkeypatch.setattr(rank_files, "heappop", counted(rank_files.heappop))
    ranks = _doubling_ranks(longest)
    merges = merges_from_ranks(ranks)
    assert merges == [(b"a" * (k // 2), b"a" * (k // 2)) for k in map(len, list(ranks)[256:])]
    monkeypatch.undo()
    return count[0]


def test_deriving_merges_of_long_tokens_grows_about_n_log_n(monkeypatch):
    """A rank file whose tokens are runs of up to n bytes: a scan of every pair after every merge takes
    about n^2 steps per token (a 971 KB file took 44 s); the heap takes n log n, so four times the length
    costs about four times the work (a quadratic scan: sixteen). The time itself is in the benchmarks."""
    small = _derive_heap_operations(2048, monkeypatch)
    large = _derive_heap_operations(8192, monkeypatch)
    assert small > 0 and large / small < 8, (small, large)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.binary(min_size=2, max_size=6), max_size=40),
    st.lists(st.sampled_from(b"abc"), min_size=2, max_size=60),
)
def test_the_heap_split_matches_the_plain_scan(extra, word):
    """The heap derivation merges exactly as tiktoken's plain scan (tests/naive.py), ties included."""
    from naive import naive_rank_split

    from bpe.formats.rank_files import _split_heap

    ranks = {bytes([b]): b for b in range(256)}
    for token in [*extra, b"ab", b"bc", b"aa", b"abc", b"aab", b"bca"]:
        ranks.setdefault(token, len(ranks))
    token = bytes(word)
    for max_rank in (len(ranks), 256 + len(extra) // 2, 258):
        assert _split_heap(ranks, token, max_rank) == naive_rank_split(ranks, token, max_rank)
