"""First contact and the classroom, in a real browser: editing the word-count table,
keys, presenter mode at 1280x720, non-ASCII corpora, Encode's first view.

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_classroom.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import (
    CHART_ROWS_JS,
    TIMEOUT_MS,
    assert_no_exception,
    open_train,
    save_full_page_screenshot,
    shown_step,
    wait_for_app,
    wait_for_layout,
    wait_for_step,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from server import corpus_form

pytestmark = pytest.mark.browser

ROW_PX = 35  # Streamlit's data grid: header and rows are 35 px high
GRID = '[data-testid="stSidebar"] [data-testid="stDataFrameResizable"]'


def url_counts(page) -> str:
    return parse_qs(urlparse(page.url).query).get("counts", [""])[0]


def edit_cell(page, row: int, column: int, value: str) -> None:
    """Type ``value`` into a cell of the word-count table (row 0 is the first data row; the row
    after the last is the grid's "add a row" line) and press Enter, as a user does."""
    grid = page.locator(GRID)
    box = grid.bounding_box()
    x = box["x"] + box["width"] * (0.35 if column == 0 else 0.8)
    y = box["y"] + ROW_PX * (row + 1) + ROW_PX / 2
    page.mouse.click(x, y)
    # the grid has selected the cell clicked (the focus is on it), or opened its editor (the "add a row" line)
    page.wait_for_function(
        """(id) => { const e = document.activeElement;
                     return !!e && ((e.id === id && e.getAttribute('aria-selected') === 'true')
                                    || e.matches('textarea.gdg-input')); }""",
        arg=f"glide-cell-{column + 1}-{row}",
        timeout=15_000,
    )
    page.keyboard.type(value, delay=50)  # typing on a selected cell opens its editor with the text typed
    expect(page.locator("textarea.gdg-input")).to_have_value(value, timeout=15_000)  # ... and its editor took it
    page.keyboard.press("Enter")
    page.locator("textarea.gdg-input").wait_for(state="hidden", timeout=15_000)


def wait_for_counts(page, counts: str) -> None:
    """The link names this word-count table: by its digest in the corpus store (or, if the store could not
    keep it, the table itself)."""
    page.wait_for_function(
        "([digest, counts]) => { const q = new URLSearchParams(location.search);"
        " return q.get('corpus') === digest || q.get('counts') === counts; }",
        arg=[corpus_form.digest("counts", counts), counts],
        timeout=15_000,
    )


def test_every_edit_of_the_word_count_table_applies_first_time(app_server, page):
    """Streamlit's data editor is a new widget whenever its data changes; the table was rebuilt from
    every edit, so every second edit snapped back (hug=20 applied, pug=7 lost, pug=8 applied, ...).
    A half-typed row (a word before its count) blanked the page with an error about spaces."""
    open_train(page, f"{app_server}/?step=0&counts=hug+10%0Apug+5&limit=none")
    page.locator(GRID).wait_for(timeout=TIMEOUT_MS)
    expect(page.locator(f'{GRID} [id="glide-cell-1-1"]')).to_have_text("pug", timeout=TIMEOUT_MS)  # drawn
    wait_for_app(page)
    for row, value, expected in [
        (0, "20", "hug 20\npug 5"),
        (1, "7", "hug 20\npug 7"),
        (1, "8", "hug 20\npug 8"),
        (0, "30", "hug 30\npug 8"),
        (0, "31", "hug 31\npug 8"),
    ]:
        edit_cell(page, row, 1, value)
        wait_for_counts(page, expected)
        wait_for_app(page)

    # A new row, typed word first: the page keeps training the other rows and says what is missing.
    edit_cell(page, 2, 0, "bug")
    expect(page.locator('[data-testid="stSidebar"]')).to_contain_text("row 3 (bug: no count yet)", timeout=15_000)
    wait_for_app(page)
    assert shown_step(page) == 0 and page.locator(".st-key-next button").is_visible()
    edit_cell(page, 2, 1, "3")  # its count applies on the first try too
    wait_for_counts(page, "hug 31\npug 8\nbug 3")
    wait_for_app(page)
    assert_no_exception(page)


# Every HTML block, table and grid cell of the main area that is wider than the column it sits in
# (or runs past the main area's right edge): [what, its width, the column's width].
WIDER_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"] [data-testid="stMainBlockContainer"]')
    || document.querySelector('[data-testid="stMain"]');
  const right = main.getBoundingClientRect().right + 1;
  const out = [];
  for (const el of main.querySelectorAll('[data-testid="stHtml"], .bpe-table, .bpe-grid > div, figure')) {
    const r = el.getBoundingClientRect();
    const parent = el.parentElement.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > right || r.width > parent.width + 1 || el.scrollWidth > el.clientWidth + 1)
      out.push([(el.getAttribute('data-table') || el.className || el.tagName).toString().slice(0, 40),
                Math.round(r.width), Math.round(parent.width), Math.round(el.scrollWidth)]);
  }
  return out;
}"""


LONG_WORDS = " ".join(
    [
        "https://docs.python.org/3/library/asyncio-eventloop.html#asyncio.loop.run_until_complete",
        "https://docs.python.org/3/reference/datamodel.html#object.__init_subclass__",
        "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsgenossenschaft",
    ]
    * 2
)


def _scroll_to(page, selector: str) -> None:
    """Scroll an element into view; a rerun that redraws it mid-scroll detaches it, so wait and retry."""
    for attempt in range(5):
        wait_for_app(page)
        try:
            page.locator(selector).scroll_into_view_if_needed(timeout=10_000)
            return
        except PlaywrightError:
            if attempt == 4:
                raise


def test_no_panel_is_wider_than_its_column_with_long_tokens(app_server, page):
    """Tokens never wrapped, so long ones (URLs of a real corpus) made the merge history 1,154 px wide
    in a 1,400 px window, pushing its counts and both line charts off screen with no scrollbar."""
    from urllib.parse import quote

    page.set_viewport_size({"width": 1400, "height": 900})
    open_train(page, f"{app_server}/?text={quote(LONG_WORDS)}&limit=none&step=0")
    page.locator(".st-key-end button").click()
    wait_for_app(page)
    for table in ("pairs", "history"):  # the lower blocks are laid out only once scrolled into view
        _scroll_to(page, f'table[data-table="{table}"]')
        wait_for_layout(page)
        wider = page.evaluate(WIDER_JS)
        assert wider == [], wider
    _scroll_to(page, 'table[data-table="splits"]')
    wait_for_layout(page)
    wider = page.evaluate(WIDER_JS)
    assert wider == [], wider
    cell = page.locator('table[data-table="history"] td.new-token').first
    assert "Donaudampf" in cell.get_attribute("title") or "https://" in cell.get_attribute("title")


CHIPS_JS = "() => [...document.querySelectorAll('.bpe-tokens')][0] ? [...document.querySelectorAll('.bpe-tokens')][0].querySelectorAll('.tok').length && [...[...document.querySelectorAll('.bpe-tokens')][0].querySelectorAll('.tok')].map(t => t.textContent) : []"


def test_encode_first_view_follows_the_train_step(app_server, page):
    """From Train step 3, Encode applied all 7 merges (hugs one token, not the course's hug s), its
    control looked like a caption, and the sample sentence came out as 12 [UNK] of 18 tokens."""
    open_train(page, f"{app_server}/?preset=hug&step=3")
    page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Encode").click()
    expect(page.locator(".bpe-tokens").first).to_be_visible(timeout=TIMEOUT_MS)
    wait_for_app(page)
    assert page.evaluate(CHIPS_JS) == ["b", "ug", "[UNK]", "ug", "[UNK]", "hug", "hug", "s"]
    control = page.locator(".st-key-merges_choice")
    expect(control).to_contain_text("As at Train step 3")
    captions = page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert any("(as at Train step 3)" in caption for caption in captions), captions
    control.get_by_text("All 7 merges").click()
    page.wait_for_function(f"() => ({CHIPS_JS})().slice(-1)[0] === 'hugs'", timeout=TIMEOUT_MS)
    wait_for_app(page)
    captions = page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert any("all 7 merges" in caption for caption in captions), captions


MULTILINGUAL = "\n".join(
    [
        "Die Straße ist lang, die Straße ist breit.",
        "Hallo Welt, 世界你好，世界很大。",
        "Emoji: 😀 😀 😀 und 🙂!",
        "Die Straße zur Welt: 世界 😀.",
    ]
    * 3
)
MOJIBAKE = re.compile("[ÃâäãðïĠ]")  # GPT-2's byte symbols of German, Chinese and emoji (and Ġ)


def test_non_ascii_tokens_read_as_text_with_the_stored_form_behind_one_toggle(app_server, page, screenshot_dir):
    """With gpt2, German, Chinese and emoji showed only as byte-map text (ĠStraÃŁe, ãĢĤ) in the
    splits, pair table, chart, vocabulary and history."""
    from urllib.parse import quote

    open_train(page, f"{app_server}/?text={quote(MULTILINGUAL)}&pre_tokenizer=gpt2&limit_value=60&step=40")
    main = page.locator('[data-testid="stMain"]')
    for table in ("splits", "history", "pairs"):
        page.locator(f'table[data-table="{table}"]').scroll_into_view_if_needed()
    page.wait_for_function(  # the chart draws its bars a moment after the tables
        f"() => {{ try {{ return ({CHART_ROWS_JS})().length > 0; }} catch (e) {{ return false; }} }}",
        timeout=TIMEOUT_MS,
    )
    # text_content, not inner_text: the lower blocks are not laid out while off screen (content-visibility)
    texts = {
        name: page.locator(f'table[data-table="{name}"]').text_content() for name in ("splits", "history", "pairs")
    }
    texts["vocabulary"] = main.locator(".bpe-scroll").text_content()
    texts["chart"] = " ".join(page.evaluate(CHART_ROWS_JS))
    for name, text in texts.items():
        assert not MOJIBAKE.search(text), (name, text[:300])
    assert "␣Straße" in texts["splits"] and "世界" in texts["splits"] and "😀" in texts["splits"]
    # the learned token 世界 itself (the vocabulary lists the newest first: ␣世界 may come before it)
    chip = main.locator(".bpe-scroll .tok", has_text=re.compile("^世界$")).first
    assert re.search(r"stored as \S*ä¸ĸçķĮ\S* · bytes E4 B8 96 E7 95 8C", chip.get_attribute("title"))
    screenshot = screenshot_dir / "multilingual.png"  # the README's (UPDATE_SCREENSHOTS=1)
    save_full_page_screenshot(page, screenshot)
    assert screenshot.stat().st_size > 10_000

    page.locator(".st-key-byte_text label").click()  # one toggle: every panel shows the stored form
    wait_for_app(page)
    expect(page.locator('table[data-table="splits"]')).to_contain_text("ĠStraÃŁe", timeout=TIMEOUT_MS)
    assert MOJIBAKE.search(page.locator('table[data-table="history"]').text_content())
    assert_no_exception(page)


# Counts the clicks on the step buttons (the key script presses them with button.click()).
COUNT_STEP_CLICKS_JS = """() => {
  window.__bpeStepClicks = 0;
  document.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('.st-key-start, .st-key-back, .st-key-next, .st-key-end'))
      window.__bpeStepClicks++;
  }, true);
}"""


def assert_read_out_at_hug_step_3(page) -> None:
    """Screen readers get headings, and each step read out in one live region kept from step to step."""
    live = page.locator('[aria-live="polite"]', has_text="Step 3 of 7")
    expect(live).to_have_text("Step 3 of 7: h + ug → hug, count 15", timeout=10_000)
    assert page.locator("#bpe-live").count() == 1  # one region, kept from step to step
    headings = page.locator('[data-testid="stMain"]').get_by_role("heading").all_inner_texts()
    for title in ("Step 3 of 7", "Corpus splits", "Vocabulary: 10", "Merge history", "Pair counts step 3"):
        assert any(h.startswith(title) for h in headings), (title, headings)


def test_keys_step_anywhere_but_never_while_typing_and_each_step_is_read_out(app_server, page):
    """Presenter remotes send PageDown/PageUp: only the slider knew arrow keys, and PageDown in it
    stepped backwards. At the last step, Next became disabled and the focus dropped to the body. Three steps
    from step 0, a screen reader has read each out (assert_read_out_at_hug_step_3)."""
    open_train(page, f"{app_server}/?preset=hug&step=0")
    page.locator("h1").first.click()  # focus the page, not a control
    for key, step in [
        ("PageDown", 1),
        ("Space", 2),
        ("n", 3),
        ("ArrowRight", 4),
        ("PageUp", 3),
        ("p", 2),
        ("ArrowLeft", 1),
        ("End", 7),
        ("Home", 0),
    ]:
        page.keyboard.press(key)
        wait_for_step(page, step)
        assert shown_step(page) == step, key
        if key == "n":  # three steps from the page's step 0
            assert_read_out_at_hug_step_3(page)
    page.locator('.st-key-step input[type="range"]').focus()
    page.keyboard.press("PageDown")  # inside the slider too, and forwards
    wait_for_step(page, 1)
    box = page.locator(".st-key-split_search input")
    box.click()
    page.evaluate(COUNT_STEP_CLICKS_JS)
    box.type("np ")  # typing is typing: no step
    page.keyboard.press("PageDown")  # the key script would click a step button at once, in the key's handler
    assert page.evaluate("window.__bpeStepClicks") == 0
    wait_for_app(page)
    assert shown_step(page) == 1 and box.input_value() == "np "
    box.fill("")
    box.press("Enter")
    wait_for_app(page)
    page.locator(".st-key-end button").click()
    wait_for_step(page, 7)
    page.locator(".st-key-back button").click()
    wait_for_step(page, 6)
    page.locator(".st-key-next button").click()  # the last step: Next becomes disabled
    wait_for_step(page, 7)
    expect(page.locator(".st-key-next button")).to_be_disabled(timeout=TIMEOUT_MS)
    try:  # the key script moves the focus when it sees the button disabled
        page.wait_for_function("document.activeElement !== document.body", timeout=10_000)
    except PlaywrightError:
        raise AssertionError("focus dropped to the page body") from None
    page.keyboard.press("PageUp")  # and the keys still work from there
    wait_for_step(page, 6)
    # Arrows on a radio button keep choosing among its options (here "Stop after": none -> vocabulary size).
    page.locator('.st-key-limit input[type="radio"]:checked').focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".st-key-limit label:has(input:checked)")).to_contain_text("Vocabulary size")


BOXES_JS = """() => Object.fromEntries(Object.entries({
  step: '.bpe-step', chart: '[data-testid="stVegaLiteChart"]', splits: 'table[data-table="splits"]',
  vocabulary: '.bpe-scroll', history: 'table[data-table="history"]'}).map(([name, sel]) => {
    const e = document.querySelector(sel);
    const r = e && e.getBoundingClientRect();
    return [name, r ? [r.left, r.top, r.right, r.bottom] : null]; }))"""
FONT_JS = """() => ['.bpe-step-title', 'table[data-table="splits"] td', '.bpe-step p'].map(
  s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""


def test_presenter_mode_fits_the_step_on_a_1280x720_projector(app_server, browser, screenshot_dir):
    """Presenter mode (a toggle, or present=1 in a link): sidebar folded, type at least 1.25x larger, no
    introduction (a newcomer's, ui/intro.py), and at 1280x720 the step box, pair chart, corpus splits and vocabulary
    all on screen."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        open_train(page, f"{app_server}/?preset=hug&step=3")
        normal = page.evaluate(FONT_JS)
        boxes = page.evaluate(BOXES_JS)
        assert boxes["splits"][1] < boxes["history"][1]  # normal mode: the splits come before the history
        expect(page.locator(".st-key-intro")).to_have_count(1)  # and the introduction, which presenting leaves out
        page.locator(".st-key-present label").click()
        page.wait_for_function("() => new URLSearchParams(location.search).get('present') === '1'", timeout=TIMEOUT_MS)
        wait_for_app(page)
        expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
        # and back: in presenter mode the toggles sit below the step view, the sidebar stays folded until then
        # (opening it by hand would be kept in the browser's storage and win over the next link's present=1)
        page.locator(".st-key-present label").click()
        expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute(
            "data-collapsed", "false", timeout=TIMEOUT_MS
        )
        page.wait_for_function("() => !new URLSearchParams(location.search).has('present')", timeout=TIMEOUT_MS)

        # The teacher's link opens in presenter mode. (Every step of every preset fitting the projector is
        # test_browser_fit's: here the screenshot, and the type against the normal mode's.)
        fresh = context.new_page()
        open_train(fresh, f"{app_server}/?preset=hug&step=3&present=1")
        # the chart draws a moment after the run
        fresh.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(timeout=TIMEOUT_MS)
        wait_for_layout(fresh)
        expect(fresh.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
        expect(fresh.locator(".st-key-intro")).to_have_count(0)
        for name, box in fresh.evaluate(BOXES_JS).items():
            if name == "history":
                continue  # below the fold, by design
            left, top, right, bottom = box
            assert 0 <= left and right <= 1280 and 0 <= top and bottom <= 720, (name, box)
        big = fresh.evaluate(FONT_JS)
        assert all(b >= 1.25 * n for b, n in zip(big, normal)), (big, normal)
        fresh.screenshot(path=str(screenshot_dir / "presenter.png"))  # the README's (UPDATE_SCREENSHOTS=1)
        assert "present=1" in fresh.url
        assert_no_exception(fresh)
    finally:
        context.close()


def test_after_a_what_if_the_changed_step_stays_in_view(app_server, browser):
    """What-if preselects the runner-up; after forcing it, the step it changed is on screen (the
    what-if panel sat above the step box and pushed it below a 720 px window)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        open_train(page, f"{app_server}/?preset=hug&step=2")
        page.locator(".st-key-what_if label").click()
        wait_for_app(page)
        page.locator(".st-key-what_if_go button").click()  # the runner-up, preselected
        wait_for_step(page, 3)
        wait_for_app(page)  # the what-if reruns the whole page after its step view: the box is drawn again
        box = page.locator(".bpe-step").bounding_box(timeout=TIMEOUT_MS)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box
        assert (
            "chosen by hand" in page.locator('[data-testid="stAlert"]').first.inner_text()
            or page.get_by_text("chosen by hand").count() == 1
        )
        assert re.search(r"Step 3 of \d+: p \+ un → pun", page.locator(".bpe-step").inner_text().replace("\n", " "))
    finally:
        context.close()
