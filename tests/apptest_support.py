"""AppTest helpers: the page's plain-text alerts (``pages/alerts.py``), and waiting for a run the pool trains."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

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
    deadline = time.monotonic() + timeout
    while training(at):
        assert time.monotonic() < deadline, "training did not finish"
        time.sleep(0.2)
        at.run()
    return at


APP = str(Path(__file__).resolve().parents[1] / "app.py")


def start(**query):
    """The app opened with these link parameters, run until its training is done, without a traceback."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    settle(at.run())
    assert not at.exception, [e.value for e in at.exception]
    return at
