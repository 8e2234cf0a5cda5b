"""One long word must never stall encoding, the merge replay, the merge tree or WordPiece: each is bounded by
the word's length (counted, not timed) and stays exact."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

import bpe
from bpe import merging
from bpe import tokenizer as tkm


def naive_bpe(tok: bpe.Tokenizer, word: str) -> list[str]:
    """The old encoder: merge the lowest-ranked pair, every occurrence left to right, repeat."""
    parts = [s for s, _ in tok.model.initial(word)]
    while len(parts) > 1:
        ranked = [(tok.ranks[p], p) for p in zip(parts, parts[1:]) if p in tok.ranks]
        if not ranked:
            break
        _, best = min(ranked)
        out, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and (parts[i], parts[i + 1]) == best:
                out.append(tok.model.join(*best))
                i += 2
            else:
                out.append(parts[i])
                i += 1
        parts = out
    return parts


@pytest.fixture(scope="module")
def letters_tok():
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 12))) for _ in range(3000)]
    return bpe.train(" ".join(words), num_merges=2000)


def test_a_long_word_is_encoded_in_n_log_n(letters_tok, monkeypatch):
    """A merge must not rescan the whole word, or a word of 100 KB without spaces never ends. Counted, not timed: the heap sees at most a few operations per symbol, each
    O(log n), whatever the machine is doing. (Timings: benchmarks/bench_real_tokenizers.py.)"""
    ops = {"push": 0, "pop": 0}

    def counted(name, fn):
        def wrapper(*args):
            ops[name] += 1
            return fn(*args)

        return wrapper

    monkeypatch.setattr(merging, "heappush", counted("push", merging.heappush))
    monkeypatch.setattr(merging, "heappop", counted("pop", merging.heappop))
    rng = random.Random(1)
    for n in (10_000, 100_000):
        word = "".join(rng.choice("abcdefgh") for _ in range(n))
        ops.update(push=0, pop=0)
        tokens = letters_tok.tokenize(word)
        assert "".join(tokens) == word
        assert 0 < ops["pop"] <= 3 * n and ops["push"] <= 2 * n, (n, ops)


@given(st.text(alphabet="abcdefgh", min_size=1, max_size=80))
@settings(max_examples=examples(100), deadline=None)
def test_heap_merging_equals_merging_pair_by_pair(letters_tok, word):
    assert letters_tok.tokenize(word) == naive_bpe(letters_tok, word)


def test_ties_and_stale_entries_follow_tokenizers():
    """aaaa with (a, a) and (aa, aa): leftmost first, then the pair the merges created."""
    tok = bpe.Tokenizer(["a", "aa", "aaaa"], [("a", "a"), ("aa", "aa")])
    assert tok.tokenize("aaaaa") == ["aaaa", "a"]
    assert tok.tokenize("aaa") == ["aa", "a"]


def test_the_word_cache_is_bounded(letters_tok):
    tok = letters_tok.with_merges(len(letters_tok.merges))
    words = {f"ab{i:x}".replace("1", "c") for i in range(tkm.WORD_CACHE_SIZE + 5000)}
    assert len(words) > tkm.WORD_CACHE_SIZE
    for word in words:
        tok.tokenize(word)
    assert tok.text.cache_info().currsize == tkm.WORD_CACHE_SIZE  # full, and no fuller
    tok.tokenize("a" * 5000)  # longer than WORD_CACHE_MAX_CHARS: not kept
    assert tok.text.cache_info().currsize == tkm.WORD_CACHE_SIZE
    assert tok.model.cache_info().currsize <= tkm.WORD_CACHE_SIZE


def test_the_merge_replay_of_a_long_word_is_bounded_and_exact(letters_tok):
    """A 1,000-character word's replay does not hold every split after every merge."""
    rng = random.Random(3)
    word = "".join(rng.choice("abcdefgh") for _ in range(5000))
    (trace,) = letters_tok.trace(word)
    assert sum(len(s.split) for s in trace.steps) <= tkm.TRACE_BUDGET
    assert trace.omitted > 0
    assert list(trace.tokens) == letters_tok.tokenize(word)
    (small,) = letters_tok.trace(word[:40])
    assert small.omitted == 0 and small.steps[-1].split == small.tokens


def test_merge_tree_of_a_3000_merge_token_does_not_recurse():
    """One word of 3,001 distinct characters, 3,000 merges: its tree is built without recursion."""
    word = "".join(chr(0x4E00 + i) for i in range(3001))
    tok = bpe.train({word: 1}, num_merges=3000)
    assert tok.tokenize(word) == [word]
    tree = tok.merge_tree(word)
    depth, node = 0, tree
    while isinstance(node, tuple):
        node, depth = node[0], depth + 1
    assert depth == 3000 and node == word[0]


class CountingVocab(dict):
    """A vocabulary that counts the lookups WordPiece's longest match makes."""

    lookups = 0

    def __contains__(self, key):
        self.lookups += 1
        return super().__contains__(key)


def test_wordpiece_long_word_is_unk_beyond_max_input_chars():
    """ "h" + "ug" * 1500 must not hold the server: tokenizers makes it [UNK] (over 100 chars) without looking
    at its pieces, and so do we."""
    tok = bpe.train(bpe.parse_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5"), algorithm="wordpiece")
    tok.vocab = CountingVocab(tok.vocab)
    assert tok.tokenize("h" + "ug" * 1500) == ["[UNK]"]
    assert tok.vocab.lookups <= 1  # at most the unknown token itself
    assert tok.tokenize("h" + "ug" * 49) != ["[UNK]"]  # 99 characters: still cut


def test_wordpiece_longest_match_is_bounded_by_the_longest_token():
    """Without the word limit, the longest match tried every end of the word (cubic): now each
    piece tries at most as many ends as the longest token has characters. Counted, not timed."""
    tok = bpe.train(bpe.parse_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5"), algorithm="wordpiece")
    free = bpe.Tokenizer(tok.vocab, [], algorithm="wordpiece", max_input_chars_per_word=10**9)
    free.vocab = CountingVocab(free.vocab)
    longest = max(len(t) for t in free.vocab)
    word = "h" + "ug" * 10_000
    tokens = free.tokenize(word)
    assert "".join(t.removeprefix("##") for t in tokens) == word
    assert free.vocab.lookups <= len(word) * (longest + 1), (free.vocab.lookups, len(word), longest)


def _wordpiece_file(long_token: str, limit: int) -> str:
    """A WordPiece tokenizer.json: letters a-j (and ##a-##j), one very long token, the given limit."""
    import json

    vocab = {"[UNK]": 0}
    for c in "abcdefghij":
        vocab[c] = len(vocab)
        vocab["##" + c] = len(vocab)
    vocab[long_token] = len(vocab)
    vocab["##" + long_token[:50]] = len(vocab)
    model = {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "vocab": vocab}
    model["max_input_chars_per_word"] = limit
    return json.dumps(
        {
            "version": "1.0",
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": {"type": "WhitespaceSplit"},
            "post_processor": None,
            "decoder": None,
            "model": model,
        }
    )


@pytest.mark.timeout(60)
def test_an_uploaded_wordpiece_limit_of_a_million_with_an_8000_character_token_is_bounded():
    """A file lifting max_input_chars_per_word, with one 8,000-character token: each position of an
    8,000-character word tries only the vocabulary's lengths, not every length up to 8,000 (counted), and the
    tokens are tokenizers' own."""
    text = _wordpiece_file("b" * 8_000, 10**6)
    tok = bpe.from_tokenizer_json(text)
    tok.vocab = CountingVocab(tok.vocab)
    word = "a" * 8_000
    tokens = tok.encode_full(word).tokens
    lengths = {len(t) for t in tok.vocab}
    assert tok.vocab.lookups <= len(word) * len(lengths), (
        tok.vocab.lookups
    )  # every length at every position: about 32 million
    tokenizers = pytest.importorskip("tokenizers")
    small = _wordpiece_file("b" * 800, 10**6)
    theirs = tokenizers.Tokenizer.from_str(small)
    for probe in ("a" * 800, "b" * 800 + "ab" * 30, "b" * 801, "ab" + "b" * 50 + "c", "abcz"):
        assert list(bpe.from_tokenizer_json(small).encode_full(probe).tokens) == list(
            theirs.encode(probe, add_special_tokens=False).tokens
        ), probe
    assert list(tokens) == ["a"] + ["##a"] * 7_999


@given(st.lists(st.sampled_from("abcdefgh"), min_size=256, max_size=3000).map("".join))
@settings(max_examples=examples(40), deadline=None)
def test_long_word_buckets_merge_in_the_same_order_as_one_heap(letters_tok, word):
    """Words of 256 symbols or more use a heap per rank; the order (rank, then position) is the same."""
    parts = letters_tok.model.initial(word)
    a_sym, a_units, a_rec = [p for p, _ in parts], [u for _, u in parts], []
    b_sym, b_units, b_rec = list(a_sym), list(a_units), []
    merging._merge_all_buckets(a_sym, a_units, letters_tok.model.table, a_rec)
    merging._merge_all_heap(b_sym, b_units, letters_tok.model.table, b_rec)
    assert (a_sym, a_units, a_rec) == (b_sym, b_units, b_rec)
    assert a_sym == naive_bpe(letters_tok, word)


@given(st.lists(st.sampled_from("abcdefgh"), min_size=2, max_size=merging.SHORT_WORD).map("".join))
@settings(max_examples=examples(100), deadline=None)
def test_short_word_scan_merges_like_the_heap(letters_tok, word):
    """Words of up to SHORT_WORD (32) symbols are merged by scanning for the lowest (rank, position): the
    same result, each pair looked up once and only the two beside a merge again."""
    parts = letters_tok.model.initial(word)
    a_sym, a_units = [p for p, _ in parts], [u for _, u in parts]
    b_sym, b_units = list(a_sym), list(a_units)
    merging._merge_all_scan(a_sym, a_units, letters_tok.model.table)
    merging._merge_all_heap(b_sym, b_units, letters_tok.model.table, None)
    assert (a_sym, a_units) == (b_sym, b_units)


def test_first_k_merges_is_a_view_that_cuts_like_a_tokenizer_built_from_k_merges(letters_tok):
    """with_merges(k) shares the vocabulary and the merge table (a 200,000-token file would be copied per
    session for every move of the k slider) and still cuts exactly like a tokenizer given k merges."""
    rng = random.Random(4)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 400))) for _ in range(60)]
    text = " ".join(words)
    for k in (0, 1, 17, 500, len(letters_tok.merges) - 1, len(letters_tok.merges)):
        view = letters_tok.with_merges(k)
        built = bpe.Tokenizer(letters_tok.vocab, letters_tok.merges[:k])
        assert view.vocab is letters_tok.vocab and view.id_to_token is letters_tok.id_to_token
        assert view.encode_full(text) == built.encode_full(text), k
        assert view.ranks == built.ranks and view.with_merges(min(k, 3)).tokenize(text) == bpe.Tokenizer(
            letters_tok.vocab, letters_tok.merges[: min(k, 3)]
        ).tokenize(text)
        (trace,) = view.trace(words[0])
        assert trace.tokens == built.trace(words[0])[0].tokens
