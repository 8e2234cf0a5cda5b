"""Per-session upload limits (server/upload_limits.py): a session holds at most MAX_FILES uploaded files and
twice ``server.maxUploadSize`` bytes; removing or replacing a file, or the session ending, gives the room
back. The unit tests drive Streamlit's own file manager, so they fail if an upgrade changes the methods
the limits wrap; the protocol test uploads to a real server, as a hostile client did."""

from __future__ import annotations

import urllib.error

import pytest
from browser_support import run_protocol
from st_client import Session
from starlette.exceptions import HTTPException
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileManager, UploadedFileRec

from server import upload_limits


def rec(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name=f"{file_id}.txt", type="text/plain", data=b"x" * size)


@pytest.fixture
def manager():
    mgr = MemoryUploadedFileManager("/_stcore/upload_file")
    upload_limits.install(mgr, max_files=3, max_bytes_=100)
    return mgr


def test_the_wrapped_methods_are_those_of_streamlits_file_manager():
    assert callable(UploadedFileManager.remove_session_files)  # the interface the session's shutdown calls
    for name in ("add_file", "remove_file", "remove_session_files"):
        assert name in MemoryUploadedFileManager.__dict__  # the server's manager (the upload route calls it)


def test_a_session_past_its_file_count_is_refused_and_others_are_not(manager):
    for k in range(3):
        manager.add_file("a", rec(f"f{k}", 10))
    with pytest.raises(HTTPException) as refused:
        manager.add_file("a", rec("f3", 10))
    assert refused.value.status_code == 413
    assert "already holds 3 uploaded files" in refused.value.detail
    assert len(manager.get_files("a", ["f0", "f1", "f2", "f3"])) == 3  # the refused file is not kept
    manager.add_file("b", rec("g0", 10))  # another session has its own room
    assert len(manager.get_files("b", ["g0"])) == 1


def test_a_session_past_its_bytes_is_refused(manager):
    manager.add_file("a", rec("f0", 60))
    with pytest.raises(HTTPException, match="would take"):
        manager.add_file("a", rec("f1", 41))
    manager.add_file("a", rec("f1", 40))
    assert upload_limits.install(manager).usage("a") == (2, 100)


def test_removing_or_replacing_a_file_or_ending_the_session_gives_the_room_back(manager):
    limits = upload_limits.install(manager)  # the limits already there
    for k in range(3):
        manager.add_file("a", rec(f"f{k}", 30))
    manager.add_file("a", rec("f2", 40))  # the same id again: replaces, counted once
    assert limits.usage("a") == (3, 100)
    manager.remove_file("a", "f0")  # the student removed the file (the uploader's DELETE)
    assert limits.usage("a") == (2, 70)
    manager.add_file("a", rec("f3", 30))
    manager.remove_session_files("a")  # Streamlit shut the session down
    assert limits.usage("a") == (0, 0)
    for k in range(3):
        manager.add_file("a", rec(f"h{k}", 30))


async def upload_past_the_limit(url: str):
    hostile, neighbour = Session(url, "", page="check"), Session(url, "", page="check")
    await hostile.open()
    await neighbour.open()
    files = [(f"run{k}.txt", b"s t\n" * 1000) for k in range(upload_limits.MAX_FILES + 1)]
    try:
        await hostile.upload("chk_files", files)
        refused = None
    except urllib.error.HTTPError as exc:
        refused = (exc.code, exc.read().decode())
    await neighbour.upload("chk_files", [("run.txt", b"s t\ne st\n")])
    await hostile.close()
    await neighbour.close()
    return refused, neighbour.texts, neighbour.exceptions


@pytest.mark.timeout(300)
def test_a_real_server_refuses_a_sessions_file_past_the_limit_and_serves_the_others(app_server):
    refused, texts, exceptions = run_protocol(upload_past_the_limit, app_server)
    assert refused is not None, "all files were accepted"
    assert refused[0] == 413 and f"already holds {upload_limits.MAX_FILES} uploaded files" in refused[1]
    assert not exceptions
    assert any("Read as merges.txt: 2 merges" in t for t in texts), texts


async def upload_refused_by_the_budget(url: str, pid: int, mb: int) -> tuple[float, float, list[str]]:
    import psutil

    s = Session(url, "step=0")
    await s.open(timeout=120)
    values = {s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"}
    await s._rerun(timeout=120, **values)  # draws the box and the uploader
    await s._rerun(timeout=120, **values, **{s.ids["corpus_text"]: "hug pug hug", s.ids["limit_value"]: 1.0})
    await s.settle(timeout=120)
    before = psutil.Process(pid).memory_info().rss / 2**20
    await s.upload("corpus_file", [("big.txt", b"a refused upload " * (mb * 1_000_000 // 17))], timeout=300)
    shown = s.texts + s.html  # the run that read the file (a fragment's run after it shows only the fragment here)
    await s.settle(timeout=120)
    after = psutil.Process(pid).memory_info().rss / 2**20
    await s.close()
    return before, after, shown


@pytest.mark.timeout(300)
def test_a_file_refused_by_the_budget_of_texts_sent_is_not_kept_by_the_session(tmp_path):
    """A 40 MB file over the client's budget was refused with its sentence, and the session still held it (the
    widget state's copy), 40 MiB for as long as the tab stayed open."""
    import psutil  # noqa: F401 - the server's size is read in the protocol coroutine
    from browser_support import AppServer

    server = AppServer(env={"BPE_DATA_DIR": str(tmp_path), "BPE_PASTE_QUOTA_CHARS": "1000"})
    url = server.start()
    try:
        before, after, shown = run_protocol(lambda u: upload_refused_by_the_budget(u, server.proc.pid, 40), url)
    finally:
        server.stop()
    assert any("may send at most" in t and "Upload the file again then." in t for t in shown), "not refused"
    assert after - before < 15, f"the session holds the refused file: {before:.0f} -> {after:.0f} MiB"
