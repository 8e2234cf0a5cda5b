"""Sessions Streamlit lets go of without ending them are ended here: shut down, and their state emptied.

A closed tab's session is kept for ``server.disconnectedSessionTTL`` so that the tab can come back to it; when that
time is up Streamlit drops it from its store without ending it (no ``shutdown``: its uploaded files stay in the
upload manager, and no hook hears of it) and expects it to be freed. It is not always: the runtime's message loop
keeps the last session it sent messages to in a loop variable until it sends to another, so on a server that fell
quiet the last session to leave stays alive, with every value its state held (two 59 MB uploads kept 115 MiB for as
long as nobody else came), and a session whose state was frozen with the heap (``server/heap.py``) is garbage that
only a collection frees. Each script run notes its session here (:func:`watch_this_run`, weakly); every few seconds
the heap's sweeper calls :func:`end_dropped`, which ends each session still alive that Streamlit no longer holds,
as ``close_session`` would: ``shutdown`` (its files go, and the upload manager's hook tells the heap to collect) and
its state emptied (:func:`ended`, also called by that hook when Streamlit ends a session itself). Only a session
whose time is up is ended, so nothing a returning tab needs is lost.

What this leaves out: when closed sessions' time is up (``heap.reap_sessions``) and the collection after.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from server import internals

_sessions: dict[str, weakref.ref] = {}
_lock = threading.Lock()


def watch_this_run() -> None:
    """Note the current script run's session (``app.py`` calls it at every run; outside a server, does nothing)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    manager = internals.session_manager()
    if ctx is None or manager is None:
        return
    info = manager.get_active_session_info(ctx.session_id)
    if info is not None:
        watch(ctx.session_id, info.session)


def watch(session_id: str, session: Any) -> None:
    """Note ``session`` (weakly: a session freed as it should be leaves a dead reference, dropped later)."""
    with _lock:
        known = _sessions.get(session_id)
        if known is None or known() is not session:
            _sessions[session_id] = weakref.ref(session)


def ended(session_id: str) -> bool:
    """Empty the state of a session that has ended; True if there was one to empty."""
    with _lock:
        ref = _sessions.pop(session_id, None)
    session = ref() if ref is not None else None
    state = internals.app_session_state(session) if session is not None else None
    if state is None:
        return False
    try:
        state.clear()
    except Exception:  # noqa: BLE001 - a state that cannot be cleared is kept, as Streamlit would
        return False
    return True


def dropped(manager: Any) -> list[tuple[str, Any]]:
    """The noted sessions still alive that ``manager`` no longer holds (neither open nor kept for a returning tab).
    Dead references are forgotten."""
    out = []
    with _lock:
        for session_id, ref in list(_sessions.items()):
            session = ref()
            if session is None:
                del _sessions[session_id]
            elif not manager.is_active_session(session_id) and manager.get_session_info(session_id) is None:
                out.append((session_id, session))
    return out


def end_dropped() -> int:
    """End every session Streamlit dropped that is still alive (call on the server's event loop, where Streamlit
    changes its sessions). Returns how many were ended."""
    manager = internals.session_manager()
    if manager is None:
        return 0
    found = dropped(manager)
    for session_id, session in found:
        try:
            session.shutdown()  # its files go; the upload manager's hook calls ended() and wakes the heap's sweeper
        except Exception:  # noqa: BLE001 - a session that cannot shut down still has its state emptied
            pass
        ended(session_id)
    return len(found)


def watched() -> int:
    """How many sessions are noted and alive (tests)."""
    with _lock:
        return sum(1 for ref in _sessions.values() if ref() is not None)
