"""Every page is drawn through ``app.py``'s router, also when Streamlit runs a page script by itself.

Why: a folder named ``pages/`` beside ``app.py`` makes Streamlit 1.67 start in its old folder-pages mode,
which lasts until some script run calls ``st.navigation``. Until then a fresh server's first request for
``/train?step=7`` or ``/encode`` runs ``pages/train.py`` or ``pages/encode.py`` alone: no page config, no
styles, and a sidebar listing the files in ``pages/``. So ``app.py`` runs the page it routes to inside
:func:`running_page`, and each page script calls :func:`through_router` first: outside the router, it runs
``app.py`` in its place (whose ``st.navigation`` also ends that mode for the server) and stops, so the page
is drawn once, by the router. ``pages/`` holds only page scripts; the modules they are built from live in
``ui/``, which Streamlit never opens as pages.

Left out: the page list, the page config and the styles, which are ``app.py``'s.
"""

from __future__ import annotations

import runpy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

APP = Path(__file__).resolve().parent.parent / "app.py"

# How many router runs are under way in this thread: a script run keeps to its session's script thread.
_inside = threading.local()


@contextmanager
def running_page() -> Iterator[None]:
    """Around ``st.navigation(...).run()`` in ``app.py``: the page it runs is being drawn by the router."""
    depth = getattr(_inside, "depth", 0)
    _inside.depth = depth + 1
    try:
        yield
    finally:
        _inside.depth = depth


def through_router() -> None:
    """The first call of every page script: if Streamlit ran this page without ``app.py`` (its folder-pages
    mode), run ``app.py`` instead, which draws this same page (the URL names it), and end this run."""
    if getattr(_inside, "depth", 0):
        return
    runpy.run_path(str(APP), run_name="__main__")
    st.stop()
