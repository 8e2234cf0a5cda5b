"""The benchmarks' in-browser probes work against the real page (they would silently measure
nothing if a Streamlit upgrade changed what they hook into)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from browser_support import wait_for_app

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_renders  # noqa: E402

pytestmark = pytest.mark.browser


def test_render_hook_counts_what_a_click_on_next_redraws(app_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script(bench_renders.HOOK_JS)
        page = context.new_page()
        page.goto(app_server)
        wait_for_app(page)
        page.evaluate("() => { window.__bpeCommits = []; window.__bpeRecord = true; }")
        page.locator(".st-key-next button").click()
        page.get_by_text("Step 1 of").first.wait_for()
        wait_for_app(page)
        got = bench_renders.summarize(page.evaluate("() => window.__bpeCommits"), clicks=1)
    finally:
        context.close()
    assert got["commits"] >= 1 and got["renders"] > 0
    assert got["regions"].get("main", 0) > 0 and got["regions"].get("sidebar", 0) > 0
    labels = [e for e, _ in got["elements"]]
    assert "main: next stButton" in labels or any(e.startswith("main: stBaseButton") for e in labels)
