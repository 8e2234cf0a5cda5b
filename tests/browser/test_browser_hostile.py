"""Hostile links in a real browser: a link's values show as typed, never as a link, an
image (which the browser would fetch: tracking) or a styled fake alert."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from browser_support import wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TRACKER = "http://127.0.0.1:9/track.png"
SENTINEL = "http://127.0.0.1:9/sentinel.png"


def test_link_values_render_as_plain_text_and_fetch_nothing(app_server, page):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    query = urlencode(
        {
            "preset": "hug",
            "tie_break": "[Download the fixed tokenizer here](http://evil.example/x)",
            "pre_tokenizer": f"![t]({TRACKER})",
            "algorithm": ":red-background[**Your session expired**]",
        }
    )
    page.goto(f"{app_server}/?{query}")
    wait_for_app(page)
    alerts = page.locator(".bpe-alert")  # alerts.alert: plain text in an HTML block
    expect(alerts).to_have_count(3, timeout=60_000)
    text = " ".join(alerts.all_inner_texts())
    assert "[Download the fixed tokenizer here](http://evil.example/x)" in text
    assert f"![t]({TRACKER})" in text and ":red-background[**Your session expired**]" in text
    assert alerts.locator("a, img").count() == 0  # no link, no image in any alert
    assert alerts.locator("strong, span[class*=ackground]").count() == 0  # no bold, no :red-background[]
    assert page.locator('[data-testid="stAlert"] a, [data-testid="stMarkdown"] a[href*=evil]').count() == 0
    # An image is requested as soon as it is laid out: once one added now beside the alerts was requested,
    # an image in them would have been too.
    with page.expect_request(SENTINEL, timeout=60_000):
        page.evaluate(
            "(src) => { const i = document.createElement('img'); i.src = src; document.body.appendChild(i); }",
            SENTINEL,
        )
    assert not [u for u in requests if u.startswith((TRACKER, "http://evil.example"))]
