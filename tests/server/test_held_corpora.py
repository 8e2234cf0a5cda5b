"""The corpus texts sessions hold count against the trained runs' memory budget (server/run_store.py
``RunStore.hold``): a big upload makes the oldest runs go, and a session that ends gives its room back."""

from __future__ import annotations

import bpe
from server import run_store


def a_run(text: str) -> bpe.History:
    return bpe.run_training([text], pre_tokenizer="whitespace", num_merges=3)


def test_a_held_corpus_makes_the_oldest_runs_go_and_its_session_gives_the_room_back(monkeypatch):
    store = run_store.RunStore()
    for name in ("old", "newer", "newest"):
        store.put(name, a_run(f"hug pug {name}"), 1_000)  # each counted with its cache's budget
    monkeypatch.setattr(run_store, "RUN_MEMORY_BUDGET", store.nbytes + 1_000)
    store.hold("session-1", "train", 1_001)  # past the budget by one byte: the oldest run goes
    assert list(store.runs) == ["newer", "newest"] and store.nbytes <= run_store.RUN_MEMORY_BUDGET
    store.hold("session-1", "train", 100)  # a smaller corpus replaces the big one: counted once
    assert store.nbytes == sum(size for _, size in store.runs.values()) + 100
    store.hold("session-1", "check", 50)
    store.release("session-1")
    assert store.nbytes == sum(size for _, size in store.runs.values()) and not store.held
