"""Encode's presenter view: for a projector, the text's tokens in large type and the merge replay of one word.

Switched on by its toggle on the Encode page (``pages/encode.py`` draws the toggle with :func:`toggle` and,
when it is on, hands its tokenizer and encoding to :func:`view` and stops there): the metrics, the id list
and the tables are left out, so a 1280x720 projector shows the tokens and, below them, how one word was
built merge by merge. Presenter mode's type (``present.css``) applies, plus the larger chips of
``.bpe-enc-present``. Nothing here computes: the chips and the replay come from ``bpe.display``.
"""

from __future__ import annotations

import streamlit as st

from bpe import display
from ui.assets import PRESENT_CSS

PRESENT_CHIPS = 400  # tokens drawn in large type (a projector shows far fewer anyway)
PRESENT_REPLAY_SYMBOLS = 60  # a word's replay is drawn large for words of up to this many symbols


def toggle(container) -> bool:
    """The "Presenter view" toggle, in ``container``; whether it is on."""
    return container.toggle(
        "Presenter view",
        key="encode_present",
        help="For a projector: the tokens in large type and the merge replay of one word; the numbers and "
        "tables are left out until you switch it off.",
    )


def view(tokenizer, encoding, text: str, show_whitespace, as_text: bool) -> None:
    """The tokens of ``text`` in large type, then the merge replay of the word picked below them."""
    st.html(PRESENT_CSS)
    st.html(
        '<div class="bpe-enc-present">'
        + display.encoding_html(
            tokenizer, encoding, text, show_whitespace=show_whitespace, limit=PRESENT_CHIPS, as_text=as_text
        )
        + "</div>"
    )
    st.caption(f"{len(text):,} characters → {display.plural(len(encoding.ids), 'token')}.")
    words = list(dict.fromkeys(text[s:e] for s, e in display.word_spans(encoding)))[:1000]
    words = [w for w in words if len(w) <= PRESENT_REPLAY_SYMBOLS]
    if not words:
        return
    # The longest word first: it has the most merges to replay.
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = st.selectbox(
        "Merge replay for the word", words, index=longest, key="present_word", format_func=display.visible
    )
    for trace in tokenizer.trace(word, budget=PRESENT_REPLAY_SYMBOLS * PRESENT_REPLAY_SYMBOLS):
        if len(trace.initial) <= PRESENT_REPLAY_SYMBOLS:
            st.html('<div class="bpe-enc-present">' + display.trace_html(tokenizer, trace, show_whitespace) + "</div>")
