"""The Train page's first minute: what BPE does and what the page shows, with the corpus, and where to go next.

:func:`first_minute` draws a short introduction above the toggles, with the corpus's words and their counts,
so a newcomer sees what is being trained on at step 0 without opening the sidebar. "Hide this introduction"
hides it for the session and, through a cookie the next visit reads (``st.context.cookies``), in this
browser. Presenter mode never shows it; a phone shows it folded to one line, so the step comes first. :func:`next_steps` is the one line at the end of a run that points
to Encode (with this tokenizer) and Check. What this leaves out: the steps themselves (``panels.py``).
"""

from __future__ import annotations

import streamlit as st

import bpe
from ui import links, panels
from ui.alerts import esc
from ui.settings import Settings

COOKIE = "bpe_intro"
INTRO_WORDS = 8  # the most frequent words the introduction names
# Set once the user hides the introduction; our own constant script, a year long, for this app's paths.
REMEMBER_JS = f"<script>document.cookie = '{COOKIE}=hidden; path=/; max-age=31536000; SameSite=Lax';</script>"


def corpus_words(history: bpe.History, limit: int = INTRO_WORDS) -> str:
    """The corpus's most frequent words and their counts, as HTML: "hug ×10, pun ×12 … and 3 more words"."""
    show = panels.shower(panels.as_text(history))
    order = history.words_by_frequency()
    words = ", ".join(
        f"<code>{esc(show(history.words[i]))}</code> ×{history.freqs[i]:,}" for i in order[:limit]
    )  # fmt: skip
    more = len(order) - limit
    return words + (f" and {more:,} more {'word' if more == 1 else 'words'}" if more > 0 else "")


def _hide(state: dict) -> None:
    state["intro_hidden"] = "now"


def first_minute(history: bpe.History, state: dict, present: bool) -> None:
    """The introduction, unless hidden (now, earlier in this session, or on an earlier visit) or presenting."""
    if state.get("intro_hidden") == "now":
        st.html(REMEMBER_JS, unsafe_allow_javascript=True)  # our own constant script, no user text
        state["intro_hidden"] = "kept"
    if present or state.get("intro_hidden") or st.context.cookies.get(COOKIE) == "hidden":
        return
    base = "bytes" if history.config.pre_tokenizer in bpe.BYTE_LEVEL else "characters"
    # Folded on a phone, where the step box comes first (ui/style.css): open on wider screens.
    with st.container(border=True, key="intro"):
        st.html(
            '<details class="bpe-intro-fold"><summary>What is BPE? An introduction</summary>'
            '<p class="bpe-intro"><b>Byte-pair encoding (BPE)</b> builds a tokenizer from a corpus: it starts '
            f"with every word cut into single {base}, then again and again merges the pair of neighbours that "
            "occurs most often into one new token. Each step below shows the pair counts it chose from, the "
            "words as the new tokens cut them, and the vocabulary so far: press <b>Next</b> to make the first "
            "merge.</p>"
            f'<p class="bpe-intro">The corpus (each word and how often it occurs): {corpus_words(history)}.</p>'
            "</details>"
        )
        st.button("Hide this introduction", key="intro_hide", type="tertiary", on_click=_hide, args=(state,))


def next_steps(settings: Settings, step: int, stored) -> None:
    """At the end of a run: try the tokenizer on Encode (this run, in a new tab too), or check your own code."""
    row = st.container(horizontal=True, vertical_alignment="center", key="next_steps")
    row.markdown("**The run is over.** Next:")
    row.page_link(
        "pages/encode.py",
        label="Encode your own text with this tokenizer",
        icon=":material/text_fields:",
        query_params={**links.settings_to_params(settings, step, stored), "tokenizer": "trained"},
    )
    row.page_link("pages/check.py", label="Check your own BPE code against this run", icon=":material/fact_check:")
