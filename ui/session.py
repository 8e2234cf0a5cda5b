"""One browser session's state: everything under the one key ``st.session_state["bpe_explorer"]``.

All of the app's state lives in that one namespaced dict (:func:`app_state`), so the Encode page uses
the tokenizer trained on the Train page and nothing resets when the user switches pages. A new
session starts from its link (``ui/links.py``). Widget values a page must keep across a visit to
the other page are copied into it (:func:`keep_widgets`). The trained runs themselves are not here:
they are shared by every session (``server/run_store.py``).
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui import links

STATE_KEY = "bpe_explorer"


def app_state() -> dict:
    """The session's one namespaced dict, created on first use (from the URL if it has one)."""
    if STATE_KEY not in st.session_state:
        notes: list[str] = []
        settings, step = links.read_url(notes)
        # link_notes: what the link could not restore, shown until the user changes these settings
        st.session_state[STATE_KEY] = {
            "settings": settings,
            "step": step,
            "error": None,
            "link_notes": (settings, notes),
        }
        from ui import link_budget  # it imports this module (through corpus_box)

        link_budget.refuse_link_corpus(st.session_state[STATE_KEY])  # a link's long corpus is a text sent
    return st.session_state[STATE_KEY]


def keep_widgets(store: dict, keys) -> None:
    """Keep the values of a page's widgets in ``store`` (part of our state) and set them back.

    Streamlit forgets a widget's value when a run does not draw it (another page is shown, or the
    page stopped early), and the browser then shows it empty while the server may still hold the
    old value. Setting each value by script before the widgets are drawn sends it to the browser
    with the widget, every run, so the two always agree."""
    for key in keys:
        if key in st.session_state:
            store[key] = st.session_state[key]
        if key in store:
            st.session_state[key] = store[key]


def session_id() -> str:
    """This browser session's id ("bare" outside a script run: a test or benchmark calling in)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "bare"
