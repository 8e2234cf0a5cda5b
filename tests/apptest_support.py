"""Driving the app's pages with Streamlit's AppTest: opening the app or one page with link parameters, waiting
for a run the pool trains, and reading what a page wrote (its alerts, tokens, step box, worksheet, corpus link)."""

from __future__ import annotations

import ast
import html
import re
from html.parser import HTMLParser
from pathlib import Path

from browser_support import wait_until
from streamlit.testing.v1 import AppTest

import bpe
from bpe.presets import PRESETS
from ui.assets import PAGE_CSS, RESTORE_JS

APP = str(Path(__file__).resolve().parents[1] / "app.py")
ENCODE = "pages/encode.py"
CHECK = "pages/check.py"
WORKSHEET = "pages/worksheet.py"

_ALERT = re.compile(
    r'<div class="bpe-alert [^"]*" role="alert" data-kind="(\w+)"><span aria-hidden="true">[^<]*</span> '
    r"(.*?)</div>",
    re.S,
)


def alerts(at, kind: str | None = None) -> list[str]:
    """The text of every ``alerts.alert`` of ``kind`` (all kinds if None), as the student reads it."""
    found = []
    for block in at.get("html"):
        for k, body in _ALERT.findall(block.proto.body):
            if kind is None or k == kind:
                found.append(html.unescape(body))
    return found


def training(at) -> bool:
    """True while the page shows a run being trained in the pool (its Stop button)."""
    return any(getattr(b, "key", None) == "stop_training" for b in at.button)


def settle(at, timeout: float = 120):
    """Rerun until no run is being trained, as the browser's polling fragment would."""

    def finished() -> bool:
        if training(at):
            at.run()
        return not training(at)

    wait_until(finished, timeout, "the training to finish", interval=0.2)
    return at


def ok(at):
    """``at`` after a run without a traceback."""
    assert not at.exception, [e.value for e in at.exception]
    return at


def unescape_md(text: str) -> str:
    """Tokens and words reach markdown backslash-escaped (bpe.display.md_escape); read them back."""
    return re.sub(r"\\(.)", r"\1", text)


def start(**query):
    """The app opened with these link parameters, run until its training is done, without a traceback."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    return ok(settle(at.run()))


# -- the Train page ------------------------------------------------------------------------------------------------


def page_html(at) -> str:
    """Every HTML block the page sent, as one text."""
    return " ".join(h.proto.body for h in at.get("html"))


def step_text(at: AppTest) -> str:
    """The 'this step' box: its HTML header plus the provenance sentence."""
    return unescape_md(page_html(at) + " " + " ".join(m.value for m in at.markdown))


# 5,000+ characters of two paragraphs: too long for a link to carry, so the link names it by digest
CORPUS = (
    "Byte pair encoding merges the most frequent pair of symbols, again and again, until the vocabulary "
    "is as large as asked. The tokenizer then cuts new text with the same merges, in the same order. "
) * 26


def link_of(at) -> dict[str, str]:
    """The page's link parameters, one value each."""
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def pasted(text: str = CORPUS, step: int = 7):
    """The Train page with ``text`` pasted as its corpus, at ``step``."""
    at = start()
    at.radio(key="source").set_value("text").run()
    at.text_area(key="corpus_text").set_value(text).run()
    settle(at)
    at.slider(key="step").set_value(step).run()
    return ok(at)


def summary(at) -> str:
    """The corpus summary line (its size and where it is stored)."""
    return " ".join(h.proto.body for h in at.get("html") if "bpe-corpus-summary" in h.proto.body)


def check_summary(at) -> str:
    """The Check page's corpus summary line (an uploaded or pasted corpus held by its digest)."""
    return " ".join(h.proto.body for h in at.get("html") if "bpe-check-corpus-summary" in h.proto.body)


# -- the Encode page ----------------------------------------------------------------------------------------------


def blocks(at):
    """The page's HTML blocks, without the style sheet and the script app.py sends once per page."""
    return [h for h in at.html if h.value not in (PAGE_CSS, RESTORE_JS) and 'class="bpe-alert' not in h.value]


def open_encode(**query) -> AppTest:
    """The app, switched to the encode page (query parameters set the Train page's settings)."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    settle(at.run())
    at.switch_page(ENCODE).run()
    return ok(at)


def type_text(at: AppTest, text: str) -> AppTest:
    """``text`` typed into the Encode page's text box."""
    at.text_area(key="encode_text").set_value(text).run()
    return ok(at)


def tokens(at: AppTest) -> list[str]:
    """The tokens in the page's token table (the first dataframe)."""
    return at.dataframe[0].value["token"].tolist()


def chip_tokens(at: AppTest) -> list[str]:
    """The tokens as the coloured chips carry them, in their tooltips: id N · 'token' · bytes ..."""
    titles = re.findall(r'title="id \d+ · (.*?) · bytes', blocks(at)[0].value)
    return [ast.literal_eval(html.unescape(t)) for t in titles]


def all_html(at: AppTest) -> str:
    """Every HTML block of the page but the style sheet, script and alerts, as one text."""
    return "\n".join(h.value for h in blocks(at))


def upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    """``files`` (name, bytes) uploaded on the Encode page, its source switched to "Uploaded file"."""
    if at.radio(key="encode_source").value != "Uploaded file":
        ok(at.radio(key="encode_source").set_value("Uploaded file").run())
    at.file_uploader(key="encode_files").set_value([(name, data, "application/octet-stream") for name, data in files])
    return ok(at.run())


# -- the Check page -----------------------------------------------------------------------------------------------


def open_check() -> AppTest:
    """The app, switched to the Check page."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(CHECK).run()
    return ok(at)


def pairs(at: AppTest) -> dict[str, str]:
    """The Check page's two pair blocks (ours and the student's), by side."""
    return {h.value.split('data-side="')[1].split('"')[0]: h.value for h in at.html if "bpe-check-pair" in h.value}


# -- the worksheet ------------------------------------------------------------------------------------------------


class WorksheetSections(HTMLParser):
    """The worksheet's sections by kind and step: each a list of table rows (cells as text) plus its other text."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[tuple[str, int], dict] = {}
        self.order: list[str] = []
        self._current = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self._current = {"rows": [], "text": []}
            self.sections[(a["class"], int(a["data-step"]))] = self._current
            self.order.append(a["class"])
        elif tag == "div" and a.get("class") == "bpe-ws-key":
            self.order.append("key")
        elif tag == "tr" and self._current is not None:
            self._current["rows"].append([])
        elif tag in ("td", "th") and self._current is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._current["rows"][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "section":
            self._current = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._current is not None:
            self._current["text"].append(data)


def open_worksheet(**query) -> AppTest:
    """The app, switched to the worksheet page, with these link parameters."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(WORKSHEET)
    return ok(settle(at.run()))


def read_worksheet(at: AppTest) -> WorksheetSections:
    """The worksheet page's sheet, read into its sections."""
    body = next(h.proto.body for h in at.get("html") if 'class="bpe-ws"' in h.proto.body)
    parser = WorksheetSections()
    parser.feed(body)
    return parser


def preset_history(preset: str, **options) -> bpe.History:
    """The run a page trains for ``preset`` (its options, changed by ``options``)."""
    p = PRESETS[preset]
    return bpe.run_training(p.corpus(), **{**p.options, **options})
