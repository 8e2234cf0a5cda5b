"""Trained runs are evicted by memory (issue 15 #4): forty different 1 MB runs, trained in the pool and
kept by ``pages.run_store.RUNS`` as the server keeps them, and this process's RSS after each.

The serving process holds only what the pool sends back (the unpickled ``History``), so this script is
that process without the web server. Pass ``--budget-mib`` to see the plateau sooner.

    .venv/bin/python benchmarks/bench_run_memory.py                 # 40 runs, 1 GiB budget (~4 min)
    .venv/bin/python benchmarks/bench_run_memory.py --runs 20 --budget-mib 256
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server import heap, jobs, run_store, startup  # noqa: E402
from ui import runs  # noqa: E402
from ui.settings import preset_settings  # noqa: E402


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--budget-mib", type=int, default=run_store.RUN_MEMORY_BUDGET >> 20)
    ap.add_argument("--vocab", type=int, default=20_000)
    args = ap.parse_args()
    run_store.RUN_MEMORY_BUDGET = args.budget_mib << 20
    startup.start_once()
    base = replace(preset_settings("python-docs"), limit="vocab_size")
    start = rss_mib()
    print(f"budget {args.budget_mib} MiB; RSS at start {start:.0f} MiB; pool of {jobs.POOL_WORKERS} worker(s)")
    print(" run  merges  run MiB  kept  store MiB  RSS MiB  seconds")
    peak = 0.0
    for i in range(args.runs):
        settings = replace(base, limit_value=args.vocab + i)  # a different run each time
        t = time.perf_counter()
        history = runs.train(settings, block=True)
        size = next(n for h, n in run_store.RUNS.runs.values() if h is history)
        del history
        gc.collect()
        rss = rss_mib()
        peak = max(peak, rss)
        print(
            f"{i + 1:4d}  {run_store.RUNS.runs[runs.run_key(settings)][0].num_merges:6,d}  {size / 2**20:7.1f}  "
            f"{len(run_store.RUNS.runs):4d}  {run_store.RUNS.nbytes / 2**20:9.0f}  {rss:7.0f}  {time.perf_counter() - t:7.1f}"
        )
    print(
        f"store {run_store.RUNS.nbytes / 2**20:.0f} MiB of a {args.budget_mib} MiB budget; RSS peak {peak:.0f} MiB, "
        f"{peak - start:.0f} MiB over the start (target: levels off near the budget)"
    )
    gc.collect()
    heap.trim()
    rest = rss_mib()
    print(
        f"at rest: RSS {rest:.0f} MiB, {rest - start:.0f} MiB over the start, {(rest - start) / args.budget_mib:.2f} x the budget"
    )


if __name__ == "__main__":
    main()
