"""What runs when the server starts: the switch out of Streamlit's folder-pages mode (every page calls
:func:`ensure_router` first), and once per process :func:`start_once` (socket options, the training
workers, the frozen heap, the per-session upload limits; ``app.py`` calls it).

Why the switch: Streamlit 1.67 decides when a server starts whether a folder named ``pages/`` beside
the entry script means its old multipage API, and only ``st.navigation`` (in ``app.py``) turns that
off. So until some session has run ``app.py``, a direct link such as ``/train?step=7`` runs
``pages/train.py`` alone (no page config, no CSS) and the sidebar lists every module in ``pages/``
as a page.
"""

from __future__ import annotations

import sys

import streamlit as st

from server import heap, internals, jobs, tcp, upload_limits

_router_ensured = False


def ensure_router() -> None:
    """Make the first run after a server start go through ``app.py``'s router. Called at the top of
    every module in ``pages/`` (a page script, or a helper module opened as a page by its URL): if
    folder-pages mode is still on, turn it off exactly as ``st.navigation`` does and run again, now
    through the router.

    It acts once per process, at the first script run: once off, the mode stays off for the
    server's life. (Streamlit's AppTest decides the mode afresh on every run; acting again there
    would rerun each run and drop a button's click, so tests see what a server does after its
    first run.)"""
    global _router_ensured
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if _router_ensured or get_script_run_ctx() is None:
        return
    _router_ensured = True
    if internals.leave_folder_pages_mode():
        st.rerun()


_started = False


def start_once() -> None:
    """At the server's first script run: ``TCP_NODELAY`` on its sockets, the training workers started,
    the heap frozen. Later calls do nothing."""
    global _started
    if not _started:
        _started = True
        sockets = tcp.no_delay()  # small websocket messages go out at once (server/tcp.py)
        print(f"bpe: TCP_NODELAY set on {sockets} server sockets", file=sys.stderr, flush=True)
        jobs.warm()  # the training workers start with the server, not with the first student
        heap.freeze_heap()
        heap.start_sweeper()  # evicted runs a session still held are freed once it lets go
        upload_limits.install()  # files and bytes per session (server/upload_limits.py)
