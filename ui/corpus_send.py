"""The Train page's "Send a big file": a file the browser sends to the corpus upload route, opened by its digest.

Streamlit's uploader holds a whole file in the server's memory (two copies while it arrives). When the app is
served with its upload route (``serve.py``, ``server/corpus_route.py``), the sidebar also offers this small
custom component (``st.components.v2``, ``corpus_send.js`` beside this file): an ``<input type=file>`` whose
file the browser POSTs to the route straight from disk, with a progress bar. The route checks and stores it
a chunk at a time and answers with the corpus's digest, which comes back here as the component's ``sent``
trigger; the corpus is then opened from the store as a ``?corpus=<digest>`` link opens it
(``ui/links.py``: a long text only counted, and held by its digest), and becomes the session's corpus like an
uploaded file's. A refusal's sentence (the
route's, or the component's own for a file over the limit) comes back as ``refused`` and is shown as plain
text, as every sentence quoting a file name is (``ui/alerts.py``).

What this leaves out: reading and storing the file (the route), and the uploader (``ui/corpus_box.py``).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from server import corpus_form, corpus_route, corpus_store, limits, stored_text
from server.stored_text import StoredText
from ui import session_keys as keys
from ui.alerts import alert

KEY = "corpus_send"
REFUSED = "send_refused"  # the app state's sentence for the last file sent, while it stands
LABEL = f"Send a big file (up to {limits.LIMIT_TEXT}, streamed to the server's store)"
HTML = (
    f'<label class="bpe-send"><span>{LABEL}</span><input type="file" data-testid="bpe-corpus-send"></label>'
    '<progress hidden></progress><p class="status" role="status" aria-live="polite"></p>'
)
CSS = """
.bpe-send { display: flex; flex-direction: column; gap: 0.25rem; font-size: 0.875rem; }
progress { width: 100%; }
.status { font-size: 0.875rem; margin: 0.25rem 0 0; min-height: 1em; }
"""
MAX_NAME_CHARS = corpus_route.MAX_NAME_CHARS

_sender = st.components.v2.component(
    "bpe_corpus_send", html=HTML, css=CSS, js=Path(__file__).with_name("corpus_send.js").read_text(encoding="utf-8")
)


def _ignore() -> None:
    """The triggers are read from the result in the same run; nothing to do before it."""


def sent_text(state: dict) -> str | StoredText | None:
    """The component, when the server has the upload route; the text of a corpus sent since the last run
    (opened from the store by its digest), else None. A refusal or a corpus that cannot be opened is said
    below it, for as long as nothing new is sent."""
    if not corpus_route.served():
        return None
    result = _sender(
        key=KEY,
        data={"path": corpus_route.PATH, "maxBytes": limits.MAX_CORPUS_BYTES, "limit": limits.LIMIT_TEXT},
        on_sent_change=_ignore,
        on_refused_change=_ignore,
    )
    text = None
    if (refusal := _trigger(result, "refused")) is not None:
        state[REFUSED] = _sentence(refusal)
    elif (sent := _trigger(result, "sent")) is not None:
        state.pop(REFUSED, None)
        text = open_sent(state, sent)
    if sentence := state.get(REFUSED):
        alert("error", f"{sentence} The corpus keeps what it had.")
    return text


def refused(state: dict) -> bool:
    """True while a file sent was refused (the page says why, not "The corpus is empty")."""
    return bool(state.get(REFUSED))


def _trigger(result, name: str):
    return getattr(result, name, None) if result is not None else None


def _sentence(refused) -> str:
    sentence = refused.get("sentence") if isinstance(refused, dict) else None
    return str(sentence)[:2_000] if sentence else "The server refused the file: send it again."


def open_sent(state: dict, sent) -> str | StoredText | None:
    """The stored text the component names (``{"digest": ..., "name": ...}``, from the browser: checked here),
    noted as stored for the session's link (a long one held by its digest, ``server/stored_text.py``); None with
    ``state[REFUSED]`` saying why it cannot be opened."""
    digest = sent.get("digest") if isinstance(sent, dict) else None
    name = str(sent.get("name") or "the file")[:MAX_NAME_CHARS] if isinstance(sent, dict) else "the file"
    if not isinstance(digest, str) or not corpus_form.DIGEST.fullmatch(digest):
        state[REFUSED] = f"The server's answer for {name!r} named no corpus: send the file again."
        return None
    try:
        found = stored_text.open_stored(digest)  # a long text is only counted: the session holds its digest
    except corpus_store.StoreUnavailable as exc:
        state[REFUSED] = f"{exc} {name!r} was sent but cannot be opened now: send it again in a moment."
        return None
    if found is None or found[0] != "text":
        state[REFUSED] = f"{name!r} is no longer in the server's store: send it again."
        return None
    text = found[1]
    if isinstance(text, str):
        corpus_form.remember_digest("text", text, digest)  # so the page never digests it again
    state.setdefault(keys.STORED, set()).add(digest)
    state.get("store_failed", {}).pop(digest, None)
    return text
