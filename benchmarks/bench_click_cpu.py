"""Serving CPU per click on Next or Back: one server per checkout, one session stepping, before/after.

A click reruns the step view (an ``st.fragment`` of ``pages/train.py``); with a class of 100 on one
server that CPU is what queues everyone's clicks (docs/greedy-clients.md). For each checkout given,
a ``streamlit run`` is started from that directory, one ``st_client.Session`` opens the link and
presses Next and Back in turn (or, ``--walk``, Next on to the last step and Back to the first: each step
new to the server the first time); the serving process's CPU time (user + system, from ``/proc``) over
the clicks is divided by their number. The checkouts take turns for ``--rounds`` rounds, so a load
that changes during the run falls on both; the last checkout is compared with the first.

    git archive main | tar -x -C /tmp/clicks_ref && ln -s "$PWD/.venv" /tmp/clicks_ref/.venv
    .venv/bin/python benchmarks/bench_click_cpu.py /tmp/clicks_ref .
    .venv/bin/python benchmarks/bench_click_cpu.py /tmp/clicks_ref . --link preset=python-docs --walk
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from st_client import Session  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (its threads included, its children not)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``streamlit run app.py`` from one checkout, with its own empty corpus store."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix="bpe-clicks-", suffix=".log", delete=False)
        env = {**os.environ, "BPE_DATA_DIR": tempfile.mkdtemp(prefix="bpe-clicks-store-")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
            + ["--server.port", str(self.port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"streamlit in {root} did not answer:\n{Path(self.log.name).read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            self.proc.wait(30)


async def clicks(server: Server, link: str, n: int, warmup: int, walk: bool = False) -> tuple[float, float]:
    """Seconds of serving CPU per click, and the median click-to-step latency, over ``n`` clicks."""
    s = Session(server.url, link)
    await s.open()
    if s.exceptions:
        raise RuntimeError(f"the page failed: {s.exceptions}")
    latencies = []
    for _ in range(warmup):
        await s.click("next" if s.step == 0 else "back")
    before = cpu_seconds(server.proc.pid)
    forward = True
    for _ in range(n):
        # Next and Back in turn, or with ``walk``: on to the last step and back (each step new the first time).
        forward = (s.step < s.last if forward else s.step == 0) if walk else s.step == 0
        latencies.append(await s.click("next" if forward else "back"))
    used = cpu_seconds(server.proc.pid) - before
    if s.exceptions:
        raise RuntimeError(f"a click failed: {s.exceptions}")
    await s.close()
    return used / n, statistics.median(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("roots", nargs="+", type=Path, help="checkouts to compare (the first is the reference)")
    parser.add_argument("--link", default="preset=hug", help="the query string the session opens")
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--walk", action="store_true", help="step on to the last step and back, not Next/Back in turn")
    args = parser.parse_args()
    servers = [Server(root.resolve()) for root in args.roots]
    per_click: dict[int, list[float]] = {i: [] for i in range(len(servers))}
    try:
        for r in range(args.rounds):
            for i, server in enumerate(servers):
                cpu, lat = asyncio.run(clicks(server, args.link, args.clicks, args.warmup, args.walk))
                per_click[i].append(cpu)
                load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
                print(
                    f"round {r + 1} {server.root}: {cpu * 1000:.2f} ms CPU per click, "
                    f"median latency {lat * 1000:.1f} ms (load {load})",
                    flush=True,
                )
    finally:
        for server in servers:
            server.stop()
    ref = statistics.median(per_click[0])
    for i, server in enumerate(servers):
        med = statistics.median(per_click[i])
        print(f"{server.root}: median {med * 1000:.2f} ms CPU per click, {med / ref:.2f}x the first")
    print(f"load {os.getloadavg()}")


if __name__ == "__main__":
    main()
