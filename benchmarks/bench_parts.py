"""What each part of the training page costs per click, in a real browser.

    .venv/bin/python benchmarks/bench_parts.py                      # the hug page, 15 clicks each
    .venv/bin/python benchmarks/bench_parts.py --page big --clicks 20

The same measure as ``bench_pages.py`` (click on ``next`` -> the new step drawn and the
run over, timed inside the page), taken on the bare one-button page and on several
copies of the app, each served by ``benchmarks/app_without.py`` with one part of the
training page left out (``BPE_WITHOUT``), plus one copy without any of them. The clicks
are interleaved, so machine noise hits every copy alike. The table says what leaving a
part out saves against the full page: that is what the part costs on every click.

It is the evidence behind the README's account of the latency targets; it changes
nothing in the app.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from app_without import PARTS  # noqa: E402
from bench_pages import (  # noqa: E402
    BIG_URL, TARGETS, VIEWPORT, Target, add_click_options, print_header, shut_down,
)
from browser_support import CHROMIUM_ARGS, AppServer  # noqa: E402

PAGES = {"hug": "/", "big": BIG_URL}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", choices=list(PAGES), default="hug", help="which training page (default hug)")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated parts to leave out one at a time (default all: {','.join(PARTS)})")
    add_click_options(parser, clicks=15)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    chromium = print_header("BPE Explorer: what each part of the training page costs per click (real browser)", args,
                            per="copy", before=f"page {args.page} ({PAGES[args.page]}); ")

    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}; known: {', '.join(PARTS)}")
    variants = {"full page": "", **{f"without {p}": p for p in parts}}
    if len(parts) > 1:
        variants[f"without all {len(parts)}"] = ",".join(parts)
    servers = {"bare page": AppServer("benchmarks/bare_app.py")}
    servers.update({name: AppServer("benchmarks/app_without.py", env={"BPE_WITHOUT": parts})
                    for name, parts in variants.items()})
    pw = browser = None
    try:
        for server in servers.values():
            server.start()
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        targets = {}
        for name, server in servers.items():
            kind, url = ("bare", "/") if name == "bare page" else ("train", PAGES[args.page])
            targets[name] = Target(name, kind, server.url + url, browser.new_context(viewport=VIEWPORT))
            targets[name].open()
        for rnd in range(args.warmup + args.clicks):
            for t in targets.values():
                t.click_next(args.settle, record=rnd >= args.warmup)

        bare = targets["bare page"].stats("done")[0]
        full = targets["full page"].stats("done")[0]
        rows = []
        for name, t in targets.items():
            med, p90 = t.stats("done")
            saved = "" if name in ("bare page", "full page") else f"{full - med:+.0f}"
            rows.append([name, f"{med:.0f}", f"{p90:.0f}", f"{med / bare:.2f}", saved])
        print("Click on next -> updated page, ms (done = the new step drawn and the run over)")
        print_table(["copy", "done med", "done p90", "/ bare", "saved ms"], rows)
        print(f"\ntarget for the {args.page} page: <= {TARGETS[args.page]} x the bare page")
        print(f"(total benchmark time {time.perf_counter() - started:.0f} s)")
        return 0
    finally:
        shut_down(browser, pw, servers.values())


if __name__ == "__main__":
    sys.exit(main())
