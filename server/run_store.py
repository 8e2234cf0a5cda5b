"""The trained runs shared by every session, kept within one memory budget, oldest evicted first.

:data:`RUNS` holds each finished run under its key (``server/run_keys.py``) with its measured size plus its
cache's budget: every view derived from a run (splits, provenance, the pages' rows and charts, tokenizers)
is kept in the run's own :class:`~bpe.run_cache.RunCache`, which the store sizes for the run when it arrives
(``RunCache.fit_to``), so one number per run (the cache's budget) covers all of it. The store also remembers the last few settings that failed, each
as its sentence (a failure is deterministic: twenty sessions asking for a bad run do not train it twenty
times). :func:`keep` and :func:`result` hand a training job's answer to the store. The texts sessions hold (a pasted
or uploaded corpus, up to 100 MB each) are counted against the same budget (:meth:`RunStore.hold`): a class that
uploads big corpora keeps fewer runs, not more memory.

A run of a corpus a session brought (pasted, uploaded, a saved run file) is tied to the sessions that showed it
(:meth:`RunStore.shown`) and dropped once the last of them has ended (:meth:`RunStore.release`, when Streamlit lets
an expired session go): nobody else can ask for it but through a link to the stored corpus, which trains it again,
while a server that kept it would stay hundreds of MB over its idle size after a class had gone. A presenter's
shared corpus is no exception: its students' sessions hold the run while they are open, and the corpus store keeps
the corpus itself (pinned). The course presets' runs are everyone's and stay (oldest evicted first).

Left out: training (``server/jobs.py``), the session waiting for a run and its Stop button (``ui/runs.py``).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import threading
from collections import OrderedDict

import bpe
from server import heap, jobs
from server.run_keys import stopped_key

# 1 GiB of trained runs, shared by all sessions; stated in the UI and README (a deployment may set BPE_RUN_MEMORY_MIB)
RUN_MEMORY_BUDGET = int(os.environ.get("BPE_RUN_MEMORY_MIB", "1024")) << 20
FAILURES_KEPT = 64


class RunStore:
    """Finished runs shared by every session (run key -> History, newest last), evicted oldest first once
    their sizes pass RUN_MEMORY_BUDGET; and the last few failures, each as its sentence. Only the sentence:
    an exception kept would keep every frame it passed through, and a frame holds the settings and their
    corpus."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: OrderedDict[str, tuple[bpe.History, int]] = OrderedDict()
        self.failures: OrderedDict[str, str] = OrderedDict()
        self.held: dict[tuple[str, str], int] = {}  # (session, what) -> bytes of a corpus text it holds
        self.shown_by: dict[str, set[str]] = {}  # run key of a session's own corpus -> the sessions that showed it
        self.nbytes = 0

    def get(self, key: str) -> bpe.History | None:
        with self.lock:
            failure = self.failures.get(key)
            if failure is None and key in self.runs:
                self.runs.move_to_end(key)
                return self.runs[key][0]
        if failure is not None:
            raise ValueError(failure)  # a new exception each time, its frames the asking page's only
        return None

    def put(self, key: str, history: bpe.History, nbytes: int, longer: bool = False) -> bpe.History:
        """Store ``history`` (``nbytes`` measured) under ``key``, or return the run already there. ``longer``:
        a run with more merges replaces the one there (the merges kept by a later Stop, after an earlier
        one's copy). The run's cache gets its budget here, and is counted with it."""
        replaced = []
        with self.lock:
            if key in self.runs:
                old, size = self.runs[key]
                if not (longer and history.num_merges > old.num_merges):
                    return old
                replaced.append(self.runs.pop(key)[0])
                self.nbytes -= size
            # a byte-level tokenizer holds the 256 byte tokens besides the symbols the run learned from
            history.cache.fit_to(history.num_merges, len(history.symbols) + 256)
            size = nbytes + history.cache.budget
            self.runs[key] = (history, size)
            self.nbytes += size
            evicted = replaced + self._over_budget()
        self._free(evicted)
        return history

    def hold(self, session: str, what: str, nbytes: int) -> None:
        """Count ``nbytes`` that ``session`` holds outside the store (``what``: its Train page's corpus text, its
        Check page's) against the budget, replacing what it held for ``what`` before (0: nothing now); the
        oldest runs make room for it."""
        with self.lock:
            self.nbytes += nbytes - self.held.pop((session, what), 0)
            if nbytes:
                self.held[(session, what)] = nbytes
            evicted = self._over_budget()
        if evicted:
            self._free(evicted)

    def shown(self, session: str, key: str) -> None:
        """``session`` shows the run ``key`` of a corpus a session brought: the run goes when the last session
        that showed it has ended (:meth:`release`)."""
        with self.lock:
            self.shown_by.setdefault(key, set()).add(session)

    def release(self, session: str) -> None:
        """A session ended: what it held is counted no more, and the runs only it showed are dropped."""
        with self.lock:
            for key in [k for k in self.held if k[0] == session]:
                self.nbytes -= self.held.pop(key)
            dropped = []
            for key in [k for k, sessions in self.shown_by.items() if session in sessions]:
                self.shown_by[key].discard(session)
                if self.shown_by[key]:
                    continue
                del self.shown_by[key]
                for stored in (key, stopped_key(key)):
                    if stored in self.runs:
                        history, size = self.runs.pop(stored)
                        self.nbytes -= size
                        dropped.append(history)
        if dropped:
            self._free(dropped)

    def _over_budget(self) -> list:
        """Drop the oldest runs past the budget, keeping the newest (under the lock)."""
        evicted = []
        while self.nbytes > RUN_MEMORY_BUDGET and len(self.runs) > 1:
            _, (old, size) = self.runs.popitem(last=False)
            evicted.append(old)
            self.nbytes -= size
        return evicted

    @staticmethod
    def _free(evicted: list) -> None:
        # A run's hundreds of thousands of lists and tuples are frozen once they arrive, so full
        # collections skip them; an evicted run is freed only by unfreezing and collecting once
        # (server/heap.py).
        if evicted:
            heap.watch_evicted(evicted)  # a session still showing one frees it later (heap.sweeper)
            evicted.clear()  # the store's last references: the collection below frees them
            heap.refreeze(True)
        else:
            heap.refreeze(False)

    def fail(self, key: str, sentence: str) -> None:
        with self.lock:
            self.failures[key] = sentence
            while len(self.failures) > FAILURES_KEPT:
                self.failures.popitem(last=False)


RUNS = RunStore()


def keep(key: str, history: bpe.History, nbytes: int) -> bpe.History:
    """Store a finished run, or the part a Stop kept, under its key (the most merges kept, if Stop was
    pressed more than once: a session that stopped a run another still waited for got a copy of the
    merges so far, and the run's last session may stop it later)."""
    if history.stop_reason == "stopped":
        return RUNS.put(stopped_key(key), history, nbytes, longer=True)
    return RUNS.put(key, history, nbytes)


def store_result(key: str, job: jobs.Job) -> None:
    """When a job ends (in the pool's thread): keep its run, or its ValueError."""
    exc = job.future.exception() if not job.future.cancelled() else None
    if isinstance(exc, ValueError):
        RUNS.fail(key, str(exc))
    elif exc is None and not job.future.cancelled():
        keep(key, *job.future.result())


def result(key: str, job: jobs.Job, timeout: float | None) -> bpe.History:
    """The job's run, waiting up to ``timeout`` (TimeoutError after); ValueError for bad input.

    A failure becomes a new ValueError raised outside the ``except`` block, and the job's own exception
    loses the frames it gathered here: the job's future keeps that exception, and a frame of the caller
    holds the settings and their corpus."""
    try:
        history, nbytes = job.future.result(timeout=timeout)
    except (cf.TimeoutError, TimeoutError):
        raise
    except ValueError as exc:
        failure = str(exc)
        RUNS.fail(key, failure)
        exc.__traceback__ = None
    except jobs.CorpusGone as exc:  # not the settings' fault: the next ask trains again
        failure = (
            f"{exc} Train again: a page that still has the text stores it again within seconds; a text over "
            "1,000,000 characters is held by its digest only, so upload or send that file again."
        )
        exc.__traceback__ = None
    except jobs.Stopped as exc:
        failure = "This run was stopped before it finished. Change the corpus or settings to train again."
        exc.__traceback__ = None
    except Exception as exc:  # a worker died (out of memory, killed): say so, and let the next ask retry
        jobs.reset_if_broken()
        failure = f"Training failed on the server ({type(exc).__name__}); reload the page to try again."
        exc.__traceback__ = None
    else:
        return keep(key, history, nbytes)
    del job
    raise ValueError(failure)
