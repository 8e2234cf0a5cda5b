"""A long run yields the CPU to newer ones: past a few seconds of CPU, its thread drops to the lowest priority.

The fair lane (``server/lanes.py``) starts a client's run at once beside another client's long run, and the
kernel then shares a core between them equally: the teacher's fresh 1 MB run (under a second of CPU) trains at
half speed for as long as a student's 5 MB run to 100,000 merges (minutes) goes on. Here a run that has used
more than :data:`LONG_RUN_CPU_S` of CPU lowers its own thread to nice :data:`LONG_RUN_NICE`: the kernel's
weights (nice 10: 110, nice 19: 15) then give a newer run beside it about seven eighths of the core they share,
while the long run keeps its worker, its memory and every merge it made, and still has the whole core when
nothing else wants it. This is the time slice the lane leaves to the kernel, weighted towards the run that has
had less.

An unprivileged process may lower its priority but never raise it again, so the run trains in a thread of its own
(:func:`in_own_thread`), whose priority ends with it: the worker's next run starts at the worker's own nice.
Linux gives each thread its own nice value (``setpriority(PRIO_PROCESS, thread id)``); elsewhere the call is
skipped and the run keeps its priority.

Left out: how long the run is (the trainer's loop calls :meth:`Yielder.check`), and the lane's queue.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

LONG_RUN_CPU_S = float(os.environ.get("BPE_LONG_RUN_CPU_S") or 5.0)  # a 1 MB run to 1,000 merges needs under 1 s
LONG_RUN_NICE = 19  # the lowest priority


def in_own_thread(fn: Callable[..., Any], *args) -> Any:
    """``fn(*args)`` in a new thread, waited for here: its value, or its exception raised here."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=work, name="bpe-run")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class Yielder:
    """Made in the run's thread; :meth:`check` (cheap: one clock read) lowers that thread's priority once its CPU
    time passes ``after`` seconds. ``lowered`` says whether it has."""

    def __init__(self, after: float | None = None) -> None:
        self.after = LONG_RUN_CPU_S if after is None else after
        self.start, self.lowered = time.thread_time(), False

    def check(self) -> None:
        if self.lowered or time.thread_time() - self.start < self.after:
            return
        self.lowered = True
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LONG_RUN_NICE)
        except (OSError, AttributeError):  # no per-thread priority here: the run keeps its own
            pass
