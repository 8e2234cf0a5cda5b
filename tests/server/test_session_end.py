"""Sessions Streamlit lets go of are ended (server/session_end.py): a real server, a closed tab's session past its
time, and what it held given back; the unit tests drive the registry with a stand-in session manager."""

from __future__ import annotations

import os
import tempfile

import psutil
import pytest
from browser_support import AppServer, run_protocol, wait_until
from st_client import Session

from server import session_end


class FakeSession:
    def __init__(self) -> None:
        self.shut = 0
        self._session_state = {"big": "x" * 10}

    def shutdown(self) -> None:
        self.shut += 1


class FakeManager:
    def __init__(self) -> None:
        self.active: set[str] = set()
        self.stored: set[str] = set()

    def is_active_session(self, session_id: str) -> bool:
        return session_id in self.active

    def get_session_info(self, session_id: str):
        return object() if session_id in self.stored else None


def test_only_sessions_neither_open_nor_kept_for_a_returning_tab_are_dropped():
    manager, sessions = FakeManager(), {k: FakeSession() for k in ("open", "kept", "gone")}
    manager.active.add("open")
    manager.stored.add("kept")
    for k, s in sessions.items():
        session_end.watch(f"t-{k}", s)
    manager.active, manager.stored = {f"t-{k}" for k in manager.active}, {f"t-{k}" for k in manager.stored}
    assert [sid for sid, _ in session_end.dropped(manager)] == ["t-gone"]
    assert session_end.ended("t-gone") and sessions["gone"]._session_state == {}  # its state emptied
    assert sessions["open"]._session_state  # the others keep theirs
    assert not session_end.ended("t-gone")  # once
    for k in ("open", "kept"):
        session_end.ended(f"t-{k}")


def test_a_session_freed_as_it_should_be_leaves_nothing_behind():
    session_end.watch("t-freed", FakeSession())  # no other reference: freed at once
    assert all(sid != "t-freed" for sid, _ in session_end.dropped(FakeManager()))


async def paste_and_leave(url: str, pid: int, chars: int) -> float:
    """A tab pastes a corpus of ``chars`` characters (kept in its text box, so in its session's state) and closes."""
    s = Session(url, "step=0")
    await s.open(timeout=120)
    values = {s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"}
    await s._rerun(timeout=120, **values)  # draws the box
    text = ("a corpus nobody pasted before, " * (chars // 31 + 1))[:chars]
    await s._rerun(timeout=120, **values, **{s.ids["corpus_text"]: text, s.ids["limit_value"]: 1.0})
    await s.settle(timeout=120)
    held = psutil.Process(pid).memory_info().rss / 2**20
    await s.close()
    return held


@pytest.mark.timeout(300)
def test_the_last_tab_to_leave_a_quiet_server_gives_back_what_its_session_held():
    """Streamlit drops a closed tab's session past its time without ending it, and its message loop keeps the last
    session it sent to in a loop variable: the last tab to leave a quiet server kept its 4.9 MB paste alive for as
    long as nobody else came."""
    data = tempfile.mkdtemp(prefix="bpe-test-store-")
    server = AppServer(env={"BPE_DATA_DIR": data, "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "2"})
    url = server.start()
    try:
        pid = server.proc.pid
        held = run_protocol(lambda u: paste_and_leave(u, pid, 4_900_000), url)
        rss = lambda: psutil.Process(pid).memory_info().rss / 2**20  # noqa: E731
        assert held - rss() < 2  # the session's text is still there right after the tab closed
        wait_until(
            lambda: held - rss() > 3.5, 60, lambda: f"the server to give back the paste ({held:.0f}, {rss():.0f} MiB)"
        )
    finally:
        server.stop()
        for name in os.listdir(data):
            os.remove(os.path.join(data, name))
        os.rmdir(data)
