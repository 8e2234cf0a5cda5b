"""Send what a step has drawn so far (its step box) before the rest of the step is computed.

Streamlit's event loop sends a session's queued messages, then sleeps 5 ms before it sends more
(``streamlit.runtime.runtime_util.MESSAGE_FLUSH_INTERVAL_SECS``), and needs the GIL to wake up. On a
large run the script thread computes the pair counts, splits and vocabulary right after the step box,
holding the GIL, so the loop waited up to the interpreter's switch interval (5 ms) on top of its sleep:
the title of a 5 MB run's step arrived 2-4 ms later than hug's, the whole of the difference between them
(measured in ``benchmarks/bench_corpus_clicks.py``). :func:`title_out` waits, in short sleeps that release
the GIL, until the loop has taken the session's queue, so the title leaves at the loop's next wake,
whatever comes after it. Left out: anything that changes Streamlit's own loop or the interpreter's switch
interval (tried: ``sys.setswitchinterval(0.0005)`` gave no measurable gain).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from server import startup

if __name__ == "__main__":  # opened as a page (a fresh server's first request): go through the router
    startup.ensure_router()

# Seconds a step waits at most for its step box to be sent; BPE_TITLE_WAIT=0 turns the wait off
# (``benchmarks/bench_corpus_clicks.py --ab`` compares both on two servers, round by round).
TITLE_WAIT = 0.0 if os.environ.get("BPE_TITLE_WAIT") == "0" else 0.015


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
    """Wait (at most ``timeout`` s) until this session's queued messages have been taken by the event loop
    to be sent; whether they were. A no-op (False) outside a served session (AppTest) or if Streamlit's
    internals it reads (the session's browser queue) change."""
    if timeout <= 0 or not Runtime.exists():
        return False
    ctx = get_script_run_ctx()
    manager = getattr(Runtime.instance(), "_session_mgr", None)  # AppTest's runtime is a mock without it
    info = manager.get_session_info(ctx.session_id) if ctx and manager else None
    queue = getattr(info.session, "_browser_queue", None) if info else None
    if queue is None or not hasattr(queue, "is_empty"):
        return False
    return wait_until(queue.is_empty, timeout)
