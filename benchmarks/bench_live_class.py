"""A live class under load: N students follow the teacher's steps and vote (ui/classroom.py).

Sessions speak Streamlit's own websocket protocol (``st_client.Session``; no browsers, so the CPU measured
is the server's). The teacher's session opens the course preset in presenter mode and starts a class; each
student opens the class link and polls as its browser would, from a random phase. Where the server serves the
class state route (``serve.py``, ``server/class_route.py``; the page's "Following the teacher" line names it),
the student asks it over HTTP with the newest serial it knows, an answer that waits for the teacher's next move
(a keep-alive connection carrying HAProxy's cookie, as the browser's ``fetch`` does, so it reaches the replica
of its websocket) and, when the serial is not the one its step view shows, presses the step view's hidden
button over the websocket, as ``ui/class.js`` does. An
older version without the route is polled through its class box's fragment every ``POLL_S``, whose answer
asks for the press. Then:

1. the reference: one student follows ``--steps`` steps of the teacher, one every ``--gap`` seconds;
2. the class: N students (``--students``, 100 by default) follow the same steps;
3. the vote: the teacher asks "Which pair merges next?", every student taps one of the offered pairs (chosen
   at random), the teacher's box must count them all, and its reveal must say exactly how many chose the
   pair that merges.

Reported: the time from the teacher's click on Next to each student's page showing the new step's title,
p50/p95/max (goal p95 <= 1.5 s) and its ratio to the reference; students who missed a step; the answers
counted against the votes sent; the server's CPU (its processes and pool workers) per student as a share of
one core while following, the CPU-seconds per student per teacher step (everything the servers did while the
class followed: the polls between steps and the steps themselves, divided by steps x students), how the
students and that CPU split between the replicas, and the servers' resident memory per student.

With ``--against REF`` the same run is made against the app as it was at git revision ``REF`` (exported to a
temporary folder), the two versions taking turns ``--rounds`` times, so both see the same machine: compare
their CPU per student-step (process CPU time, which a busy machine changes little), not only their latency.
With ``--floor RUNS`` no class is run: one session's server CPU per poll and per step view, beside a polling
fragment that draws nothing (``bare_poll_app.py``: what Streamlit costs per run whatever the page does).

    .venv/bin/python benchmarks/bench_live_class.py                        # 100 students, one server
    .venv/bin/python benchmarks/bench_live_class.py --target replicas --students 300
    .venv/bin/python benchmarks/bench_live_class.py --students 100 --against main --rounds 2
    .venv/bin/python benchmarks/bench_live_class.py --floor 400 --against main   # CPU per poll, per step view
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from bench_classroom import Target, family, rss_mib  # noqa: E402
from browser_support import AppServer  # noqa: E402
from st_client import Session  # noqa: E402

import bpe  # noqa: E402
from ui.classroom import POLL_S, RETRY_PRESS_S, ROUTE_PAUSE_S, candidates  # noqa: E402
from ui.settings import corpus_of, preset_settings  # noqa: E402

CODE = re.compile(r'data-testid="bpe-class-code">([A-Z2-9]{6})<')
ANSWERS = re.compile(r'data-testid="bpe-answers">(\d+)<')
REVEAL = re.compile(r"Step (\d+) merges .*?: (\d+) of (\d+) answers chose it")
SERIAL = re.compile(r'data-bpe-serial="([^"]*)"')
POLL_URL = re.compile(r'data-bpe-poll="([^"]+)"')
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the serving processes and their workers so far."""
    total = 0
    for pid in family(pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


class Http:
    """A keep-alive HTTP/1.1 connection that GETs small answers, as cheaply as a client can (the clients share
    the machine's cores with the servers): (status, body)."""

    def __init__(self, url: str, cookies: dict[str, str]) -> None:
        host, _, port = url.removeprefix("http://").rstrip("/").partition(":")
        self.host, self.port = host, int(port or 80)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.head = f"Host: {host}:{self.port}\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "")
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        for attempt in (0, 1):  # a kept-alive connection the server closed meanwhile: one new one
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(f"GET {path} HTTP/1.1\r\n{self.head}\r\n".encode())
                head = await self.reader.readuntil(b"\r\n\r\n")
                length = int(re.search(rb"(?im)^content-length:\s*(\d+)", head).group(1))
                return int(head[9:12]), await self.reader.readexactly(length)
            except (OSError, asyncio.IncompleteReadError, AttributeError) as exc:
                self.close()
                if attempt:
                    raise OSError("the class state route did not answer") from exc
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Student:
    """One phone: polls the class (its route, or its class box on a version without it), notes when each step
    first shows, taps one pair when asked."""

    def __init__(self, url: str, code: str) -> None:
        self.url = url
        self.s = Session(url, f"class={code}")
        self.seen: dict[int, float] = {}
        self.vote: int | None = None  # the candidate index tapped
        self.errors: list[str] = []
        self.route: str | None = None  # the class state route the page names (data-bpe-poll)
        self.serial = ""  # the serial the step view shows (data-bpe-serial)
        self.polls = 0  # route polls answered

    async def open(self) -> None:
        await self.s.open()
        self.seen[self.s.step] = time.perf_counter()
        self._read_line()

    def _read_line(self) -> None:
        """The serial and route of the step view's "Following the teacher" line, if the last run drew it."""
        page = "".join(self.s.html)
        if m := SERIAL.search(page):
            self.serial = m.group(1)
        if m := POLL_URL.search(page):
            self.route = m.group(1).replace("&amp;", "&")

    async def _press(self, choices: int) -> None:
        """What ``ui/class.js`` does: press the step view's hidden button (the websocket), then vote if asked."""
        self.s.html = []
        await self.s.click("class_sync", timeout=120)
        self._read_line()
        self.seen.setdefault(self.s.step, time.perf_counter())
        await self._vote(choices)

    async def _vote(self, choices: int) -> None:
        buttons = [k for k in self.s.widgets if k.startswith("class_vote_1_")]
        if self.vote is None and choices and len(buttons) == choices:
            self.vote = random.randrange(choices)
            await self.s.click(f"class_vote_1_{self.vote}")
        self.errors += self.s.exceptions
        self.s.exceptions = []

    async def poll(self, stop: asyncio.Event, choices: int) -> None:
        if self.route:
            await self.poll_route(stop, choices)
        else:
            await self.poll_fragment(stop, choices)

    async def poll_route(self, stop: asyncio.Event, choices: int) -> None:
        """The browser's ``class.js``: ask the route with the newest serial known (the answer waits for a move);
        a serial the step view does not show: press (again after ``RETRY_PRESS_S`` if that press brought
        nothing)."""
        http = Http(self.url, self.s.cookies)
        known, pressed_for, pressed_at = None, None, 0.0
        try:
            while not stop.is_set():
                try:
                    status, body = await http.get(f"{self.route}&after={known or self.serial}")
                except OSError as exc:
                    self.errors.append(f"route: {exc}")
                    return
                self.polls += 1
                want = re.search(rb'"serial":(\d+)', body).group(1).decode() if status == 200 else None
                if status == 404:
                    want = "ended"
                if want is None or want == "ended":
                    await asyncio.sleep(ROUTE_PAUSE_S)
                    continue
                known = want
                if want == self.serial:
                    continue
                if want == pressed_for and time.perf_counter() - pressed_at < RETRY_PRESS_S:
                    await asyncio.sleep(ROUTE_PAUSE_S)
                    continue
                pressed_for, pressed_at = want, time.perf_counter()
                try:
                    await self._press(choices)
                except (TimeoutError, OSError, KeyError) as exc:
                    self.errors.append(f"press: {type(exc).__name__} {exc}")
                    return
        finally:
            http.close()

    async def poll_fragment(self, stop: asyncio.Event, choices: int) -> None:
        """An older page's poll: its class box's fragment, every ``POLL_S``."""
        await asyncio.sleep(random.uniform(0, POLL_S))  # browsers' timers start at different moments
        while not stop.is_set():
            started = time.perf_counter()
            try:
                self.s.html = []  # this poll's blocks only
                await self.s._rerun(fragment=self.s.poll_fragment, auto=True, timeout=120)
                if any("data-bpe-sync" in block for block in self.s.html):
                    await self.s.click("class_sync")  # what ui/class.js does in the browser
            except (TimeoutError, OSError) as exc:
                self.errors.append(f"poll: {type(exc).__name__} {exc}")
                return
            self.seen.setdefault(self.s.step, time.perf_counter())
            await self._vote(choices)
            await asyncio.sleep(max(0.0, POLL_S - (time.perf_counter() - started)))


async def teacher_box(teacher: Session) -> str:
    """One poll of the teacher's class box (as the projector's timer does); its HTML."""
    teacher.html = []  # a poll's run draws the box again; what it drew before is not this poll's
    await teacher._rerun(fragment=teacher.poll_fragment, auto=True, timeout=120)
    return "".join(teacher.html)


async def run_class(target: Target, n: int, steps: int, gap: float, history: bpe.History) -> dict:
    teacher = Session(target.url, "preset=course&step=0&present=1")
    await teacher.open()
    await teacher.click("class_start")
    code = CODE.search("".join(teacher.html)).group(1)
    students = [Student(target.url, code) for _ in range(n)]
    joined_at = time.perf_counter()
    rss_before = rss_mib(target.pids, workers=True)
    for i in range(0, n, 10):  # a class arrives over a few seconds, not in one instant
        await asyncio.gather(*(s.open() for s in students[i : i + 10]))
    join_s = time.perf_counter() - joined_at
    stop = asyncio.Event()
    choices = len(candidates(history, steps))
    polls = [asyncio.create_task(s.poll(stop, choices)) for s in students]
    await asyncio.sleep(2 * POLL_S)
    rss_after = rss_mib(target.pids, workers=True)
    replicas = Counter(s.s.cookies.get("BPE_REPLICA", "one server") for s in students)
    cpu0, t0 = cpu_seconds(target.pids), time.perf_counter()
    await asyncio.sleep(5 * POLL_S)  # polls only: what a class costs between steps
    idle = (cpu_seconds(target.pids) - cpu0) / (time.perf_counter() - t0)
    cpu0, t0 = cpu_seconds(target.pids), time.perf_counter()
    each0 = [cpu_seconds([pid]) for pid in target.pids]
    client0 = time.process_time()  # this script's own CPU (the students' clients), on the same cores
    clicked: dict[int, float] = {}
    for k in range(1, steps + 1):
        clicked[k] = time.perf_counter()
        await teacher.click("next")
        await asyncio.sleep(gap)
    elapsed = time.perf_counter() - t0
    cpu_total = cpu_seconds(target.pids) - cpu0
    each = [cpu_seconds([pid]) - c for pid, c in zip(target.pids, each0)]
    cpu_follow = cpu_total / elapsed
    client_share = (time.process_time() - client0) / elapsed
    # a step's own cost per student: the CPU above the polls' share, per step and student
    step_cpu = max(0.0, cpu_follow - idle) * elapsed / (steps * n)
    latencies, missed = [], 0
    for s in students:
        for k, at in clicked.items():
            if k in s.seen:
                latencies.append(s.seen[k] - at)
            else:
                missed += 1
    # The vote at the last step.
    await teacher.click("class_ask")
    deadline = time.monotonic() + 120
    votes_sent = 0
    while time.monotonic() < deadline:
        html = await teacher_box(teacher)
        votes_sent = sum(s.vote is not None for s in students)
        m = ANSWERS.search(html)
        if m and votes_sent == n and int(m.group(1)) == n:
            break
        await asyncio.sleep(POLL_S)
    counted = int(m.group(1)) if m else 0
    await teacher.click("class_reveal")
    reveal = REVEAL.search("".join(teacher.html))
    stop.set()
    await asyncio.gather(*polls)
    right = [i for i, (pair, _) in enumerate(candidates(history, steps)) if pair == history.state(steps + 1).pair][0]
    expected_right = Counter(s.vote for s in students)[right]
    await asyncio.gather(teacher.close(), *(s.s.close() for s in students))
    return {
        "students": n,
        "join_s": join_s,
        "polling": (
            f"asking the class state route ({sum(s.polls for s in students):,} answers)"
            if all(s.route for s in students)
            else f"polling a fragment every {POLL_S:.1f} s"
        ),
        "latencies": latencies,
        "missed": missed,
        "errors": [e for s in students for e in s.errors],
        "votes_sent": votes_sent,
        "counted": counted,
        "reveal": None if reveal is None else (int(reveal.group(2)), int(reveal.group(3))),
        "expected_reveal": (expected_right, n),
        "cpu_core_share_per_student": cpu_follow / n,
        "idle_share_per_student": idle / n,
        "step_cpu_ms_per_student": 1000 * step_cpu,
        "cpu_ms_per_student_step": 1000 * cpu_total / (steps * n),
        "replicas": dict(sorted(replicas.items())),
        "client_share": client_share,
        "cpu_per_replica_s": each,
        "rss_per_student_mib": (rss_after - rss_before) / n,
    }


async def floor(name: str, root: Path, runs: int) -> None:
    """Server CPU per run, one session at a time: a fragment that draws nothing (``bare_poll_app.py``), a following
    student's poll while the teacher stays, and the step view a student's page runs when the teacher moves."""
    bare = AppServer(script=str(ROOT / "benchmarks" / "bare_poll_app.py"))
    url = bare.start()
    try:
        s = Session(url, "")
        await s.open()
        empty = await per_run([bare.proc.pid], runs, lambda: s._rerun(fragment=s.poll_fragment, auto=True))
        await s.close()
    finally:
        bare.stop()
    with Target("single", root, served(root)) as target:
        teacher = Session(target.url, "preset=course&step=0&present=1")
        await teacher.open()
        await teacher.click("class_start")
        student = Student(target.url, CODE.search("".join(teacher.html)).group(1))
        await student.open()
        s = student.s
        await teacher.click("next")
        if student.route:  # the class state route: an HTTP answer per poll
            http = Http(target.url, s.cookies)
            await student._press(0)
            poll = await per_run(target.pids, runs, lambda: http.get(student.route))
            http.close()
            kind = "route"
        else:
            while "class_sync" not in s.widgets or s.step != 1:  # the poll that sees the step, then the press
                await s._rerun(fragment=s.poll_fragment, auto=True)
                if "class_sync" in s.widgets:
                    await s.click("class_sync")
            poll = await per_run(target.pids, runs, lambda: s._rerun(fragment=s.poll_fragment, auto=True))
            kind = "fragment"
        step = await per_run(target.pids, runs // 2, lambda: s.click("class_sync"))
        sent = await one_step(teacher, s)
        await asyncio.gather(teacher.close(), s.close())
    print(
        f"\n== server CPU per run, one session ({name}): an empty polling fragment {empty:.2f} ms, "
        f"a following student's poll ({kind}) {poll:.2f} ms, a follower's step view {step:.2f} ms; "
        f"load average {load()}"
    )
    print(f"what a follower's step view sent at the teacher's next step: {sent}")


async def one_step(teacher: Session, s: Session) -> str:
    """The teacher steps once and the student presses the hidden button once: what the server sent that student
    for it (ForwardMsgs by kind, elements being deltas, and their bytes)."""
    await teacher.click("next")
    s.received.clear()
    before = s.bytes_received
    await s.click("class_sync")
    kinds = ", ".join(f"{n} {kind}" for kind, n in s.received.most_common())
    return f"{s.received['delta']} deltas, {(s.bytes_received - before) / 1000:.1f} KB in all ({kinds})"


async def per_run(pids: list[int], runs: int, rerun) -> float:
    for _ in range(5):
        await rerun()
    cpu0 = cpu_seconds(pids)
    for _ in range(runs):
        await rerun()
    return 1000 * (cpu_seconds(pids) - cpu0) / runs


def served(root: Path) -> str:
    """The script one server runs: ``serve.py`` (the pages and their routes) where the version has it."""
    return "serve.py" if (root / "serve.py").exists() else "app.py"


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def report(kind: str, ref: dict, r: dict) -> None:
    lat, base = r["latencies"], ref["latencies"]
    print(
        f"\n== {kind}: {r['students']} students (joined in {r['join_s']:.1f} s), {r['polling']}; "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"teacher's Next -> student's new step title: p50 {pct(lat, 50):.2f} s, p95 {pct(lat, 95):.2f} s, "
        f"max {max(lat):.2f} s over {len(lat):,} step views (goal p95 <= 1.5 s: "
        f"{'met' if pct(lat, 95) <= 1.5 else 'NOT met'}); missed steps: {r['missed']}"
    )
    print(
        f"reference, one student: p50 {pct(base, 50):.2f} s, p95 {pct(base, 95):.2f} s; "
        f"p95 ratio {pct(lat, 95) / pct(base, 95):.2f}x"
    )
    exact = r["counted"] == r["votes_sent"] == r["students"] and r["reveal"] == r["expected_reveal"]
    print(
        f"votes: {r['votes_sent']} sent, {r['counted']} counted on the projector, reveal {r['reveal']} "
        f"(right, of all) against {r['expected_reveal']} sent: {'exact' if exact else 'NOT exact'}"
    )
    print(
        f"server per student while following: {100 * r['cpu_core_share_per_student']:.2f} % of a core "
        f"({100 * r['idle_share_per_student']:.2f} % between steps, polls only; each teacher step "
        f"{r['step_cpu_ms_per_student']:.0f} ms of CPU per student), {r['rss_per_student_mib']:.2f} MiB resident"
    )
    print(
        f"CPU per student per teacher step, polls included: {r['cpu_ms_per_student_step']:.2f} ms "
        f"(the servers' CPU while the class followed / (steps x students)); the clients (this script) took "
        f"{100 * r['client_share']:.0f} % of a core meanwhile; load average {load()}"
    )
    if len(r["cpu_per_replica_s"]) > 1:
        split = ", ".join(f"{name} {k}" for name, k in r["replicas"].items())
        cpu = " / ".join(f"{c:.1f} s" for c in r["cpu_per_replica_s"])
        print(f"HAProxy's split: students {split}; CPU of each replica while following {cpu}")
    if r["errors"]:
        print(f"errors ({len(r['errors'])}): {r['errors'][:3]}")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def export(ref: str) -> Path:
    """The app at git revision ``ref``, in a temporary folder (sharing this checkout's virtual environment)."""
    folder = Path(tempfile.mkdtemp(prefix="bpe-bench-against-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / ".venv").symlink_to((ROOT / ".venv").resolve())
    return folder


async def main_async(args) -> None:
    os.environ.setdefault("BPE_DATA_DIR", tempfile.mkdtemp(prefix="bpe-bench-live-"))  # not the user's store
    s = preset_settings("course")
    history = bpe.run_training(corpus_of(s), **s.options())
    versions = [("this checkout", ROOT)]
    if args.against:
        versions.insert(0, (args.against, export(args.against)))
    results: dict[str, list[dict]] = {name: [] for name, _ in versions}
    try:
        for _ in range(args.rounds if args.floor else 0):
            for name, root in versions:
                await floor(name, root, args.floor)
        for _ in range(args.rounds if not args.floor else 0):
            for name, root in versions:
                with Target(args.target, root, served(root)) as target:
                    ref = await run_class(target, 1, args.steps, args.gap, history)
                    r = await run_class(target, args.students, args.steps, args.gap, history)
                report(f"{args.target}, {name}", ref, r)
                results[name].append(r)
    finally:
        for _, root in versions:
            if root != ROOT:
                shutil.rmtree(root, ignore_errors=True)
    if len(versions) > 1 and not args.floor:
        print(f"\n== CPU per student per teacher step (polls included), {args.students} students, {args.target}")
        for name, runs in results.items():
            cpu = [r["cpu_ms_per_student_step"] for r in runs]
            p95 = [pct(r["latencies"], 95) for r in runs]
            print(
                f"{name}: {' '.join(f'{c:.2f}' for c in cpu)} ms (mean {statistics.mean(cpu):.2f}); "
                f"p95 {' '.join(f'{x:.2f}' for x in p95)} s"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--target", choices=("single", "replicas"), default="single")
    p.add_argument("--students", type=int, default=100)
    p.add_argument("--steps", type=int, default=8, help="steps the teacher takes (the course preset has 19)")
    p.add_argument("--gap", type=float, default=3.0, help="seconds between the teacher's steps")
    p.add_argument("--against", metavar="REF", help="also run the app at this git revision, taking turns")
    p.add_argument("--rounds", type=int, default=1, help="how many times each version runs")
    p.add_argument(
        "--floor",
        type=int,
        metavar="RUNS",
        default=0,
        help="instead of a class: server CPU per poll and per step view of one session, over RUNS runs, beside a "
        "fragment that draws nothing (Streamlit's floor)",
    )
    args = p.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
