"""Where a click's time goes: the server's share and the browser's, for the bare page and ours.

    .venv/bin/python benchmarks/bench_phases.py               # 15 timed clicks per page
    .venv/bin/python benchmarks/bench_phases.py --clicks 30

The same clicks as ``bench_pages.py`` (bare page, hug, step 2,500 of the 1 MB run; timed
inside the page, interleaved), on servers run through ``app_without.py`` with
``BPE_MESSAGE_LOG``: the server writes down, on its clock, when the rerun request arrives
and when it queues each message for the browser. Browser and server share the machine's
wall clock, so each click splits into

  request   the click -> the server has the rerun request
  start     request -> the server starts the run (``new_session`` queued)
  run       the run itself, on the server (-> ``script_finished`` queued)
  browser   ``script_finished`` queued -> the page is updated and the run shown as over
            (the browser drawing every message of the run; some of it overlaps ``run``)

A fourth page, ``bare, no GC``, is the bare page served with ``runner.postScriptGC`` off:
Streamlit ends every full run with ``gc.collect(2)`` over its whole heap, and that pause is
most of the bare page's server time (our app freezes its long-lived heap with ``gc.freeze``,
so the same collection costs it next to nothing).

It changes nothing in the app; it is the evidence for the README's account of the targets.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))

from bench_pages import (  # noqa: E402
    BIG_URL, VIEWPORT, Target, add_click_options, print_header, shut_down,
)
from browser_support import CHROMIUM_ARGS, AppServer  # noqa: E402

PHASES = ("request", "start", "run", "browser")


def read_log(path: Path) -> list[tuple[float, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        ms, direction, kind = line.split(" ", 2)
        rows.append((float(ms), direction, kind))
    return rows


def phases_of(log: list[tuple[float, str, str]], clicked_at: float, done: float) -> dict[str, float]:
    """Split one click (wall-clock ms) by the server's log of the rerun it caused."""
    recv = next(ms for ms, d, k in log if d == "recv" and k == "rerun_script" and ms >= clicked_at - 5)
    started = next(ms for ms, d, k in log if d == "send" and k == "new_session" and ms >= recv)
    finished = next(ms for ms, d, k in log if d == "send" and k == "script_finished" and ms >= started)
    deltas = sum(1 for ms, d, k in log if d == "send" and k.startswith("delta") and started <= ms <= finished)
    return {"request": recv - clicked_at, "start": started - recv, "run": finished - started,
            "browser": clicked_at + done - finished, "done": done, "deltas": deltas}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_click_options(parser, clicks=15)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    chromium = print_header("BPE Explorer: where a click's time goes, server and browser (real browser)", args)

    logs = Path(tempfile.mkdtemp(prefix="bpe-phases-"))
    bare_log, nogc_log, app_log = logs / "bare.log", logs / "bare-nogc.log", logs / "app.log"
    bare = AppServer("benchmarks/app_without.py",
                     env={"BPE_SCRIPT": "benchmarks/bare_app.py", "BPE_MESSAGE_LOG": str(bare_log)})
    nogc = AppServer("benchmarks/app_without.py",
                     env={"BPE_SCRIPT": "benchmarks/bare_app.py", "BPE_MESSAGE_LOG": str(nogc_log),
                          "STREAMLIT_RUNNER_POST_SCRIPT_GC": "false"})
    app = AppServer("benchmarks/app_without.py", env={"BPE_MESSAGE_LOG": str(app_log)})
    pw = browser = None
    try:
        for server in (bare, nogc, app):
            server.start()
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        pages = {"bare": (bare, "bare", "/", bare_log), "bare, no GC": (nogc, "bare", "/", nogc_log),
                 "hug": (app, "train", "/", app_log),
                 "big": (app, "train", BIG_URL, app_log)}
        targets = {}
        for name, (server, kind, url, _) in pages.items():
            targets[name] = Target(name, kind, server.url + url, browser.new_context(viewport=VIEWPORT))
            targets[name].open()
        results: dict[str, list[dict]] = {name: [] for name in pages}
        for rnd in range(args.warmup + args.clicks):
            for name, t in targets.items():
                result = t.click_next(args.settle, record=False)
                if rnd >= args.warmup:
                    results[name].append(phases_of(read_log(pages[name][3]), result["clicked_at"], result["done"]))

        print("Median ms per click (request + start + run + browser = done, up to rounding of medians)")
        rows = []
        for name, rs in results.items():
            rows.append([name] + [f"{statistics.median(r[p] for r in rs):.0f}" for p in (*PHASES, "done")]
                        + [f"{statistics.median(r['deltas'] for r in rs):.0f}"])
        print_table(["page", *PHASES, "done", "deltas"], rows)
        print(f"\n(total benchmark time {time.perf_counter() - started:.0f} s)")
        return 0
    finally:
        shut_down(browser, pw, (app, bare, nogc))


if __name__ == "__main__":
    sys.exit(main())
