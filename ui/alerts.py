"""Plain-text alerts and HTML escaping: how the pages show text they did not write (a link, a file,
the corpus) without letting it become markup. Styled by ``.bpe-alert`` in ``ui/style.css``."""

from __future__ import annotations

import html

import streamlit as st

ALERT_ICONS = {"error": "⛔", "warning": "⚠", "info": "ℹ"}


def alert(kind: str, text: object) -> None:
    """An error, warning or note that quotes a link, a file or the corpus, as plain text.

    Not ``st.error``/``st.warning``: their body is Markdown, and even with every punctuation mark
    backslash-escaped Streamlit's renderer still turns ``http://…`` into a clickable link (tried:
    ``st.warning(md_escape("[x](http://evil.example/x)"))`` shows a link to evil.example). Here the
    text is HTML-escaped into our own block, so a value can never become a link, an image or a style."""
    st.html(
        f'<div class="bpe-alert bpe-alert-{kind}" role="alert" data-kind="{kind}">'
        f'<span aria-hidden="true">{ALERT_ICONS[kind]}</span> {esc(text)}</div>'
    )


def esc(text: object) -> str:
    """HTML-escape anything shown inside our own HTML (user text is untrusted)."""
    return html.escape(str(text), quote=True)
