"""A rerun storm against one server: while one session sends 5,000 reruns at once (as a script can), how long
another session's clicks take, against the same clicks with no storm (the reference, measured in the same run).

Prints, for each phase: the neighbour's clicks (count, median, p95, max, in ms), and for the storm how long
the server took to drain it (from the first rerun sent to the storm session's last run finishing) and how
many of its runs finished, were cut short, or never started (Streamlit coalesces reruns that arrive while
one is pending). The goal is the bound stated in the README: the neighbour's slowest click during the storm
within ``--bound`` seconds (default 2 s: with runs coalesced, the time the server takes to read 5,000
messages of one session, which it reads back to back).

    .venv/bin/python benchmarks/bench_rerun_storm.py                # 5,000 reruns, Train page
    .venv/bin/python benchmarks/bench_rerun_storm.py --reruns 2000 --page check
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from browser_support import AppServer  # noqa: E402
from st_client import ForwardMsg, Session  # noqa: E402


def figures(latencies: list[float]) -> str:
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{len(ms):4d} clicks  median {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"


async def clicks_until(neighbour: Session, done: asyncio.Event, least: int) -> list[float]:
    """The neighbour steps Next/Back until ``done`` is set (and at least ``least`` times)."""
    latencies = []
    while not done.is_set() or len(latencies) < least:
        key = "next" if len(latencies) % 2 == 0 else "back"
        latencies.append(await neighbour.click(key))
    return latencies


QUIET_S = 2.0  # the storm is over when its session has heard nothing for this long after a run's end


async def storm(hostile: Session, reruns: int, done: asyncio.Event, out: dict) -> None:
    """Send ``reruns`` reruns without waiting, then read until the session's runs have stopped."""
    counts = {"finished": 0, "cut short": 0}
    started = time.perf_counter()
    for _ in range(reruns):
        await hostile._send()
    sent = time.perf_counter()
    last_end = None
    while True:
        try:  # until a run has finished and nothing more came for QUIET_S
            msg = await asyncio.wait_for(hostile._read(600), QUIET_S if counts["finished"] else 600)
        except TimeoutError:
            break
        if msg.WhichOneof("type") != "script_finished":
            continue
        last_end = time.perf_counter()
        if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            counts["cut short"] += 1
        elif msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            counts["finished"] += 1
    out.update(counts, sent_s=sent - started, drained_s=last_end - started)
    done.set()


async def measure(url: str, reruns: int, page: str, least: int) -> dict:
    neighbour, hostile = Session(url, "", page=""), Session(url, "", page=page)
    await neighbour.open()
    await hostile.open()
    done = asyncio.Event()
    done.set()
    reference = await clicks_until(neighbour, done, least)
    done.clear()
    out: dict = {}
    storm_task = asyncio.create_task(storm(hostile, reruns, done, out))
    during = await clicks_until(neighbour, done, 1)
    await storm_task
    await neighbour.close()
    await hostile.close()
    return {"reference": reference, "during": during, **out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reruns", type=int, default=5000)
    ap.add_argument("--page", default="", help="the storm session's page ('' Train, 'encode', 'check')")
    ap.add_argument("--clicks", type=int, default=40, help="reference clicks with no storm")
    ap.add_argument("--bound", type=float, default=2.0, help="the goal: slowest click during the storm (s)")
    args = ap.parse_args()
    server = AppServer()
    url = server.start()
    try:
        r = asyncio.run(measure(url, args.reruns, args.page, args.clicks))
    finally:
        server.stop()
    print(f"rerun storm: {args.reruns:,} reruns from one session on the {args.page or 'train'} page")
    print(f"  alone:        {figures(r['reference'])}")
    print(f"  during storm: {figures(r['during'])}")
    ratio = statistics.median(r["during"]) / statistics.median(r["reference"])
    print(
        f"  storm: sent in {r['sent_s']:.2f} s, drained in {r['drained_s']:.2f} s; its runs: {r['finished']} finished, "
        f"{r['cut short']} cut short, {args.reruns - r['finished'] - r['cut short']:,} coalesced (never started)"
    )
    worst = max(r["during"])
    verdict = "PASS" if worst <= args.bound else "FAIL"
    print(
        f"  median ratio during/alone {ratio:.2f}x; slowest click {worst:.2f} s (goal <= {args.bound:g} s): {verdict}"
    )


if __name__ == "__main__":
    main()
