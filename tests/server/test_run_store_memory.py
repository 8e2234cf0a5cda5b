"""The run store keeps no corpus past its request: a failed run is remembered as its sentence (not its
exception, whose frames hold the settings and their text), and run keys are memoized per session, not in a
module-level cache keyed by the settings."""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
import weakref

import pytest
from apptest_support import APP, ok
from pool_support import fresh
from streamlit.testing.v1 import AppTest

from server import jobs, run_keys, run_store
from ui import runs
from ui.settings import Settings

BIG = jobs.MAX_CORPUS_BYTES + 1_000_000  # over the limit: the worker refuses it


def big_text() -> str:
    return f"{time.time_ns()} {os.getpid()} " + "hug pug " * (BIG // 8)


# multiprocessing's queue feeder thread keeps the last message it sent (its loop variable) until it sends
# the next: one pickled job per pool lane, whoever sent it, so not counted here.
FEEDER = tracemalloc.Filter(False, "*/multiprocessing/queues.py", all_frames=True)


@pytest.mark.timeout(300)
def test_a_failed_run_keeps_neither_its_settings_nor_its_text():
    gc.collect()
    tracemalloc.start(30)
    try:
        settings = Settings(source="text", text=big_text(), limit_value=5)
        held = weakref.ref(settings)
        for _ in range(2):  # trained and refused, then refused from the store's failures
            with pytest.raises(ValueError, match=f"larger than {jobs.MAX_CORPUS_BYTES // 1_000_000} MB") as caught:
                runs.train(settings, block=True)
        assert caught.value.__context__ is None  # a new exception, not one kept and raised again
        del settings, caught
        gc.collect()
        kept = sum(t.size for t in tracemalloc.take_snapshot().filter_traces([FEEDER]).traces)
    finally:
        tracemalloc.stop()
    assert held() is None, [type(r).__name__ for r in gc.get_referrers(held())]
    assert kept < BIG // 4, f"{kept / 2**20:.1f} MiB still held"


def test_the_failure_is_kept_as_its_sentence():
    settings = Settings(source="text", text=big_text(), limit_value=5)
    with pytest.raises(ValueError):
        runs.train(settings, block=True)
    kept = run_store.RUNS.failures[runs.run_key(settings)]
    assert isinstance(kept, str) and f"larger than {jobs.MAX_CORPUS_BYTES // 1_000_000} MB" in kept


def test_run_keys_tell_settings_apart_and_follow_the_text_not_its_object():
    a = Settings(source="text", text="ab " * 10)
    assert runs.run_key(a) == runs.run_key(Settings(source="text", text="".join(["ab "] * 10)))
    assert runs.run_key(a) != runs.run_key(Settings(source="text", text="ab " * 11))
    assert runs.run_key(a) != runs.run_key(Settings(source="counts", counts="ab " * 10))
    # each field is framed by its name and length: moving characters between fields changes the key
    assert runs.run_key(Settings(text="a", counts="bc")) != runs.run_key(Settings(text="ab", counts="c"))


@pytest.mark.timeout(300)
def test_a_sessions_run_keys_go_with_the_session():
    at = AppTest.from_file(APP, default_timeout=120)
    ok(at.run())
    memo = at.session_state["bpe_explorer"]["run_keys"]
    assert 0 < len(memo) <= run_keys.RUN_KEYS_KEPT  # memoized in the session, not in the module
    assert not hasattr(runs.run_key, "cache_info")


def test_a_pasted_run_goes_when_the_last_session_showing_it_ends():
    """A class's pasted corpora would keep the server hundreds of MB over its idle size after everyone had gone
    (each wave of pastes left its run): a run of a corpus a session brought goes with the last session that
    showed it; a preset's run, everyone's, stays."""
    store = run_store.RunStore()
    pasted, preset = runs.train(fresh(limit_value=6), block=True), runs.train(fresh(limit_value=7), block=True)
    store.put("pasted", pasted, 1000)
    store.put("preset", preset, 1000)
    store.shown("a", "pasted")
    store.shown("b", "pasted")
    store.release("a")
    assert "pasted" in store.runs  # session b still shows it
    before = store.nbytes
    store.release("b")
    assert "pasted" not in store.runs and "preset" in store.runs
    assert store.nbytes == before - 1000 - pasted.cache.budget
    assert not store.shown_by


@pytest.mark.timeout(300)
def test_the_train_page_ties_a_pasted_run_to_its_session():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["text"] = fresh().text
    at.query_params["limit_value"] = "5"
    ok(at.run())
    key = runs.run_key(at.session_state["bpe_explorer"]["settings"])
    assert key in run_store.RUNS.runs
    (session,) = run_store.RUNS.shown_by[key]
    run_store.RUNS.release(session)  # what the server does when Streamlit lets the expired session go
    assert key not in run_store.RUNS.runs
