"""What each of the greedy neighbour's actions costs another session's clicks, each action alone against one server.

The classroom benchmark's greedy phase runs all of the neighbour's actions at once, so its figure cannot say which
one holds the class. Here one reference session steps the 1 MB preset (Next/Back, a click every 0.2-0.5 s)
while the neighbour (from another address, as in ``hostile_neighbour.greedy``) does one thing at a time:

- ``none``: nothing (the reference phase, before and after the others);
- ``pastes``: ``--pastes`` distinct 5 MB corpora pasted one after another, each to 1 merge (most refused by the
  budget of texts sent: their messages still arrive);
- ``uploads``: ``--uploads`` files of ``--upload-mb`` MB to the corpus uploader, none deleted;
- ``reruns``: ``--reruns`` reruns at once;
- ``check``: the Check page's hostile files (three hostile pickles, one after another, then the 2,000,000-character
  literal pasted);
- ``long run``: a 5 MB paste trained to 100,000 merges, for ``--duration`` seconds.

Given several checkouts (another commit's tree, say), each one's server is measured in turn, ``--rounds`` times.
Printed per phase: the reference's clicks (count, p50, p95, max in ms), its p95 and max as ratios to the ``none``
phases' (taken in the same run), how long the action took, and the load average: a ratio is the action's cost on
this machine, its load included.

    .venv/bin/python benchmarks/bench_neighbour_actions.py
    .venv/bin/python benchmarks/bench_neighbour_actions.py --only pastes,reruns --pastes 10
    .venv/bin/python benchmarks/bench_neighbour_actions.py /tmp/ref . --only pastes --rounds 2   # before/after
    BPE_APP_SCRIPT=serve.py .venv/bin/python benchmarks/bench_neighbour_actions.py   # each checkout's serve.py (paced)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from bench_rerun_storm import storm  # noqa: E402
from browser_support import AppServer, app_script  # noqa: E402
from hostile_neighbour import GREEDY_ADDRESS, check_files, paste, paste_text, upload_burst  # noqa: E402
from st_client import Session  # noqa: E402

ACTIONS = ("pastes", "uploads", "reruns", "check", "long run")


async def act(url: str, action: str, nonce: int, args) -> str:
    """Do ``action`` from the neighbour's address; a few words on what the server answered."""
    out: dict = {}
    if action == "check":
        errors: list = []
        await check_files(url, out, errors)
        return "; ".join([*errors, *(v[1] for v in out.values())])
    s = Session(url, "step=0", source=GREEDY_ADDRESS)
    await s.open(timeout=300)
    try:
        if action == "pastes":
            for i in range(args.pastes):
                await paste(s, paste_text(nonce * 1000 + i), 1)
            return f"{args.pastes} pastes of 5 MB"
        if action == "uploads":
            await s._rerun(timeout=300, **{s.ids["source"]: "Paste or upload text"})  # draws the uploader
            await upload_burst(s, args.uploads, args.upload_mb, out, [])
            return "; ".join(v[1] for v in out.values())
        if action == "reruns":
            await storm(s, args.reruns, asyncio.Event(), out)
            return f"{out['finished']} runs finished, {out['cut short']} cut short"
        await paste(s, paste_text(nonce * 1000), 100_000)
        await asyncio.sleep(args.duration)
        await s._rerun(fragment=s.poll_fragment, auto=True, timeout=300)
        return "still training" if s.waiting else "not training"
    finally:
        await s.close()


async def clicks(reference: Session, done: asyncio.Event, least: int) -> list[float]:
    latencies: list[float] = []
    while not done.is_set() or len(latencies) < least:
        await asyncio.sleep(random.uniform(0.2, 0.5))
        key = "next" if reference.step < reference.last and (reference.step % 2 == 0 or reference.step < 2) else "back"
        latencies.append(await reference.click(key, timeout=120))
    return latencies


def figures(ms: list[float]) -> tuple[float, float, float]:
    ms = sorted(ms)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))], ms[-1]


async def measure(args, checkout: Path) -> list[tuple]:
    """One server of ``checkout``: the reference's clicks during ``none``, each action, ``none`` again."""
    server = AppServer(script=str(checkout / app_script()), env={"BPE_DATA_DIR": args.data_dir})
    url = server.start()
    nonce = random.randrange(10**6)
    rows: list[tuple] = []
    try:
        reference = Session(url, "preset=python-docs&step=100")
        await reference.open(timeout=300)
        for action in ["none", *[a for a in ACTIONS if a in args.only], "none"]:
            done = asyncio.Event()
            started = time.perf_counter()
            if action == "none":
                task = asyncio.ensure_future(asyncio.sleep(args.duration))
            else:
                task = asyncio.ensure_future(act(url, action, nonce + len(rows), args))
            task.add_done_callback(lambda _t, done=done: done.set())
            latencies = await clicks(reference, done, 10)
            try:
                said = await task
            except Exception as exc:  # noqa: BLE001 - the other actions still run
                said = f"FAILED: {type(exc).__name__} {exc}"
            rows.append(
                (action, [x * 1000 for x in latencies], time.perf_counter() - started, said or "", os.getloadavg())
            )
            print(f"  {checkout.name or checkout}: {action} done", flush=True)
            await asyncio.sleep(3)  # the server's work for the action ends before the next phase
        await reference.close()
    finally:
        server.stop()
    return rows


def report(checkout: Path, rows: list[tuple]) -> None:
    base = [x for action, ms, *_ in rows if action == "none" for x in ms]
    _, base_p95, base_max = figures(base)
    print(
        f"\n{checkout}: the reference's clicks while the neighbour acts (none: {len(base)} clicks, p95 {base_p95:.0f} ms)"
    )
    for action, ms, seconds, said, load in rows:
        p50, p95, worst = figures(ms)
        print(
            f"  {action:9s} n={len(ms):4d}  p50 {p50:7.0f}  p95 {p95:7.0f}  max {worst:7.0f} ms  "
            f"p95 {p95 / base_p95:5.1f}x  max {worst / base_max:5.1f}x none's  ({seconds:5.1f} s; {said[:70]})  "
            f"load {'/'.join(f'{x:.1f}' for x in load)}"
        )


async def main(args) -> None:
    rows: dict[Path, list] = {c: [] for c in args.checkouts}
    for _ in range(args.rounds):  # the checkouts take turns, so the machine's load moves both
        for checkout in args.checkouts:
            rows[checkout] += await measure(args, checkout)
    for checkout in args.checkouts:
        report(checkout, rows[checkout])


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of the 'none' and 'long run' phases")
    ap.add_argument("--pastes", type=int, default=20)
    ap.add_argument("--uploads", type=int, default=20)
    ap.add_argument("--upload-mb", type=float, default=59.0)
    ap.add_argument("--reruns", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("checkouts", nargs="*", type=Path, default=[ROOT], help="checkouts whose app to serve, in turn")
    ap.add_argument("--only", default=",".join(ACTIONS), help="comma-separated: " + ", ".join(ACTIONS))
    parsed = ap.parse_args()
    parsed.only = parsed.only.split(",")
    with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as folder:
        parsed.data_dir = folder
        asyncio.run(main(parsed))
