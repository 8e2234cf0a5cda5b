"""The encode page in a real browser: HTML typed by the user is shown as text and never runs.

The page uses the course's byte-level tokenizer (``?preset=course``) so the chips carry the
characters typed (a character-level tokenizer would show most of them as [UNK]). Also saves
encode.png for the README (into docs/ with UPDATE_SCREENSHOTS=1).
"""

from __future__ import annotations

import pytest
from browser_support import open_encode, set_encode_text, wait_for_app, wait_for_layout
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAYLOADS = [
    "<img src=x onerror=\"document.title='x'\">",
    "<script>document.title='y'</script>",
    "<style>body{display:none}</style>",
]


def chips_text(page) -> str:
    """The text of the first row of token chips, whitespace shown as stored (Ġ)."""
    return page.locator(".bpe-tokens").first.text_content() or ""


def set_text(page, text: str) -> None:
    """``text`` applied in the Encode page's text box, and its first tokens drawn."""
    set_encode_text(page, text)
    expect(page.locator(".bpe-tokens").first).to_contain_text(text.replace(" ", "Ġ")[:12], timeout=60_000)


BROKEN_IMAGE_JS = """() => {
  window.__bpeBrokenImageFailed = false;
  const img = document.createElement('img');
  img.onerror = () => { window.__bpeBrokenImageFailed = true; img.remove(); };
  img.src = 'x';
  document.body.appendChild(img);
}"""


def test_html_in_the_text_is_shown_as_text_and_never_runs(app_server, page):
    open_encode(page, app_server)
    title = page.title()
    assert title and title not in ("x", "y")
    for payload in PAYLOADS:
        set_text(page, payload)
        # An injected onerror handler fires when its image fails to load: once an image of the same
        # broken source added now has failed, one injected with the text would have too.
        page.evaluate(BROKEN_IMAGE_JS)
        page.wait_for_function("window.__bpeBrokenImageFailed === true", timeout=60_000)
        assert page.title() == title, f"{payload!r} ran"
        assert page.evaluate("getComputedStyle(document.body).display") != "none"
        assert page.locator('[data-testid="stApp"]').is_visible()
        assert page.get_by_text("Tokenizer", exact=True).is_visible()
        assert chips_text(page) == payload.replace(" ", "Ġ")
        app = page.locator('[data-testid="stApp"]')
        assert app.locator('img[src="x"]').count() == 0
        assert app.locator("script", has_text="document.title").count() == 0
        assert page.locator('[data-testid="stException"]').count() == 0


def test_screenshot_for_the_readme(app_server, page, screenshot_dir):
    """Reached as a student would: the app's front page, then "Encode" in the navigation."""
    page.goto(f"{app_server}/?preset=course")
    wait_for_app(page)
    page.get_by_role("link", name="Encode").click()
    expect(page.locator(".bpe-tokens").first).to_contain_text("Ġtoken", timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Side by side with other tokenizers").click()
    wait_for_app(page)
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=60_000)
    page.set_viewport_size({"width": 1280, "height": 1650})  # the app scrolls inside its own container
    page.evaluate("document.querySelectorAll('*').forEach(e => { if (e.scrollTop) e.scrollTop = 0; })")
    wait_for_layout(page)
    page.screenshot(path=str(screenshot_dir / "encode.png"), full_page=True)  # the README's (UPDATE_SCREENSHOTS=1)


def test_a_bad_file_name_in_the_error_is_shown_as_typed(app_server, page):
    open_encode(page, app_server)
    page.get_by_text("Uploaded file", exact=True).click()
    wait_for_app(page)
    name = "**bold** [link](http://example.com) $x^2$ :red[red] <b>x</b>.json"
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": b'{"model": {"type": "Unigram"}}'}]
    )
    error = page.locator(".bpe-alert-error")  # alerts.alert: plain text in an HTML-escaped block
    expect(error).to_contain_text("Could not use", timeout=60_000)
    wait_for_app(page)
    assert name in error.inner_text()
    # No bold, no link (not even the bare URL, which Markdown autolinks however it is escaped), no LaTeX,
    # no colour.
    assert error.locator("strong, b, em, a, .katex, [class*=color]").count() == 0


def test_a_too_long_text_keeps_the_merge_slider_where_it_was(app_server, page):
    """A widget left out of a run loses its value in the browser: after the over-the-limit error,
    "Apply only the first k merges" must still be at k, not drop to 0 (found in a review)."""
    open_encode(page, app_server)
    k = page.locator('.st-key-k input[type="range"]')
    assert k.get_attribute("aria-valuetext") == "19"  # the course's 19 merges
    area = page.get_by_label("Text to tokenize (up to 100 KB)")
    area.fill("hug " * 30_000)
    area.press("Control+Enter")
    expect(page.get_by_text("over the 100 KB limit")).to_be_visible(timeout=60_000)
    wait_for_app(page)
    set_text(page, "hugs and tokens")
    assert k.get_attribute("aria-valuetext") == "19"
    assert chips_text(page) == "hugsĠandĠtokens" and page.locator(".bpe-tokens .tok").count() < 10


def test_switching_the_tokenizer_away_and_back_keeps_the_text_and_k(app_server, page):
    """With "Uploaded file" and nothing uploaded, the page stops before the text box and the slider.
    Coming back, the browser showed an empty box and k = 0 while the server still used the old text
    (found in a review): the page now sends their values with every run."""
    open_encode(page, app_server)
    set_text(page, "my own text")
    k = page.locator('.st-key-k input[type="range"]')
    # Keys pressed while a rerun redraws the slider can be lost on a busy machine: read the value back and
    # press again until the slider and the server agree on 15.
    for _ in range(10):
        wait_for_app(page)
        now = int(k.get_attribute("aria-valuetext"))
        if now == 15:
            break
        k.focus()
        for _ in range(abs(15 - now)):
            page.keyboard.press("ArrowRight" if now < 15 else "ArrowLeft")
        try:
            expect(k).to_have_attribute("aria-valuetext", "15", timeout=5_000)
        except AssertionError:
            continue  # a key was lost: read the value back and press again
    expect(k).to_have_attribute("aria-valuetext", "15", timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Uploaded file", exact=True).click()
    expect(page.get_by_text("Upload a tokenizer file to tokenize with it.")).to_be_visible(timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Trained on the Train page", exact=True).click()
    expect(page.locator(".bpe-tokens").first).to_be_visible(timeout=60_000)
    wait_for_app(page)
    assert page.get_by_label("Text to tokenize (up to 100 KB)").input_value() == "my own text"
    assert k.get_attribute("aria-valuetext") == "15"
    page.locator(".st-key-show_ws label").click()  # any rerun: the browser sends what it shows
    expect(page.locator(".bpe-tokens").first).to_contain_text("my·own·text", timeout=60_000)
