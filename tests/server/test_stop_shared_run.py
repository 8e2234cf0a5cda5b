"""Stop keeps what was made, also for a session that stops a run another session still waits for:
that session gets the merges made so far as a run it can step through ("stopped at merge k"), while the run
goes on for the other one. The worker writes a copy of its history when asked through the shared progress
array (server/snapshots.py). On the real process pool, each wait bounded by a deadline."""

from __future__ import annotations

import html
import os
import threading
import time
from pathlib import Path

import pytest
from apptest_support import APP, alerts, training
from browser_support import AppServer, run_protocol, wait_until
from pool_support import big_text, submit_big
from streamlit.testing.v1 import AppTest

import bpe
from server import jobs, run_keys, run_store, snapshots

pytestmark = pytest.mark.timeout(300)


def test_a_session_that_stops_a_shared_run_gets_the_merges_so_far_and_the_run_goes_on():
    text = big_text(30_000)
    live = {"tab-a", "tab-b"}
    job = submit_big("tab-a", live, text)
    assert jobs.submit(job.key, {}, {}, "tab-b", lambda job: None) is job  # the same run, asked twice
    wait_until(lambda: job.progress() >= 100 or job.future.done(), 120, "the run to make 100 merges")
    assert not job.future.done(), "a 100,000-merge run of random words should still be training"
    kept = []
    # tab-b presses Stop while tab-a still waits: the run goes on, and tab-b is handed a copy of the merges so far.
    assert jobs.leave(job, "tab-b", on_kept=lambda history, nbytes: kept.append((history, nbytes))) is False
    assert jobs.stopping(job.key) is job  # the page waits on it for the copy
    wait_until(lambda: jobs.stopping(job.key) is None, 60, "the copy of the merges so far")
    ((history, nbytes),) = kept
    k = history.num_merges
    assert k >= 100 and k % jobs.PROGRESS_EVERY == 0 and nbytes > 0
    assert history.stop_reason == "stopped"
    assert history.state(k).stop_sentence == (
        f"Training stopped: Stop was pressed after merge {k:,}, before the run was complete."
    )
    # The run goes on for tab-a, past the copy.
    assert jobs.job_for(job.key) is job and job.waiters == {"tab-a"} and not job.future.done()
    wait_until(lambda: job.progress() > k, 60, "the run to go on past the copy")
    # The copy is the first k merges of the whole run: the same corpus trained to exactly k merges here.
    corpus = jobs.corpus_of(source="text", preset="", text=text, counts="")
    reference = bpe.run_training(corpus, pre_tokenizer="whitespace", num_merges=k)
    assert [history.pair_str(m[:2]) for m in history.merges] == [reference.pair_str(m[:2]) for m in reference.merges]
    assert dict(history.splits_at(k)) == dict(reference.splits_at(k))
    # tab-a stops too, later: it keeps more merges than the copy; no copy file is left behind.
    assert jobs.leave(job, "tab-a") is True
    final, _ = job.future.result(timeout=60)
    assert final.stop_reason == "stopped" and final.num_merges > k
    wait_until(lambda: jobs.stopping(job.key) is None, 10, "the stopped job to leave the table")
    assert not os.path.exists(snapshots.path(os.getpid(), job.slot))


def test_a_copy_being_handed_over_is_still_waited_for_until_the_session_has_it(monkeypatch):
    """The copy is read outside the pool's lock (a big run's takes a while): a page that asks meanwhile must still
    be told to wait, not that nothing is owed, or it goes on with nothing kept (seen once on a loaded machine)."""
    reading, release = threading.Event(), threading.Event()
    read = snapshots.read

    def slow_read(at):
        reading.set()
        assert release.wait(60), "the test never let the copy be read"
        return read(at)

    monkeypatch.setattr(jobs.snapshots, "read", slow_read)
    live = {"tab-a", "tab-b"}
    job = submit_big("tab-a", live, big_text(30_000))
    assert jobs.submit(job.key, {}, {}, "tab-b", lambda job: None) is job
    wait_until(lambda: job.progress() >= 100 or job.future.done(), 120, "the run to make 100 merges")
    kept = []
    try:
        assert jobs.leave(job, "tab-b", on_kept=lambda history, nbytes: kept.append(history)) is False
        wait_until(reading.is_set, 60, "the watcher to start reading the copy")  # the watcher, not this thread
        assert jobs.stopping(job.key) is job and kept == []  # mid-read: still owed, so the page waits
    finally:
        release.set()
    wait_until(lambda: jobs.stopping(job.key) is None, 60, "the copy of the merges so far")
    assert len(kept) == 1 and kept[0].num_merges >= 100
    assert jobs.leave(job, "tab-a") is True
    job.future.result(timeout=60)


def test_stop_in_a_page_whose_run_another_session_waits_for_shows_the_merges_so_far():
    """A page and another session wait for one run; the page presses Stop. Before, it only stopped waiting and
    said "another open session still waits for it": nothing to step through. (AppTest gives every page the same
    session id, so the other session is a waiter added as a second page's would be, still connected.)"""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["source"], at.session_state["corpus_text"] = "text", big_text(30_000)
    at.session_state["limit"], at.session_state["limit_value"] = "num_merges", 100_000
    before = set(jobs._pool().jobs)
    at.run()
    assert training(at), "a 100,000-merge run of random words should not be ready within a second"
    (key,) = set(jobs._pool().jobs) - before
    job = jobs.job_for(key)
    assert jobs.submit(key, {}, {}, "other-tab", lambda job: None) is job
    assert len(job.live_waiters()) == 2
    wait_until(lambda: job.progress() >= 100, 120, "the run to make 100 merges")
    at.button(key="stop_training").click().run()
    wait_until(lambda: any(b.key == "next" for b in at.run().button), 60, "the merges so far to show")
    kept = run_store.RUNS.get(run_keys.stopped_key(key))
    assert kept is not None and kept.stop_reason == "stopped"
    k = kept.num_merges
    assert k >= 100
    assert (
        f"Training was stopped at merge {k:,} of 100,000: you can step through these {k:,} merges. "
        in alerts(at, "info")[0]
    )
    at.button(key="next").click().run()
    assert at.session_state["step"] == 1
    at.button(key="end").click().run()
    assert at.session_state["step"] == k and at.button(key="end").disabled
    # The other session's run goes on, past the merges kept.
    assert jobs.job_for(key) is job and job.waiters == {"other-tab"} and not job.future.done()
    wait_until(lambda: job.progress() > k, 60, "the run to go on past the copy")
    # The other session stops it later: the longer run replaces the copy under the stopped key.
    assert jobs.leave(job, "other-tab") is True
    final, _ = job.future.result(timeout=60)
    assert final.num_merges > k
    wait_until(
        lambda: (r := run_store.RUNS.get(run_keys.stopped_key(key))) is not None and r.num_merges == final.num_merges,
        30,
        "the longer stopped run to be stored",
    )


def test_the_run_store_keeps_the_longer_of_two_stopped_runs():
    settings_key = f"k-{time.time_ns()}"
    short = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, num_merges=2)
    long = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, num_merges=4)
    assert run_store.RUNS.put(settings_key, short, 100, longer=True) is short
    assert run_store.RUNS.put(settings_key, long, 100, longer=True) is long  # more merges replace fewer
    assert run_store.RUNS.get(settings_key) is long
    assert run_store.RUNS.put(settings_key, short, 100, longer=True) is long  # a shorter one never replaces
    other = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, num_merges=4)
    assert run_store.RUNS.put(settings_key, other, 100) is long  # without longer=True: the first stays


def test_two_tabs_on_a_real_server_one_stops_and_steps_through_the_merges_so_far():
    """Two real sessions (websockets) paste the same corpus: one run, trained once. The second presses Stop:
    it gets the merges made so far, labelled "stopped at merge k", while the first still waits for the run."""
    import asyncio

    from st_client import Session

    text = big_text(60_000)

    async def paste(s: Session) -> None:
        await s.open()
        big = {s.ids["source"]: "Paste or upload text"}
        await s._rerun(**big)
        big |= {s.ids["limit"]: "Vocabulary size", s.ids["limit_value"]: 20_000.0}
        await s._rerun(**big, **{s.ids["corpus_text"]: text})

    async def two_tabs(url: str):
        first, second = Session(url, "step=0"), Session(url, "step=0")
        try:
            await paste(first)
            await paste(second)
            assert first.waiting and second.waiting, "a 20,000-token run of random words takes more than a second"
            second.last = None  # what the default preset's page showed at open
            await second.click("stop_training")
            deadline = time.monotonic() + 60
            while second.last is None and time.monotonic() < deadline:  # polls, as the page's fragment does
                await asyncio.sleep(second.poll_every)
                await second._rerun(fragment=second.poll_fragment, auto=True)
            await first._rerun()  # the first tab, as its next poll sees it
            return second.last, " ".join(second.html), first.waiting, second.exceptions + first.exceptions
        finally:
            await first.close()
            await second.close()

    server = AppServer()
    server.start()
    try:
        k, page, first_waiting, exceptions = run_protocol(two_tabs, server.url)
        log = Path(server.log.name).read_text(errors="replace")
    finally:
        server.stop()
    assert not exceptions
    assert log.count("in the main lane") == 1, log[-2000:]  # the big run, once for both tabs
    assert k is not None and k > 0 and k % jobs.PROGRESS_EVERY == 0, (k, log[-2000:])
    assert (
        f"Training was stopped at merge {k:,} (of a vocabulary of 20,000): you can step through these {k:,} merges."
        in html.unescape(page)
    )
    assert first_waiting  # the first tab's run goes on


def test_stop_on_a_shared_run_still_queued_does_not_wait_for_a_copy():
    """A class fills the pool: a run two sessions asked for waits in the queue behind the others' runs. One of
    them pressed Stop; a copy was asked of a run no worker had, and that session's page said "Stopping after
    merge 0: keeping the merges made so far…" until the run started and reached merge 50, minutes later. Now
    nothing is asked: the page says at once that the run goes on for the other session."""
    live = {"tab-a", "tab-b", "tab-x"}
    ahead = []
    try:
        queued = None
        for _ in range(8):  # more runs than the lanes have workers (and their queues' one extra each)
            job = submit_big("tab-x", live, big_text(3_000))
            ahead.append(job)
            if not job.future.running() and not job.future.done():
                queued = job
                break
        assert queued is not None, "eight big runs should fill a pool of this machine's cores"
        assert jobs.submit(queued.key, {}, {}, "tab-a", lambda job: None) is queued
        assert jobs.submit(queued.key, {}, {}, "tab-b", lambda job: None) is queued
        kept = []
        assert jobs.leave(queued, "tab-b", on_kept=lambda history, nbytes: kept.append(history)) is False
        assert jobs.stopping(queued.key) is None  # the page shows "another open session still waits" at once
        assert queued.kept_to == [] and jobs.job_for(queued.key) is queued
    finally:
        for job in ahead:
            for waiter in list(job.waiters):
                jobs.leave(job, waiter, keep=False)
    for job in ahead:
        wait_until(lambda job=job: job.future.done(), 120, "the big runs to stop")
