"""Where the teacher's fresh 1 MB run spends its time, alone and while a greedy neighbour's 5 MB run trains to 100,000 merges.

The classroom benchmark's greedy phase measures one figure: from the teacher's paste to the first step drawn.
Here the same run is cut into its parts, from the server's and the workers' own timestamps
(``server/run_times.py``, ``BPE_RUN_TIMES=1``) beside the client's:

- *serving*: from the paste sent to the run handed to a lane (the message read, the corpus stored and checked);
- *queue*: from handed to a lane to a worker starting it (the lane's wait: 0 unless every worker is taken);
- *read*, *count*, *merge*: in the worker, each with its CPU seconds beside its wall seconds (wall far above CPU:
  the worker had a worker process but not the CPU);
- *to the page*: from the worker's end to the step drawn (the page's poll interval and its run).

Each is printed for the run alone and beside the neighbour's long run (a fresh 1 MB corpus each time, so nothing
is shared), with the load average: the CPU columns and the queue do not move with the machine's other load, the
wall columns do. Twice: on a server whose long runs never yield the CPU (``BPE_LONG_RUN_CPU_S=1e9``), then on one
whose long runs do (``server/long_runs.py``).

    .venv/bin/python benchmarks/bench_teacher_run.py
    .venv/bin/python benchmarks/bench_teacher_run.py --rounds 3 --merges 1000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from browser_support import AppServer  # noqa: E402
from hostile_neighbour import GREEDY_ADDRESS, paste, paste_text  # noqa: E402
from st_client import Session  # noqa: E402

SUBMITTED = re.compile(r"bpe-times: slot (\d+) submitted at ([\d.]+) to the (\w+) lane")
STARTED = re.compile(r"bpe-times: slot (\d+) started at ([\d.]+) (.*)")
MARK = re.compile(r"(read|counted|trained [\d,]+ merges) \+([\d.]+) s \(cpu ([\d.]+)\)")


def timeline(log: str, since: float) -> dict | None:
    """The first run handed to a lane after ``since`` (wall clock): its lane and its phases' times."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = SUBMITTED.search(line)
        if not m or float(m.group(2)) < since:
            continue
        slot, submitted = m.group(1), float(m.group(2))
        for later in lines[i + 1 :]:
            s = STARTED.search(later)
            if s and s.group(1) == slot:
                marks = {k.split()[0]: (float(w), float(c)) for k, w, c in MARK.findall(s.group(3))}
                return {"lane": m.group(3), "submitted": submitted, "started": float(s.group(2)), **marks}
        return None
    return None


async def teacher_run(url: str, log_path: Path, nonce: int, merges: int) -> dict:
    """The teacher pastes a fresh 1 MB corpus to ``merges`` merges; the run's parts in seconds."""
    s = Session(url, "step=0")
    await s.open(timeout=300)
    try:
        text = paste_text(nonce, 1_000_000)
        await s._rerun(timeout=300, **{s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"})
        sent = time.time()
        await paste(s, text, merges)
        await s.settle(timeout=900)
        drawn = time.time()
        if not any('class="bpe-step-title"' in h for h in s.html):
            raise RuntimeError("the teacher's run shows no step")
    finally:
        await s.close()
    t = None
    deadline = time.monotonic() + 30
    while t is None and time.monotonic() < deadline:  # the worker's line may reach the log just after the page
        t = timeline(log_path.read_text(errors="replace"), sent)
        if t is None:
            await asyncio.sleep(0.2)
    if t is None:
        raise RuntimeError("no bpe-times lines for the teacher's run: is BPE_RUN_TIMES set?")
    end = t["started"] + t["trained"][0]
    return {
        "total": (drawn - sent, None),
        "serving": (t["submitted"] - sent, None),
        "queue": (t["started"] - t["submitted"], None),
        "read": t["read"],
        "count": (t["counted"][0] - t["read"][0], t["counted"][1] - t["read"][1]),
        "merge": (t["trained"][0] - t["counted"][0], t["trained"][1] - t["counted"][1]),
        "to the page": (drawn - end, None),
        "lane": t["lane"],
    }


async def long_run(url: str, nonce: int) -> Session:
    """The greedy neighbour (another address) pastes 5 MB to 100,000 merges and stays, its run training."""
    s = Session(url, "step=0", source=GREEDY_ADDRESS)
    await s.open(timeout=300)
    await paste(s, paste_text(nonce), 100_000)
    if not s.waiting:
        raise RuntimeError("the neighbour's long run is not training")
    return s


def show(label: str, parts: dict) -> None:
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    cells = []
    for name in ("total", "serving", "queue", "read", "count", "merge", "to the page"):
        wall, cpu = parts[name]
        cells.append(f"{name} {wall:6.2f}" + ("" if cpu is None else f" (cpu {cpu:5.2f})"))
    print(f"{label:28s} " + "  ".join(cells) + f"  load {load}", flush=True)


async def measure(args, label: str, env: dict) -> None:
    """Rounds of the teacher's run alone and beside the neighbour's long run, on a server started with ``env``."""
    server = AppServer(env={"BPE_RUN_TIMES": "1", "BPE_DATA_DIR": args.data_dir, **env})
    url = server.start()
    log = Path(server.log.name)
    nonce = random.randrange(10**6)
    try:
        await teacher_run(url, log, nonce, args.merges)  # warms the page and the workers; not counted
        for r in range(args.rounds):
            show(f"{label}: alone", await teacher_run(url, log, nonce + 10 + r, args.merges))
            neighbour = await long_run(url, nonce + 100 + r)
            try:
                await asyncio.sleep(args.settle)  # the long run past its counting, into its merges
                show(f"{label}: beside the long run", await teacher_run(url, log, nonce + 20 + r, args.merges))
                await neighbour._rerun(fragment=neighbour.poll_fragment, auto=True, timeout=300)
                if not neighbour.waiting:
                    print("  (the long run had ended: lower --settle)")
            finally:
                await neighbour.close()
    finally:
        server.stop()


async def main(args) -> None:
    # The long run's yielding (server/long_runs.py) off, then on: the same machine, one after the other.
    for label, env in (("no yield", {"BPE_LONG_RUN_CPU_S": "1e9"}), ("yield", {})):
        await measure(args, label, env)


if __name__ == "__main__":
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--merges", type=int, default=1_000, help="the teacher's run (the greedy phase's: 1,000)")
    ap.add_argument("--settle", type=float, default=10.0, help="seconds the long run trains before the teacher's")
    with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as folder:
        args = ap.parse_args()
        args.data_dir = folder
        asyncio.run(main(args))
