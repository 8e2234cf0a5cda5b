"""What a click sends (issue 20): bytes per Next and Next latency on hug, a 1 MB and a 5 MB pasted corpus.

One server, one session at a time speaking Streamlit's websocket protocol (``st_client.Session``, which
sends every widget value the page holds on every rerun, as the browser does, and takes a box's value when
the script sets it). The pasted corpus is sent once (the paste); the page stores it
(``server/corpus_store.py``) and empties the box, so a Next, or a poll while the run trains, carries only
the small widget values. Two references beside it: a 20 KB paste trained to the same 1,000 merges (the same
size of step view, a small corpus), and a client that keeps sending the 5 MB in the box, as before. Goals: bytes per Next <= 10 KB at every size; Next at 5 MB <= 1.3x Next on hug
(the reference, measured in the same script). "Next" is the time until the new step's title arrives (what
the user sees change first); "all drawn" the time until the fragment's run ends, every panel sent; "msgs /
bytes back" what the server sends per Next (counted on the client's websocket). Hug has 7 merges, so its
Nexts go round them and its per-step views are cached after the first round; a pasted corpus's 1,000
steps are each seen once here, so every Next on it computes its step view (the harder case).

    .venv/bin/python benchmarks/bench_corpus_clicks.py              # 20 Nexts per corpus
    .venv/bin/python benchmarks/bench_corpus_clicks.py --clicks 40
    .venv/bin/python benchmarks/bench_corpus_clicks.py --ab --clicks 100 --against /tmp/old   # vs a checkout

The 5 MB / hug verdict is the median of ``--rounds`` rounds' ratios (each round's 5 MB median over the same
round's hug median; clicks are taken in turn, so a busy moment of the machine falls on both), printed with
the rounds' spread: one median of 12 ms figures moved by 0.2x from run to run. ``--ab`` measures only hug
and 5 MB, on two servers whose clicks alternate: this checkout and, with ``--against DIR``, another
checkout's app (say ``git archive <commit> | tar -x -C DIR`` and a ``.venv`` link).
    .venv/bin/python benchmarks/bench_corpus_clicks.py --classroom     # + ten students on a teacher's 1 MB link

    .venv/bin/python benchmarks/bench_corpus_clicks.py --big            # a 100 MB upload beside a 5 MB one
    .venv/bin/python benchmarks/bench_corpus_clicks.py --big --against /tmp/old   # and the same on another checkout

With ``--big``: a 5 MB and a 100 MB text file are uploaded (the Train page's uploader, as the browser sends a
file), and another 100 MB text is POSTed to the corpus upload route and opened by its digest (as "Send a big
file" does), each trained to 1,000 merges, on a ``serve.py`` server; for each: the server's peak RSS over its RSS
before (sampled every 20 ms from ``/proc``), the seconds from the upload's start to step 0 shown, the server's RSS
once the run is shown, and the bytes Streamlit's uploader still holds (its ``/_stcore/metrics``); then their
Nexts, taken in turn, the server's CPU time per Next (its own work, less moved by the machine's load than the
time), and the ratio of each 100 MB session's Next to the 5 MB one's (goal <= LATENCY_GOAL, the median of
``--rounds`` rounds' ratios). With ``--against DIR`` the same runs first on that checkout's server (say
``git archive main | tar -x -C DIR``).

With ``--route``: the same 100 MB file three ways, each on a fresh server started with ``serve.py`` (the pages and
the corpus upload route, ``server/corpus_route.py``): through the Train page's uploader (``st.file_uploader``) to
step 0 of a 1,000-merge run; POSTed to ``/corpus-upload`` alone (as ``curl --data-binary`` or the page's "Send a big
file" sends it, from a file on disk); and POSTed, then opened on the page by its digest (``?corpus=<digest>``, as
"Send a big file" opens it) to step 0 of the same run. For each: the server's peak RSS over its RSS before
(sampled every 20 ms from ``/proc``), the seconds, and the load average.
    .venv/bin/python benchmarks/bench_corpus_clicks.py --route --rounds 2

With ``--classroom``: a teacher pastes a 1 MB corpus, and its link (``corpus=<digest>``, no text) is opened
by one student alone (stepping for ``--duration`` s: the reference), then by ten students at once, each at
its own step, pressing Next or Back every 0.3-1 s. Goal: p95 of the ten <= 3x p95 alone, 0 errors (a
traceback, a wrong step, a run of another length than the teacher's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from browser_support import SERVE_SCRIPT, AppServer  # noqa: E402
from st_client import Session  # noqa: E402
from tables import print_table  # noqa: E402

from server import corpus_form  # noqa: E402

BYTES_GOAL = 10_000
LATENCY_GOAL = 1.3
BEFORE = "5 MB kept in the box (before)"
SENT = "100 MB sent (route), opened"


def words_text(size: int, seed: int) -> str:
    """``size`` bytes of words made of syllables (a few thousand distinct words, as prose has)."""
    rng = random.Random(seed)
    syllables = ["ka", "to", "ri", "men", "sa", "lo", "bu", "ne", "the", "ing", "er", "qu", "an", "ot"]
    vocab = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(5_000)]
    out, n = [], 0
    while n < size:
        w = rng.choice(vocab)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)[:size]


def count_received(s: Session) -> None:
    """Count what the server sends this session (``s.received``: websocket messages and their bytes), by
    wrapping its websocket's ``recv``: a Next's deltas, whose number and size the browser processes."""
    s.received = [0, 0]
    recv = s.ws.recv

    async def counted(*args, **kwargs):
        data = await recv(*args, **kwargs)
        s.received[0] += 1
        s.received[1] += len(data)
        return data

    s.ws.recv = counted


async def prepare(url: str, corpus: str | None, keep_text: bool = False) -> tuple[Session, dict]:
    """A session on hug, or with ``corpus`` pasted and trained to 1,000 merges; what the paste and polls sent."""
    s = Session(url, "preset=hug")
    s.follow_set_value = not keep_text
    await s.open()
    count_received(s)
    r: dict = {"paste": 0, "polls": [], "sent": [], "seconds": [], "done": [], "messages": [], "received": []}
    if corpus is not None:
        await s._rerun(timeout=300, **{s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"})
        await s._rerun(timeout=300, **{s.ids["limit_value"]: 1000.0})
        before = s.bytes_sent
        await s._rerun(timeout=300, **{s.ids["corpus_text"]: corpus})
        r["paste"] = s.bytes_sent - before
        while s.waiting:  # as the browser polls while the run trains
            await asyncio.sleep(s.poll_every)
            before = s.bytes_sent
            await s._rerun(fragment=s.poll_fragment, auto=True, timeout=300)
            r["polls"].append(s.bytes_sent - before)
        assert s.step == 0 and s.last == 1000, (s.step, s.last, s.texts[-3:])
    return s, r


async def next_once(s: Session, r: dict) -> None:
    if s.step == s.last:  # hug has 7 merges: back to the start (not measured)
        await s.click("start")
    before, at, got = s.bytes_sent, s.step, list(s.received)
    started = time.perf_counter()
    r["seconds"].append(await s.click("next"))  # until the new step's title arrived
    r["done"].append(time.perf_counter() - started)  # until the fragment's run finished (every panel drawn)
    r["sent"].append(s.bytes_sent - before)
    r["messages"].append(s.received[0] - got[0])
    r["received"].append(s.received[1] - got[1])
    assert s.step == at + 1 and not s.exceptions, (at, s.step, s.exceptions)


async def measure(url: str, corpora: dict, clicks: int) -> dict:
    """Every session prepared first, then their Nexts taken in turn (round by round), so a busy moment of
    the machine falls on all of them alike."""
    return (await measure_servers({"": (url, corpora)}, clicks))[""]


async def measure_servers(servers: dict[str, tuple[str, dict]], clicks: int) -> dict[str, dict]:
    """:func:`measure` on several servers at once (label -> url and corpora), their Nexts alternated click
    by click, so that the servers' figures share the machine's busy moments."""
    sessions = {}
    for label, (url, corpora) in servers.items():
        for name, (text, keep) in corpora.items():
            sessions[label, name] = await prepare(url, text, keep)
    for _ in range(clicks):
        for s, r in sessions.values():
            await next_once(s, r)
    for s, _ in sessions.values():
        await s.close()
    out: dict[str, dict] = {label: {} for label in servers}
    for (label, name), (_, r) in sessions.items():
        out[label][name] = r
    return out


def rss(pid: int, field: str = "VmRSS") -> int:
    """A process's resident memory (or another ``/proc/<pid>/status`` field) in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system, ``/proc/<pid>/stat``), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def uploader_bytes(url: str) -> int:
    """Bytes Streamlit's uploader holds for every session (``/_stcore/metrics``, its UploadedFileManager)."""
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    found = re.findall(r'cache_memory_bytes\{[^}]*cache_type="UploadedFileManager"[^}]*\} (\d+)', text)
    return sum(map(int, found))


async def prepare_upload(url: str, pid: int, name: str, data: bytes) -> tuple[Session, dict]:
    """A session that uploads ``data`` to the Train page's uploader and waits for its 1,000-merge run; its
    peak server RSS (over the RSS before), seconds to step 0, RSS after and the uploader's bytes left."""
    s = Session(url, "preset=hug")
    await s.open()
    count_received(s)
    r: dict = {"paste": 0, "polls": [], "sent": [], "seconds": [], "done": [], "messages": [], "received": []}
    await s._rerun(timeout=300, **{s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"})
    await s._rerun(timeout=300, **{s.ids["limit_value"]: 1000.0})

    async def upload_to_step_0() -> None:
        await s.upload("corpus_file", [(name, data)], timeout=900)
        while s.waiting:
            await asyncio.sleep(s.poll_every)
            await s._rerun(fragment=s.poll_fragment, auto=True, timeout=900)

    _, measured = await peak_while(pid, upload_to_step_0)
    assert s.step == 0 and s.last == 1000 and not s.exceptions, (s.step, s.last, s.texts[-3:], s.exceptions)
    r["first_step_s"] = measured["seconds"]
    r["peak_over"], r["after_over"], r["load"] = measured["peak_over"], measured["after_over"], measured["load"]
    r["uploader"] = uploader_bytes(url)
    return s, r


async def prepare_sent(url: str, pid: int, path: Path) -> tuple[Session, dict]:
    """A session that POSTs the file at ``path`` to the corpus upload route and opens it by its digest to step 0
    of a 1,000-merge run, as "Send a big file" does; as :func:`prepare_upload` measures it."""

    async def sent_to_step_0() -> Session:
        key = await asyncio.to_thread(post_file, url, path)
        s = Session(url, f"corpus={key}&limit=num_merges&limit_value=1000")
        await s.open(timeout=900)
        while s.waiting:
            await asyncio.sleep(s.poll_every)
            await s._rerun(fragment=s.poll_fragment, auto=True, timeout=900)
        return s

    s, measured = await peak_while(pid, sent_to_step_0)
    assert s.step == 0 and s.last == 1000 and not s.exceptions, (s.step, s.last, s.texts[-3:], s.exceptions)
    count_received(s)
    r: dict = {"paste": 0, "polls": [], "sent": [], "seconds": [], "done": [], "messages": [], "received": []}
    r["first_step_s"] = measured["seconds"]
    r["peak_over"], r["after_over"], r["load"] = measured["peak_over"], measured["after_over"], measured["load"]
    r["uploader"] = uploader_bytes(url)
    return s, r


async def measure_big(url: str, pid: int, small: bytes, big: bytes, clicks: int, sent: Path | None = None) -> dict:
    """The 5 MB and the 100 MB uploads, one after the other (and ``sent``, another 100 MB text, POSTed to the
    route and opened), then their Nexts in turn."""
    sessions = {
        "5 MB uploaded": await prepare_upload(url, pid, "five.txt", small),
        "100 MB uploaded": await prepare_upload(url, pid, "hundred.txt", big),
    }
    if sent is not None:
        sessions[SENT] = await prepare_sent(url, pid, sent)
    for _ in range(clicks):
        for s, r in sessions.values():
            used = cpu_seconds(pid)
            await next_once(s, r)
            r.setdefault("cpu", []).append(cpu_seconds(pid) - used)  # the server's own work: less moved by load
    for s, _ in sessions.values():
        await s.close()
    return {name: r for name, (_, r) in sessions.items()}


def big(clicks: int, rounds: int, against: str | None) -> None:
    """``--big``: a 100 MB upload beside a 5 MB one, on this checkout (and first on ``against``)."""
    small = words_text(4_990_000, 5).encode()
    large = b"\n".join(words_text(9_990_000, 100 + i).encode() for i in range(10))  # built in parts: less memory
    folder = tempfile.TemporaryDirectory(prefix="bpe-bench-sent-")
    sent = Path(folder.name) / "sent.txt"  # another 100 MB text (another run), for the route
    with sent.open("wb") as f:
        for i in range(10):
            f.write((b"\n" if i else b"") + words_text(9_990_000, 200 + i).encode())
    variants = ([(f"{against} (reference)", str(Path(against) / SERVE_SCRIPT))] if against else []) + [
        ("this checkout", SERVE_SCRIPT)
    ]
    rows, verdicts = [], []
    for label, script in variants:
        with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as data:
            server = AppServer(script, env={"BPE_DATA_DIR": data})
            server.start()
            try:
                res = asyncio.run(measure_big(server.url, server.proc.pid, small, large, clicks, sent))
            finally:
                server.stop()
        for name, r in res.items():
            rows.append(
                [
                    label,
                    name,
                    f"{r['peak_over'] / 2**20:,.0f}",
                    f"{r['after_over'] / 2**20:,.0f}",
                    f"{r['uploader'] / 2**20:,.0f}",
                    f"{r['first_step_s']:.1f}",
                    f"{statistics.median(r['seconds']) * 1000:.0f}",
                    f"{statistics.median(r['done']) * 1000:.0f}",
                    f"{statistics.mean(r['cpu']) * 1000:.0f}",
                    " ".join(f"{x:.2f}" for x in r["load"]),
                ]
            )
        for name in ("100 MB uploaded", SENT):
            ratios = round_ratios(res[name]["seconds"], res["5 MB uploaded"]["seconds"], rounds)
            med = statistics.median(ratios)
            verdicts.append(
                f"{label}, {name}: Next <= {LATENCY_GOAL}x Next at 5 MB: {'met' if med <= LATENCY_GOAL else 'NOT met'} "
                f"(median of {len(ratios)} rounds {med:.2f}x, rounds {min(ratios):.2f}x-{max(ratios):.2f}x; "
                f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} after the clicks)"
            )
    folder.cleanup()
    print(
        f"A 5 MB and a 100 MB upload to 1,000 merges, then Next x{clicks} each in turn "
        f"(.venv/bin/python benchmarks/bench_corpus_clicks.py --big --clicks {clicks} --rounds {rounds}"
        + (f" --against {against})" if against else ")")
    )
    print_table(
        [
            "server",
            "corpus",
            "peak RSS over before, MiB",
            "RSS after, over before, MiB",
            "uploader holds MiB",
            "upload to step 0 s",
            "Next p50 ms",
            "all drawn p50 ms",
            "server CPU per Next ms",
            "load average at step 0",
        ],
        rows,
    )
    for line in verdicts:
        print(line)


def post_file(url: str, path: Path) -> str:
    """POST the file at ``path`` to the corpus upload route, streamed from disk; the corpus's digest."""
    with path.open("rb") as body:
        request = urllib.request.Request(
            f"{url}/corpus-upload?name={path.name}",
            data=body,
            method="POST",
            headers={"Content-Length": str(path.stat().st_size)},
        )
        with urllib.request.urlopen(request, timeout=900) as answer:
            return json.loads(answer.read())["digest"]


async def peak_while(pid: int, work) -> tuple[object, dict]:
    """``await work()`` while the server's RSS is sampled every 20 ms: its result, and the peak and final RSS over
    the RSS before, the seconds and the load average."""
    before, peak, done = rss(pid), [0], asyncio.Event()

    async def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss(pid))
            await asyncio.sleep(0.02)

    sampler = asyncio.create_task(sample())
    started = time.perf_counter()
    try:
        result = await work()
    finally:
        done.set()
        await sampler
    seconds = time.perf_counter() - started
    return result, {
        "peak_over": peak[0] - before,
        "after_over": rss(pid) - before,
        "seconds": seconds,
        "load": os.getloadavg(),
    }


async def route_way(url: str, pid: int, path: Path, open_it: bool) -> dict:
    """POST ``path`` to the route; with ``open_it``, then open its digest on the Train page to step 0 of 1,000
    merges."""

    async def work():
        key = await asyncio.to_thread(post_file, url, path)
        if not open_it:
            return key
        s = Session(url, f"corpus={key}&limit=num_merges&limit_value=1000")
        await s.open(timeout=900)
        while s.waiting:
            await asyncio.sleep(s.poll_every)
            await s._rerun(fragment=s.poll_fragment, auto=True, timeout=900)
        assert s.step == 0 and s.last == 1000 and not s.exceptions, (s.step, s.last, s.texts[-3:], s.exceptions)
        await s.close()
        return key

    warm = Session(url, "preset=hug")  # the page's first run (its imports) is not the file's cost: as the uploader's
    await warm.open(timeout=900)  # session, it runs before the RSS before is read
    await warm.close()
    _, r = await peak_while(pid, work)
    return r


async def uploader_way(url: str, pid: int, path: Path) -> dict:
    """The file through the Train page's uploader, to step 0 of 1,000 merges."""
    s, r = await prepare_upload(url, pid, path.name, path.read_bytes())
    await s.close()
    r["seconds"] = r["first_step_s"]
    return r


def route(rounds: int) -> None:
    """``--route``: a 100 MB file through the page's uploader, and through the corpus upload route."""
    with tempfile.TemporaryDirectory(prefix="bpe-bench-upload-") as folder:
        path = Path(folder) / "hundred.txt"
        with path.open("wb") as f:
            for i in range(10):  # built in parts: less memory in this process
                f.write((b"\n" if i else b"") + words_text(9_990_000, 100 + i).encode())
        size = path.stat().st_size
        ways = {
            "st.file_uploader, to step 0": None,
            "route (POST) alone": False,
            "route, then the page opens it, to step 0": True,
        }
        rows = []
        for _ in range(rounds):
            for label, open_it in ways.items():
                with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as data:
                    server = AppServer(SERVE_SCRIPT, env={"BPE_DATA_DIR": data})
                    server.start()
                    try:
                        if open_it is None:
                            r = asyncio.run(uploader_way(server.url, server.proc.pid, path))
                        else:
                            r = asyncio.run(route_way(server.url, server.proc.pid, path, open_it))
                    finally:
                        server.stop()
                print(f"{label}: {r}", file=sys.stderr, flush=True)  # as it comes, should a later way fail
                rows.append(
                    [
                        label,
                        f"{r['peak_over'] / 2**20:,.0f}",
                        f"{r['after_over'] / 2**20:,.0f}",
                        f"{r['seconds']:.1f}",
                        " ".join(f"{x:.2f}" for x in r["load"]),
                    ]
                )
    print(
        f"A {size / 1e6:.0f} MB text file, each way on a fresh serve.py server, {rounds} round(s) "
        f"(.venv/bin/python benchmarks/bench_corpus_clicks.py --route --rounds {rounds})"
    )
    print_table(["way", "peak RSS over before, MiB", "RSS after, over before, MiB", "seconds", "load average"], rows)


def round_ratios(big: list[float], ref: list[float], rounds: int) -> list[float]:
    """Next at 5 MB over Next on hug, the median of each round's clicks against the same round's (clicks
    taken in turn, so a round's two medians share the machine's load)."""
    n = min(len(big), len(ref))
    size = max(1, n // rounds)
    return [
        statistics.median(big[i : i + size]) / statistics.median(ref[i : i + size])
        for i in range(0, n - size + 1, size)
    ]


def verdict(ratios: list[float]) -> str:
    """The goal's verdict on the median of the rounds' ratios, with their spread."""
    med = statistics.median(ratios)
    return (
        f"Next at 5 MB <= {LATENCY_GOAL}x hug: {'met' if med <= LATENCY_GOAL else 'NOT met'} "
        f"(median of {len(ratios)} rounds {med:.2f}x, rounds {min(ratios):.2f}x-{max(ratios):.2f}x)"
    )


async def student(url: str, link: str, step: int, until: float, last: int, out: list, errors: list) -> None:
    s = Session(url, f"{link}&step={step}")
    try:
        await s.open(timeout=300)
        if s.last != last or s.step != step:
            errors.append(f"opened at step {s.step} of {s.last}, not {step} of {last}")
        while time.monotonic() < until:
            await asyncio.sleep(random.uniform(0.3, 1.0))
            key = "next" if s.step < s.last and (s.step == 0 or random.random() < 0.7) else "back"
            before = s.step
            out.append(await s.click(key, timeout=60))
            if s.step != before + (1 if key == "next" else -1) or s.exceptions:
                errors.append(f"pressed {key} at {before}, shows {s.step} {s.exceptions[-1:]}")
    except Exception as exc:  # noqa: BLE001 - every failure is counted
        errors.append(f"{type(exc).__name__} {exc}"[:160])
    finally:
        await s.close()


async def classroom(url: str, duration: float) -> dict:
    teacher, _ = await prepare(url, words_text(1_000_000, 11))
    await teacher.close()
    link = f"corpus={corpus_form.digest('text', words_text(1_000_000, 11))}&limit_value=1000"
    alone, many, errors = [], [], []
    await student(url, link, 100, time.monotonic() + duration, 1000, alone, errors)
    until = time.monotonic() + duration
    await asyncio.gather(*(student(url, link, 50 + 83 * i, until, 1000, many, errors) for i in range(10)))
    return {"alone": alone, "many": many, "errors": errors, "link": link}


def pct95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def ab(big: str, clicks: int, rounds: int, against: str) -> None:
    """Hug and 5 MB on two servers side by side, their clicks alternated: this checkout's app and
    ``against``, another checkout's (say ``git worktree add /tmp/old <commit>``)."""
    corpora = {"hug (preset)": (None, False), "5 MB pasted": (big, False)}
    variants = {"this checkout": (None, {}), f"{against} (reference)": (str(Path(against) / "app.py"), {})}
    with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as data:
        servers = {
            label: AppServer(script, env={"BPE_DATA_DIR": data, **env}) for label, (script, env) in variants.items()
        }
        try:
            for server in servers.values():
                server.start()
            results = asyncio.run(
                measure_servers({label: (srv.url, corpora) for label, srv in servers.items()}, clicks)
            )
        finally:
            for server in servers.values():
                server.stop()
    rows = []
    for label, res in results.items():
        hug, big_r = res["hug (preset)"], res["5 MB pasted"]
        ratios = round_ratios(big_r["seconds"], hug["seconds"], rounds)
        rows.append(
            [
                label,
                f"{statistics.median(hug['seconds']) * 1000:.1f}",
                f"{statistics.median(big_r['seconds']) * 1000:.1f}",
                f"{statistics.median(ratios):.2f}x",
                f"{min(ratios):.2f}x-{max(ratios):.2f}x",
                f"{statistics.median(hug['done']) * 1000:.1f}",
                f"{statistics.median(big_r['done']) * 1000:.1f}",
            ]
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min) after the clicks")
    print(
        f"Next x{clicks} on hug and on 5 MB, two servers, clicks alternated "
        f"(.venv/bin/python benchmarks/bench_corpus_clicks.py --ab --clicks {clicks} --rounds {rounds}"
        + f" --against {against})"
    )
    print_table(
        [
            "server",
            "hug Next p50 ms",
            "5 MB Next p50 ms",
            "5 MB / hug (median of rounds)",
            "rounds spread",
            "hug all drawn ms",
            "5 MB all drawn ms",
        ],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of clicks the 5 MB / hug verdict is the median of"
    )
    parser.add_argument(
        "--ab", action="store_true", help="only hug and 5 MB, on this checkout's server and on --against's"
    )
    parser.add_argument("--against", help="with --ab: another checkout's app as the reference server")
    parser.add_argument(
        "--big", action="store_true", help="a 100 MB upload beside a 5 MB one (with --against: and there)"
    )
    parser.add_argument(
        "--route", action="store_true", help="a 100 MB file through the page's uploader and through the upload route"
    )
    parser.add_argument("--classroom", action="store_true", help="also ten students on a teacher's 1 MB link")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of each classroom phase")
    args = parser.parse_args()
    if args.big:
        big(args.clicks, args.rounds, args.against)
        return
    if args.route:
        route(args.rounds)
        return
    big_text = words_text(4_990_000, 5)
    if args.ab:
        if not args.against:
            parser.error("--ab compares with another checkout: give --against DIR")
        ab(big_text, args.clicks, args.rounds, args.against)
        return
    corpora = {
        "hug (preset)": (None, False),
        "20 KB pasted": (words_text(20_000, 2), False),
        "1 MB pasted": (words_text(1_000_000, 1), False),
        "5 MB pasted": (big_text, False),
        # The reference for what was fixed: a browser that keeps sending the 5 MB it typed (the box never
        # emptied, as before the corpus store); the page takes it back out of the box on every click.
        BEFORE: (big_text, True),
    }
    with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as data:
        server = AppServer(env={"BPE_DATA_DIR": data})
        server.start()
        try:
            results = asyncio.run(measure(server.url, corpora, args.clicks))
            room = asyncio.run(classroom(server.url, args.duration)) if args.classroom else None
        finally:
            server.stop()
    hug = statistics.median(results["hug (preset)"]["seconds"])
    hug_done = statistics.median(results["hug (preset)"]["done"])
    rows = []
    for name, r in results.items():
        med = statistics.median(r["seconds"])
        done = statistics.median(r["done"])
        rows.append(
            [
                name,
                f"{r['paste']:,}",
                f"{max(r['polls']):,}" if r["polls"] else "-",
                f"{max(r['sent']):,}",
                f"{statistics.median(r['messages']):.0f} / {statistics.median(r['received']):,.0f}",
                f"{med * 1000:.0f}",
                f"{pct95(r['seconds']) * 1000:.0f}",
                f"{med / hug:.2f}x",
                f"{done * 1000:.0f}",
                f"{done / hug_done:.2f}x",
            ]
        )
    print(
        f"Next x{args.clicks} per corpus, one session, one server (.venv/bin/python benchmarks/bench_corpus_clicks.py)"
    )
    print_table(
        [
            "corpus",
            "paste bytes",
            "max bytes/poll",
            "max bytes/Next",
            "msgs / bytes back",
            "Next p50 ms",
            "Next p95 ms",
            "p50 vs hug",
            "all drawn p50 ms",
            "vs hug",
        ],
        rows,
    )
    print(
        "Next: until the new step's title arrives (what the goal measures); all drawn: until the fragment's run "
        "finished, every panel sent; msgs / bytes back: median websocket messages and bytes the server sent per Next"
    )
    worst = max(max(r["sent"]) for name, r in results.items() if name != BEFORE)
    ratios = round_ratios(results["5 MB pasted"]["seconds"], results["hug (preset)"]["seconds"], args.rounds)
    print(
        f"goal bytes per Next <= {BYTES_GOAL:,}: {'met' if worst <= BYTES_GOAL else 'NOT met'} ({worst:,}); "
        + verdict(ratios)
    )
    if room is not None:
        print(f"\nClassroom on a teacher's 1 MB link ({room['link'][:24]}…), {args.duration:.0f} s per phase")
        rows = [
            [name, len(xs), f"{statistics.median(xs) * 1000:.0f}", f"{pct95(xs) * 1000:.0f}"]
            for name, xs in (("one student alone", room["alone"]), ("ten students", room["many"]))
        ]
        print_table(["sessions", "clicks", "p50 ms", "p95 ms"], rows)
        ratio = pct95(room["many"]) / pct95(room["alone"])
        ok = ratio <= 3 and not room["errors"]
        print(
            f"goal p95 <= 3x alone and 0 errors: {'met' if ok else 'NOT met'} ({ratio:.2f}x, {len(room['errors'])} errors)"
        )
        for e in room["errors"][:5]:
            print("  error:", e)


if __name__ == "__main__":
    main()
