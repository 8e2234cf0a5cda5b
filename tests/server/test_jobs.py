"""Training in the process pool: one job per run however many sessions ask, a page
that waits with progress and a Stop button, and trained runs evicted by memory, not by count."""

from __future__ import annotations

import gc
import os
import random
import re
import string
import sys
import threading
import time
import types
import weakref

import pytest
from apptest_support import APP, alerts, settle, training
from browser_support import wait_until
from pool_support import fresh
from streamlit.testing.v1 import AppTest

from server import internals, jobs, run_keys, run_store
from ui import runs


def test_twenty_sessions_asking_for_the_same_run_train_it_once():
    settings = fresh(limit_value=40)
    key = runs.run_key(settings)
    results, errors = [], []

    def session():
        try:
            results.append(runs.train(settings, block=True))
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=session) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 20
    assert len({id(h) for h in results}) == 1  # every session got the same shared run
    assert jobs.times_trained(key) == 1
    assert runs.train(settings) is results[0] and jobs.times_trained(key) == 1  # later asks hit the store


def test_a_run_that_finishes_between_the_two_looks_is_not_trained_again(monkeypatch):
    """Found by CI: 2 of 20 sessions asking at once trained the run. A session looked in the store
    (not there yet), the job then stored its run and left the table, and the session, finding no
    job, started another. Here the first look is made to miss, as it did in that window."""
    settings = fresh(limit_value=12)
    key = runs.run_key(settings)
    stored = runs.train(settings, block=True)
    # The job leaves the table in its done callback, which runs just after result() returns.
    wait_until(lambda: jobs.job_for(key) is None, 10, "the finished job to leave the table")
    assert jobs.times_trained(key) == 1
    real_get, looks = run_store.RUNS.get, []

    def first_look_misses(k):
        looks.append(k)
        return None if len(looks) == 1 else real_get(k)

    monkeypatch.setattr(run_store.RUNS, "get", first_look_misses)
    assert runs.train(settings, block=True) is stored
    assert jobs.times_trained(key) == 1


def test_training_runs_in_another_process():
    """The serving process only waits: the worker that trained the run is a different process."""
    settings = fresh()
    job = jobs.submit(
        runs.run_key(settings),
        dict(source="text", preset="", text=settings.text, counts=""),
        settings.options(),
        "test",
        lambda job: None,
    )
    job.future.result(timeout=60)
    pids = {p.pid for lane in jobs._pool().lanes.values() for p in internals.pool_processes(lane)}
    assert pids and os.getpid() not in pids


def test_bad_input_comes_back_as_a_value_error_and_is_not_retrained():
    settings = fresh(text="   ")
    with pytest.raises(ValueError, match="empty"):
        runs.train(settings, block=True)
    with pytest.raises(ValueError, match="empty"):
        runs.train(settings, block=True)
    assert jobs.times_trained(runs.run_key(settings)) == 1


def test_a_word_over_the_limit_is_refused_with_a_sentence():
    settings = fresh(text="x" * (jobs.MAX_WORD_CHARS + 1) + " hug", pre_tokenizer="gpt2")
    with pytest.raises(ValueError, match=r"word of 10,001 characters.*limit is 10,000"):
        runs.train(settings, block=True)
    cjk = "训练" * 6_000  # CJK without spaces: one 12,000-character word
    with pytest.raises(ValueError, match="word of 12,000 characters"):
        runs.train(fresh(text=cjk, pre_tokenizer="whitespace"), block=True)
    spaced = "ab-" * 4_000  # a long run without whitespace, but gpt2 cuts it into short words: allowed
    assert runs.train(fresh(text=spaced, pre_tokenizer="gpt2"), block=True).num_merges == 1  # a + b


def test_until_no_pair_is_left_stops_at_the_merge_limit(monkeypatch):
    monkeypatch.setattr(jobs, "MAX_MERGES", 3)  # train_job runs in this process here
    history = jobs.train_job(
        0, dict(source="text", preset="", text="hug pug pun bun hugs", counts=""), dict(pre_tokenizer="whitespace")
    )[0]
    assert history.num_merges == 3


def slow_text(words: int = 30_000) -> str:
    """Random letters: every pair is rare, so a run makes thousands of slow merges (seconds, not ms)."""
    rng = random.Random(time.time_ns())
    return " ".join(
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(6, 14))) for _ in range(words)
    )


def test_a_slow_run_shows_progress_and_stop_and_stopping_frees_the_worker():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["source"], at.session_state["corpus_text"] = "text", slow_text()
    at.session_state["limit"], at.session_state["limit_value"] = "num_merges", 100_000
    before = set(jobs._pool().jobs)
    at.run()
    assert training(at), "a 100,000-merge run of random words should not be ready within a second"
    (key,) = set(jobs._pool().jobs) - before
    assert any(p.proto.text.startswith(("Reading the corpus", "Training… merge")) for p in at.get("progress"))
    job = jobs.job_for(key)
    wait_until(lambda: job.progress() > 0, 120, "the run to make its first merges")
    at.button(key="stop_training").click().run()
    history, _ = job.future.result(timeout=30)  # the worker stopped (it reads the flag every 50 merges)
    assert history.stop_reason == "stopped" and history.num_merges > 0
    wait_until(lambda: any(b.key == "next" for b in at.run().button), 30, "the kept merges to show")
    # The store keeps the longest of the runs kept for this key (run_store.keep): in one full run of the suite in
    # four the page showed 200 merges kept where this future's history had 50. Whatever it shows starts with them.
    kept = run_store.RUNS.get(run_keys.stopped_key(key))
    k = kept.num_merges
    assert k >= history.num_merges and kept.merges[: history.num_merges] == history.merges
    assert (
        f"Training was stopped at merge {k:,} of 100,000: you can step through these {k:,} merges. "
        in alerts(at, "info")[0]
    )
    # The kept merges are a run to step through: Next shows merge 1, End the last one kept.
    assert at.session_state["step"] == 0
    at.button(key="next").click().run()
    assert at.session_state["step"] == 1
    at.button(key="end").click().run()
    assert at.session_state["step"] == k and at.button(key="end").disabled
    assert run_store.RUNS.get(key) is None
    at.button(key="train_again").click().run()
    assert training(at)  # asked again: a new job, for the whole run
    new = jobs.job_for(key)
    assert new is not None and new is not job
    at.button(key="stop_training").click().run()


def test_runs_are_evicted_by_memory_and_freed(monkeypatch):
    history = runs.train(fresh(), block=True)
    size = next(n for h, n in run_store.RUNS.runs.values() if h is history)
    monkeypatch.setattr(run_store, "RUN_MEMORY_BUDGET", 3 * size)
    ref = weakref.ref(history)
    del history
    for _ in range(4):
        runs.train(fresh(), block=True)
        assert run_store.RUNS.nbytes <= run_store.RUN_MEMORY_BUDGET
    gc.collect()
    assert ref() is None  # evicted and freed: nothing (gc.freeze included) keeps it alive


def test_a_run_is_measured_in_the_worker():
    history, nbytes = jobs.train_job(
        0, dict(source="preset", preset="hug", text="", counts=""), dict(pre_tokenizer="whitespace", num_merges=7)
    )
    assert history.num_merges == 7
    assert history.nbytes() < nbytes < 5_000_000  # the whole run, not only its step log; a small run is small


def test_a_page_that_waits_reruns_when_the_run_is_ready():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["preset"], at.query_params["limit_value"] = "python-docs", "2500"
    at.run()
    settle(at)
    assert not at.exception
    assert re.search(r"Step 0 of 2,?500", " ".join(h.proto.body for h in at.get("html")))


def test_workers_do_not_rerun_the_servers_main_script(tmp_path, monkeypatch):
    """Under ``streamlit run`` the server's ``__main__`` is the app script; a spawned worker re-runs its
    parent's main module unless told otherwise, so each worker imported Streamlit and ran the page (and
    the app starting the pool from a worker crashed it). Workers must start without it."""
    script = tmp_path / "fake_app.py"
    marker = tmp_path / "ran"
    script.write_text(f"open({str(marker)!r}, 'w').write('the worker ran the app script')\n")
    fake_main = types.ModuleType("__main__")
    fake_main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", fake_main)
    monkeypatch.setattr(jobs, "_POOL", None)  # a fresh pool, so its worker starts under this __main__
    try:
        assert jobs._run(eval, "__import__('os').getpid()").result(timeout=60) != os.getpid()
        assert not marker.exists()
    finally:
        jobs._pool().executor.shutdown(wait=True)


def test_a_page_waiting_on_a_large_pasted_corpus_polls_less_often():
    """Each poll of a waiting page carries every widget's value, the pasted text included (one 1.4 MB
    websocket frame per poll, seen in chromium): over POLL_BIG_CHARS the page polls every POLL_BIG_S.
    Checked on a real server, from the interval its poll fragment asks the browser for."""
    from browser_support import on_new_server
    from st_client import Session

    assert runs.poll_interval(fresh()) == runs.POLL_S
    text = slow_text(60_000)  # about 600,000 characters of rare pairs: seconds of training
    assert len(text) > runs.POLL_BIG_CHARS
    assert runs.poll_interval(fresh(text=text)) == runs.POLL_BIG_S > runs.POLL_S

    async def paste(url: str) -> tuple[bool, float]:
        s = Session(url, "step=0")
        try:
            await s.open()
            await s._rerun(**{s.ids["source"]: "Paste or upload text"})
            await s._rerun(**{s.ids["source"]: "Paste or upload text", s.ids["corpus_text"]: text})
            return s.waiting, s.poll_every
        finally:
            await s.close()

    (waiting, every), _ = on_new_server(paste)
    assert waiting, "the run should still be training after the page's first second"
    assert every == runs.POLL_BIG_S
