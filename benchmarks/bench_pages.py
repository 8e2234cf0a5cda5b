"""Benchmark of the training page in a real browser: click-to-update latency and memory per session.

Run from the repository root (needs Debian's chromium, like the browser tests):

    .venv/bin/python benchmarks/bench_pages.py              # 20 timed clicks per page
    .venv/bin/python benchmarks/bench_pages.py --clicks 40 --warmup 3

Two ``streamlit run`` servers are started on free ports (the same way as the browser
tests, via ``tests/browser_support.AppServer``): ``app.py`` and ``benchmarks/bare_app.py``
(one button and a counter: Streamlit's floor on this machine). One headless chromium,
one browser context (= one Streamlit session) per page:

  bare  the bare page; a click reruns its tiny script
  hug   our training page on the default preset (``/``), the course's hug example
  big   our training page at step 2,500 of the 1 MB python-docs corpus trained to
        5,000 merges (``/?preset=python-docs&step=2500``; the first load trains it)

Each sample is one click on the ``next`` button, timed inside the page (performance.now(),
no Playwright round trips): the click is dispatched, then the page is watched (a
MutationObserver plus every animation frame) for

  text  the new step ("Step N of ..." in the this-step box; "Count N" on the bare page)
  done  that, and Streamlit's run is over (``data-test-script-state`` = notRunning): every
        element of the new step is drawn and nothing is shown stale any more

The pages are measured interleaved (bare, hug, big, bare, hug, big, ...) so machine noise
hits all three alike; warm-up rounds are not counted. Between samples the page is left
to settle (idle, status widget gone, plus --settle seconds). When the hug page reaches its
last step, its ``start`` button brings it back to step 0 (not timed).

Targets (on the median ``done`` time): hug/bare <= 1.3, big/bare <= 1.6.

Memory: VmRSS of the app server's process (/proc/<pid>/status) before the big page is
opened, after one session opened it (training, shared by all sessions through a cache),
and after a second and a third session (new browser contexts) opened the same URL: the
growth per extra session is the memory a session costs.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))

from browser_support import CHROMIUM_ARGS, AppServer, chromium_path  # noqa: E402

TARGETS = {"hug": 1.3, "big": 1.6}  # median done time / bare median done time, at most
BIG_URL = "/?preset=python-docs&step=2500"
LOAD_TIMEOUT_MS = 120_000
CLICK_TIMEOUT_MS = 120_000
VIEWPORT = {"width": 1280, "height": 900}

# One timed click, inside the page. Resolves to {text, done} in ms after the click, and the
# click's wall-clock time in ms (clicked_at).
CLICK_JS = """
async ({kind, expect, timeout}) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const btn = document.querySelector('.st-key-next button');
  if (!btn || btn.disabled) throw new Error('no enabled next button');
  const shown = () => {
    if (kind === 'bare') {
      const el = document.querySelector('.st-key-counter');
      return el ? el.textContent.trim() === 'Count ' + expect : false;
    }
    const el = document.getElementById('merge-count');
    const box = el && el.parentElement;
    return box ? box.textContent.trim().startsWith('Step ' + Number(expect).toLocaleString('en-US') + ' of ') : false;
  };
  return await new Promise((resolve, reject) => {
    let tText = null, finished = false, observer = null;
    const t0 = performance.now();
    const check = () => {
      if (finished) return;
      const now = performance.now();
      if (tText === null && shown()) tText = now;
      if (tText !== null && app.getAttribute('data-test-script-state') === 'notRunning') {
        finished = true;
        observer.disconnect();
        resolve({text: tText - t0, done: now - t0, clicked_at: performance.timeOrigin + t0});
        return;
      }
      if (now - t0 > timeout) {
        finished = true;
        observer.disconnect();
        reject(new Error('no update ' + Math.round(now - t0) + ' ms after the click'));
      }
    };
    observer = new MutationObserver(check);
    observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true,
                                     attributeFilter: ['data-test-script-state']});
    const frame = () => { if (!finished) { check(); requestAnimationFrame(frame); } };
    requestAnimationFrame(frame);
    btn.click();
  });
}
"""

IDLE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const btn = document.querySelector('.st-key-next button');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
    && !document.querySelector('[data-testid="stSkeleton"]')
    && !!btn;
}
"""

STEP_JS = """
() => {
  const el = document.getElementById('merge-count');
  const text = el ? el.parentElement.textContent : (document.querySelector('[data-testid="stMain"]') || document.body).innerText;
  const m = text.match(/Step ([\\d,]+) of ([\\d,]+)/);  // thousands separated: "Step 3 of 5,000"
  return m ? [parseInt(m[1].replace(/,/g, '')), parseInt(m[2].replace(/,/g, ''))] : null;
}
"""

COUNT_JS = """
() => {
  const el = document.querySelector('.st-key-counter');
  const m = el && el.textContent.match(/Count (\\d+)/);
  return m ? parseInt(m[1]) : null;
}
"""


def rss_mib(pid: int) -> float:
    """VmRSS of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank-interpolated percentile (q in 0..100)."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def chromium_version(path: str) -> str:
    try:
        return subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class Target:
    """One page in its own browser context (= its own Streamlit session)."""

    def __init__(self, name: str, kind: str, url: str, context):
        self.name, self.kind, self.url = name, kind, url
        self.context = context
        self.page = context.new_page()
        self.samples: list[dict] = []
        self.load_s = float("nan")

    def open(self) -> None:
        started = time.perf_counter()
        response = self.page.goto(self.url, timeout=LOAD_TIMEOUT_MS)
        if response is None or not response.ok:
            raise RuntimeError(f"GET {self.url} failed")
        self.wait_idle(LOAD_TIMEOUT_MS)
        self.load_s = time.perf_counter() - started
        self.check_no_exception()

    def wait_idle(self, timeout: float = CLICK_TIMEOUT_MS) -> None:
        self.page.wait_for_function(IDLE_JS, timeout=timeout, polling=50)

    def check_no_exception(self) -> None:
        exc = self.page.locator('[data-testid="stException"]')
        if exc.count():
            raise RuntimeError(f"{self.name}: Streamlit exception on the page:\n{exc.first.inner_text()[:2000]}")

    def position(self) -> tuple[int, int | None]:
        if self.kind == "bare":
            return self.page.evaluate(COUNT_JS), None
        found = self.page.evaluate(STEP_JS)
        if not found:
            raise RuntimeError(f"{self.name}: no 'Step N of M' on the page")
        return found[0], found[1]

    def click_next(self, settle: float, record: bool) -> dict:
        self.wait_idle()
        current, last = self.position()
        if last is not None and current >= last:  # hug at its last step: back to 0, untimed
            self.page.locator(".st-key-start button").click()
            self.page.wait_for_function(
                "() => /Step 0 of/.test(document.querySelector('[data-testid=\"stMain\"]').innerText)",
                timeout=CLICK_TIMEOUT_MS,
            )
            self.wait_idle()
            time.sleep(settle)
            current = 0
        result = self.page.evaluate(CLICK_JS, {"kind": self.kind, "expect": current + 1, "timeout": CLICK_TIMEOUT_MS})
        result["step"] = current + 1
        self.wait_idle()
        self.check_no_exception()
        time.sleep(settle)
        if record:
            self.samples.append(result)
        return result

    def stats(self, key: str) -> tuple[float, float]:
        xs = [s[key] for s in self.samples]
        return statistics.median(xs), percentile(xs, 90)


def add_click_options(parser: argparse.ArgumentParser, clicks: int) -> None:
    """The options every click benchmark takes."""
    parser.add_argument("--clicks", type=int, default=clicks, help=f"timed clicks per page (default {clicks})")
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds first (default 2)")
    parser.add_argument("--settle", type=float, default=0.3, help="seconds of rest after each click (default 0.3)")


def print_header(
    title: str,
    args: argparse.Namespace,
    *,
    per: str = "page",
    before: str = "",
    after: str = "",
    clicks: str = "timed clicks",
    order: str = "interleaved",
) -> str:
    """Print a click benchmark's title, the machine and the click settings; return the chromium
    binary to drive."""
    import streamlit

    chromium = chromium_path()
    print(title)
    print(
        f"Python {platform.python_version()}, Streamlit {streamlit.__version__}, {chromium_version(chromium)}, "
        f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"{before}{args.clicks} {clicks} per {per} after {args.warmup} warm-up round(s), {order}; "
        f"{args.settle:g} s settle{after}"
    )
    print()
    return chromium


def shut_down(browser, pw, servers) -> None:
    """Close the browser, then stop each server, printing its log tail if it hit a traceback."""
    if browser is not None:
        browser.close()
    if pw is not None:
        pw.stop()
    for server in servers:
        log = server.log_tail(60) if server.proc is not None else ""
        if "Traceback" in log:
            print(f"\n--- server log tail ({server.script}) ---\n" + log)
        server.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_click_options(parser, clicks=20)
    parser.add_argument(
        "--sessions",
        type=int,
        default=3,
        help="sessions opened on the big page for the memory figures (default 3, at least 2)",
    )
    args = parser.parse_args(argv)
    args.sessions = max(2, args.sessions)

    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    chromium = print_header(
        "BPE Explorer page benchmark (real browser)", args, after=f"; viewport {VIEWPORT['width']}x{VIEWPORT['height']}"
    )

    app, bare = AppServer("app.py"), AppServer("benchmarks/bare_app.py")
    pw = browser = None
    try:
        app.start()
        bare.start()
        pid = app.proc.pid
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)

        def context():
            return browser.new_context(viewport=VIEWPORT)

        targets = {
            "bare": Target("bare", "bare", f"{bare.url}/", context()),
            "hug": Target("hug", "train", f"{app.url}/", context()),
        }
        targets["bare"].open()
        targets["hug"].open()

        # -- memory per session on the big page ---------------------------------------------------
        time.sleep(2)
        rss = [("before the big page (bare + hug sessions open)", rss_mib(pid))]
        targets["big"] = Target("big", "train", f"{app.url}{BIG_URL}", context())
        targets["big"].open()
        time.sleep(2)
        rss.append(("after session 1 opened it (trains, cached)", rss_mib(pid)))
        extra = []
        for n in range(2, args.sessions + 1):
            t = Target(f"big#{n}", "train", f"{app.url}{BIG_URL}", context())
            t.open()
            extra.append(t)
            time.sleep(2)
            rss.append((f"after session {n} opened it", rss_mib(pid)))

        print("First loads (goto until the run is over and the page is drawn)")
        print_table(
            ["page", "URL", "load s"],
            [
                [t.name, t.url.replace(app.url, "").replace(bare.url, "") or "/", f"{t.load_s:.2f}"]
                for t in [targets["bare"], targets["hug"], targets["big"], *extra]
            ],
        )
        print()
        print(f"Memory of the app server (pid {pid}, VmRSS)")
        rows, prev = [], None
        for what, mib in rss:
            rows.append([what, f"{mib:.1f}", "" if prev is None else f"{mib - prev:+.1f}"])
            prev = mib
        print_table(["when", "RSS MiB", "change MiB"], rows)
        training = rss[1][1] - rss[0][1]
        per_session = [rss[i][1] - rss[i - 1][1] for i in range(2, len(rss))]
        print(
            f"first big session (training + its session): {training:+.1f} MiB; "
            f"each further session: {', '.join(f'{x:+.1f}' for x in per_session)} MiB "
            f"(mean {statistics.mean(per_session):+.1f} MiB per session)"
        )
        print()
        for t in extra:
            t.context.close()

        # -- click latency, interleaved ---------------------------------------------------------------
        order = ["bare", "hug", "big"]
        for rnd in range(args.warmup + args.clicks):
            for name in order:
                targets[name].click_next(args.settle, record=rnd >= args.warmup)
        rss.append(("after the timed clicks", rss_mib(pid)))

        print(
            "Click on next -> updated page, ms (median / p90 over "
            f"{args.clicks} clicks; text = new step shown, done = run over)"
        )
        rows = []
        for name in order:
            t = targets[name]
            (tm, t90), (dm, d90) = t.stats("text"), t.stats("done")
            steps = [s["step"] for s in t.samples]
            rows.append([name, f"{tm:.0f}", f"{t90:.0f}", f"{dm:.0f}", f"{d90:.0f}", f"{min(steps)}..{max(steps)}"])
        print_table(["page", "text med", "text p90", "done med", "done p90", "steps"], rows)
        print()

        print("Targets (median done time against the bare page's, same run)")
        bare_text, bare_done = targets["bare"].stats("text")[0], targets["bare"].stats("done")[0]
        rows, ok = [], True
        for name, limit in TARGETS.items():
            ratio = targets[name].stats("done")[0] / bare_done
            text_ratio = targets[name].stats("text")[0] / bare_text
            passed = ratio <= limit
            ok &= passed
            rows.append(
                [f"{name}/bare", f"{ratio:.2f}", f"<= {limit}", "PASS" if passed else "FAIL", f"{text_ratio:.2f}"]
            )
        print_table(["ratio", "done", "target", "result", "(text ratio)"], rows)
        print()
        print(f"app server RSS after the timed clicks: {rss[-1][1]:.1f} MiB")
        print(f"\n(total benchmark time {time.perf_counter() - started:.0f} s)")
        return 0 if ok else 1
    finally:
        shut_down(browser, pw, (app, bare))


if __name__ == "__main__":
    sys.exit(main())
