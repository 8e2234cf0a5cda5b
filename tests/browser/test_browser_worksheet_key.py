"""The printed worksheet can be solved from the paper: Chromium prints it on A4 and Letter
(Playwright's page.pdf), and the pair counts are recomputed here from the words the PDF shows; the answer
key on its own pages must agree with them (every count it gives, its top count, its merge among the pairs
of that count), and the tie rule is named on the sheet.

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_worksheet_key.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, wait_for_app
from pypdf import PdfReader

pytestmark = pytest.mark.browser

CSS_PX_PER_MM = 96 / 25.4
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}
WORKSHEET = "/worksheet?preset=course&ws_from=4&ws_steps=5"
STEP = re.compile(r"^Step (\d+)$")
WORD_ROW = re.compile(r"^(\S+) (\d[\d,]*) (\S.*)$")
# The key's tokens are boxed chips: the PDF's text may put a space inside one (Ġ t), never a "+".
KEY_ROW = re.compile(r"^(.+?)\s+\+\s+(.+?)\s+(\d[\d,]*)$")
MERGE = re.compile(r"^Merge: (.+?)\s+\+\s+(.+?)\s+→")


def _size(paper: str) -> dict[str, int]:
    width, height = PAPERS[paper]
    return {"width": int((width - 30) * CSS_PX_PER_MM), "height": int((height - 30) * CSS_PX_PER_MM)}


@pytest.fixture(scope="module")
def worksheet(app_server, browser):
    """One page on the worksheet, opened at the first paper's size; each paper's test sizes it to its own."""
    context = browser.new_context(viewport=_size(next(iter(PAPERS))))
    try:
        page = context.new_page()
        page.goto(app_server + WORKSHEET)
        wait_for_app(page)
        page.locator(".bpe-ws-key").wait_for(state="attached", timeout=TIMEOUT_MS)
        assert_no_exception(page)
        yield page
    finally:
        context.close()


def _printed(paper: str, page) -> str:
    page.emulate_media(media="screen")
    page.set_viewport_size(_size(paper))
    page.wait_for_function("(w) => window.innerWidth === w", arg=_size(paper)["width"], timeout=TIMEOUT_MS)
    page.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(page.pdf(format=paper)))
    return "\n".join(p.extract_text() for p in pdf.pages)


def _sections(lines: list[str], row: re.Pattern) -> dict[int, list[tuple[str, ...]]]:
    """Rows matching ``row`` under each "Step k" heading (the merge line too, as ("merge", a, b))."""
    out: dict[int, list[tuple[str, ...]]] = {}
    step = None
    for line in lines:
        if m := STEP.match(line):
            step = int(m.group(1))
            out[step] = []
        elif step is not None and (m := MERGE.match(line)):
            out[step].append(("merge", *(re.sub(r"\s", "", t) for t in m.groups())))
        elif step is not None and (m := row.match(line)):
            out[step].append(m.groups() if row is WORD_ROW else tuple(re.sub(r"\s", "", t) for t in m.groups()))
    return out


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_printed_key_is_what_the_printed_words_give(worksheet, paper):
    text = _printed(paper, worksheet)
    sheet, _, key = text.partition("Answer key")
    assert "Ties: when pairs share the highest count, the pair seen first" in " ".join(sheet.split())
    words = _sections(sheet.splitlines(), WORD_ROW)
    answers = _sections(key.splitlines(), KEY_ROW)
    assert sorted(words) == sorted(answers) == list(range(4, 9))
    for step, rows in words.items():
        counts: Counter = Counter()
        met: list[tuple[str, str]] = []
        printed = [(w, int(c.replace(",", "")), s.split(" ")) for w, c, s in (r for r in rows if r[0] != "merge")]
        assert len(printed) == 30  # every word of the course's corpus
        for _, count, symbols in printed:
            for pair in zip(symbols, symbols[1:]):
                met += [pair] if pair not in counts else []
                counts[pair] += count
        key_rows = [r for r in answers[step] if r[0] != "merge"]
        assert key_rows and all(counts[(a, b)] == int(c) for a, b, c in key_rows), (step, key_rows)
        best = max(counts.values())
        assert int(key_rows[0][2]) == best
        merge = next(r[1:] for r in answers[step] if r[0] == "merge")
        assert merge == next(p for p in met if counts[p] == best), step  # the "first" rule, read off the sheet
