"""Send what a step has drawn so far (its step box) before the rest of the step is computed.

Why: Streamlit's event loop writes a session's queued messages one per turn of the loop, and needs the GIL
for every turn. Right after the step box, a large run's script thread computes the pair counts, splits and
vocabulary, holding the GIL, so the dozen messages before the title (the step buttons, the URL, the title)
would trickle out between its slices. :func:`title_out` lets the script thread sleep until the loop has
written them, so a large corpus's step title leaves as early as a small one's (the figures are in
``docs/benchmarks.md``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from server import internals

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
