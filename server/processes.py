"""Child processes started from a Streamlit server (the training pool in ``server.jobs``, the file readers in
``server.uploads``).

Every such process forks from one ``forkserver`` (:func:`forkserver`), which has imported the engine first.
Also: how a worker dies with the server (:func:`die_with_parent`, :func:`exit_with`), and how big one is
(:func:`rss_mib`).
Left out: the pools themselves, which live with what they run.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing as mp
import os
import select
import signal
import sys
import time
import types

# What the processes started from the forkserver import (a training worker ``server.jobs``, a file reader ``bpe``,
# a check ``server.check_jobs``): imported once in the forkserver, each fork has it at once, where importing it
# cost each new process about 0.4 CPU-s, and a check's 0.7 (a pool's lanes, every upload read and every check
# start one). The check's modules make every process about 4 MB bigger. Imports only: no thread starts (the
# forkserver forks), no Streamlit.
PRELOAD = ["server.jobs", "server.check_jobs"]


def forkserver() -> mp.context.ForkServerContext:
    """The ``forkserver`` context, its server preloading :data:`PRELOAD` (set before it starts; later calls
    change nothing once it runs)."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


@contextlib.contextmanager
def plain_main():
    """Start workers without the server's ``__main__``. A spawned or forkserver child first re-runs the
    parent's main module from its path, and under ``streamlit run`` that is the app script (Streamlit
    puts the running script in ``sys.modules["__main__"]``): each worker would import Streamlit,
    pandas and Altair and run the page (and a worker starting workers fails outright). An empty
    ``__main__`` while a worker starts gives the child nothing to re-run; it imports only what it
    unpickles (``server.jobs`` and ``bpe``; the ``server`` package imports nothing itself)."""
    main = sys.modules.get("__main__")
    stub = types.ModuleType("__main__")
    sys.modules["__main__"] = stub
    try:
        yield
    finally:
        if sys.modules.get("__main__") is stub:  # a script run may have put its own module there since
            sys.modules["__main__"] = main


def rss_mib(pid: int) -> float | None:
    """A process's resident memory in MiB (``VmRSS`` in ``/proc/<pid>/status``); None where it cannot be read
    (the process has ended, or the system has no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (its parent thread, strictly: the
    forkserver is single-threaded). False where there is no prctl (not Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def exit_with(server_pid: int) -> None:
    """Runs in a worker's thread: end the worker as soon as the server process has ended (a pidfd
    becomes readable then; where there is none, the server's pid is checked every second)."""
    try:
        pidfd = os.pidfd_open(server_pid)
    except ProcessLookupError:  # already gone
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd (not Linux 5.3+): poll
        while _alive(server_pid):
            time.sleep(1)
        os._exit(1)
    select.select([pidfd], [], [])
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
