"""A fair training lane: each client's run gets a worker process of its own, the machine time-slices them.

A lane of one worker and a first-come queue would let one student's large paste, trained to 100,000
merges, keep every other run from starting for minutes. Here a lane has several workers (a few more than the
machine has cores, each at a low CPU priority, so the serving process still comes first) and admits at
most one run per client at a time: a client's second run waits behind its first, never another
client's. Clients are grouped (by the browser's address: one script can open many sessions, each a client),
and one group holds at most all workers but one, so a run from another group finds a worker free at once
however many runs one address starts. A run is a process, and Linux's scheduler shares the cores between the
lane's processes, so a long run does not hold a short one back: the short one trains alongside it, more slowly
(a time slice of the CPU each), and the long one keeps everything it made. A run waits only while its client
trains another, its group holds its share, or every worker is taken; the waiting runs are then taken in the
order they came, skipping those that would still wait.

What this leaves out: the worker processes themselves (``server/jobs.py`` submits through
``start``) and who a client is (the caller names one: a session, or a remote address).
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass
class _Waiting:
    client: Hashable
    group: Hashable
    future: cf.Future  # the caller's: pending here, running once a worker has the run
    fn: Callable
    args: tuple


class FairLane:
    """Runs ``start(fn, *args)`` (which submits to an executor of ``workers`` processes and returns its
    future) for at most ``workers`` runs at once, at most one per client and at most ``workers - 1`` per
    group of clients; :meth:`submit` returns a future of the caller's own, pending (cancellable) until the
    run is started.

    >>> lane = FairLane(lambda fn, *args: cf.ThreadPoolExecutor(1).submit(fn, *args), workers=2)
    >>> lane.submit("a", pow, 2, 10).result(timeout=5)
    1024
    """

    def __init__(self, start: Callable[..., cf.Future], workers: int) -> None:
        self.start, self.workers = start, workers
        self.lock = threading.Lock()
        self.waiting: list[_Waiting] = []
        self.running: dict[cf.Future, tuple[Hashable, Hashable]] = {}  # the executor's future -> (client, group)
        self.per_group = max(1, workers - 1)  # one worker is always left for another group

    def submit(self, client: Hashable, fn: Callable, *args, group: Hashable | None = None) -> cf.Future:
        """``fn(*args)`` for ``client``, one of ``group`` (by default a group of its own)."""
        future: cf.Future = cf.Future()
        with self.lock:
            self.waiting.append(_Waiting(client, client if group is None else group, future, fn, args))
        self._dispatch()
        return future

    def waiting_runs(self) -> int:
        with self.lock:
            return sum(not w.future.cancelled() for w in self.waiting)

    def close(self) -> None:
        """Cancel every run still waiting (the pool is shutting down: nothing may wait for it)."""
        with self.lock:
            waiting, self.waiting = self.waiting, []
        for w in waiting:
            w.future.cancel()

    def _next(self) -> _Waiting | None:
        """The first waiting run whose client has none running and whose group holds less than its share, if a
        worker is free (under the lock)."""
        self.waiting = [w for w in self.waiting if not w.future.cancelled()]
        if len(self.running) >= self.workers:
            return None
        busy = {client for client, _ in self.running.values()}
        groups = Counter(group for _, group in self.running.values())
        for i, w in enumerate(self.waiting):
            if w.client not in busy and groups[w.group] < self.per_group:
                return self.waiting.pop(i)
        return None

    def _dispatch(self) -> None:
        while True:
            with self.lock:
                w = self._next()
                if w is None:
                    return
                if not w.future.set_running_or_notify_cancel():  # cancelled as it was picked
                    continue
                try:
                    inner = self.start(w.fn, *w.args)
                except Exception as exc:  # noqa: BLE001 - the caller's future carries it (a broken pool's sentence)
                    inner, failed = None, exc
                else:
                    self.running[inner] = (w.client, w.group)
            # Outside the lock: the future's callbacks take the caller's locks, and the caller holds one of
            # those while it submits here.
            if inner is None:
                w.future.set_exception(failed)
            else:
                inner.add_done_callback(lambda f, outer=w.future: self._done(f, outer))

    def _done(self, inner: cf.Future, outer: cf.Future) -> None:
        with self.lock:
            self.running.pop(inner, None)
        if inner.cancelled():
            outer.set_exception(cf.CancelledError())
        elif (exc := inner.exception()) is not None:
            outer.set_exception(exc)
        else:
            outer.set_result(inner.result())
        # The next run starts from a thread of its own: this callback runs in the executor's own thread.
        threading.Thread(target=self._dispatch, name="bpe-lane-dispatch", daemon=True).start()
