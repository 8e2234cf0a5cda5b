"""The benchmark's protocol client (benchmarks/st_client.py) clicks what a browser clicks: the same link,
the same Next/Next/Back in Debian's chromium and over Streamlit's websocket protocol, the same step
box and the same URL."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import run_protocol, wait_for_app
from playwright.sync_api import expect
from st_client import Session

pytestmark = pytest.mark.browser

LINK = "preset=course&tie_break=hf&step=2"
CLICKS = ("next", "next", "back", "next")


def step_title(block: str) -> str:
    m = re.search(r'<(div|h2) class="bpe-step-title"[^>]*>(.*?)</\1>', block, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(2))).split()) if m else ""


async def by_protocol(url: str) -> tuple[list[str], dict]:
    s = Session(url, LINK)
    await s.open()
    titles = []
    for key in CLICKS:
        await s.click(key)
        titles.append(next(t for t in map(step_title, s.html) if t))  # not the style blocks naming the class
    await s.close()
    return titles, parse_qs(s.query)


def test_the_protocol_client_clicks_what_a_browser_clicks(app_server, page):
    titles, query = run_protocol(by_protocol, app_server, timeout=120)
    page.goto(f"{app_server}/?{LINK}")
    wait_for_app(page)
    seen = []
    for key, expected in zip(CLICKS, titles):
        page.locator(f".st-key-{key} button").click()
        step = re.search(r"Step \d+ of \d+", expected).group(0)
        expect(page.locator(".bpe-step-title").first).to_contain_text(step + ":", timeout=60_000)
        seen.append(" ".join(page.locator(".bpe-step-title").first.inner_text().split()))
    assert [t.split(" count")[0] for t in seen] == [t.split(" count")[0] for t in titles]
    assert titles[-1].startswith("Step 4 of")
    assert parse_qs(urlparse(page.url).query) == query
