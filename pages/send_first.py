"""Send what a step has drawn so far (its step box) before the rest of the step is computed.

Streamlit's event loop takes a session's queued messages and writes them one per turn of the loop, then
sleeps 5 ms (``streamlit.runtime.runtime_util.MESSAGE_FLUSH_INTERVAL_SECS``); it needs the GIL for every
turn. Right after the step box, a large run's script thread computes the pair counts, splits and vocabulary,
holding the GIL, and the loop wrote the dozen messages before the title (the step buttons, the URL, the
title) in gaps of 1-3 ms: the title of a 5 MB run's step left the server 2-3 ms later than hug's, the whole
of the difference (traced on a real server: hug 9.2 ms, 5 MB 11.8 ms from the click's arrival). With
:func:`title_out` the script thread sleeps until the loop has written them (7.6 and 7.5 ms). Tried and left
out: ``sys.setswitchinterval(0.0005)`` (the title still left at 12.1 ms) and waiting only until the loop
took the queue (it then wrote the messages as slowly as before).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from server import internals, startup

if __name__ == "__main__":  # opened as a page (a fresh server's first request): go through the router
    startup.ensure_router()

# Seconds a step waits at most for its step box to be sent; BPE_TITLE_WAIT=0 turns the wait off
# (``benchmarks/bench_corpus_clicks.py --ab`` compares both on two servers, round by round).
TITLE_WAIT = 0.0 if os.environ.get("BPE_TITLE_WAIT") == "0" else 0.015
TURNS_MORE = 24  # turns of the event loop waited beyond the messages queued (a turn of an idle loop: ~20 us)


def wait_until(done: Callable[[], bool], timeout: float, every: float = 0.0002) -> bool:
    """Poll ``done()`` until it is true or ``timeout`` seconds have passed; whether it came true. Each
    short sleep releases the GIL, so the thread that makes ``done()`` true can run."""
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() >= deadline:
            return False
        time.sleep(every)
    return True


def title_out(timeout: float = TITLE_WAIT) -> bool:
    """Wait (at most ``timeout`` s) until the event loop has taken this session's queued messages and written
    them to the browser; whether it had. The loop writes one message per turn (an ``asyncio.sleep(0)`` after
    each), so after it took the queue, a callback that goes round the loop once more per message it may still
    be writing ends after the last of them; the script thread meanwhile sleeps, and holds no GIL the loop
    needs. A no-op (False) outside a served session (AppTest) or if the Streamlit internals it reads (the
    session's browser queue and event loop) change."""
    session = _served_session() if timeout > 0 else None
    queue = internals.browser_queue(session)
    loop = internals.session_event_loop(session)
    if queue is None or loop is None:
        return False
    deadline = time.perf_counter() + timeout
    # What the loop may still have to write: what is queued now, or, if it took the queue already, what it
    # took with it (a step's messages before its title are about a dozen).
    turns = len(queue) + TURNS_MORE
    if not wait_until(queue.is_empty, timeout):
        return False
    written = threading.Event()

    def turn(left: int) -> None:
        if left <= 0:
            written.set()
        else:
            loop.call_soon(turn, left - 1)

    try:
        loop.call_soon_threadsafe(turn, turns)
    except RuntimeError:  # the loop closed (the server is stopping)
        return False
    return written.wait(max(0.0, deadline - time.perf_counter()))


def _served_session():
    """This script run's AppSession, or None outside a served session (AppTest's runtime is a mock)."""
    if not Runtime.exists():
        return None
    ctx = get_script_run_ctx()
    manager = internals.session_manager(Runtime.instance())
    info = manager.get_session_info(ctx.session_id) if ctx and manager else None
    return getattr(info, "session", None)
