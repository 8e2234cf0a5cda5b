"""Abandoned runs and fair lanes: a run nobody waits for any more is stopped and frees
its worker; Stop works from whichever session asked; a small run never waits behind a big one.
All on the real process pool (and one real server), each wait bounded by a deadline."""

from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path

import pytest
from browser_support import AppServer, run_protocol, wait_until
from pool_support import big_text, merging, submit_big

import bpe
from server import jobs, run_store
from ui import runs
from ui.settings import preset_settings

pytestmark = pytest.mark.timeout(300)


def ended(job: jobs.Job) -> bool:
    return job.future.done()


# A shorter grace period than a class gets: what is tested is that the run stops, not how long a tab may be away.
GRACE_S = 1.0


def test_a_big_run_nobody_waits_for_is_stopped_and_its_worker_freed(monkeypatch):
    monkeypatch.setattr(jobs, "WAITER_GRACE_S", GRACE_S)
    live = {"tab-a"}
    job = submit_big("tab-a", live)
    assert job.lane == "main"
    wait_until(lambda: merging(job), 120, "the big run to start merging")
    live.clear()  # the tab closes: its session is no longer connected
    wait_until(lambda: ended(job), jobs.WAITER_GRACE_S + 30, "the abandoned run to stop")
    with pytest.raises((jobs.Stopped, Exception)):
        job.future.result(timeout=0)
    assert jobs.job_for(job.key) is None
    wait_until(lambda: jobs._pool().busy["main"] == 0, 30, "the main lane to be free")
    # The freed worker trains the next run at once.
    after = jobs.submit(
        f"after-{time.time_ns()}",
        dict(source="text", preset="", text="hug pug pun bun " * 30, counts=""),
        dict(pre_tokenizer="whitespace", num_merges=5),
        "tab-b",
        lambda job: None,
    )
    assert after.future.result(timeout=30)[0].num_merges == 5


def test_stop_from_a_second_session_detaches_it_or_ends_the_run_when_the_first_is_gone():
    live = {"tab-a", "tab-b"}
    job = submit_big("tab-a", live)
    assert jobs.submit(job.key, {}, {}, "tab-b", lambda job: None) is job  # the same run, asked twice
    wait_until(lambda: merging(job), 120, "the big run to start merging")
    assert job.live_waiters() == {"tab-a", "tab-b"}
    # tab-b presses Stop while tab-a still waits: tab-b only stops waiting.
    assert jobs.leave(job, "tab-b") is False
    assert job.waiters == {"tab-a"} and jobs.job_for(job.key) is job and not job.future.done()
    # tab-b asks again, then tab-a closes; tab-b's Stop now ends the run at once (no grace period).
    jobs.submit(job.key, {}, {}, "tab-b", lambda job: None)
    live.discard("tab-a")
    assert job.live_waiters() == {"tab-b"}  # what the "other sessions asked" caption counts
    assert jobs.leave(job, "tab-b") is True
    assert jobs.job_for(job.key) is None
    assert job.future.result(timeout=30)[0].stop_reason == "stopped"  # Stop keeps the merges made so far


def test_stop_keeps_the_merges_made_so_far_as_the_first_merges_of_the_full_run():
    """Stop on a long run keeps every merge made: the job returns a run holding them, the same merges (in the same order) as the first k of the whole run."""
    text = big_text(30_000)
    live = {"tab-a"}
    job = submit_big("tab-a", live, text)
    wait_until(lambda: job.progress() >= 100 or job.future.done(), 120, "the run to make 100 merges")
    assert not job.future.done(), "a 100,000-merge run of random words should still be training"
    assert jobs.leave(job, "tab-a") is True
    assert jobs.stopping(job.key) is job  # the page waits on it for what it made
    history, nbytes = job.future.result(timeout=60)
    wait_until(lambda: jobs.stopping(job.key) is None, 10, "the stopped job to leave the table")
    k = history.num_merges
    assert k >= 100 and k % jobs.PROGRESS_EVERY == 0 and nbytes > 0
    assert history.stop_reason == "stopped"
    assert history.state(k).stop_sentence == (
        f"Training stopped: Stop was pressed after merge {k:,}, before the run was complete."
    )
    # The reference: the same corpus trained to exactly k merges in this process.
    corpus = jobs.corpus_of(source="text", preset="", text=text, counts="")
    reference = bpe.run_training(corpus, pre_tokenizer="whitespace", num_merges=k)
    assert reference.num_merges == k
    assert [history.pair_str(m[:2]) for m in history.merges] == [reference.pair_str(m[:2]) for m in reference.merges]
    assert dict(history.splits_at(k)) == dict(reference.splits_at(k))


def test_a_run_nobody_waits_for_is_dropped_not_kept():
    live = {"tab-a"}
    job = submit_big("tab-a", live, big_text(30_000))
    wait_until(lambda: merging(job), 120, "the big run to start merging")
    assert jobs.leave(job, "tab-a", "its session moved to another run", keep=False) is True
    assert jobs.stopping(job.key) is None
    with pytest.raises(jobs.Stopped):
        job.future.result(timeout=30)


def test_a_session_that_moves_to_another_run_stops_waiting_for_the_old_one():
    live = {"tab-a"}
    job = submit_big("tab-a", live)
    wait_until(lambda: merging(job), 120, "the big run to start merging")
    jobs.switch("tab-a", "another run")
    assert jobs.job_for(job.key) is None
    with pytest.raises(jobs.Stopped):
        job.future.result(timeout=30)


def test_a_small_run_does_not_wait_behind_a_big_one():
    """The old pool had one worker and a first-come queue: the course preset waited for the big run."""
    live = {"tab-a"}
    big = submit_big("tab-a", live)
    try:
        wait_until(lambda: merging(big), 120, "the big run to start merging")
        course = preset_settings("course")
        with run_store.RUNS.lock:  # trained by an earlier test: forget it, so it is trained now
            if (kept := run_store.RUNS.runs.pop(runs.run_key(course), None)) is not None:
                run_store.RUNS.nbytes -= kept[1]
        assert (
            jobs.estimate_work(dict(source="preset", preset="course", text="", counts=""), course.options())
            <= jobs.SMALL_WORK
        )
        with concurrent.futures.ThreadPoolExecutor(1) as ex:  # a session asking for the course run
            asked = ex.submit(runs.train, course, block=True)
            try:
                wait_until(asked.done, 30, "the course run, while the big one trains (was > 600 s)")
                assert asked.result().num_merges > 0
                assert not big.future.done(), "the big run should still be training"
            finally:
                jobs.leave(big, "tab-a")  # also frees the old pool's one worker, so the thread can end
    finally:
        jobs.leave(big, "tab-a")


def test_a_closed_tab_stops_its_run_on_a_real_server():
    """A page pastes a big corpus, sees its run training, and its websocket closes (the tab is closed):
    the server stops the run within the grace period and the watcher's interval."""
    from st_client import Session

    text = big_text(60_000)

    async def paste_and_close(url: str) -> bool:
        s = Session(url, "step=0")
        try:
            await s.open()
            # A vocabulary of 20,000 on random letters: thousands of merges, so the run outlasts the grace
            # period on any machine (a pasted text's default of 1,000 merges could finish first on a quiet one).
            big = {s.ids["source"]: "Paste or upload text"}
            await s._rerun(**big)
            big |= {s.ids["limit"]: "Vocabulary size", s.ids["limit_value"]: 20_000.0}
            await s._rerun(**big, **{s.ids["corpus_text"]: text})
            return s.waiting
        finally:
            await s.close()

    server = AppServer(env={"BPE_WAITER_GRACE_S": str(GRACE_S)})
    server.start()
    try:
        assert run_protocol(paste_and_close, server.url), "the run should still be training after a second"
        log = Path(server.log.name)
        wait_until(
            lambda: "(nobody waits for it)" in log.read_text(errors="replace"),
            GRACE_S + 30,
            "the server to stop the closed tab's run",
        )
    finally:
        server.stop()
