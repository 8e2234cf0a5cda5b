"""Where a training run's time goes, logged when ``BPE_RUN_TIMES`` is set: its wait for a worker, and in the worker
its corpus read, its counting and its merges, each with the worker's CPU time beside the wall clock's.

A run that reaches its first step late on a busy server may have waited for a worker (the lane's queue), or had a
worker but little of the CPU (the machine's other processes, at a higher priority than the niced workers): the
wall clock alone cannot tell them apart, the CPU time beside it can. Each line is stamped with the wall clock
(``time.time()``, shared by the server, its workers and a benchmark's client on one machine), so a benchmark can
put the server's and the workers' lines beside its own timestamps:

    bpe-times: slot 7 submitted at 1764180000.123
    bpe-times: slot 7 started at 1764180000.125 read +0.004 s (cpu 0.004) counted +0.91 s (cpu 0.88) ...

Left out: what the lines are read for (``benchmarks/bench_teacher_run.py``); nothing is logged when the
variable is unset, so a class pays nothing for it.
"""

from __future__ import annotations

import os
import sys
import time

ON = bool(os.environ.get("BPE_RUN_TIMES"))


def submitted(slot: int, lane: str) -> None:
    """The serving process handed the run in ``slot`` to ``lane`` (it may still wait there for a worker)."""
    if ON:
        print(f"bpe-times: slot {slot} submitted at {time.time():.3f} to the {lane} lane", file=sys.stderr, flush=True)


class Phases:
    """A run's phases in its worker: :meth:`mark` each one's end; :meth:`log` prints the line."""

    def __init__(self, slot: int) -> None:
        self.slot, self.wall, self.cpu = slot, time.time(), time.process_time()
        self.marks: list[str] = []

    def mark(self, phase: str) -> None:
        if ON:
            self.marks.append(f"{phase} +{time.time() - self.wall:.3f} s (cpu {time.process_time() - self.cpu:.3f})")

    def log(self) -> None:
        if ON:
            marks = " ".join(self.marks)
            print(f"bpe-times: slot {self.slot} started at {self.wall:.3f} {marks}", file=sys.stderr, flush=True)
