"""A run's one cache: each kind of entry within its part of the byte budget, least recently used dropped
first, safe to share between threads, and pickled empty."""

from __future__ import annotations

import pickle
import threading

import bpe
from bpe.run_cache import ENTRY_BYTES, LIMITS, PER_MERGE, PER_TOKEN, CacheView, RunCache


def test_a_kind_keeps_within_its_part_dropping_the_least_recently_used_first():
    cache = RunCache()
    cache.limit("row", 3 * (ENTRY_BYTES + 10))
    for name in "abc":
        cache.put(("row", name), name, 10)
    assert cache.get(("row", "a")) == "a"  # now the most recently used
    cache.put(("row", "d"), "d", 10)
    assert [k for k, _ in cache.items("row")] == [("row", "c"), ("row", "a"), ("row", "d")]
    assert cache.nbytes == 3 * (ENTRY_BYTES + 10) <= cache.budget


def test_one_kind_never_pushes_out_another():
    cache = RunCache()
    cache.put(("view", "chart"), "kept", 1_000)
    for i in range(10_000):  # a sweep over every word's split
        cache.put(("split", i, 1), (i,), LIMITS["split"] // 1_000)
    assert cache.get(("view", "chart")) == "kept"
    assert 0 < len(cache.items("split")) * (LIMITS["split"] // 1_000 + ENTRY_BYTES) <= LIMITS["split"]


def test_an_entry_larger_than_its_part_is_made_but_not_kept():
    cache = RunCache()
    made = []
    for _ in range(2):
        value = cache.get_or_make(("tokenizer", 5), lambda: made.append(1) or "tok", size=1)
        assert value == "tok"
    assert made == [1, 1] and cache.items("tokenizer") == []  # a bare run has no room for tokenizers
    cache.fit_to(num_merges=10, vocab_size=100)
    assert cache.limits["tokenizer"] == PER_TOKEN["tokenizer"] * 100
    assert cache.limits["view"] == LIMITS["view"] + PER_MERGE["view"] * 10
    assert cache.get_or_make(("tokenizer", 5), lambda: made.append(1) or "tok", size=1) == "tok"
    assert cache.get_or_make(("tokenizer", 5), lambda: made.append(1) or "other", size=1) == "tok"
    assert made == [1, 1, 1]


def test_threads_making_the_same_entry_all_get_the_one_kept():
    cache = RunCache()
    start = threading.Barrier(8)
    got = []

    def ask(n: int) -> None:
        start.wait()
        got.append(cache.get_or_make(("view", "same"), lambda: [n], size=10))

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = cache.get(("view", "same"))
    assert kept is not None and len(got) == 8 and all(g is kept for g in got)
    assert len(cache.items("view")) == 1 and cache.nbytes == 10 + ENTRY_BYTES


def test_a_run_crosses_processes_with_an_empty_cache_of_the_same_parts():
    history = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, num_merges=4)
    history.state(4).provenance_sentence()
    history.cache.fit_to(history.num_merges, len(history.symbols))
    assert len(history.cache) > 0
    copy = pickle.loads(pickle.dumps(history))
    assert len(copy.cache) == 0 and copy.cache.limits == history.cache.limits
    assert copy.state(4).provenance_sentence() == history.state(4).provenance_sentence()


def test_a_cache_view_is_a_dict_for_chips():
    cache = RunCache()
    chips = CacheView(cache, "chip")
    assert chips.get("a") is None
    chips["a"] = "<span>a</span>"
    assert chips.get("a") == "<span>a</span>" and cache.items("chip") == [(("chip", "a"), "<span>a</span>")]
