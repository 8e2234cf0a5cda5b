"""Read the page's plain-text alerts (``common.alert``: HTML blocks, so link and file values stay text)."""

from __future__ import annotations

import html
import re

_ALERT = re.compile(r'<div class="bpe-alert [^"]*" role="alert" data-kind="(\w+)"><span aria-hidden="true">[^<]*</span> '
                    r'(.*?)</div>', re.S)


def alerts(at, kind: str | None = None) -> list[str]:
    """The text of every ``common.alert`` of ``kind`` (all kinds if None), as the student reads it."""
    found = []
    for block in at.get("html"):
        for k, body in _ALERT.findall(block.proto.body):
            if kind is None or k == kind:
                found.append(html.unescape(body))
    return found
