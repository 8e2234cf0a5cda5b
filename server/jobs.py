"""Training off the serving interpreter: a process pool, one job per corpus and settings.

Streamlit serves every session from one Python interpreter, so a training run in a script thread
holds the interpreter lock (the GIL) that every other session's click needs: one student's large
paste would freeze the class. Here training runs in ``ProcessPoolExecutor`` workers at a lower CPU priority,
started with ``forkserver``, so a worker never inherits the server's threads.
The server only submits the job, polls it, and unpickles the finished :class:`bpe.History`
(arrays, quick to unpickle). One job per key (the run's settings), however many sessions ask: a second session asking for a
run already being trained waits on the same future. A job counts the sessions waiting on it, and
asks the caller's ``alive(waiter)`` which of them are still there: a watcher thread drops every
waiter that has been gone for WAITER_GRACE_S (a closed tab), and a job nobody waits for any more is
stopped (a flag in shared memory, read every 50 merges; a job still queued is cancelled). Stop from any
session ends the run, keeping the merges made so far, unless another live session still waits for it (then
the run goes on, and the stopping session gets a copy of the merges made so far: ``server/snapshots.py``).
Progress (the merge reached) comes back through the same shared memory. A big text the page has stored
(``server/corpus_store.py``) goes to its worker by its digest and the store's address, and the worker reads it
there: pickled, a 100 MB corpus was twice its size in the serving process while it was sent.

Two lanes, so no run waits behind another client's long run: the main lane is fair
(``server/lanes.py``: a worker per client's run, two more than the machine has cores, time-sliced by the
machine), and one more worker trains only runs estimated small (:func:`estimate_work`: corpus
characters times merges). A client's second run waits behind its first; another client's starts at once.
After a run bigger than the small lane's, the main lane's workers are replaced once the lane is idle
(:func:`_recycle`): a worker that pre-tokenized a big corpus keeps tens of MB its trimmed heap cannot give back
(small blocks scattered over Python's arenas), and a fresh one costs a process start. Either lane is replaced
the same way once one of its workers has grown well past a fresh one's size (many small runs do that too). (``max_tasks_per_child``
would replace every worker after every job, and on Python 3.11 a pool using it can stop scheduling queued
jobs: python/cpython#115634.)

Workers die with the server, whatever ends it. Each worker watches the server's process (a pidfd:
the kernel says when that process has ended, after a SIGKILL or an out-of-memory kill too) from a
thread that sleeps until then, and exits at once. The parent-death signal (``prctl(PR_SET_PDEATHSIG,
SIGKILL)``) is set as well, but it alone is not enough: a worker's parent is the forkserver, and the
forkserver stays alive while any of its children holds the pipe it watches (each child inherits it),
so a worker training on would keep it alive after the server's SIGKILL. A server that is asked to stop
(SIGTERM: Streamlit stops serving and returns from its main loop) kills its workers before the
interpreter's exit would wait for the running jobs (``concurrent.futures`` joins its pools at exit, so a
big run would hold a stopped server for minutes); the runs are lost, as a stopped server loses them anyway.
This module imports only ``bpe`` (never Streamlit), so the worker processes stay small.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import bpe
from bpe import corpus_text
from bpe.corpus_text import check_word_lengths, documents  # noqa: F401 - the pages call them here
from bpe.presets import PRESETS
from server import heap, internals, limits, long_runs, run_times, snapshots
from server.corpora import corpus_of
from server.lanes import FairLane
from server.processes import die_with_parent, exit_with, forkserver, plain_main, rss_mib
from server.slots import FIELDS, Slot
from server.snapshots import deep_sizeof

# -- limits (stated in the UI and README) ---------------------------------------------------------
MAX_CORPUS_BYTES = limits.MAX_CORPUS_BYTES  # pasted or uploaded text (server/limits.py)
MAX_MERGES = 100_000  # "until no pair is left" also stops here
MAX_WORD_CHARS = corpus_text.MAX_WORD_CHARS  # the longest word (after pre-tokenization) a run may train on
# The main lane's workers: one client's run each, time-sliced (niced, so the serving process comes first).
POOL_WORKERS = int(os.environ.get("BPE_TRAIN_WORKERS") or (os.cpu_count() or 1) + 2)
SMALL_WORKERS = 1  # the small lane: runs of at most SMALL_WORK (characters x merges), seconds at most
SMALL_WORK = 200_000_000  # the course presets are a few thousand; a 1 MB corpus x 1,000 merges is 10^9
# A session gone (tab closed, connection lost) this long stops waiting (a test server sets less, not to wait).
WAITER_GRACE_S = float(os.environ.get("BPE_WAITER_GRACE_S") or 5.0)
WATCH_S = 1.0  # how often the watcher looks for jobs nobody waits for
WORKER_NICE = 10  # workers yield the CPU to the serving process when both want it
SLOTS = 256  # jobs queued or running at once (each has a progress/stop slot in shared memory)
PROGRESS_EVERY = 50  # merges between progress reports and stop checks
GROWN_MIB = 12  # a worker this much bigger than a fresh one is replaced once its lane is idle (a spare is cheap)
WORKER_START_S = 5.0  # a lane's new workers are not measured for this long (one still importing looks small)
BIG_TEXT_CHARS = 1_000_000  # a job carrying a longer text is followed by an empty one (see _run)


class Stopped(Exception):
    """Raised in a worker whose job nobody waits for any more (a closed tab, a session that moved on)."""


class CorpusGone(Exception):
    """Raised in a worker whose corpus, sent by its digest, is no longer in the corpus store (evicted, or a
    Redis that restarted): not a failure of the settings, so the next ask trains again (the page stores the
    corpus again once it sees it gone)."""


# The stop flag's values in shared memory: a run nobody waits for is dropped; a run its last session
# stopped (the Stop button) ends at the next check and returns the merges made so far.
CANCEL, KEEP = 1, 2


_progress = None  # the shared array, set in each worker by _init_worker
_server_pid = 0


def _init_worker(progress, server_pid: int) -> None:
    global _progress, _server_pid
    _progress, _server_pid = progress, server_pid
    die_with_parent()
    threading.Thread(target=exit_with, args=(server_pid,), name="bpe-server-watch", daemon=True).start()
    try:
        os.nice(WORKER_NICE)
    except OSError:
        pass


def train_job(slot: int, spec: dict, options: dict) -> tuple[bpe.History, int]:
    """Runs in a worker: read the corpus, train to the end (reporting progress, stopping when asked).
    Returns the run and its size in bytes. Stopped with KEEP, the run holds the merges made so far
    (its ``stop_reason`` is ``"stopped"``); with CANCEL, raises Stopped. A long run yields the CPU to newer
    runs (``server/long_runs.py``), in a thread of its own so that the worker's next run does not.

    After a run bigger than the small lane's (:func:`estimate_work`), the worker gives its free heap back
    (``heap.trim``): pre-tokenizing a big corpus peaks at several times its size in small blocks, and glibc
    would keep that peak in each of the lane's workers for the server's life."""
    big = estimate_work(spec, options) > SMALL_WORK
    try:
        history = long_runs.in_own_thread(_train, slot, spec, options)  # its corpus is freed when it returns
    finally:
        if big:
            heap.trim()
    return history, deep_sizeof(history)


def _train(slot: int, spec: dict, options: dict) -> bpe.History:
    shared = Slot(_progress, slot) if _progress is not None else None
    clock, yielder = run_times.Phases(slot), long_runs.Yielder()
    if shared is not None and shared.stop_flag:
        raise Stopped("stopped before it started")  # nobody waited for it any more while it queued
    if stored := spec.get("stored"):  # a big text sent by its digest: read from the store here, not pickled
        spec = {**spec, "text": _stored_text(*stored)}
        del spec["stored"], spec["chars"]
    clock.mark("read")
    corpus = corpus_of(**spec, special_tokens=options.get("special_tokens", ()))
    if spec["source"] != "preset":
        check_word_lengths(corpus, options["pre_tokenizer"])
    if "num_merges" not in options and "vocab_size" not in options:
        options = {**options, "num_merges": MAX_MERGES}
    states = bpe.train_steps(corpus, **options)
    first = next(states)
    clock.mark("counted")
    yielder.check()  # a large corpus's counting alone can make a run long
    for state in states:
        if state.step % PROGRESS_EVERY == 0:
            yielder.check()
        if state.step % PROGRESS_EVERY == 0 and shared is not None:
            shared.merge_reached = state.step
            if shared.copy_asked:  # a session stopped while another waits: a copy of what is made
                # A copy not made (disk full, or no memory for it) must not end the run the others wait for.
                with contextlib.suppress(Exception):
                    snapshots.write(first.history, state.step, snapshots.path(_server_pid, slot))
                shared.copy_asked = False  # after the rename: the server reads the file once it sees 0
            if flag := shared.stop_flag:
                states.close()  # the history holds merges 1..state.step, each complete
                if flag != KEEP:
                    raise Stopped(f"stopped at merge {state.step:,}")
                first.history.stop("stopped", state.step)
                break
    clock.mark(f"trained {first.history.num_merges:,} merges")
    clock.log()
    return first.history


def _stored_text(where: str, key: str) -> str:
    from server import corpus_store  # only a worker given a digest needs the store (SQLite or Redis)

    try:
        found = corpus_store.reader(where).get(key)
    except corpus_store.StoreUnavailable as exc:
        raise CorpusGone(str(exc)) from None
    if found is None or found[0] != "text":
        raise CorpusGone("The corpus is no longer in the server's store.")
    return found[1]


# -- the pool and the job table (in the serving process) --------------------------------------------
@dataclass
class Job:
    key: Hashable
    slot: int
    future: cf.Future
    total: int | None  # merges to train, when the settings say so
    started: float = field(default_factory=time.monotonic)
    waiters: set = field(default_factory=set)
    alive: Callable[[str], bool] = lambda waiter: True  # is this waiter (a session) still there?
    lane: str = "main"
    big: bool = False  # bigger than the small lane's runs: its lane's workers are replaced after it
    gone_since: dict = field(default_factory=dict)  # waiter -> when it was first seen gone
    kept_to: list = field(default_factory=list)  # who gets the copy of the merges so far asked for (leave)
    handing: bool = False  # a copy is being read and handed to kept_to: they are still owed it until it is done

    def progress(self) -> int:
        return Slot(_pool().progress, self.slot).merge_reached

    def live_waiters(self) -> set:
        """The waiters still there now (a closed session is not, however recently it closed)."""
        with _pool().lock:
            return {w for w in self.waiters if self.alive(w)}

    def _prune(self, now: float) -> None:
        """Drop the waiters gone for WAITER_GRACE_S or more (under the pool's lock)."""
        for waiter in list(self.waiters):
            if self.alive(waiter):
                self.gone_since.pop(waiter, None)
            elif now - self.gone_since.setdefault(waiter, now) >= WAITER_GRACE_S:
                self.waiters.discard(waiter)
                del self.gone_since[waiter]


class _Pool:
    def __init__(self) -> None:
        ctx = forkserver()
        self.progress = ctx.Array("q", FIELDS * SLOTS, lock=False)  # a Slot each (server/slots.py)
        snapshots.sweep(os.getpid())  # copies left by a server that died (or an earlier pool of this one)
        self.ctx = ctx
        self.lanes = {lane: self.executor_of(n) for lane, n in (("main", POOL_WORKERS), ("small", SMALL_WORKERS))}
        self.retired: list[cf.ProcessPoolExecutor] = []  # main lanes replaced (their workers end on their own)
        self.recycle = False  # a big run ended: the main lane's workers are replaced once it is idle
        self.fresh_mib: float | None = None  # the smallest worker seen (MiB): a lane's growth is measured from it
        self.started = {lane: time.monotonic() for lane in self.lanes}  # when each lane's workers were last started
        self.fair = FairLane(lambda fn, *args: _run(fn, *args, lane="main"), POOL_WORKERS)
        # Reentrant: a job that is already over when its callback is added runs the callback (which
        # takes this lock) at once, in the submitting thread that holds it.
        self.lock = threading.RLock()
        self.jobs: dict[Hashable, Job] = {}
        self.stopping: dict[Hashable, Job] = {}  # stopped with KEEP, until the worker returns what it made
        self.free = list(range(SLOTS))
        self.trained: dict[Hashable, int] = {}  # how many times each key was trained (benchmarks read it)
        self.busy = {lane: 0 for lane in self.lanes}  # jobs queued or running in each lane
        self.closed = threading.Event()
        threading.Thread(target=_watch, args=(self,), name="bpe-jobs-watch", daemon=True).start()

    @property
    def executor(self) -> cf.ProcessPoolExecutor:
        return self.lanes["main"]

    def executor_of(self, workers: int) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(
            workers, mp_context=self.ctx, initializer=_init_worker, initargs=(self.progress, os.getpid())
        )


def _watch(pool: _Pool) -> None:
    """Stop the jobs nobody waits for any more (every WATCH_S, until the pool is shut down). Each look is a
    function of its own: a loop variable left in this frame held the last job, and its finished run, for good."""
    while not pool.closed.wait(WATCH_S):
        _stop_abandoned(pool)
        _recycle(pool)


def _recycle(pool: _Pool) -> bool:
    """Replace an idle lane's executor when its workers hold memory they cannot give back: the main lane after a
    big run, and either lane once a worker has grown GROWN_MIB past the smallest worker seen (many small runs,
    the small lane's worker kept for the server's life, leave its heap in scattered blocks a trim cannot free).
    The old executor's workers end (a pool shut down lets its idle workers go), and the new one's start now.
    True if a lane was replaced."""
    replaced = False
    for lane, workers in (("main", POOL_WORKERS), ("small", SMALL_WORKERS)):
        with pool.lock:
            if pool.busy[lane] or pool.closed.is_set():
                continue
            after_big = lane == "main" and pool.recycle
            if not (after_big or _grown(pool, lane)):
                continue
            if lane == "main":
                pool.recycle = False
            old, pool.lanes[lane] = pool.lanes[lane], pool.executor_of(workers)
            pool.started[lane] = time.monotonic()
            pool.retired = [e for e in pool.retired if internals.pool_processes(e)] + [old]
        old.shutdown(wait=False)
        for _ in range(workers):
            _run(_ready, 0.05, lane=lane)
        replaced = True
    return replaced


def _grown(pool: _Pool, lane: str) -> bool:
    """Whether a worker of ``lane`` holds GROWN_MIB more than the smallest worker seen (a fresh one, which has
    imported the engine and nothing else). False where a process's size cannot be read, and while the lane's workers
    may still be starting: one still importing would set the smallest size too low."""
    if time.monotonic() - pool.started[lane] < WORKER_START_S:
        return False
    sizes = [size for p in internals.pool_processes(pool.lanes[lane]) if (size := rss_mib(p.pid))]
    if not sizes:
        return False
    pool.fresh_mib = min(sizes) if pool.fresh_mib is None else min(pool.fresh_mib, *sizes)
    return max(sizes) > pool.fresh_mib + GROWN_MIB


def _stop_abandoned(pool: _Pool) -> None:
    with pool.lock:
        now = time.monotonic()
        for job in list(pool.jobs.values()):
            job._prune(now)
            if not job.waiters:
                _stop(pool, job, "nobody waits for it", keep=bool(job.kept_to))  # a copy asked for: keep it all
        owed = [job for job in pool.jobs.values() if job.kept_to]
    for job in owed:
        _hand_over(pool, job)


def _run(fn, *args, lane: str = "main") -> cf.Future:
    """Submit to a lane of the pool (workers start here, on demand); a pool broken by a dead worker is
    replaced once."""
    for attempt in (1, 2):
        pool = _pool()
        try:
            with plain_main():
                future = pool.lanes[lane].submit(fn, *args)
                if _carries_big_text(args):
                    # multiprocessing's queue feeder thread keeps the last message it sent (its loop variable)
                    # until it sends the next: a job's pickled 100 MB corpus, held for good by an idle lane
                    pool.lanes[lane].submit(_ready, 0.0)
                return future
        except BrokenProcessPool:
            reset_if_broken()
            if attempt == 2:
                raise ValueError("The training workers stopped working; reload the page to try again.") from None


def _carries_big_text(args: tuple) -> bool:
    return any(isinstance(a, dict) and len(a.get("text") or "") > BIG_TEXT_CHARS for a in args)


_POOL: _Pool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> _Pool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = _Pool()
            _kill_workers_at_exit()
        return _POOL


_exit_hook_installed = False


def _kill_workers_at_exit() -> None:
    """At interpreter exit (after Streamlit has stopped serving on SIGTERM or Ctrl-C), kill the pool's
    workers before ``concurrent.futures`` joins them. Its own exit hook waits for every running job,
    and is registered with ``threading._register_atexit`` (``server.internals``), whose hooks run last-registered first before
    non-daemon threads are joined; so this one, registered later, runs before it. (``atexit.register``
    would run only after that wait.)"""
    global _exit_hook_installed
    if not _exit_hook_installed:
        _exit_hook_installed = internals.register_before_thread_join(shutdown)


def shutdown() -> None:
    """Kill the workers and drop the pool: running jobs end at once (their futures fail), nothing waits."""
    global _POOL
    with _POOL_LOCK:
        old, _POOL = _POOL, None
    if old is None:
        return
    old.closed.set()
    old.fair.close()
    # Python 3.14 has executor.terminate_workers(); before it, the worker processes are only reachable
    # through the executor's _processes (pid -> multiprocessing.Process).
    for executor in [*old.lanes.values(), *old.retired]:
        for process in internals.pool_processes(executor):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()
        executor.shutdown(wait=False, cancel_futures=True)


def estimate_work(spec: dict, options: dict) -> int:
    """A run's size for choosing its lane: characters of corpus times merges (at most one merge per
    character counts). Cheap: a preset's size is read from its description, not built."""
    if spec["source"] == "preset":
        p = PRESETS.get(spec["preset"])
        chars = 0 if p is None else (p.corpus_bytes or len(p.word_counts or "") + sum(map(len, p.texts or ())))
    else:
        chars = spec.get("chars") or len(spec["text"] if spec["source"] == "text" else spec["counts"])
    merges = options.get("num_merges") or options.get("vocab_size") or MAX_MERGES
    return chars * min(merges, max(chars, 1))


def _lane(pool: _Pool, spec: dict, options: dict) -> str:
    """The small lane for a small run (or the main lane, if that one is idler); the main lane otherwise."""
    if estimate_work(spec, options) > SMALL_WORK:
        return "main"
    return "main" if pool.busy["main"] < POOL_WORKERS and pool.busy["main"] < pool.busy["small"] else "small"


def submit(
    key: Hashable,
    spec: dict,
    options: dict,
    waiter: str,
    on_done: Callable[[Job], Any],
    finished: Callable[[], bool] = lambda: False,
    alive: Callable[[str], bool] = lambda waiter: True,
    client: Hashable | None = None,
    group: Hashable | None = None,
) -> Job | None:
    """The job training ``key`` (the one already running, or a new one), with ``waiter`` counted;
    None if ``finished()`` says the run is already stored. ``alive(waiter)`` says whether a waiter
    is still there (asked by the watcher and by :func:`leave`; it must be quick and thread-safe). ``on_done(job)`` runs once when it
    finishes, before the job leaves the table: so a caller that found neither the stored run nor a
    job may have looked between the two, and ``finished`` is asked again here, under the lock the
    job leaves the table with (without it, two of twenty sessions asking at once could each train).
    ``client`` (the waiter if None) is whom the main lane is fair between: one run of theirs at a time;
    ``group`` (the client's browser address) holds at most all the lane's workers but one."""
    pool = _pool()
    with pool.lock:
        job = pool.jobs.get(key)
        if job is None and finished():
            return None
        if job is None:
            if not pool.free:
                raise ValueError(f"The server is training {SLOTS} runs already; try again in a minute.")
            slot = pool.free.pop()
            Slot(pool.progress, slot).reset()
            lane = _lane(pool, spec, options)
            if lane == "main":
                future = pool.fair.submit(
                    waiter if client is None else client, train_job, slot, spec, options, group=group
                )
            else:
                future = _run(train_job, slot, spec, options, lane=lane)
            job = Job(key, slot, future, options.get("num_merges"), alive=alive, lane=lane)
            job.big = estimate_work(spec, options) > SMALL_WORK
            pool.busy[lane] += 1
            pool.jobs[key] = job
            pool.trained[key] = pool.trained.get(key, 0) + 1
            print(f"bpe-jobs: training {str(key)[:16]} in the {lane} lane (slot {slot})", file=sys.stderr, flush=True)
            run_times.submitted(slot, lane)
            future.add_done_callback(lambda _f, job=job, pool=pool: _finish(pool, job, on_done))
        job.waiters.add(waiter)
        return job


def _finish(pool: _Pool, job: Job, on_done: Callable[[Job], Any]) -> None:
    try:
        _hand_over(pool, job)  # a copy written before the run ended; one never written is not waited for
        on_done(job)
    finally:
        job.kept_to.clear()
        snapshots.discard(snapshots.path(os.getpid(), job.slot))
        with pool.lock:
            if pool.jobs.get(job.key) is job:
                del pool.jobs[job.key]
            if pool.stopping.get(job.key) is job:
                del pool.stopping[job.key]
            pool.free.append(job.slot)
            pool.busy[job.lane] -= 1
            pool.recycle = pool.recycle or (job.big and job.lane == "main")


def _stop(pool: _Pool, job: Job, why: str, keep: bool = False) -> None:
    """Tell the worker to stop (under the pool's lock); a job still queued is cancelled outright.
    ``keep``: the worker returns the merges made so far (see :func:`stopping`)."""
    Slot(pool.progress, job.slot).stop_flag = KEEP if keep else CANCEL
    if pool.jobs.get(job.key) is job:
        del pool.jobs[job.key]  # a new request trains afresh instead of waiting on a stopping job
    if job.future.cancel():  # False once a worker has it: the flag stops it
        keep = False
    if keep:
        pool.stopping[job.key] = job
    print(f"bpe-jobs: stopped {str(job.key)[:16]} ({why})", file=sys.stderr, flush=True)


def leave(
    job: Job,
    waiter: str,
    why: str = "Stop pressed",
    keep: bool = True,
    on_kept: Callable[[bpe.History, int], Any] | None = None,
) -> bool:
    """``waiter`` stops waiting (its Stop button). The run is stopped unless another waiter that is
    still there waits for it (a closed session does not count, however recently it closed); then
    only ``waiter`` is detached. True if stopped. ``keep``: the stopped job's future returns the
    merges made so far (a History whose ``stop_reason`` is ``"stopped"``) instead of raising Stopped.
    ``on_kept``: when the run goes on for another session, the worker is asked for a copy of the
    merges made so far (at its next check), and ``on_kept(history, nbytes)`` gets it (in whichever
    thread collects it: see :func:`stopping`)."""
    pool = _pool()
    with pool.lock:
        job.waiters.discard(waiter)
        if job.future.done():
            return False
        if any(job.alive(w) for w in job.waiters):
            # A copy only of a run a worker has (one still queued behind others' runs has no merges to copy:
            # asked for, the page said "Stopping after merge 0" until the run started and reached merge 50).
            if keep and on_kept is not None and job.future.running():
                if not job.kept_to:
                    Slot(pool.progress, job.slot).copy_asked = True
                job.kept_to.append(on_kept)
            return False
        job.waiters.clear()
        _stop(pool, job, why, keep)
        return True


def switch(waiter: str, key: Hashable) -> None:
    """``waiter`` now waits for ``key`` only: it leaves every other job it waited for (a session
    that moved to another corpus no longer keeps its old run training)."""
    pool = _pool()
    with pool.lock:
        for job in list(pool.jobs.values()):
            if job.key != key and waiter in job.waiters:
                leave(job, waiter, "its session moved to another run", keep=False)


def job_for(key: Hashable) -> Job | None:
    pool = _pool()
    with pool.lock:
        return pool.jobs.get(key)


def stopping(key: Hashable) -> Job | None:
    """The job of ``key`` stopped by Stop whose worker has not yet returned the merges it made, or the
    job going on for another session whose copy of the merges so far has not been collected yet (a
    copy written is collected here, as well as by the watcher every WATCH_S)."""
    pool = _pool()
    with pool.lock:
        job = pool.stopping.get(key) or pool.jobs.get(key)
        if job is None or (job.key not in pool.stopping and not job.kept_to):
            return None
    if job.key not in pool.stopping and _hand_over(pool, job):
        return None
    return job


def _hand_over(pool: _Pool, job: Job) -> bool:
    """Give the copy of the merges so far to those who asked, once the worker has written it (its flag
    is clear). True if handed over. The file is read outside the pool's lock (a big run's takes a while)."""
    with pool.lock:
        if not job.kept_to or job.handing or Slot(pool.progress, job.slot).copy_asked:
            return False
        kept_to, job.handing = list(job.kept_to), True
    try:
        result = snapshots.read(snapshots.path(os.getpid(), job.slot))
        for on_kept in kept_to if result is not None else ():
            on_kept(*result)
    except Exception as exc:  # noqa: BLE001 - the watcher thread must go on; the session is told Stop kept nothing
        print(f"bpe-jobs: the copy of {str(job.key)[:16]} was lost ({exc!r})", file=sys.stderr, flush=True)
    finally:
        with pool.lock:  # only now are they no longer owed it (stopping() tells their pages to wait until then)
            job.kept_to = [f for f in job.kept_to if f not in kept_to]
            job.handing = False
    return True


def times_trained(key: Hashable) -> int:
    return _pool().trained.get(key, 0) if _POOL is not None else 0


def reset_if_broken() -> None:
    """After a worker died (killed, out of memory) the executor refuses new work: start a new pool."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None and any(internals.pool_broken(e) for e in _POOL.lanes.values()):
            old, _POOL = _POOL, None
            old.closed.set()
            for executor in old.lanes.values():
                executor.shutdown(wait=False, cancel_futures=True)


def _ready(pause: float) -> int:
    time.sleep(pause)  # keeps this worker busy so the next warm-up call starts another one
    return os.getpid()


def warm() -> None:
    """Start the pool's workers now (at server start), so the first run a student asks for does not
    wait for a worker process to start and import the engine."""
    for lane, n in (("main", POOL_WORKERS), ("small", SMALL_WORKERS)):
        for _ in range(n):
            _run(_ready, 0.05, lane=lane)
