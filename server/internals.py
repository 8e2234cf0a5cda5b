"""Every private attribute of a framework the app reads (Streamlit's and the standard library's), in one place.

Each is a last resort, kept because no supported API does the same (the reason is beside each one).
Every accessor returns None (or False) when the attribute is gone, so an upgrade turns a feature off
rather than breaking a page; ``tests/server/test_internals.py`` checks :func:`missing` is empty on the pinned
versions, so such an upgrade fails the tests instead of passing silently.

Left out: what the features built on these do (``server/heap.py``, ``server/jobs.py`` say).
"""

from __future__ import annotations

import asyncio
import inspect
import re
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _runtime():
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def session_manager() -> Any:
    """The running server's session manager (``Runtime._session_mgr``), which holds the store of closed
    tabs' sessions."""
    return getattr(_runtime(), "_session_mgr", None)


def closed_sessions_cache() -> Any:
    """The ``TTLCache`` of closed tabs' sessions (``_session_mgr._session_storage._cache``). Streamlit
    expires it only when another session is saved or deleted, so on a quiet server the runs closed tabs
    showed stay alive; its ``expire`` is called from ``server/heap.py``."""
    return getattr(getattr(session_manager(), "_session_storage", None), "_cache", None)


def server_event_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop (``Runtime._async_objs.eventloop``), where Streamlit touches its session
    storage; work on that storage is handed to it."""
    loop = getattr(getattr(_runtime(), "_async_objs", None), "eventloop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) else None


def pool_processes(executor: ProcessPoolExecutor) -> list:
    """A process pool's worker processes (``ProcessPoolExecutor._processes``): before Python 3.14's
    ``terminate_workers()`` the only way to kill them at once."""
    return list((getattr(executor, "_processes", None) or {}).values())


def pool_broken(executor: ProcessPoolExecutor) -> bool:
    """Whether a worker died and the pool refuses new work (``ProcessPoolExecutor._broken``); the public
    sign is only the ``BrokenProcessPool`` of the next submit."""
    return bool(getattr(executor, "_broken", False))


def register_before_thread_join(hook: Callable[[], None]) -> bool:
    """Run ``hook`` at interpreter exit before non-daemon threads are joined (``threading._register_atexit``,
    which ``concurrent.futures`` itself uses to wait for running jobs; hooks run last-registered first, so
    this one runs before that wait, where ``atexit.register`` would run after it). False if not available
    or the interpreter is already exiting."""
    register = getattr(threading, "_register_atexit", None)
    if register is None:
        return False
    try:
        register(hook)
    except RuntimeError:  # already exiting
        return False
    return True


def app_session_state(session: Any) -> Any:
    """A session's state (``AppSession._session_state``), or None. Streamlit drops a closed tab's session when its
    time is up without ending it, and its runtime keeps the last session it sent messages to in a loop variable,
    so a dropped session can stay alive with every value it held; emptying the state of such a session
    (``server/session_end.py``) needs the state itself, which no supported API gives."""
    return getattr(session, "_session_state", None)


def missing() -> list[str]:
    """The internals above that this Streamlit and Python no longer have (checked on the classes, so no
    server needs to run)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.state.session_state import SessionState
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    def instance_attribute(cls, name: str) -> bool:
        """Whether ``cls.__init__`` sets ``self.<name>`` (instance attributes exist only on instances)."""
        return re.search(rf"self\.{name}\b", inspect.getsource(cls.__init__)) is not None

    checks = {
        "Runtime._session_mgr": instance_attribute(Runtime, "_session_mgr"),
        "Runtime._async_objs": instance_attribute(Runtime, "_async_objs"),
        "WebsocketSessionManager._session_storage": instance_attribute(WebsocketSessionManager, "_session_storage"),
        "MemorySessionStorage._cache": instance_attribute(MemorySessionStorage, "_cache"),
        "ProcessPoolExecutor._processes": instance_attribute(ProcessPoolExecutor, "_processes"),
        "ProcessPoolExecutor._broken": instance_attribute(ProcessPoolExecutor, "_broken"),
        "threading._register_atexit": callable(getattr(threading, "_register_atexit", None)),
        "AppSession._session_state": instance_attribute(AppSession, "_session_state"),
        "SessionState.clear": callable(getattr(SessionState, "clear", None)),
    }
    return [name for name, present in checks.items() if not present]
