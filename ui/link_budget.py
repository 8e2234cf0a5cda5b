"""A link that carries its corpus itself is a text sent: in the browser's budget, as a paste is.

A ``?text=`` or ``?counts=`` link's corpus is stored, linked by its digest and trained like a pasted one, so plain
links opened by a script could do what a paste storm does. The page itself puts a corpus in a link only when it
is short (``links.MAX_URL_CORPUS_CHARS``, and only when the store could not take it: otherwise the link names it
by its digest), so a longer one is made by hand or by a script: it is counted in the budget of texts sent
(``quota.pastes``, asked with only its length read), and past it the new session opens with the text in its
source's paste box, the sentence and the box's button to use it once the minute has passed, and no corpus of it
(nothing is hashed, stored or trained). The links the page writes, which a whole class opens, count nothing.
What this leaves out: ``corpus=<digest>`` links (the corpus is already stored: nothing is sent).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from server import quota
from ui import corpus_box, links
from ui import session_keys as keys

BOXES = {"text": ("corpus_text", keys.PASTE_REFUSED), "counts": ("counts_paste", keys.COUNTS_REFUSED)}


def refuse_link_corpus(state: dict) -> None:
    """Check a new session's link corpus (``state``: the app state just made from the link) against the budget;
    past it, move the corpus to its paste box with the sentence."""
    settings = state[keys.SETTINGS]
    if settings.source not in BOXES or settings.source not in st.query_params:  # not carried by the link itself
        return
    corpus = settings.text if settings.source == "text" else settings.counts
    if len(corpus) <= links.MAX_URL_CORPUS_CHARS:
        return
    if refused := quota.pastes().refuse(corpus_box.client_id(), len(corpus)):
        box, refused_key = BOXES[settings.source]
        st.session_state[box], state[refused_key] = corpus, refused
        state[keys.SETTINGS] = replace(settings, text="", counts="")
        _, notes = state[keys.LINK_NOTES]
        state[keys.LINK_NOTES] = (state[keys.SETTINGS], notes)  # what else the link could not restore still shows
