"""A long run yields the CPU to newer ones (``server/long_runs.py``): its own thread drops to the lowest priority,
the worker that trained it does not.

Run in this process (``jobs.train_job`` without a pool): what is checked is which thread's priority changes, never
how fast anything trains.
"""

from __future__ import annotations

import os
import threading

import pytest

import bpe
from server import jobs, long_runs

TEXT = "hug pug pun bun hugs " * 200 + " ".join(f"w{i}x{i % 7}" for i in range(2_000))
OPTIONS = {"pre_tokenizer": "whitespace", "num_merges": 120}


def my_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.fixture
def lowered(monkeypatch) -> list[tuple[int, int]]:
    """Every priority set, as (thread id, its nice just after); every run counts as long."""
    monkeypatch.setattr(long_runs, "LONG_RUN_CPU_S", 0.0)
    seen: list[tuple[int, int]] = []
    real = os.setpriority

    def spy(which: int, who: int, nice: int) -> None:
        real(which, who, nice)
        seen.append((who, os.getpriority(which, who)))

    monkeypatch.setattr(os, "setpriority", spy)
    return seen


def test_a_long_run_lowers_its_own_threads_priority_and_not_the_workers(lowered):
    before = my_nice()
    spec = dict(source="text", preset="", text=TEXT, counts="")
    history, _ = jobs.train_job(0, spec, OPTIONS)
    assert [nice for _, nice in lowered] == [long_runs.LONG_RUN_NICE]  # once, at the first check
    assert lowered[0][0] != threading.get_native_id()  # the run's own thread
    assert my_nice() == before  # the worker's thread, which takes the next run, keeps its priority
    expected = bpe.run_training(jobs.corpus_of(**spec), **OPTIONS)
    assert history.merges == expected.merges  # the run itself is the same


def test_a_short_run_keeps_its_priority(lowered, monkeypatch):
    monkeypatch.setattr(long_runs, "LONG_RUN_CPU_S", 3600.0)
    history, _ = jobs.train_job(0, dict(source="text", preset="", text=TEXT, counts=""), OPTIONS)
    assert lowered == [] and history.num_merges == OPTIONS["num_merges"]


def test_a_runs_value_and_its_exception_come_back_to_the_callers_thread():
    assert long_runs.in_own_thread(pow, 2, 10) == 1024
    with pytest.raises(jobs.Stopped, match="gone"):
        long_runs.in_own_thread(raise_stopped)


def raise_stopped() -> None:
    raise jobs.Stopped("gone")
