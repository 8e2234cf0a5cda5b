"""The run store's memory: what it counts for a run is what the run costs in the serving
process, and the C heap gives freed memory back."""

from __future__ import annotations

import pickle
import threading
import time
import tracemalloc
from dataclasses import replace
from types import SimpleNamespace

import pytest
from browser_support import wait_until
from pool_support import fresh, hold, hold_sized

from server import heap, run_store
from ui import runs
from ui.settings import preset_settings

pytestmark = pytest.mark.timeout(240)


def test_the_store_counts_what_a_run_costs_in_the_server():
    """Each run's accounted size against its cost measured here: the bytes tracemalloc sees allocated
    by unpickling it (what the server does with the pool's answer), the step-view allowance aside."""
    for settings in (fresh(limit_value=30), fresh(limit_value=300), replace(preset_settings("hug"))):
        history = runs.train(settings, block=True)
        counted = run_store.RUNS.runs[runs.run_key(settings)][1] - history.cache.budget
        data = pickle.dumps(history)
        tracemalloc.start()
        try:
            copy = pickle.loads(data)
            cost = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert copy.num_merges == history.num_merges
        assert 0.5 * cost <= counted <= 2 * cost, (counted, cost)


def test_trim_gives_free_memory_back():
    assert heap.trim() in (True, False)  # callable everywhere; True where glibc had pages to return


def test_an_evicted_run_is_freed_once_the_session_showing_it_is_gone(monkeypatch):
    """A session steps through a run (its step views cached on it, its downloads offered) and the run
    is evicted while the session still shows it; once the session is gone the run is freed, though the
    heap is frozen each time a run arrives (frozen objects are never collected, server/heap.py)."""
    import gc
    import weakref

    from apptest_support import APP, ok, settle
    from streamlit.testing.v1 import AppTest

    settings = fresh(limit_value=40)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["text"] = settings.text
    at.query_params["limit_value"] = "40"
    at.query_params["step"] = "7"
    ok(settle(at.run()))
    key = runs.run_key(at.session_state["bpe_explorer"]["settings"])
    ref = weakref.ref(run_store.RUNS.get(key))
    monkeypatch.setattr(run_store, "RUN_MEMORY_BUDGET", 1)
    runs.train(fresh(limit_value=30), block=True)  # stored: every older run is evicted
    assert key not in run_store.RUNS.runs
    assert ref() is not None  # the session still shows it
    del at
    gc.collect()
    heap.refreeze(False)  # another run arriving freezes whatever is alive, garbage cycles included
    monkeypatch.setattr(heap, "SWEEP_FIRST_S", 0.2)
    heap.watch_evicted([])  # wakes the sweeper (the server starts it; started here if this test is first)
    if not any(t.name == "bpe-heap-sweeper" for t in threading.enumerate()):
        heap.start_sweeper()
        heap.watch_evicted([])
    wait_until(lambda: ref() is None, 30, "the evicted run to be freed")


def test_a_closed_tabs_session_is_dropped_and_its_evicted_run_freed_on_a_quiet_server():
    """Streamlit drops a closed tab's session only when another session disconnects (its TTLCache
    expires lazily), so on a server nobody leaves any more the run it showed stayed after eviction.
    Tab A shows a run; tab B opens another run, which evicts A's (a 1 MiB budget); then A closes and B stays
    open. The sweeper drops A's session once its time is up (1 s here) and frees A's run.

    A closes only after the eviction: Streamlit expires closed sessions whenever one is saved, so had A closed
    before B opened, on a busy machine A's time could run out before B's opening, and A's run go with it before
    its eviction, leaving the sweeper nothing to free."""
    from pathlib import Path

    from browser_support import AppServer, run_protocol
    from st_client import Session

    async def a_then_b(url: str) -> None:
        a = Session(url, "preset=python-docs&limit=vocab_size&limit_value=301")
        await a.open(timeout=300)
        await a.settle(timeout=300)
        b = Session(url, "preset=python-docs&limit=vocab_size&limit_value=302")
        await b.open(timeout=300)
        await b.settle(timeout=300)
        await a.close()
        log = Path(server.log.name)
        try:  # B stays open (no other disconnect) while the server frees A's run
            await asyncio.to_thread(
                wait_until,
                lambda: "1 evicted of 1 freed" in log.read_text(errors="replace"),
                120,
                lambda: "the closed tab's evicted run to be freed; the log ends:\n" + log.read_text()[-1500:],
            )
        finally:
            await b.close()

    import asyncio

    server = AppServer(env={"BPE_RUN_MEMORY_MIB": "1", "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "1"})
    server.start()
    try:
        run_protocol(a_then_b, server.url)
    finally:
        server.stop()


def test_a_session_that_ended_is_freed_though_the_heap_was_frozen_while_it_lived(monkeypatch):
    """A session's state lives in reference cycles and is frozen with everything alive each time a run is
    stored; once the session ends (``heap.session_ended``, from the session's shutdown) the sweeper collects it,
    with the large value it held (a refused 24 MB paste kept 3.6 GB after one wave of 20 before)."""
    import gc
    import weakref

    class SessionState(dict):  # a stand-in: a dict in a cycle, holding a large value
        pass

    state = SessionState(text="x" * 1_000_000)
    state["self"] = state
    ref = weakref.ref(state)
    del state
    heap.refreeze(False)  # a run stored meanwhile: the session's garbage cycle is frozen too
    gc.collect()
    assert ref() is not None  # frozen: no collection frees it
    monkeypatch.setattr(heap, "SWEEP_FIRST_S", 0.2)
    if not any(t.name == "bpe-heap-sweeper" for t in threading.enumerate()):
        heap.start_sweeper()
    heap.session_ended()
    wait_until(lambda: ref() is None, 30, "the ended session's state to be freed")


def test_a_worker_gives_its_heap_back_after_a_big_run(monkeypatch):
    """Pre-tokenizing a big corpus peaks at several times its size, and glibc kept that peak in the worker
    for the server's life (each of the lane's workers): after a run bigger than the small lane's, the worker
    trims its heap; after a small one it does not spend the time."""
    from server import jobs

    trims = []  # the worker's own calls (the sweeper thread a test before may have started trims too)
    monkeypatch.setattr(jobs, "heap", SimpleNamespace(trim=lambda: trims.append(1) or True))
    options = dict(pre_tokenizer="whitespace", num_merges=1_000)
    text = "hug pug pun bun hugs " * 20_000  # 420,000 characters x 1,000 merges: past the small lane
    assert jobs.estimate_work(dict(source="text", text=text), options) > jobs.SMALL_WORK
    history, nbytes = jobs.train_job(0, dict(source="text", preset="", text=text, counts=""), options)
    assert history.num_merges > 0 and nbytes > 0 and len(trims) == 1
    jobs.train_job(0, dict(source="text", preset="", text="hug pug " * 10, counts=""), options)
    assert len(trims) == 1


def test_the_main_lanes_workers_are_replaced_once_it_is_idle_after_a_big_run():
    """A worker that pre-tokenized a big corpus kept tens of MB its trimmed heap could not give back (one such
    worker per wave of pastes): once the main lane is idle after a big run, its workers end and new ones start."""
    from server import internals, jobs

    pool = jobs._pool()
    before = pool.lanes["main"]
    text = f"{time.time_ns()} " + "hug pug pun bun hugs " * 20_000  # past the small lane's runs
    job = jobs.submit(
        f"big-{time.time_ns()}",
        dict(source="text", preset="", text=text, counts=""),
        dict(pre_tokenizer="whitespace", num_merges=1_000),
        "bare",
        lambda job: None,
    )
    workers = internals.pool_processes(before)
    assert job.lane == "main" and job.future.result(timeout=120)[0].num_merges > 0
    wait_until(lambda: pool.lanes["main"] is not before, 60, "the main lane to be replaced")
    wait_until(lambda: not any(w.is_alive() for w in workers), 60, "the old workers to end")
    assert (
        jobs.submit(  # the new lane trains
            f"small-{time.time_ns()}",
            dict(source="text", preset="", text="hug pug " * 10, counts=""),
            dict(pre_tokenizer="whitespace", num_merges=3),
            "bare",
            lambda job: None,
        )
        .future.result(timeout=120)[0]
        .num_merges
        > 0
    )


def test_a_lanes_worker_grown_by_its_jobs_is_replaced_once_the_lane_is_idle():
    """The small lane's one worker lives as long as the server, and many small runs left it three times a fresh
    worker's size with nothing in it still used (a greedy neighbour's runs: 26 -> 81 MiB for good): once a worker
    of an idle lane has grown GROWN_MIB past a fresh one, the lane's workers end and new ones start."""
    from server import internals, jobs

    pool = jobs._pool()
    jobs._run(jobs._ready, 0.0, lane="small").result(timeout=120)  # the lane's worker started
    before = pool.lanes["small"]
    workers = internals.pool_processes(before)
    pid, size = jobs._run(hold_sized, 2 * jobs.GROWN_MIB, lane="small").result(timeout=120)
    assert pid in {w.pid for w in workers} and size > 2 * jobs.GROWN_MIB
    wait_until(lambda: pool.lanes["small"] is not before, 60, "the small lane to be replaced")
    wait_until(lambda: not any(w.is_alive() for w in workers), 60, "the grown worker to end")
    assert jobs._run(jobs._ready, 0.0, lane="small").result(timeout=120) not in {w.pid for w in workers}


def test_a_small_lanes_worker_that_kept_what_the_greedy_neighbours_check_files_left_is_replaced():
    """The greedy neighbour's Check files and small runs left the small lane's worker 18 MiB above a fresh one
    (26 -> 44 MiB) after everyone had left, with nothing in it still used: the server's memory stayed 5 % higher
    for good. A worker 16 MiB past a fresh one is replaced once its lane is idle."""
    from server import internals, jobs

    pool = jobs._pool()
    jobs._run(jobs._ready, 0.0, lane="small").result(timeout=120)
    wait_until(lambda: not jobs._grown(pool, "small"), 60, "the small lane's workers to settle")
    before = pool.lanes["small"]
    workers = internals.pool_processes(before)
    pid = jobs._run(hold, 16, lane="small").result(timeout=120)
    assert pid in {w.pid for w in workers}
    wait_until(lambda: pool.lanes["small"] is not before, 60, "the small lane to be replaced")


def test_a_workers_size_is_read_from_the_system():
    """What the pool compares to decide a worker has grown."""
    import os

    from server import processes

    assert 5 < processes.rss_mib(os.getpid()) < 10_000
    assert processes.rss_mib(2**22 + 12_345) is None  # no such process
