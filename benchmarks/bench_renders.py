"""How much of Streamlit's page the browser redraws per click: React commits and component renders.

    .venv/bin/python benchmarks/bench_renders.py               # 8 counted clicks per page
    .venv/bin/python benchmarks/bench_renders.py --clicks 12

The browser's share of a click (see ``bench_phases.py``) is Streamlit's frontend, a React app,
redrawing the page. This benchmark counts that work instead of timing it, so its figures do
not depend on how busy the machine is. Before the page loads, a stand-in for React's developer
tools hook (``__REACT_DEVTOOLS_GLOBAL_HOOK__``) is installed; React calls it after every commit
with the new component tree. For each commit it counts the components that rendered
(React's ``PerformedWork`` flag), each labelled by where it sits on the page:

  region   sidebar, main, header, or other (the app's frame)
  element  the Streamlit element around it (``st-key-...`` and its ``data-testid``), or the
           nearest named block (``stColumn``, ``stSidebarNav``, ...) for layout components

Pages: the bare page (one button), our hug page, the hug page with the sidebar patched out
(``app_without.py``, ``BPE_WITHOUT=sidebar``), and step 2,500 of the 1 MB run.

The hook walks the whole tree after each commit, which slows the page down: the figures are
counts, and this benchmark prints no times.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))

from bench_pages import BIG_URL, VIEWPORT, Target, add_click_options, print_header, shut_down  # noqa: E402
from browser_support import CHROMIUM_ARGS, AppServer  # noqa: E402

# React calls onCommitFiberRoot(rendererId, root) after each commit. A fiber rendered in that
# commit if it has an alternate (it existed before) and the PerformedWork flag (1).
HOOK_JS = r"""
window.__bpeCommits = [];
window.__bpeRecord = false;
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, isDisabled: false, renderers: new Map(),
  inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {},
  onPostCommitFiberRoot() {},
  onCommitFiberRoot(id, root) {
    if (!window.__bpeRecord) return;
    const counts = {};
    const LAYOUT = /^st(ElementContainer|VerticalBlock|HorizontalBlock|LayoutWrapper)/;
    const label = (fiber) => {
      let element = null;
      for (let f = fiber; f; f = f.return) {
        const node = f.tag === 5 ? f.stateNode : null;  // 5: a DOM element
        const id = node && node.getAttribute ? node.getAttribute('data-testid') : null;
        if (!id) continue;
        if (id === 'stSidebar') return 'sidebar|' + (element || '(layout)');
        if (id === 'stMain') return 'main|' + (element || '(layout)');
        if (id === 'stHeader') return 'header|' + (element || '(layout)');
        if (element) continue;
        if (id === 'stElementContainer') {
          const key = [...node.classList].find(c => c.startsWith('st-key-'));
          const inner = node.querySelector('[data-testid]');
          element = (key ? key.slice(7) + ' ' : '') + (inner ? inner.getAttribute('data-testid') : '?');
        } else if (!LAYOUT.test(id)) {
          element = id;
        }
      }
      return 'other|' + (element || '(layout)');
    };
    const walk = (fiber) => {
      for (let f = fiber; f; f = f.sibling) {
        if ((f.flags & 1) && f.alternate) { const k = label(f); counts[k] = (counts[k] || 0) + 1; }
        if (f.child) walk(f.child);
      }
    };
    walk(root.current.child);
    window.__bpeCommits.push(counts);
  },
};
"""


def summarize(commits: list[dict[str, int]], clicks: int) -> dict:
    """Per-click figures from the hook's commits (each a {"region|element": renders} dict)."""
    if clicks < 1:
        raise ValueError("clicks must be at least 1")
    total: Counter = Counter()
    for counts in commits:
        total.update(counts)
    regions: Counter = Counter()
    elements: Counter = Counter()
    for label, n in total.items():
        region, _, element = label.partition("|")
        regions[region] += n
        elements[f"{region}: {element}"] += n
    return {
        "commits": len(commits) / clicks,
        "renders": sum(total.values()) / clicks,
        "per_commit": sum(total.values()) / len(commits) if commits else 0.0,
        "regions": {r: n / clicks for r, n in regions.items()},
        "elements": [(e, n / clicks) for e, n in elements.most_common()],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_click_options(parser, clicks=8)
    parser.add_argument("--top", type=int, default=12, help="elements listed per page (default 12)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    chromium = print_header("BPE Explorer: components React redraws per click (real browser)", args,
                            clicks="counted clicks", order="one page after the other")
    bare, app = AppServer("benchmarks/bare_app.py"), AppServer("app.py")
    nosidebar = AppServer("benchmarks/app_without.py", env={"BPE_WITHOUT": "sidebar"})
    pw = browser = None
    try:
        for server in (bare, app, nosidebar):
            server.start()
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        pages = {"bare": (bare, "bare", "/"), "hug": (app, "train", "/"),
                 "hug, no sidebar": (nosidebar, "train", "/"), "big": (app, "train", BIG_URL)}
        results = {}
        for name, (server, kind, url) in pages.items():
            context = browser.new_context(viewport=VIEWPORT)
            context.add_init_script(HOOK_JS)
            target = Target(name, kind, server.url + url, context)
            target.open()
            for _ in range(args.warmup):
                target.click_next(args.settle, record=False)
            target.page.evaluate("() => { window.__bpeCommits = []; window.__bpeRecord = true; }")
            for _ in range(args.clicks):
                target.click_next(args.settle, record=False)
            results[name] = summarize(target.page.evaluate("() => window.__bpeCommits"), args.clicks)
            context.close()

        print("Per click (mean over the counted clicks)")
        bare_renders = results["bare"]["renders"]
        print_table(["page", "commits", "renders", "per commit", "x bare", "sidebar", "main", "header", "other"],
                    [[name, f"{r['commits']:.1f}", f"{r['renders']:.0f}", f"{r['per_commit']:.0f}",
                      f"{r['renders'] / bare_renders:.1f}"]
                     + [f"{r['regions'].get(k, 0):.0f}" for k in ("sidebar", "main", "header", "other")]
                     for name, r in results.items()])
        for name in ("hug", "big"):
            print(f"\nMost redrawn on the {name} page (renders per click; '(layout)' = blocks and frames)")
            print_table(["where: element", "renders"],
                        [[e, f"{n:.0f}"] for e, n in results[name]["elements"][:args.top]])
        print("\nThe number of commits depends on how the run's messages reach the browser (it varies from run to "
              "run); renders per commit are the size of what each commit redraws.")
        print(f"\n(total benchmark time {time.perf_counter() - started:.0f} s)")
        return 0
    finally:
        shut_down(browser, pw, (app, bare, nosidebar))


if __name__ == "__main__":
    sys.exit(main())
