"""A class on one link: 30 sessions stepping while 3 others start fresh large runs (issue 15).

Sessions speak Streamlit's own websocket protocol (``st_client.Session``; no browsers, so the CPU
measured is the server's). Against one server and against two replicas behind HAProxy
(``scripts/serve-replicas.sh``):

1. one session steps (Next/Back) alone: the baseline;
2. 30 sessions open the hug link or the 1 MB ``/?preset=python-docs`` link at different steps and press
   Next or Back every 1–4 s;
3. the same 30 go on while three other sessions each start a fresh large run: the 1 MB corpus to a
   vocabulary of 20,000 (two tie rules) and a 5 MB paste;
4. with ``--hostile`` (issue 22), the same 30 go on while a hostile neighbour (``hostile_neighbour.py``)
   uploads a tokenizer.json whose normalizer expands every character 1,001 times and a 60 MB one on the
   Encode page, and starts a 5 MB run and closes its tab; then a small fresh ``course`` run must be ready
   within 5 s. Reported beside the others: the neighbour's answers and times, and the peak RSS of the
   server with its pool workers against the budget (a server past ``--rss-cap`` is killed);
5. with ``--greedy`` (issue 28), the same 30 go on while a teacher stores a 1 MB corpus (a student opens
   its link), and a greedy neighbour (from another address) uploads the Check page's hostile files, pastes ``--pastes`` distinct 5 MB corpora, uploads
   ``--uploads`` files of ``--upload-mb`` MB without deleting any, sends ``--reruns`` reruns at once, then trains a 5 MB paste to
   100,000 merges and stays (no new paste, and no new upload, after ``--greedy-phase-s`` seconds of each: the
   server paces a connection's big messages and a session's uploads, ``server/ws_pacing.py``,
   ``server/upload_pacing.py``; the output says how many were sent); goals: the others' p95 <= 3x alone and max <= 1 s, the teacher's fresh 1 MB
   run at its first step within 10 s, the teacher's corpus still opening from its link, and the server's and
   workers' RSS within 20 % of idle ``--greedy-settle-s`` (120) seconds after everyone has left.

Reported: errors (a timeout, a traceback, a wrong step, or a step whose merge is not the one this
session's own corpus makes: isolation checked by content), p50/p95/max click-to-updated-step latency
per phase, server RSS at rest and per extra session, and how many times each run was trained (from the
server's log: ``server/jobs.py`` logs one line per training).

    .venv/bin/python benchmarks/bench_classroom.py                  # both targets (~6 min)
    .venv/bin/python benchmarks/bench_classroom.py --target single --duration 20
    .venv/bin/python benchmarks/bench_classroom.py --target single --hostile      # + the hostile phase
    .venv/bin/python benchmarks/bench_classroom.py --target single --greedy       # + the greedy phase
    .venv/bin/python benchmarks/bench_classroom.py --target single --sessions 100 # a class of 100
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from bench_teacher_run import timeline  # noqa: E402
from browser_support import AppServer, app_script, free_port  # noqa: E402
from hostile_neighbour import big_tokenizer_json, greedy, hostile, start_paste_run, watch_rss  # noqa: E402
from st_client import Session  # noqa: E402

import bpe  # noqa: E402
from ui.settings import corpus_of, preset_settings  # noqa: E402

LINKS = {"hug": "preset=hug", "python-docs": "preset=python-docs"}


def expected_runs() -> dict[str, bpe.History]:
    """The runs the two links make, trained here: a session's step must show this run's merge."""
    out = {}
    for name in LINKS:
        s = preset_settings(name)
        out[name] = bpe.run_training(corpus_of(s), **s.options())
    return out


ANNOUNCE = re.compile(r'data-announce="Step ([\d,]+) of ([\d,]+): [^"]*?, count ([\d,]+)"')  # "Step 1,234 of 5,000"


def shows_merge(history: bpe.History, step: int, blocks: list[str]) -> bool:
    """The step box (its spoken summary: "Step k of n: a + b → ab, count c") names this run's merge count."""
    for block in blocks:
        m = ANNOUNCE.search(block)
        if m:
            return tuple(int(m.group(i).replace(",", "")) for i in (1, 2, 3)) == (
                step,
                history.num_merges,
                history.state(step).count,
            )
    return False


def family(pids: list[int]) -> list[int]:
    """``pids`` and all their descendants (a server's pool: its forkserver and the workers)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # a process that ended meanwhile
            continue
    found, todo = set(pids), list(pids)
    while todo:
        parent = todo.pop()
        children = [pid for pid, pp in parents.items() if pp == parent and pid not in found]
        found.update(children)
        todo += children
    return sorted(found)


def rss_mib(pids: list[int], workers: bool = False) -> float:
    """Resident memory of the serving processes (with ``workers``, of their pool processes too)."""
    total = 0
    for pid in family(pids) if workers else pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            if workers:
                continue  # a worker that ended between the listing and the reading
            raise
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


class Target:
    """One server, or two replicas behind HAProxy; knows the serving processes' pids and logs. ``root``: the
    checkout whose app is served (another version of it, to compare in one run)."""

    def __init__(self, kind: str, root: Path = ROOT, script: str | None = None) -> None:
        self.kind = kind
        self.root = root
        # What one server runs: BPE_APP_SCRIPT (serve.py: the pacing of server/ws_pacing.py and upload_pacing.py),
        # else app.py; replicas run serve.py, as scripts/serve-replicas.sh does.
        self.script = script or app_script()
        self.proc = None
        self.server = None

    def __enter__(self) -> Target:
        self.data_dir = tempfile.mkdtemp(prefix="bpe-bench-store-")  # never the user's own corpus store
        env = {"BPE_JOB_LOG": "1", "BPE_DATA_DIR": self.data_dir, "BPE_RUN_TIMES": "1"}
        if self.kind == "single":
            self.server = AppServer(script=str(self.root / self.script), env=env)
            self.url = self.server.start()
            self.pids = [self.server.proc.pid]
            self.logs = [Path(self.server.log.name)]
            return self
        self.run_dir = Path(tempfile.mkdtemp(prefix="bpe-bench-replicas-"))
        port, r1, r2 = free_port(), free_port(), free_port()
        self.proc = subprocess.Popen(
            ["bash", "scripts/serve-replicas.sh"],
            cwd=self.root,
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={
                **os.environ,
                **env,
                "PORT": str(port),
                "BIND": "127.0.0.1",
                "REPLICA_PORTS": f"{r1} {r2}",
                "RUN_DIR": str(self.run_dir),
            },
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if urllib.request.urlopen(self.url + "/_stcore/health", timeout=2).read().strip() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        self.pids = [int((self.run_dir / f"replica{i}.pid").read_text()) for i in (1, 2)]
        self.logs = [self.run_dir / f"replica{i}.log" for i in (1, 2)]
        return self

    def trainings(self) -> Counter:
        counts: Counter = Counter()
        for log in self.logs:
            for line in log.read_text(errors="replace").splitlines():
                m = re.search(r"bpe-jobs: training (\w+)", line)
                if m:
                    counts[m.group(1)] += 1
        return counts

    def kill(self) -> None:
        """SIGKILL the serving processes and their workers (a memory guard: the machine comes first)."""
        for pid in family(self.pids):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.data_dir, ignore_errors=True)
        if self.server is not None:
            self.server.stop()
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(20)
            shutil.rmtree(self.run_dir, ignore_errors=True)


class Student:
    def __init__(self, url: str, link: str, step: int, runs: dict, errors: list) -> None:
        self.link, self.runs, self.errors = link, runs, errors
        self.session = Session(url, f"{LINKS[link]}&step={step}")
        self.latencies: list[tuple[str, float]] = []
        self.clicked: list[tuple[float, float]] = []  # (time.monotonic() at the click, latency)

    async def open(self) -> None:
        await self.session.open(timeout=180)
        self.check()

    def check(self) -> None:
        s = self.session
        if s.exceptions:
            self.errors.append(f"{self.link}: traceback {s.exceptions[-1][:100]}")
        history = self.runs[self.link]
        if s.last != history.num_merges:
            self.errors.append(f"{self.link}: shows a run of {s.last} merges, not {history.num_merges}")
        elif s.step and not shows_merge(history, s.step, s.html):
            self.errors.append(f"{self.link}: step {s.step} does not show this corpus's merge")

    async def step(self, phase: list[str], until: float, pause=(1.0, 4.0), busy=lambda: False) -> None:
        """Next or Back every ``pause`` seconds until ``until`` (and for as long as ``busy()``)."""
        while time.monotonic() < until or busy():
            await asyncio.sleep(random.uniform(*pause))
            s = self.session
            key = "next" if (s.step < s.last and random.random() < 0.7) or s.step == 0 else "back"
            before = s.step
            try:
                latency = await s.click(key, timeout=60)
            except Exception as exc:  # noqa: BLE001 - every failure is counted, none stops the class
                self.errors.append(f"{self.link}: {type(exc).__name__} {exc}"[:160])
                return
            self.clicked.append((time.monotonic() - latency, latency))
            if s.step != before + (1 if key == "next" else -1):
                self.errors.append(f"{self.link}: pressed {key} at {before}, shows {s.step}")
            self.check()
            self.latencies.append((phase[0], latency))


async def fresh_run(url: str, kind: str, nonce: int, done: dict, errors: list) -> None:
    """A session starting a run nobody trained yet; it polls (as the page's fragment does) until ready."""
    if kind == "paste":
        query = "step=0"
    else:
        query = f"preset=python-docs&limit=vocab_size&limit_value={20_000 + nonce % 97}&tie_break={kind}"
    s = Session(url, query)
    started = time.monotonic()
    try:
        await s.open(timeout=300)
        if kind == "paste":
            await start_paste_run(s, nonce)
            await s.settle(timeout=600)
        shown = [h for h in s.html if 'class="bpe-step-title"' in h]
        if not shown:
            alerts = [re.sub("<[^>]+>", "", h)[:150] for h in s.html if "bpe-alert" in h]
            errors.append(f"fresh {kind}: no step shown; {alerts}")
        done[kind] = (time.monotonic() - started, s.last)
        if s.exceptions:
            errors.append(f"fresh {kind}: traceback {s.exceptions[-1][:100]}")
    except Exception as exc:  # noqa: BLE001
        errors.append(f"fresh {kind}: {type(exc).__name__} {exc}"[:160])
    finally:
        await s.close()


def summary(latencies: list[float]) -> str:
    if not latencies:
        return "no clicks"
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"n={len(ms):4d}  p50 {statistics.median(ms):7.0f} ms  p95 {p95:7.0f} ms  max {ms[-1]:7.0f} ms"


def p95(latencies: list[float]) -> float:
    ms = sorted(latencies)
    return ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))] if ms else float("nan")


async def hostile_phase(target: Target, students: list, phase: list, duration: float, nonce: int, args) -> dict:
    """The class steps while the hostile neighbour works (and at least ``duration`` seconds); the RSS of
    the server and its workers is sampled all the while."""
    out: dict = {"errors": []}
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory(prefix="bpe-bench-hostile-") as folder:
        big = big_tokenizer_json(Path(folder), int(args.big_mb * 1e6))  # before the clock starts (see hostile)
        phase[0] = "many+hostile"
        neighbour = asyncio.ensure_future(hostile(target.url, nonce, big, args.hostile_chars, out, out["errors"]))
        watch = asyncio.ensure_future(
            watch_rss(lambda: rss_mib(target.pids, workers=True), stop, out, args.rss_cap, target.kill)
        )
        until = time.monotonic() + duration
        await asyncio.gather(*(s.step(phase, until, busy=lambda: not neighbour.done()) for s in students), neighbour)
        await asyncio.sleep(2)  # then the class has stopped: what the server keeps
        out["after"] = rss_mib(target.pids, workers=True)
        stop.set()
        await watch
    if "killed" in out:
        out["errors"].append(f"hostile: server and workers passed {args.rss_cap:,.0f} MiB: killed")
    return out


async def classroom(target: Target, sessions: int, duration: float, runs: dict, args) -> dict:
    errors: list[str] = []
    nonce = random.randrange(10**6)
    # Warm both links once (their runs are trained once, then shared), then measure at rest.
    for link in LINKS:
        warm = Student(target.url, link, 0, runs, errors)
        await warm.open()
        await warm.session.close()
    loads = [("start", os.getloadavg())]  # the machine's load beside each phase's figures
    phase = ["one"]
    alone = Student(target.url, "python-docs", 100, runs, errors)
    await alone.open()
    # Twice as long as the other phases: p95 of ~120 clicks, not ~60 (the third-largest of 60 is too noisy
    # to divide by).
    await alone.step(phase, time.monotonic() + 2 * duration, pause=(0.3, 1.0))
    await alone.session.close()
    await asyncio.sleep(2)
    rest = rss_mib(target.pids)
    idle = rss_mib(target.pids, workers=True)  # what the greedy neighbour's memory must come back to

    students = [
        Student(target.url, ("hug", "python-docs")[i % 2], (i * 37) % (7 if i % 2 == 0 else 4000), runs, errors)
        for i in range(sessions)
    ]
    for i in range(0, sessions, 5):
        await asyncio.gather(*(s.open() for s in students[i : i + 5]))
    await asyncio.sleep(2)
    opened = rss_mib(target.pids)

    loads.append(("many", os.getloadavg()))
    phase[0] = "many"
    until = time.monotonic() + duration
    await asyncio.gather(*(s.step(phase, until) for s in students))

    loads.append(("many+fresh", os.getloadavg()))
    phase[0] = "many+fresh"
    done: dict = {}
    until = time.monotonic() + duration
    kinds = () if args.no_fresh else ("first", "hf", "paste")
    fresh = [fresh_run(target.url, kind, nonce, done, errors) for kind in kinds]
    await asyncio.gather(*(s.step(phase, until) for s in students), *fresh)
    neighbour = await hostile_phase(target, students, phase, duration, nonce, args) if args.hostile else None
    greedy_out = None
    if args.greedy:
        loads.append(("many+greedy", os.getloadavg()))
        phase[0], greedy_out = "many+greedy", {"errors": []}
        task = asyncio.ensure_future(
            greedy(
                target.url,
                nonce + 7,
                args.pastes,
                greedy_out,
                greedy_out["errors"],
                uploads=args.uploads,
                upload_mb=args.upload_mb,
                reruns=args.reruns,
                check=not args.no_check_files,
                phase_s=args.greedy_phase_s,
            )
        )
        until = time.monotonic() + duration
        await asyncio.gather(*(s.step(phase, until, busy=lambda: not task.done()) for s in students), task)
    for s in students:
        await s.session.close()
    if greedy_out is not None and any(args.greedy_settle_s):
        # Everyone has left: what the server and its workers keep, read at each of the times asked (Streamlit keeps
        # a closed tab's session for server.disconnectedSessionTTL, 120 s, so that a phone that reconnects resumes).
        left, readings = time.monotonic(), []
        for settle in sorted(x for x in args.greedy_settle_s if x > 0):
            await asyncio.sleep(max(0.0, left + settle - time.monotonic()))
            readings.append((settle, rss_mib(target.pids, workers=True)))
        greedy_out["settled"] = {"idle": idle, "after": readings}
    loads.append(("end", os.getloadavg()))

    phases = ("one", "many", "many+fresh", "many+hostile", "many+greedy")
    lat = {p: [x for s in [alone, *students] for ph, x in s.latencies if ph == p] for p in phases}
    return {
        "hostile": neighbour,
        "greedy": greedy_out,
        "errors": errors,
        "lat": lat,
        "rest": rest,
        "opened": opened,
        "done": done,
        "trainings": target.trainings(),
        "clicked": sorted(c for s in students for c in s.clicked),
        "log": "\n".join(log.read_text(errors="replace") for log in target.logs),
        "sessions": sessions,
        "loads": loads,
    }


def report(kind: str, r: dict) -> None:
    print(f"\n== {kind} ==" + (f" ({app_script()})" if kind == "single" else ""))
    print(f"errors: {len(r['errors'])}" + "".join(f"\n  {e}" for e in r["errors"][:10]))
    print("load average (1, 5, 15 min) at: " + "; ".join(f"{w} {a:.2f} {b:.2f} {c:.2f}" for w, (a, b, c) in r["loads"]))
    for phase, label in (
        ("one", "1 session"),
        ("many", f"{r['sessions']} sessions"),
        ("many+fresh", f"{r['sessions']} sessions + 3 fresh runs"),
        *((("many+hostile", f"{r['sessions']} sessions + hostile neighbour"),) if r["hostile"] else ()),
        *((("many+greedy", f"{r['sessions']} sessions + greedy neighbour"),) if r["greedy"] else ()),
    ):
        print(f"  {label:32s} {summary(r['lat'][phase])}")
    ratio = p95(r["lat"]["many"]) / p95(r["lat"]["one"])
    print(f"  p95 of {r['sessions']} / p95 alone: {ratio:.2f}x (target <= 3x: {'met' if ratio <= 3 else 'NOT met'})")
    ratio = p95(r["lat"]["many+fresh"]) / p95(r["lat"]["one"])
    print(f"  p95 with fresh runs / p95 alone: {ratio:.2f}x (target <= 3x: {'met' if ratio <= 3 else 'NOT met'})")
    per = (r["opened"] - r["rest"]) / r["sessions"]
    print(
        f"  server RSS at rest {r['rest']:.0f} MiB, with {r['sessions']} sessions {r['opened']:.0f} MiB: "
        f"{per:.2f} MiB per extra session (target <= 5 MiB: {'met' if per <= 5 else 'NOT met'})"
    )
    for kind_, (seconds, merges) in sorted(r["done"].items()):
        print(f"  fresh run {kind_:6s}: ready after {seconds:.1f} s ({merges:,} merges)")
    if r["hostile"]:
        report_hostile(r, r["hostile"])
    if r["greedy"]:
        report_greedy(r, r["greedy"])
    counts = r["trainings"]
    print(
        f"  trainings: {sum(counts.values())} for {len(counts)} distinct runs; most times one run was trained: "
        f"{max(counts.values(), default=0)}"
    )


def report_hostile(r: dict, h: dict) -> None:
    print(f"  hostile neighbour: {len(h['errors'])} errors" + "".join(f"\n    {e}" for e in h["errors"][:10]))
    ratio = p95(r["lat"]["many+hostile"]) / p95(r["lat"]["one"])
    print(
        f"  p95 with the hostile neighbour / p95 alone: {ratio:.2f}x (target <= 3x: {'met' if ratio <= 3 else 'NOT met'})"
    )
    for what in [k for k in h if isinstance(h[k], tuple)]:
        seconds, said = h[what]
        print(f"  {what:32s} {seconds:6.1f} s  {said[:150]}")
    small = h.get("small run", (float("inf"), ""))[0]
    print(f"  small run after the abandoned one: {small:.1f} s (target <= 5 s: {'met' if small <= 5 else 'NOT met'})")
    budget = r["rss_budget"]
    after = "killed at the cap" if "killed" in h else f"after {h.get('after', float('nan')):,.0f} MiB"
    print(
        f"  server + workers RSS: peak {h['peak']:,.0f} MiB, {after}; budget "
        f"{budget:,.0f} MiB (1 GiB runs + 512 MiB parsed files + 1 GiB reading process): {'met' if h['peak'] <= budget else 'NOT met'}"
    )


def report_greedy(r: dict, g: dict) -> None:
    print(f"  greedy neighbour: {len(g['errors'])} errors" + "".join(f"\n    {e}" for e in g["errors"][:10]))
    lat = r["lat"]["many+greedy"]
    ratio, worst = p95(lat) / p95(r["lat"]["one"]), max(lat, default=float("nan"))
    print(
        f"  p95 with the greedy neighbour / p95 alone: {ratio:.2f}x (target <= 3x: {'met' if ratio <= 3 else 'NOT met'}); "
        f"max {worst * 1000:.0f} ms (target <= 1 s: {'met' if worst <= 1 else 'NOT met'})"
    )
    for what in [k for k in g if isinstance(g[k], tuple)]:
        seconds, said = g[what]
        print(f"  {what:32s} {seconds:6.1f} s  {said[:150]}")
    marks = [*g.get("marks", []), (float("inf"), "")]
    for (begun, what), (ended, _) in zip(marks, marks[1:]):
        ms = [x * 1000 for at, x in r["clicked"] if begun <= at < ended]
        if ms:
            print(f"    the class's clicks during {what:38s} {summary([x / 1000 for x in ms])}")
    if "settled" in g:
        idle = g["settled"]["idle"]
        for settle, settled in g["settled"]["after"]:
            grown = settled / idle - 1
            print(
                f"  server + workers RSS {settle:.0f} s after everyone left: {settled:,.0f} MiB against "
                f"{idle:,.0f} MiB idle, {grown:+.0%} (target within 20 %: {'met' if grown <= 0.2 else 'NOT met'})"
            )
    fresh = g.get("teacher's fresh 1 MB run", (float("inf"), ""))[0]
    print(
        f"  teacher's fresh run: {fresh:.1f} s to its first step (target <= 10 s: {'met' if fresh <= 10 else 'NOT met'})"
    )
    sent = g.get("teacher's paste sent at")
    if sent is not None and (t := timeline(r["log"], sent)):
        count = (t["counted"][0] - t["read"][0], t["counted"][1] - t["read"][1])
        merge = (t["trained"][0] - t["counted"][0], t["trained"][1] - t["counted"][1])
        print(
            f"    of which: serving {t['submitted'] - sent:.2f} s, waiting in the {t['lane']} "
            f"lane {t['started'] - t['submitted']:.2f} s, counting {count[0]:.2f} s (cpu {count[1]:.2f}), merging "
            f"{merge[0]:.2f} s (cpu {merge[1]:.2f}); the rest is the page's poll and run"
        )
    opens = g.get("teacher's corpus by link", (0, "not tried"))[1] == "opens"
    print(f"  teacher's corpus after the storm: {'opens' if opens else 'NOT opened'}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", choices=("single", "replicas", "both"), default="both")
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--duration", type=float, default=40.0, help="seconds per phase")
    ap.add_argument("--hostile", action="store_true", help="add the hostile neighbour's phase (issue 22)")
    ap.add_argument("--no-fresh", action="store_true", help="phase 3 without its three fresh runs")
    ap.add_argument("--greedy", action="store_true", help="add the greedy neighbour's phase (issue 28)")
    ap.add_argument("--pastes", type=int, default=130, help="distinct 5 MB pastes the greedy neighbour sends")
    ap.add_argument("--uploads", type=int, default=20, help="files the greedy neighbour uploads without deleting")
    ap.add_argument("--upload-mb", type=float, default=59.0, help="size of each of those files (MB)")
    ap.add_argument("--reruns", type=int, default=5000, help="reruns the greedy neighbour sends at once")
    ap.add_argument("--no-check-files", action="store_true", help="the greedy neighbour skips the Check page's files")
    ap.add_argument(
        "--greedy-phase-s",
        type=float,
        default=60.0,
        help="seconds after which the greedy neighbour starts no new paste, and no new upload (the server paces them)",
    )
    ap.add_argument("--hostile-chars", type=int, default=99_000, help="text typed with the expanding normalizer")
    ap.add_argument("--big-mb", type=float, default=59.5, help="size of the big tokenizer.json (MB)")
    ap.add_argument(
        "--rss-budget",
        type=float,
        default=2560,
        help="MiB, server + workers (1 GiB runs + 512 MiB parsed files + 1 GiB reading process)",
    )
    ap.add_argument(
        "--greedy-settle-s",
        type=float,
        nargs="+",
        default=[120.0, 240.0],
        help="seconds after the greedy neighbour and the class have left when the server's RSS is read (0: not)",
    )
    ap.add_argument("--rss-cap", type=float, default=4096, help="MiB: the server is killed past this (a guard)")
    args = ap.parse_args()
    runs = expected_runs()
    # This client process holds both runs (hundreds of thousands of objects): without this, Python's own
    # full collections here would stall the clients' event loop and add their pauses to the server's latency.
    gc.collect()
    gc.freeze()
    kinds = ("single", "replicas") if args.target == "both" else (args.target,)
    for kind in kinds:
        with Target(kind) as target:
            result = asyncio.run(classroom(target, args.sessions, args.duration, runs, args))
            report(kind, {**result, "rss_budget": args.rss_budget, "settle_s": args.greedy_settle_s})


if __name__ == "__main__":
    main()
