"""Long-lived objects kept out of the garbage collector's full scans (``gc.freeze``).

Streamlit, pandas and Altair are hundreds of thousands of long-lived objects, and so is a trained
run; Python's full collections would re-scan them all (benchmarks/bench_pages.py shows the cost).
Streamlit's own full collection after every script run is off (``runner.postScriptGC`` in
.streamlit/config.toml); Python's collector still runs one now and then. So the heap is frozen once
at start-up (:func:`freeze_heap`) and again each time a run is stored; when a run is evicted,
everything is unfrozen, collected once and frozen again (:func:`refreeze`), since frozen objects are
never collected. After either, the C allocator is asked to give its free pages back to the system
(:func:`trim`). An evicted run that a session still showed when it was evicted is freed later: the
page's script globals hold it in a reference cycle, so when the session goes it is garbage that only a
collection frees, and a freeze in between would keep it for good; :func:`watch_evicted` collects again
until every evicted run is gone (:func:`sweeper`, a thread started with the server). A session that
ended is the same case: its state (a 24 MB pasted value, say) was frozen with everything alive when a run
was stored, so after it ends (:func:`session_ended`) the sweeper unfreezes, collects and freezes once;
and it drops closed sessions past their time every REAP_S, so that they end on a quiet server too.
What this leaves out: deciding what to keep (the run store, ``server/run_store.py``).
"""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
import weakref

from server import internals, session_end

SWEEP_FIRST_S = 5.0  # the first look for evicted runs still alive; then every 2x longer, up to SWEEP_MAX_S
SWEEP_MAX_S = 120.0
REAP_S = 15.0  # how often the sweeper drops closed sessions past their time (so that they end)

_evicted: list[weakref.ref] = []
_evicted_lock = threading.Lock()
_wake = threading.Event()
_ended = threading.Event()  # a session ended since the last collection


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's reach. Garbage is collected
    first, so only live objects are frozen. Called once, at start-up (``server.startup``)."""
    gc.collect()
    gc.freeze()


def refreeze(collect: bool) -> None:
    """Freeze what arrived since the last freeze (a newly stored run). With ``collect`` (a run was
    just evicted) unfreeze, collect and freeze again: frozen objects are never collected, so an evicted
    run's would otherwise stay for good."""
    if collect:
        gc.unfreeze()
        gc.collect()
    gc.freeze()
    trim()


def watch_evicted(objs) -> None:
    """Remember evicted runs (weakly) so that :func:`sweep` frees those a session still held."""
    refs = []
    for obj in objs:
        try:
            refs.append(weakref.ref(obj))
        except TypeError:  # a plain value (tests store strings): freed by reference counting
            pass
    with _evicted_lock:
        _evicted.extend(refs)
    _wake.set()


def session_ended() -> None:
    """A session was shut down (``server/upload_limits.py`` hears it): wake the sweeper, which collects once
    a few seconds later (sessions ending together are collected together)."""
    _ended.set()
    _wake.set()


def lingering() -> int:
    """How many evicted runs are still alive (dead references are dropped)."""
    with _evicted_lock:
        _evicted[:] = [r for r in _evicted if r() is not None]
        return len(_evicted)


def reap_sessions() -> bool:
    """Drop the sessions whose tabs closed more than ``server.disconnectedSessionTTL`` (60 s here) ago.

    Streamlit keeps a closed tab's session in a ``TTLCache`` that removes expired entries only when
    another session is saved or deleted: on a server nobody opens any more, closed sessions, and
    the runs they showed, would stay for good (``benchmarks/bench_memory_at_rest.py`` shows it). This asks the cache to expire on the server's event
    loop, where Streamlit itself touches it (through ``server.internals``: on a Streamlit without those
    internals this does nothing). The sessions Streamlit drops so, and any other it let go of that is still
    alive, are then ended (``server/session_end.py``). True once the expiry has run."""
    try:
        expire = getattr(internals.closed_sessions_cache(), "expire", None)
        loop = internals.server_event_loop()
        if expire is None or loop is None or loop.is_closed():
            return False
        done = threading.Event()

        def on_loop() -> None:
            try:
                expire()
                session_end.end_dropped()
            finally:
                done.set()

        loop.call_soon_threadsafe(on_loop)
        return done.wait(5)
    except Exception:  # noqa: BLE001 - an internal that moved: memory is kept longer, nothing breaks
        return False


def sweep() -> int:
    """If an evicted run is still alive, unfreeze, collect and freeze again (a run a session let go
    since is freed; closed sessions past their time are dropped first). Returns how many are still
    alive after (held by a session still open)."""
    before = lingering()
    if not before:
        return 0
    reap_sessions()
    refreeze(True)
    after = lingering()
    try:
        print(
            f"bpe-heap: swept; {before - after} evicted of {before} freed, {after} still shown",
            file=sys.stderr,
            flush=True,
        )
    except (OSError, ValueError):  # stderr closed under us (a test run ending while the sweeper runs)
        pass
    return after


def sweeper() -> None:
    """Sweep while evicted runs stay alive: after 5 s, then 10, 20, ... up to every 2 minutes (a full
    collection holds the interpreter for tens of milliseconds per million objects, so not too often).
    Sleeps until an eviction wakes it. Runs for the server's life (a daemon thread)."""
    while True:
        if not _wake.wait(REAP_S):
            reap_sessions()  # a session past its time ends now (and calls session_ended)
            continue
        _wake.clear()
        pause = SWEEP_FIRST_S
        while True:
            if _wake.wait(pause):  # another eviction: start over from the short pause
                _wake.clear()
                pause = SWEEP_FIRST_S
                continue
            if _ended.is_set():  # sessions ended: their frozen state is garbage only this frees
                _ended.clear()
                refreeze(True)
            if not sweep():
                break
            pause = min(2 * pause, SWEEP_MAX_S)


def start_sweeper() -> None:
    threading.Thread(target=sweeper, name="bpe-heap-sweeper", daemon=True).start()


def trim() -> bool:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``). A run arrives as a
    pickle of tens of MB and unpickles through a peak twice its size; an evicted run frees hundreds
    of thousands of small blocks. glibc keeps such freed memory in its heap (the resident size counted
    it as used: 182 MiB of runs kept in 325 MiB over the start, 231 after a trim), so the server's
    memory at rest was about twice its runs. A few milliseconds; False where there is no glibc."""
    try:
        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):
        return False
