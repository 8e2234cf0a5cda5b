"""The training workers die with the server, whatever ends it, and SIGTERM ends a
server within seconds even while a big run trains. Each test starts a real ``streamlit run``, pastes a
corpus of random words with the merge limit at its maximum (seconds of CPU) through a protocol
session (benchmarks/st_client.py), notes the server's descendants from /proc, then signals the server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import signal
import sys
import threading
from pathlib import Path

import pytest
from browser_support import REPO_ROOT, AppServer, wait_until
from pool_support import big_text

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from st_client import Session  # noqa: E402

GONE_WITHIN = 10  # seconds: an orphaned worker would train on for minutes, and a server waiting for it would not exit


def descendants(pid: int) -> set[int]:
    """Every live process under ``pid`` (children of each of its threads, recursively)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (an orphan's zombie waits for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@contextlib.contextmanager
def big_run(url: str):
    """A session that pastes a corpus of rare pairs with 100,000 merges asked for, and stays open (so the
    run is not abandoned: a run nobody waits for is stopped within seconds) until the block ends."""
    done = threading.Event()
    ready: concurrent.futures.Future = concurrent.futures.Future()

    async def paste() -> None:
        s = Session(url, "limit=num_merges&limit_value=100000")
        try:
            await s.open()
            await s._rerun(**{s.ids["source"]: "Paste or upload text"})
            await s._rerun(**{s.ids["source"]: "Paste or upload text", s.ids["corpus_text"]: big_text(200_000)})
            ready.set_result(s.waiting)
            await asyncio.get_running_loop().run_in_executor(None, done.wait)
        except Exception as exc:  # noqa: BLE001 - reported by the test through ``ready``
            if not ready.done():
                ready.set_exception(exc)
        finally:
            with contextlib.suppress(Exception):  # the server may be gone: that is what the test does
                await s.close()

    thread = threading.Thread(target=asyncio.run, args=(paste(),), daemon=True)
    thread.start()
    try:
        assert ready.result(180), "the run should still be training after the page's first second"
        yield
    finally:
        done.set()
        thread.join(30)


def busy_workers(server_pid: int) -> set[int]:
    """The server's descendants once one of them has trained for 2 s of CPU since the paste (longer
    than the preset run the first page view asked for, so the big run is the one training)."""

    def cpu(pid: int) -> int:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0
        return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks

    first = {pid: cpu(pid) for pid in descendants(server_pid)}
    wait_until(
        lambda: any(cpu(pid) > first.get(pid, 0) + 2 * os.sysconf("SC_CLK_TCK") for pid in descendants(server_pid)),
        60,
        "a worker of the server to train",
    )
    return descendants(server_pid)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_workers_die_with_the_server_and_sigterm_ends_it_within_seconds(sig):
    server = AppServer()
    server.start()
    try:
        with big_run(server.url):
            pids = busy_workers(server.proc.pid)
            assert pids
            os.kill(server.proc.pid, sig)
            if sig == signal.SIGTERM:
                wait_until(
                    lambda: server.proc.poll() is not None,
                    GONE_WITHIN,
                    lambda: f"the server to exit after SIGTERM:\n{server.log_tail()}",
                )
            wait_until(
                lambda: not any(map(running, pids)),
                GONE_WITHIN,
                lambda: f"the workers to end after {sig.name}: {sorted(p for p in pids if running(p))} still run",
            )
    finally:
        server.stop()  # the whole process group: also any worker left behind
