"""Share this step with the class (presenter mode): a "Copy link" button and a QR code of the link.

The link is the page's own URL as ``links.sync_url`` has just written it for this step (so whatever the
link carries for the corpus, a preset's name, a short text or a stored corpus's hash, is carried here too),
less ``present=1``: a student opens the step in the normal view, with the sidebar. The QR code is drawn by
``segno`` as an SVG in a data URI (a few KB, no image file); the copy button's click is handled by
``ui/share.js`` (sent once with the Train page's keys script), which reads the link from the button's
``data-link`` attribute, so no script is templated with the link's text. A stored corpus shared this way is
pinned in the store (evicted after all others). A link that names this computer (localhost) says so beside
its QR code, with what to do: phones cannot open it.
"""

from __future__ import annotations

import os
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno
import streamlit as st

from server import corpus_form, corpus_store
from ui.alerts import esc

QR_ERROR = "m"  # segno's error correction level M (15 %): a projected code survives a glare or a shadow
# A longer link makes a QR code too dense to read from the back of a room (and past ~2,300 bytes none fits):
# the popover then says so and offers the link and its copy button only.
QR_MAX_CHARS = 600
PUBLIC_URL_ENV = "BPE_PUBLIC_URL"  # the address phones reach the app at, when the browser's is not one
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def page_address() -> tuple[str, str, str]:
    """(scheme, host, path) of a link to this page: ``BPE_PUBLIC_URL`` if set (the app's root: Train), else the
    address the teacher's browser came in on (``st.context.url``; None in a test without a browser)."""
    if public := os.environ.get(PUBLIC_URL_ENV, "").strip():
        url = urlsplit(public if "://" in public else "http://" + public)
        return url.scheme, url.netloc, url.path.rstrip("/") + "/"
    page = urlsplit(st.context.url or "")
    return page.scheme, page.netloc, page.path or ("/" if page.netloc else "")


def local_note(link: str) -> str:
    """A note (HTML) when ``link`` names this computer, which no phone can open; else ""."""
    host = urlsplit(link).hostname or ""
    if host not in LOCAL_HOSTS and not host.endswith(".localhost"):
        return ""
    return (
        f'<p class="bpe-note bpe-local">This link names {esc(host)}, this computer only: phones cannot open it. '
        "Run the app with <code>--server.address 0.0.0.0</code> and open it at this machine's network address "
        f"(such as http://192.168.1.20:8501), or set <code>{PUBLIC_URL_ENV}</code> to that address.</p>"
    )


def step_link() -> str:
    """The link to this step: the page's address (``st.context.url``; None in a test without a browser, then
    only the query) and the query ``links.sync_url`` wrote for it, without ``present``."""
    params = {k: v for k, v in st.query_params.to_dict().items() if k not in ("present", "class")}
    return urlunsplit((*page_address(), urlencode(params), ""))


def qr_image(link: str) -> str:
    """The QR code of ``link`` as an ``<img>`` of an SVG data URI (``st.html`` strips inline ``<svg>``),
    scaling to the width the page sets, its modules kept sharp.

    >>> qr_image("http://localhost:8501/?preset=hug&step=3")[:48]
    '<img alt="QR code of the link to this step" src='
    """
    code = segno.make(link, error=QR_ERROR)
    uri = code.svg_data_uri(scale=1, border=4, omitsize=True, light="#fff")
    return f'<img alt="QR code of the link to this step" src="{esc(uri)}">'


def share_html(link: str) -> str:
    """The QR code, the link in full (small print, to read out) and the copy button; everything escaped."""
    if len(link) > QR_MAX_CHARS:
        code = (
            f'<p class="bpe-note">This link is {len(link):,} characters long, too long for a QR code a phone '
            "can read from across a room: copy the link and send it instead.</p>"
        )
    else:
        code = f'<div class="bpe-qr">{qr_image(link)}</div>' + local_note(link)
    return (
        f'<div class="bpe-share">{code}'
        f'<p class="bpe-note bpe-link">{esc(link)}</p>'
        f'<button type="button" class="bpe-copy" data-link="{esc(link)}">Copy link</button></div>'
    )


def share_button(container) -> None:
    """The "Share" popover in ``container`` (the step controls' row), in presenter mode only."""
    with container.popover("Share", icon=":material/qr_code_2:", help="A link and a QR code for this step."):
        st.html(share_html(step_link()))
    pin_shared_corpus(st.query_params.get("corpus", ""))


def pin_shared_corpus(key: str) -> None:
    """A stored corpus shown to the class is kept past the others (``corpus_store.PIN_S``): a student's
    pastes cannot push it out of the store while the class opens its link."""
    if corpus_form.DIGEST.fullmatch(key):
        corpus_store.store().pin(key)  # never raises: a store that cannot pin leaves it as it is
