"""Tests for bpe.trainer: the seeds' printed outputs, the naive reference, and tokenizers' BpeTrainer."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from naive import naive_train

import bpe

HUG = "hug 10\npug 5\npun 12\nbun 4\nhugs 5"
COURSE = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
NOTEBOOK = [
    "This is the world's first item.",
    "This is about ancient history.",
    "This section shows several ancient items and scripts.",
    "Hopefully, you will be able to understand how they are formed and generated in old times.",
]


def hug_states(**options):
    return list(bpe.train_steps(bpe.parse_word_counts(HUG), **options))


# -- golden cases from the seeds ------------------------------------------------------------------
def test_hug_walkthrough_matches_the_course():
    """Hugging Face course, chapter 6.5: ug 20, un 16, hug 15, with the printed vocab and corpus."""
    states = hug_states(num_merges=3)
    assert [(s.pair, s.count, s.new_token) for s in states[1:]] == [
        (("u", "g"), 20, "ug"),
        (("u", "n"), 16, "un"),
        (("h", "ug"), 15, "hug"),
    ]
    assert states[0].vocab == ("b", "g", "h", "n", "p", "s", "u")
    assert dict(states[1].splits) == {
        "hug": ("h", "ug"),
        "pug": ("p", "ug"),
        "pun": ("p", "u", "n"),
        "bun": ("b", "u", "n"),
        "hugs": ("h", "ug", "s"),
    }
    assert states[1].vocab == ("b", "g", "h", "n", "p", "s", "u", "ug")
    assert dict(states[2].splits) == {
        "hug": ("h", "ug"),
        "pug": ("p", "ug"),
        "pun": ("p", "un"),
        "bun": ("b", "un"),
        "hugs": ("h", "ug", "s"),
    }
    assert states[3].vocab == ("b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug")
    assert dict(states[3].splits) == {
        "hug": ("hug",),
        "pug": ("p", "ug"),
        "pun": ("p", "un"),
        "bun": ("b", "un"),
        "hugs": ("hug", "s"),
    }
    assert states[1].pair_counts[("h", "u")] == 15
    assert states[2].pair_counts[("h", "ug")] == 15
    assert states[3].stop_reason == "num_merges"


def test_provenance_says_where_the_count_comes_from():
    s = hug_states(num_merges=1)[1]
    assert s.provenance_sentence() == "ug = hug 10 + pug 5 + hugs 5"
    assert sum(c.total for c in s.provenance()) == s.count


def brute_provenance(state, pair, limit):
    """Every word's share of a pair's count at the step it was chosen from, by rebuilding every split."""
    h = state.history
    after = max(state.step - 1, 0)
    shares = []
    for i, _word in enumerate(h.words):
        split = [h.symbols[x] for x in h.split_ids_at(i, after)]
        occ = sum(1 for p in zip(split, split[1:]) if p == pair)
        if occ:
            shares.append((-occ * h.freqs[i], i, occ))
    shares.sort()
    return shares[:limit], -sum(s for s, _, _ in shares)


def test_provenance_of_names_the_largest_shares_exactly():
    s = hug_states(num_merges=2)[2]
    assert s.provenance_of([("u", "n"), ("h", "ug")]) == {("u", "n"): "pun 12 + bun 4", ("h", "ug"): "hug 10 + hugs 5"}
    assert s.provenance_of([("u", "n")], limit=1) == {("u", "n"): "pun 12 + 4 in other words"}
    aaa = bpe.train_steps({"aaaa": 3, "aa": 5, "baab": 1}, num_merges=1)
    assert list(aaa)[1].provenance_of([("a", "a")]) == {("a", "a"): "aaaa 3×3 + aa 5 + baab 1"}


@pytest.mark.parametrize("tie_break", ["first", "hf"])
@given(
    corpus=st.dictionaries(
        st.text(alphabet="aab\0c", min_size=1, max_size=9), st.integers(1, 9), min_size=1, max_size=12
    ),
    step=st.integers(0, 12),
    limit=st.integers(1, 4),
)
@settings(max_examples=examples(120), deadline=None)
def test_provenance_of_equals_a_scan_of_every_word(tie_break, corpus, step, limit):
    history = bpe.run_training(corpus, num_merges=12, tie_break=tie_break)
    s = history.state(min(step, history.num_merges))
    for pair, count in s.top_pairs(8):
        shown, total = brute_provenance(s, pair, limit)
        h = s.history
        words = " + ".join(
            f"{h.words[i]} {h.freqs[i]}" if occ == 1 else f"{h.words[i]} {occ}×{h.freqs[i]}" for _, i, occ in shown
        )
        text = s.provenance_of([pair], limit=limit)[pair]
        assert total == count
        assert text.startswith(words)  # the same words, in the same order
        rest = count + sum(share for share, _, _ in shown)  # what the words not named add
        others = len(brute_provenance(s, pair, len(h.words))[0]) - len(shown)
        more = f"{others:,} more word" + ("" if others == 1 else "s")
        tails = {f" + {rest:,} in {more}", f" + {rest:,} in other words"} if rest else {""}
        assert text[len(words) :] in tails


def sentence_from_every_word(state, limit):
    """The provenance sentence from every rewritten word's share (``provenance()``), as it was built before
    it learned to rebuild only the largest shares: the reference the fast sentence must equal."""
    parts = state.provenance()
    if not parts:
        return ""
    if len(parts) > limit:
        parts = sorted(parts, key=lambda c: -c.total)
    text = " + ".join(
        f"{c.word} {c.frequency}" if c.occurrences == 1 else f"{c.word} {c.occurrences}×{c.frequency}"
        for c in parts[:limit]
    )
    if len(parts) > limit:
        more = len(parts) - limit
        text += f" + {more:,} more word{'' if more == 1 else 's'} ({sum(c.total for c in parts[limit:])})"
    return f"{state.new_token} = {text}"


@pytest.mark.parametrize("options", [{"tie_break": "first"}, {"tie_break": "hf"}, {"algorithm": "wordpiece"}])
@given(
    corpus=st.dictionaries(
        st.text(alphabet="aab\0c", min_size=1, max_size=9), st.integers(1, 9), min_size=1, max_size=30
    ),
    limit=st.integers(1, 4),
)
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_provenance_sentence_equals_one_built_from_every_word(options, corpus, limit):
    history = bpe.run_training(corpus, num_merges=12, **options)
    for s in (history.state(k) for k in range(history.num_merges + 1)):
        assert s.provenance_sentence(limit) == sentence_from_every_word(s, limit)


def test_provenance_sentence_of_a_big_merge_rebuilds_only_the_largest_shares(monkeypatch):
    """An early merge of a large corpus rewrites thousands of words; the sentence names eight. It rebuilds
    the words whose spelling could hold the largest shares, not every word the merge rewrote."""
    rng = random.Random(3)
    corpus = {"".join(rng.choice("abcdef") for _ in range(rng.randint(3, 8))): rng.randint(1, 50) for _ in range(3000)}
    history = bpe.run_training(corpus, num_merges=3)
    s = history.state(1)
    expected = sentence_from_every_word(s, 8)
    rebuilt = []
    real = bpe.History.split_ids_at
    monkeypatch.setattr(bpe.History, "split_ids_at", lambda self, i, step: rebuilt.append(i) or real(self, i, step))
    assert s.provenance_sentence() == expected
    assert len(history.words_changed_at(1)) > 300 and len(rebuilt) < 60


def test_splits_kept_on_the_run_are_the_splits_rebuilt_from_the_start(monkeypatch):
    """The run keeps the word splits it rebuilt (one per word and number of its changes applied), so the
    step view's frequent words are not replayed on every step: whatever the order steps are read in,
    and however often the cache starts again, a kept split is the split at that step."""
    from bpe import history as history_module
    from bpe.run_cache import ENTRY_BYTES

    rng = random.Random(5)
    corpus = [" ".join(rng.choice(["hug", "pug", "pun", "bun", "hugs", "aaaa", "abab"]) for _ in range(30))]
    h = bpe.run_training(corpus * 3, num_merges=12)
    fresh = bpe.run_training(corpus * 3, num_merges=12)
    h.cache.limit("split", 25 * (ENTRY_BYTES + history_module.SPLIT_BYTES + 8))  # room for 25 splits at most
    reads = [(i, k) for i in range(len(h.words)) for k in range(h.num_merges + 1)] * 2
    rng.shuffle(reads)
    for i, k in reads:
        fresh.cache.clear()
        assert h.split_ids_at(i, k) == fresh.split_ids_at(i, k)
        assert len(h.cache.items("split")) <= 25
    merges = h.final.merges
    for k in range(h.num_merges + 1):  # and the split each merge so far makes of the word's symbols
        for word in h.words:
            tokens = list(h.splits_at(0)[word])
            for a, b in merges[:k]:
                i = 0
                while i < len(tokens) - 1:
                    if (tokens[i], tokens[i + 1]) == (a, b):
                        tokens[i : i + 2] = [a + b]
                    i += 1
            assert h.splits_at(k)[word] == tuple(tokens)


def expected_provenance(state, pair, limit):
    """provenance_of's text for one pair, from a scan of every word (brute_provenance)."""
    h = state.history
    shown, total = brute_provenance(state, pair, limit)
    everyone = brute_provenance(state, pair, len(h.words))[0]
    text = " + ".join(
        f"{h.words[i]} {h.freqs[i]}" if occ == 1 else f"{h.words[i]} {occ}×{h.freqs[i]}" for _, i, occ in shown
    )
    rest = total + sum(share for share, _, _ in shown)
    more = len(everyone) - len(shown)
    return text, (f" + {rest:,} in {more:,} more word" + ("" if more == 1 else "s")) if rest else ""


@pytest.mark.parametrize("options", [{"tie_break": "first"}, {"algorithm": "wordpiece"}])
@given(
    corpus=st.dictionaries(
        st.text(alphabet="aabc", min_size=1, max_size=9), st.integers(1, 9), min_size=1, max_size=25
    ),
    limit=st.integers(1, 3),
)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_provenance_kept_from_step_to_step_equals_a_scan_of_every_word(options, corpus, limit):
    """Stepping through a run, provenance_of reuses the shares it found for a pair whose count the merges
    in between did not move (the same change-log entry): the text is still a scan of every word's share."""
    history = bpe.run_training(corpus, num_merges=12, **options)
    for s in (history.state(k) for k in range(history.num_merges + 1)):
        pairs = [p for p, _ in s.top_pairs(8)]
        for pair, text in s.provenance_of(pairs, limit=limit).items():
            words, tail = expected_provenance(s, pair, limit)
            assert text.startswith(words) and text[len(words) :] in {tail, tail.split(" in ")[0] + " in other words"}


def test_provenance_of_reuses_the_shares_of_pairs_whose_count_did_not_move(monkeypatch):
    """The chart's "from" tooltips name the words behind the top ten pairs on every step; most of those
    pairs and their counts are the step before's, and their shares are not searched again."""
    rng = random.Random(7)
    corpus = {"".join(rng.choice("abcdefg") for _ in range(rng.randint(3, 9))): rng.randint(1, 40) for _ in range(800)}
    history = bpe.run_training(corpus, num_merges=30)
    from bpe import provenance

    searches, real = [], provenance.largest_shares
    monkeypatch.setattr(provenance, "largest_shares", lambda *a: searches.append(a) or real(*a))
    looked_up = 0
    for k in range(1, history.num_merges + 1):
        s = history.state(k)
        pairs = [p for p, _ in s.top_pairs(10)]
        looked_up += len(pairs)
        texts = s.provenance_of(pairs)
        for pair in pairs[:3]:
            words, tail = expected_provenance(s, pair, 6)
            assert texts[pair] in {words + tail, words + tail.split(" in ")[0] + " in other words"}
    assert len(searches) < looked_up / 2


def test_provenance_reuses_the_candidate_words_of_pairs_it_looked_up_before(monkeypatch):
    """The chart's "from" tooltips look up the top ten pairs on every step, mostly the previous step's
    pairs: the run keeps each pair string's candidate words (counted regex passes, not time), within a bound."""
    from bpe import provenance
    from bpe.run_cache import ENTRY_BYTES

    corpus = [" ".join(f"w{i % 37}x{i % 11}" for i in range(j, j + 40)) for j in range(60)]
    walked, fresh = (bpe.run_training(corpus, num_merges=40) for _ in range(2))
    passes = []
    real = provenance.spelling_bounds
    monkeypatch.setattr(
        provenance,
        "spelling_bounds",
        lambda self, needle, wp: passes.append(needle) or real(self, needle, wp),
    )
    looked_up = 0
    for k in range(1, walked.num_merges + 1):
        pairs = [p for p, _ in walked.state(k).top_pairs(10)]
        looked_up += len(pairs)
        assert walked.state(k).provenance_of(pairs) == fresh.state(k).provenance_of(pairs)  # fresh: no reuse
        fresh.cache.clear()
    walked_passes = len(passes) - looked_up  # the fresh run made one pass per pair looked up
    assert walked_passes < looked_up / 3
    walked.cache.limit("candidates", 12 * 50 + ENTRY_BYTES)  # room for 50 candidate words at most
    walked.cache.clear()
    for k in range(1, walked.num_merges + 1):
        walked.state(k).provenance_of([p for p, _ in walked.state(k).top_pairs(10)])
        kept = walked.cache.items("candidates")
        assert sum(len(b) for _, (b, _) in kept) <= 50 or len(kept) == 1


@pytest.mark.parametrize("tie_break", bpe.TIE_RULES)
def test_top_pairs_show_the_winner_even_when_many_pairs_tie(tie_break):
    # 60 two-letter words, once each: 60 pairs tie at count 1, far more than the 24 stored per step.
    # Letters shuffled, so the winners are not simply the pairs with the smallest ids.
    letters = [chr(0x100 + i) for i in range(120)]
    random.Random(0).shuffle(letters)
    corpus = {letters[2 * i] + letters[2 * i + 1]: 1 for i in range(60)}
    history = bpe.run_training(corpus, num_merges=30, tie_break=tie_break)
    for k in range(1, history.num_merges + 1):
        s = history.state(k)
        top = s.top_pairs(24)
        assert top[0] == (s.pair, 1)  # chosen from: the winner first
        assert [p for p, _ in top[: len(s.tied)]] == list(s.tied[:24])  # then the tied pairs, in rule order
        assert history.state(k - 1).top_pairs(1, after=True) == [(s.pair, 1)]


def test_changes_list_rewritten_words_and_moved_pairs():
    changes = hug_states(num_merges=2)[2].changes()
    assert changes.words == ("pun", "bun")
    assert dict(changes.vanished) == {("p", "u"): 12, ("u", "n"): 16, ("b", "u"): 4}
    assert dict(changes.appeared) == {("p", "un"): 12, ("b", "un"): 4}


def test_asking_for_too_many_merges_stops_with_no_pair_left():
    states = hug_states(num_merges=100)
    assert states[-1].stop_reason == "no_pairs"
    assert "no pair left" in states[-1].stop_sentence
    assert all(len(s) == 1 for s in states[-1].splits.values())
    assert [s.stop_reason for s in states[:-1]] == [None] * (len(states) - 1)


def test_course_four_sentences():
    """Course 6.5 implementation: word counts, 19 merges, final vocab, tokenize output."""
    counts = bpe.count_words(COURSE, "gpt2")
    expected = {
        "This": 3,
        "Ġis": 2,
        "Ġthe": 1,
        "ĠHugging": 1,
        "ĠFace": 1,
        "ĠCourse": 1,
        ".": 4,
        "Ġchapter": 1,
        "Ġabout": 1,
        "Ġtokenization": 1,
        "Ġsection": 1,
        "Ġshows": 1,
        "Ġseveral": 1,
        "Ġtokenizer": 1,
        "Ġalgorithms": 1,
        "Hopefully": 1,
        ",": 1,
        "Ġyou": 1,
        "Ġwill": 1,
        "Ġbe": 1,
        "Ġable": 1,
        "Ġto": 1,
        "Ġunderstand": 1,
        "Ġhow": 1,
        "Ġthey": 1,
        "Ġare": 1,
        "Ġtrained": 1,
        "Ġand": 1,
        "Ġgenerate": 1,
        "Ġtokens": 1,
    }
    assert counts == expected
    assert list(counts) == list(expected)  # first-seen order, as the literal lists the words
    assert list(counts)[:4] == ["This", "Ġis", "Ġthe", "ĠHugging"]
    tok = bpe.train(COURSE, pre_tokenizer="gpt2", vocab_size=50, special_tokens=["<|endoftext|>"], tie_break="first")
    assert tok.merges == [
        ("Ġ", "t"),
        ("i", "s"),
        ("e", "r"),
        ("Ġ", "a"),
        ("Ġt", "o"),
        ("e", "n"),
        ("T", "h"),
        ("Th", "is"),
        ("o", "u"),
        ("s", "e"),
        ("Ġto", "k"),
        ("Ġtok", "en"),
        ("n", "d"),
        ("Ġ", "is"),
        ("Ġt", "h"),
        ("Ġth", "e"),
        ("i", "n"),
        ("Ġa", "b"),
        ("Ġtoken", "i"),
    ]
    history = bpe.run_training(COURSE, pre_tokenizer="gpt2", vocab_size=50, special_tokens=["<|endoftext|>"])
    assert list(history.final.vocab) == [
        "<|endoftext|>",
        ",",
        ".",
        "C",
        "F",
        "H",
        "T",
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
        "g",
        "h",
        "i",
        "k",
        "l",
        "m",
        "n",
        "o",
        "p",
        "r",
        "s",
        "t",
        "u",
        "v",
        "w",
        "y",
        "z",
        "Ġ",
        "Ġt",
        "is",
        "er",
        "Ġa",
        "Ġto",
        "en",
        "Th",
        "This",
        "ou",
        "se",
        "Ġtok",
        "Ġtoken",
        "nd",
        "Ġis",
        "Ġth",
        "Ġthe",
        "in",
        "Ġab",
        "Ġtokeni",
    ]
    assert history.stop_reason == "vocab_size"
    # The first pair counts the course prints, in its order.
    first_six = list(history.state(0).pair_counts.items())[:6]
    assert first_six == [
        (("T", "h"), 3),
        (("h", "i"), 3),
        (("i", "s"), 5),
        (("Ġ", "i"), 2),
        (("Ġ", "t"), 7),
        (("t", "h"), 3),
    ]
    assert history.state(1).splits["Ġtrained"] == ("Ġt", "r", "a", "i", "n", "e", "d")
    assert tok.tokenize("This is not a token.") == ["This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġtoken", "."]


def test_how_bpe_works_space_suffix():
    """ "How BPE works": aa abc abc -> ab, abc, aa, aa␠ (the streaming version's output)."""
    assert bpe.pre_tokenize("aa abc abc", "space-suffix") == ["aa ", "abc ", "abc"]
    states = list(bpe.train_steps("aa abc abc", pre_tokenizer="space-suffix", num_merges=4))
    assert [s.new_token for s in states[1:]] == ["ab", "abc", "aa", "aa "]


def test_sennrich_algorithm_1_with_end_of_word():
    """ "How BPE works", Sennrich et al.'s Algorithm 1 on {'a a </w>': 1, 'a b c </w>': 1, 'a b c': 1}:
    ab, abc, aa, then ('aa', '</w>') -> aa</w>."""
    corpus = {("a", "a", "</w>"): 1, ("a", "b", "c", "</w>"): 1, ("a", "b", "c"): 1}
    states = list(bpe.train_steps(corpus, num_merges=4))
    assert [(s.pair, s.new_token) for s in states[1:]] == [
        (("a", "b"), "ab"),
        (("ab", "c"), "abc"),
        (("a", "a"), "aa"),
        (("aa", "</w>"), "aa</w>"),
    ]
    assert dict(states[4].splits) == {"a a </w>": ("aa</w>",), "a b c </w>": ("abc", "</w>"), "a b c": ("abc",)}
    assert_same_as_naive(corpus, num_merges=4)


def test_sennrich_pre_tokenizer_appends_end_of_word():
    """Sennrich et al. 2016's example vocabulary: low 5, lower 2, newest 6, widest 3; es, est, est</w> first."""
    states = list(
        bpe.train_steps({"low": 5, "lower": 2, "newest": 6, "widest": 3}, pre_tokenizer="sennrich", num_merges=4)
    )
    assert states[0].splits["low"] == ("l", "o", "w", "</w>")
    assert [s.new_token for s in states[1:]] == ["es", "est", "est</w>", "lo"]


def test_notebook_forced_first_merge():
    """Notebook 003 forces ('Ġ', 't') first, then loops to vocab 50: its 22 merges and tokenize output."""
    tok = bpe.train(
        NOTEBOOK, pre_tokenizer="gpt2", vocab_size=50, special_tokens=["<|endoftext|>"], forced_merges={1: ("Ġ", "t")}
    )
    assert tok.merges == [
        ("Ġ", "t"),
        ("Ġ", "a"),
        ("i", "s"),
        ("h", "is"),
        ("Ġa", "n"),
        ("Ġ", "s"),
        ("T", "his"),
        ("o", "r"),
        ("Ġ", "i"),
        ("t", "e"),
        ("e", "n"),
        ("e", "r"),
        ("Ġ", "is"),
        ("Ġt", "h"),
        ("Ġth", "e"),
        ("Ġ", "w"),
        ("l", "d"),
        ("Ġ", "f"),
        ("s", "t"),
        ("Ġi", "te"),
        ("Ġite", "m"),
        ("Ġa", "b"),
    ]
    assert tok.tokenize("This is not a token.") == ["This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġt", "o", "k", "en", "."]
    history = bpe.run_training(
        NOTEBOOK, pre_tokenizer="gpt2", vocab_size=50, special_tokens=["<|endoftext|>"], forced_merges={1: ("Ġ", "t")}
    )
    assert history.state(1).forced and history.state(1).tie_rule == "forced"
    assert history.state(1).count == 4 and history.state(0).top_pairs(1) == [(("Ġ", "a"), 7)]


def test_wordpiece_on_the_hug_corpus():
    """Course 6.6: (##g, ##s) at 1/20 first, then (h, ##u) at 1/36, tied with every ##u pair."""
    states = hug_states(algorithm="wordpiece", num_merges=2)
    assert states[0].vocab == ("##g", "##n", "##s", "##u", "b", "h", "p")
    assert states[1].pair == ("##g", "##s") and states[1].score == bpe.trainer.Fraction(1, 20)
    assert states[1].new_token == "##gs"
    assert states[2].pair == ("h", "##u") and states[2].score == bpe.trainer.Fraction(1, 36)
    assert states[2].new_token == "hu" and states[2].num_tied == 6


def test_forcing_an_absent_pair_is_a_clear_error():
    with pytest.raises(ValueError, match="does not occur"):
        hug_states(forced_merges={1: ("z", "q")})


def test_overlapping_pairs_merge_left_to_right():
    states = list(bpe.train_steps({"aaa": 1}, num_merges=1))
    assert states[1].count == 2 and states[1].splits["aaa"] == ("aa", "a")
    assert states[1].provenance()[0].occurrences == 2


def test_a_merged_string_that_exists_keeps_its_id():
    # "ab"+"c" and "a"+"bc" both make "abc": the second merge must not add a second "abc".
    states = list(bpe.train_steps({"abc": 5, "xbc": 4, "abz": 3}, tie_break="first"))
    new_tokens = [s.new_token for s in states[1:]]
    vocab = states[-1].vocab
    assert len(vocab) == len(set(vocab))
    reused = [s for s in states[1:] if not s.token_added]
    assert all(s.new_token in states[s.step - 1].vocab for s in reused)
    assert new_tokens  # the run did merge something


def test_min_frequency_stops_training():
    states = hug_states(min_frequency=16)
    assert [s.count for s in states[1:]] == [20, 16]
    assert states[-1].stop_reason == "min_frequency" and "15" in states[-1].stop_sentence


def test_vocab_size_counts_special_tokens():
    states = hug_states(vocab_size=10, special_tokens=["[UNK]"])
    assert states[-1].vocab[0] == "[UNK]" and len(states[-1].vocab) == 10
    assert len(states) - 1 == 2 and states[-1].stop_reason == "vocab_size"


def test_history_state_and_jump_agree_with_the_generator():
    states = list(bpe.train_steps(COURSE, pre_tokenizer="gpt2", vocab_size=60))
    history = states[0].history
    for s in states:
        j = history.state(s.step)
        assert (j.pair, j.count, dict(j.splits), j.vocab) == (s.pair, s.count, dict(s.splits), s.vocab)
    with pytest.raises(ValueError, match="does not exist"):
        history.state(len(states))


# -- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "corpus, options, message",
    [
        ("", {}, "empty"),
        ("   \n\t ", {}, "empty"),
        ({"hug": -1}, {}, "1 or more"),
        ({"hug": 2.5}, {}, "whole number"),
        ({"hug": 10}, {"pre_tokenizer": "bert"}, "Unknown pre-tokenizer"),
        ({"hug": 10}, {"tie_break": "random"}, "Unknown tie rule"),
        ({"hug": 10}, {"algorithm": "unigram"}, "Unknown algorithm"),
        ({"hug": 10}, {"vocab_size": 2}, "at least 3"),
        ({"hug": 10}, {"num_merges": -3}, "0 or more"),
        ({"hug": 10}, {"vocab_size": "50"}, "whole number"),
    ],
)
def test_bad_input_raises_a_clear_value_error(corpus, options, message):
    with pytest.raises(ValueError, match=message):
        bpe.train_steps(corpus, **options)


def test_bad_word_count_line_is_named():
    with pytest.raises(ValueError, match=r"Line 2 \('pug five'\)"):
        bpe.parse_word_counts("hug 10\npug five")
    with pytest.raises(ValueError, match="Line 1"):
        bpe.parse_word_counts("hug")
    with pytest.raises(ValueError, match="1 or more"):
        bpe.parse_word_counts("hug -4")


# -- the fast trainer equals the naive reference ----------------------------------------------------
words = st.text(alphabet="abcab", min_size=1, max_size=7)
corpora = st.dictionaries(words, st.integers(1, 6), min_size=1, max_size=12)


def assert_same_as_naive(corpus, **options):
    states = list(bpe.train_steps(corpus, **options))
    expected, reason = naive_train(corpus, **options)
    assert [s.pair for s in states[1:]] == [m["pair"] for m in expected]
    assert [s.count for s in states[1:]] == [m["count"] for m in expected]
    assert [s.new_token for s in states[1:]] == [m["new_token"] for m in expected]
    assert states[-1].stop_reason == reason
    for s, m in zip(states[1:], expected):
        if s.num_tied <= bpe.trainer.MAX_TIES_KEPT:
            assert set(s.tied) == m["tied"] and s.tied[0] == s.pair
        assert s.num_tied == len(m["tied"])
        assert dict(s.splits) == m["splits"]
        assert dict(s.pair_counts) == m["counts"]
        if m["score"] is not None:
            assert s.score == m["score"]


@pytest.mark.parametrize("tie_break", bpe.TIE_RULES)
@given(corpus=corpora, num_merges=st.integers(0, 12))
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fast_trainer_equals_naive_reference(tie_break, corpus, num_merges):
    assert_same_as_naive(corpus, num_merges=num_merges, tie_break=tie_break)


@pytest.mark.parametrize("tie_break", bpe.TIE_RULES)
@given(text=st.text(alphabet="ab c\nd'é🙂", max_size=60).filter(lambda t: t.strip()), vocab=st.integers(0, 40))
@settings(max_examples=examples(80), deadline=None)
def test_fast_trainer_equals_naive_on_gpt2_texts(tie_break, text, vocab):
    base = len({c for w in bpe.count_words([text], "gpt2") for c in w}) + 1
    assert_same_as_naive(
        [text], pre_tokenizer="gpt2", vocab_size=base + vocab, tie_break=tie_break, special_tokens=["<|endoftext|>"]
    )


@pytest.mark.parametrize("scheme", ["sennrich", "space-suffix"])
@given(text=st.text(alphabet="ab c  a", max_size=40).filter(lambda t: t.strip()), n=st.integers(0, 15))
@settings(max_examples=examples(60), deadline=None)
def test_fast_trainer_equals_naive_for_other_schemes(scheme, text, n):
    assert_same_as_naive(text, pre_tokenizer=scheme, num_merges=n)


@given(corpus=corpora, n=st.integers(0, 8), min_frequency=st.integers(0, 6))
@settings(max_examples=examples(80), deadline=None)
def test_wordpiece_and_min_frequency_equal_naive(corpus, n, min_frequency):
    assert_same_as_naive(corpus, num_merges=n, algorithm="wordpiece", min_frequency=min_frequency)
    assert_same_as_naive(corpus, num_merges=n, min_frequency=min_frequency)


# -- the tokenizers library's BpeTrainer as an oracle ---------------------------------------------
def hf_merges(lines, vocab_size, special_tokens=()):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(special_tokens), show_progress=False)
    tok.train_from_iterator(lines, trainer=trainer)
    model = json.loads(tok.to_str())["model"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]], model["vocab"]


def test_hf_tie_rule_equals_tokenizers_bpe_trainer_on_a_real_corpus():
    from bpe.corpora import corpus_lines

    lines = corpus_lines(200_000)
    expected, hf_vocab = hf_merges(lines, 2000, ["<|endoftext|>"])
    tok = bpe.train(lines, pre_tokenizer="gpt2", vocab_size=2000, special_tokens=["<|endoftext|>"], tie_break="hf")
    assert tok.merges == expected
    assert {t: i for t, i in tok.vocab.items() if i < 2000} == hf_vocab


@given(
    text=st.text(alphabet="ab cd\n,é", min_size=1, max_size=80).filter(lambda t: t.strip()), extra=st.integers(0, 30)
)
@settings(max_examples=examples(60), deadline=None)
def test_hf_tie_rule_equals_tokenizers_on_random_text(text, extra):
    lines = text.split("\n")
    base = len({c for w in bpe.count_words(lines, "gpt2") for c in w})
    expected, _ = hf_merges(lines, base + extra)
    tok = bpe.train(lines, pre_tokenizer="gpt2", vocab_size=base + extra, tie_break="hf")
    assert tok.merges == expected


def test_judge_prediction_explains_right_wrong_and_ties():
    states = hug_states(num_merges=3)
    right, why = states[1].judge_prediction(("u", "g"))
    assert right and "most frequent" in why
    right, why = states[1].judge_prediction(("h", "u"))
    assert not right and "15" in why and "20" in why
    wp = hug_states(algorithm="wordpiece", num_merges=2)
    right, why = wp[2].judge_prediction(("p", "##u"))
    assert not right and why.startswith("Close") and "tie rule" in why


def test_wordpiece_predictions_are_judged_by_score_not_count():
    history = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, algorithm="wordpiece")
    right, why = history.state(1).judge_prediction(("##u", "##g"))
    assert not right and "scores 20 / (36 × 20) = 1/36" in why and "(score 1/20) is higher" in why
    right, why = history.state(1).judge_prediction(("##g", "##s"))
    assert right and "has the best score" in why and "most frequent" not in why


def test_wordpiece_top_scores_rank_every_pair_of_the_step():
    history = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, algorithm="wordpiece")
    for step in range(1, history.num_merges + 1):
        s = history.state(step)
        top = s.top_scores(50)
        assert top[0][0] == s.pair and top[0][2] == s.score  # the winner, with the score it won at
        assert [score for _, _, score in top] == sorted((score for _, _, score in top), reverse=True)
        for pair, count, score in top:
            a, b = pair
            assert score == Fraction(count, s.symbol_count(a) * s.symbol_count(b))


def test_ragged_reads_like_the_list_of_arrays_it_replaces():
    import pickle

    from bpe.history import Ragged

    items = [[1, 2, 3], [], None, [7], list(range(100))]
    ragged = Ragged("I", items)
    assert len(ragged) == 5
    assert [list(x) for x in ragged] == [[1, 2, 3], [], [], [7], list(range(100))]
    assert list(ragged[-1]) == list(range(100)) and [list(x) for x in ragged[1:3]] == [[], []]
    assert not ragged[2]  # an empty item is falsy, as the None it replaces
    with pytest.raises(IndexError):
        ragged[5]
    assert [list(x) for x in pickle.loads(pickle.dumps(ragged))] == [list(x) for x in ragged]


def test_a_finished_run_holds_ties_changes_and_splits_in_a_few_buffers():
    """Thousands of small arrays made a finished run slow to send from the training worker to the
    server (one object each to pickle and unpickle): each sequence is one Ragged after training, and
    every step reads the same as while training."""
    from bpe.history import Ragged

    corpus = ["the cat sat on the mat with the hat", "a bat and a rat sat flat"] * 20
    live = [(s.step, dict(s.splits), s.tied) for s in bpe.train_steps(corpus, num_merges=30)]
    history = bpe.run_training(corpus, num_merges=30)
    assert all(isinstance(seq, Ragged) for seq in (history.ties, history.word_steps, history.initial_splits))
    assert [(k, dict(history.state(k).splits), history.state(k).tied) for k, _, _ in live] == live
