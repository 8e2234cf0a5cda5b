"""AppTest helpers: the app script, the page's plain-text alerts (``ui/alerts.py``), waiting for a run the pool
trains, and reading what a page wrote."""

from __future__ import annotations

import html
import re
from pathlib import Path

from browser_support import wait_until

APP = str(Path(__file__).resolve().parents[1] / "app.py")

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
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    return ok(settle(at.run()))
