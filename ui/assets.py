"""The style sheets and scripts the pages send to the browser, read once from the files beside this one.

- ``style.css`` → :data:`PAGE_CSS` (after ``bpe.display.TOKEN_CSS``): the styles of the pages' HTML
  blocks, sent once per full page run by ``app.py``.
- ``present.css`` → :data:`PRESENT_CSS`: presenter mode's larger type (``pages/train.py``).
- ``worksheet.css`` → :data:`WORKSHEET_CSS`: the worksheet page's tables and print layout.
- ``keys.js`` and ``share.js`` → :data:`KEYS_JS`: the Train page's keyboard stepping and screen-reader live
  region, and presenter mode's "Copy link" button.
- ``skip.js`` → :data:`SKIP_JS`: the Train page's "Skip to the step controls" link (:data:`SKIP_LINK`).
- ``hover.js`` → :data:`HOVER_JS`: the Encode page's chips mark their characters in the text when hovered.
- ``restore.js`` → :data:`RESTORE_JS`: typed text kept across a server restart, and the banner while
  the server is away (``app.py``).

Each file says what it does in its opening comment. A script's values from Python are not templated
into it: they are one JSON object set just before it (``window.bpeRestoreConfig``), so the ``.js``
file is plain JavaScript an editor and a linter can read. Comments on lines of their own are left out
of what is sent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bpe import display
from server import limits

BANNER = (
    "The BPE Explorer server is restarting. Your step and settings are in the link, and your typed text is "
    "kept in this browser; the page comes back by itself."
)


def _read(name: str) -> str:
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


def _style(name: str) -> str:
    css = re.sub(r"/\*.*?\*/\n?", "", _read(name), flags=re.S)  # comments are for the reader, not the browser
    return f"<style>{css}</style>"


def _script(name: str, config: tuple[str, dict] | None = None) -> str:
    """A script from ``name``; with ``config`` = (global name, values), those values set just before it
    (JSON, with ``<`` escaped so no value can close the script tag)."""
    head = ""
    if config is not None:
        variable, values = config
        values_json = json.dumps(values).replace("<", "\\u003c")
        head = f"window.{variable} = {values_json};  // from ui/assets.py\n"
    code = re.sub(r"^[ \t]*//.*\n", "", _read(name), flags=re.M)  # whole-line comments stay in the file
    return f"<script>\n{head}{code}</script>"


PAGE_CSS = display.TOKEN_CSS + _style("style.css")
PRESENT_CSS = _style("present.css")
WORKSHEET_CSS = _style("worksheet.css")  # pages/worksheet.py
KEYS_JS = _script("keys.js") + _script("share.js")
HOVER_JS = _script("hover.js")
SKIP_LINK = '<a class="bpe-skip" href="#">Skip to the step controls</a>'
SKIP_JS = _script("skip.js")
RESTORE_JS = _script("restore.js", ("bpeRestoreConfig", {"banner": BANNER, "maxChars": limits.BROWSER_SAVE_CHARS}))
_CLASS_JS = _script("class.js")


def class_js(values: dict) -> str:
    """``class.js`` (the live class: the teacher's cookie, a student's step sync) with ``values`` set before it."""
    values_json = json.dumps(values).replace("<", "\\u003c")
    return _CLASS_JS.replace("<script>\n", f"<script>\nwindow.bpeClass = {values_json};  // from ui/assets.py\n", 1)
