"""The fair training lane (``server/lanes.py``): a run never waits behind another client's long run.

One session training a 5 MB paste to 100,000 merges must not keep the teacher's fresh 1 MB run from its first
step, as a first-come queue of one worker would. Each wait here is bounded by a deadline, never a fixed sleep.
"""

from __future__ import annotations

import concurrent.futures as cf
import random
import threading
import time

import pytest
from browser_support import wait_until
from pool_support import big_text, merging, submit_big

from server import jobs
from server.lanes import FairLane

pytestmark = pytest.mark.timeout(300)


def blocking_lane(workers: int):
    """A lane over threads, and its run: a run waits for its own event (named by the run)."""
    events: dict[str, threading.Event] = {}
    executor = cf.ThreadPoolExecutor(workers)

    def run(name: str) -> str:
        events.setdefault(name, threading.Event()).wait(30)
        return name

    def start(fn, *args):
        return executor.submit(fn, *args)

    return FairLane(start, workers), run, events, executor


def test_a_clients_second_run_waits_for_its_first_not_for_another_clients():
    lane, run, events, executor = blocking_lane(workers=2)
    try:
        a1 = lane.submit("student", run, "a1")
        a2 = lane.submit("student", run, "a2")
        teacher = lane.submit("teacher", run, "t")
        wait_until(teacher.running, 10, "the teacher's run to start beside the student's")
        assert a1.running() and not a2.running() and lane.waiting_runs() == 1
        events.setdefault("t", threading.Event()).set()
        assert teacher.result(timeout=10) == "t"
        assert not a2.running()  # a worker is free, but the student already has a run training
        events.setdefault("a1", threading.Event()).set()
        assert a1.result(timeout=10) == "a1"
        wait_until(a2.running, 10, "the student's second run to start after its first")
        events.setdefault("a2", threading.Event()).set()
        assert a2.result(timeout=10) == "a2"
    finally:
        for event in events.values():
            event.set()
        executor.shutdown(wait=True)


def test_a_waiting_run_can_be_cancelled_and_a_full_lane_queues_in_order():
    lane, run, events, executor = blocking_lane(workers=1)
    try:
        first = lane.submit("a", run, "a")
        second = lane.submit("b", run, "b")
        third = lane.submit("c", run, "c")
        assert first.running() and not second.running()
        assert second.cancel() and lane.waiting_runs() == 1  # a waiting run is cancelled outright
        events.setdefault("a", threading.Event()).set()
        wait_until(third.running, 10, "the next waiting run to start")
        events.setdefault("c", threading.Event()).set()
        assert third.result(timeout=10) == "c" and second.cancelled()
    finally:
        for event in events.values():
            event.set()
        executor.shutdown(wait=True)


def test_one_address_never_holds_every_worker_so_another_addresss_run_starts_at_once():
    """A script opening many sessions (each a client) from one address filled every worker: the teacher's run,
    from another address, then waited for one of its long runs to end."""
    lane, run, events, executor = blocking_lane(workers=3)
    try:
        greedy = [lane.submit(f"script-{i}", run, f"g{i}", group="10.0.0.66") for i in range(4)]
        assert [f.running() for f in greedy] == [True, True, False, False]  # all the workers but one
        teacher = lane.submit("teacher", run, "t", group="10.0.0.1")
        assert teacher.running() and lane.waiting_runs() == 2
        events.setdefault("g0", threading.Event()).set()
        assert greedy[0].result(timeout=10) == "g0"
        wait_until(greedy[2].running, 10, "the address's next run to take the worker its first left")
        assert not greedy[3].running()  # the address is at its share again
        student = lane.submit("student", run, "s", group="10.0.0.2")
        assert not student.running()  # every worker is taken now: it waits, first in line before greedy[3]
        events.setdefault("t", threading.Event()).set()
        wait_until(student.running, 10, "the other address's run to take the teacher's worker")
        assert not greedy[3].running()
    finally:
        for event in events.values():
            event.set()
        executor.shutdown(wait=True)


def test_a_fresh_run_reaches_its_end_while_another_clients_long_run_trains():
    """The old main lane had one worker on a 2-core machine: the fresh run waited the long one out."""
    live = {"tab-student", "tab-teacher"}
    long = submit_big("tab-student", live, big_text())
    try:
        wait_until(lambda: merging(long), 120, "the long run to start merging")
        rng = random.Random(time.time_ns())
        words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(3, 8))) for _ in range(3_000)]
        text = " ".join(rng.choice(words) for _ in range(60_000))  # about 350 KB
        spec = dict(source="text", preset="", text=text, counts="")
        options = dict(pre_tokenizer="whitespace", num_merges=1_000)
        assert jobs.estimate_work(spec, options) > jobs.SMALL_WORK  # not a small run: the main lane's
        fresh = jobs.submit(f"fresh-{time.time_ns()}", spec, options, "tab-teacher", lambda job: None)
        assert fresh.lane == "main"
        wait_until(fresh.future.done, 120, "the teacher's run, while the student's long run trains")
        assert fresh.future.result()[0].num_merges == 1_000
        assert not long.future.done(), "the long run should still be training"
    finally:
        jobs.leave(long, "tab-student", keep=False)
    wait_until(long.future.done, 60, "the long run to stop")


def test_a_run_the_workers_refuse_fails_with_their_sentence():
    def start(fn, *args):
        raise ValueError("The training workers stopped working; reload the page to try again.")

    lane = FairLane(start, workers=1)
    future = lane.submit("a", pow, 2, 3)
    with pytest.raises(ValueError, match="reload the page"):
        future.result(timeout=10)
    assert lane.running == {} and lane.waiting_runs() == 0
