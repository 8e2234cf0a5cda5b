"""Memory at rest once a class has gone (issue 22 #9): a real server, distinct runs asked for by
sessions that stay open (a class), then every session closed; the server's and its workers' RSS until it
settles, against the run budget plus the server's own baseline.

Streamlit keeps a closed session's state for two minutes, and a run evicted while a session still
showed it is freed only by a collection after that session goes (``server/heap.py``'s sweeper), so the
at-rest figure is read after every session has closed and three minutes have passed.

    .venv/bin/python benchmarks/bench_memory_at_rest.py                  # 30 runs, 128 MiB budget (~6 min)
    .venv/bin/python benchmarks/bench_memory_at_rest.py --runs 12 --budget-mib 64
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests"), str(Path(__file__).resolve().parent)]

from bench_classroom import rss_mib  # noqa: E402
from browser_support import AppServer  # noqa: E402
from st_client import Session  # noqa: E402


def both(server) -> str:
    alone = rss_mib([server.proc.pid])
    return f"{rss_mib([server.proc.pid], workers=True):,.0f} MiB (server {alone:,.0f})"


async def main(args) -> None:
    server = AppServer(env={"BPE_RUN_MEMORY_MIB": str(args.budget_mib), "BPE_JOB_LOG": "1"})
    url = server.start()
    try:
        # The baseline: a server that has read the corpus once and whose workers have trained on it (their
        # heaps grow once, to the largest run they trained), with nothing kept beyond the run budget.
        first = Session(url, f"preset=python-docs&limit=vocab_size&limit_value={args.vocab - 1}")
        await first.open(timeout=600)
        await first.settle(timeout=600)
        await first.close()
        await asyncio.sleep(5)  # the pool's workers have started; the heap is frozen
        base = rss_mib([server.proc.pid], workers=True)
        base_alone = rss_mib([server.proc.pid])
        print(f"baseline (one run of the corpus trained): {both(server)}", flush=True)
        sessions, peak = [], base
        for i in range(args.runs):
            s = Session(url, f"preset=python-docs&limit=vocab_size&limit_value={args.vocab + i}")
            await s.open(timeout=600)
            await s.settle(timeout=600)
            sessions.append(s)
            now = rss_mib([server.proc.pid], workers=True)
            peak = max(peak, now)
            print(f"run {i + 1:3d} shown by {len(sessions)} open sessions: {both(server)}", flush=True)
        for s in sessions:
            await s.close()
        closed = time.monotonic()
        print(f"all {len(sessions)} sessions closed", flush=True)
        while time.monotonic() - closed < args.rest_s:
            await asyncio.sleep(15)
            print(f"  {time.monotonic() - closed:4.0f} s after: {both(server)}", flush=True)
        rest = rss_mib([server.proc.pid], workers=True)
        if args.log:
            print(Path(server.log.name).read_text(errors="replace")[-3000:])
        rest_alone = rss_mib([server.proc.pid])
        budget = args.budget_mib
        print()
        print(f"runs: {args.runs} distinct python-docs runs, run budget {budget} MiB")
        print(f"server + workers: baseline {base:,.0f} MiB, peak {peak:,.0f} MiB, at rest {rest:,.0f} MiB")
        print(f"server alone: baseline {base_alone:,.0f} MiB, at rest {rest_alone:,.0f} MiB")
        print(
            f"at rest over the baseline: {rest - base:,.0f} MiB = {(rest - base) / budget:.2f} x the run budget "
            f"(target <= 1: {'met' if rest - base <= budget else 'NOT met'})"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--budget-mib", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=3000)
    ap.add_argument("--rest-s", type=float, default=180)
    ap.add_argument("--log", action="store_true", help="print the end of the server's log")
    asyncio.run(main(ap.parse_args()))
