"""Issue 14 (long words) and issue 15 #2, #3: one long word must never stall encoding, the merge
replay, the merge tree or WordPiece. Each test here failed (or ran for minutes) on the old code."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe import tokenizer as tkm


def naive_bpe(tok: bpe.Tokenizer, word: str) -> list[str]:
    """The old encoder: merge the lowest-ranked pair, every occurrence left to right, repeat."""
    parts = [s for s, _ in tok._initial(word)]
    while len(parts) > 1:
        ranked = [(tok.ranks[p], p) for p in zip(parts, parts[1:]) if p in tok.ranks]
        if not ranked:
            break
        _, best = min(ranked)
        out, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and (parts[i], parts[i + 1]) == best:
                out.append(tok._join(*best))
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


def test_a_long_word_is_encoded_in_n_log_n(letters_tok):
    """Issue 14: a 20,000-letter word took 1.3 s and 100 KB without spaces ran past 30 s."""
    rng = random.Random(1)
    short = "".join(rng.choice("abcdefgh") for _ in range(10_000))
    long = "".join(rng.choice("abcdefgh") for _ in range(100_000))
    t0 = time.perf_counter()
    letters_tok.tokenize(short)
    t1 = time.perf_counter()
    tokens = letters_tok.tokenize(long)
    t2 = time.perf_counter()
    assert "".join(tokens) == long
    assert t2 - t1 < 5.0, f"100,000 letters took {t2 - t1:.1f} s"
    assert (t2 - t1) / max(t1 - t0, 1e-3) < 25, "10x longer word should cost about 10x, not 100x"


@given(st.text(alphabet="abcdefgh", min_size=1, max_size=80))
@settings(max_examples=100, deadline=None)
def test_heap_merging_equals_merging_pair_by_pair(letters_tok, word):
    assert letters_tok.tokenize(word) == naive_bpe(letters_tok, word)


def test_ties_and_stale_entries_follow_tokenizers():
    """aaaa with (a, a) and (aa, aa): leftmost first, then the pair the merges created."""
    tok = bpe.Tokenizer(["a", "aa", "aaaa"], [("a", "a"), ("aa", "aa")])
    assert tok.tokenize("aaaaa") == ["aaaa", "a"]
    assert tok.tokenize("aaa") == ["aa", "a"]


def test_the_word_cache_is_bounded(letters_tok):
    tok = letters_tok.with_merges(len(letters_tok.merges))
    for i in range(tkm.WORD_CACHE_SIZE + 500):
        tok.tokenize(f"ab{i:x}".replace("1", "c"))
    assert tok._cached_word.cache_info().currsize <= tkm.WORD_CACHE_SIZE
    tok.tokenize("a" * 5000)  # longer than WORD_CACHE_MAX_CHARS: not kept
    assert tok._cached_word.cache_info().currsize <= tkm.WORD_CACHE_SIZE


def test_the_merge_replay_of_a_long_word_is_bounded_and_exact(letters_tok):
    """Issue 15 #1: a 1,000-character word's replay held every split after every merge."""
    rng = random.Random(3)
    word = "".join(rng.choice("abcdefgh") for _ in range(5000))
    (trace,) = letters_tok.trace(word)
    assert sum(len(s.split) for s in trace.steps) <= tkm.TRACE_BUDGET
    assert trace.omitted > 0
    assert list(trace.tokens) == letters_tok.tokenize(word)
    (small,) = letters_tok.trace(word[:40])
    assert small.omitted == 0 and small.steps[-1].split == small.tokens


def test_merge_tree_of_a_3000_merge_token_does_not_recurse():
    """Issue 15 #2: one word of 3,001 distinct characters, 3,000 merges: RecursionError before."""
    word = "".join(chr(0x4E00 + i) for i in range(3001))
    tok = bpe.train({word: 1}, num_merges=3000)
    assert tok.tokenize(word) == [word]
    tree = tok.merge_tree(word)
    depth, node = 0, tree
    while isinstance(node, tuple):
        node, depth = node[0], depth + 1
    assert depth == 3000 and node == word[0]


def test_wordpiece_long_word_is_unk_beyond_max_input_chars():
    """Issue 15 #3: "h" + "ug" * 1500 held the server 57 s; tokenizers makes it [UNK] (over 100 chars)."""
    tok = bpe.train(bpe.parse_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5"), algorithm="wordpiece")
    t0 = time.perf_counter()
    assert tok.tokenize("h" + "ug" * 1500) == ["[UNK]"]
    assert time.perf_counter() - t0 < 1.0
    assert tok.tokenize("h" + "ug" * 49) != ["[UNK]"]  # 99 characters: still cut


def test_wordpiece_longest_match_is_bounded_by_the_longest_token():
    """Without the word limit, the longest match tried every end of the word (cubic)."""
    tok = bpe.train(bpe.parse_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5"), algorithm="wordpiece")
    free = bpe.Tokenizer(tok.vocab, [], algorithm="wordpiece", max_input_chars_per_word=10**9)
    word = "h" + "ug" * 10_000
    t0 = time.perf_counter()
    tokens = free.tokenize(word)
    assert time.perf_counter() - t0 < 3.0
    assert "".join(t.removeprefix("##") for t in tokens) == word
