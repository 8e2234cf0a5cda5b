"""Waves of large pastes (issue 28 #2 and #8): memory that comes back, and another session's click meanwhile.

A real server; one reference session steps through the 1 MB preset (Next/Back every 0.5 s) throughout. Then
``--waves`` times: ``--sessions`` sessions at once each paste a distinct text of ``--mb`` MB into the corpus
box (by default all from one address, 127.0.0.77, as the issue's clients on one machine and a class behind one NAT are:
the budget of texts sent lets the first of a minute through and refuses the others before any work; with
``--addresses`` each session comes from its own loopback address), then close; the server's and its workers'
RSS is read once the closed sessions have expired (Streamlit keeps a closed session
``server.disconnectedSessionTTL``, 120 s by default; this script's server uses ``--ttl``) and the heap
sweeper has run. Printed: RSS idle and after each wave (goal: within 20 % of idle), and the reference
session's click p95 and max during the waves against before them (a ratio measured in this run), with the
load average.

    .venv/bin/python benchmarks/bench_paste_waves.py                      # 3 waves of 20 x 24 MB (~6 min)
    .venv/bin/python benchmarks/bench_paste_waves.py --waves 1 --sessions 5 --mb 5
    .venv/bin/python benchmarks/bench_paste_waves.py --arenas 0           # glibc's default malloc arenas
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests"), str(Path(__file__).resolve().parent)]

from bench_classroom import family, rss_mib  # noqa: E402
from browser_support import AppServer  # noqa: E402
from hostile_neighbour import past_budget, paste_text  # noqa: E402
from st_client import Session  # noqa: E402

# Streamlit reports no address for 127.0.0.1 (``st.context.ip_address`` is None for localhost, so each session is
# its own client); another loopback address is one client, as the machine or a class's NAT is.
ONE_ADDRESS = "127.0.0.77"


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.95))] if xs else float("nan")


def load() -> str:
    return "load " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


async def reference(url: str, stop: asyncio.Event, lat: list[tuple[str, float]], phase: list[str]) -> None:
    s = Session(url, "preset=python-docs&step=10")
    await s.open(timeout=600)
    try:
        while not stop.is_set():
            await asyncio.sleep(random.uniform(0.3, 0.7))
            key = "next" if random.random() < 0.6 else "back"
            lat.append((phase[0], await s.click(key, timeout=120)))
    finally:
        await s.close()


async def paster(url: str, text: str, source: str | None, out: dict) -> None:
    s = Session(url, "step=0", source=source)
    try:
        await s.open(timeout=600)
        await s._rerun(timeout=600, **{s.ids["source"]: "Paste or upload text"})
        await s._rerun(timeout=600, **{s.ids["source"]: "Paste or upload text", s.ids["corpus_text"]: text})
        out[
            "refused" if past_budget(s) else "taken" if any("bpe-corpus-summary" in h for h in s.html) else "other"
        ] += 1
    except Exception as exc:  # noqa: BLE001 - counted, the wave goes on
        out["errors"].append(f"{type(exc).__name__} {exc}"[:120])
    finally:
        await s.close()


def each_rss(pid: int) -> str:
    """The RSS of the server and of each of its descendants (forkserver, workers), in MiB, largest first."""
    sizes = [(rss_mib([p]), p) for p in family([pid]) if p != pid and Path(f"/proc/{p}/status").exists()]
    return f"server {rss_mib([pid]):,.0f}; others " + " ".join(f"{m:.0f}" for m, _ in sorted(sizes, reverse=True))


async def settled_rss(pid: int, wait_s: float) -> float:
    """RSS (server and workers) once closed sessions have expired: after ``wait_s``, the lowest of a few reads."""
    await asyncio.sleep(wait_s)
    reads = []
    for _ in range(4):
        reads.append((rss_mib([pid], workers=True), rss_mib([pid])))
        await asyncio.sleep(5)
    return min(reads)


async def main(args) -> None:
    env = {"BPE_JOB_LOG": "1", "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(args.ttl)}
    if args.arenas:  # as scripts/run-app.sh starts the app (0: glibc's default)
        env["MALLOC_ARENA_MAX"] = str(args.arenas)
    server = AppServer(env=env)
    url = server.start()
    try:
        stop, lat, phase = asyncio.Event(), [], ["before"]
        ref = asyncio.ensure_future(reference(url, stop, lat, phase))
        await asyncio.sleep(args.before_s)
        idle, idle_alone = await settled_rss(server.proc.pid, 0)
        print(f"idle (one session stepping): {idle:,.0f} MiB (server alone {idle_alone:,.0f}), {load()}", flush=True)
        print(f"  each process (MiB): {each_rss(server.proc.pid)}", flush=True)
        waves = []
        for w in range(args.waves):
            phase[0] = "making texts"  # in this process: its clicks are not counted meanwhile
            texts = [paste_text(w * 1000 + i, int(args.mb * 1e6)) for i in range(args.sessions)]
            phase[0] = "waves"
            out = {"taken": 0, "refused": 0, "other": 0, "errors": []}
            started = time.perf_counter()
            sources = [f"127.0.0.{10 + i}" if args.addresses else ONE_ADDRESS for i in range(args.sessions)]
            await asyncio.gather(*(paster(url, t, a, out) for t, a in zip(texts, sources, strict=True)))
            del texts
            seconds = time.perf_counter() - started
            phase[0] = "rest"
            after, alone = await settled_rss(server.proc.pid, args.ttl + args.sweep_s)
            waves.append(after)
            print(
                f"wave {w + 1}: {args.sessions} pastes of {args.mb:g} MB in {seconds:.1f} s ({out['taken']} taken, "
                f"{out['refused']} refused by the budget, {out['other']} neither, {len(out['errors'])} errors "
                f"{out['errors'][:2]}); RSS after the sessions expired {after:,.0f} MiB ({after / idle - 1:+.0%} of "
                f"idle; server alone {alone:,.0f} MiB, {alone / idle_alone - 1:+.0%}), {load()}",
                flush=True,
            )
            print(f"  each process (MiB): {each_rss(server.proc.pid)}", flush=True)
        stop.set()
        await ref
        before = [x for p, x in lat if p == "before"]
        during = [x for p, x in lat if p == "waves"]
        print()
        print(
            f"reference click p95: before {p95(before) * 1000:.0f} ms ({len(before)} clicks), during the waves "
            f"{p95(during) * 1000:.0f} ms ({len(during)} clicks): {p95(during) / p95(before):.1f}x; max during "
            f"{max(during, default=float('nan')) * 1000:.0f} ms; {load()}"
        )
        worst = max(waves, default=idle)
        print(
            f"RSS idle {idle:,.0f} MiB, after each wave {', '.join(f'{x:,.0f}' for x in waves)} MiB: worst "
            f"{worst / idle - 1:+.0%} (target within 20 %: {'met' if worst <= 1.2 * idle else 'NOT met'})"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--waves", type=int, default=3)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--mb", type=float, default=24)
    ap.add_argument("--addresses", action="store_true", help="each session from its own address (127.0.0.x)")
    ap.add_argument("--ttl", type=int, default=20, help="server.disconnectedSessionTTL of the server (s)")
    ap.add_argument("--sweep-s", type=float, default=40, help="wait past the TTL for the heap sweeper (s)")
    ap.add_argument("--arenas", type=int, default=2, help="MALLOC_ARENA_MAX of the server, as scripts/run-app.sh sets")
    ap.add_argument("--before-s", type=float, default=20, help="reference clicks before the first wave (s)")
    asyncio.run(main(ap.parse_args()))
