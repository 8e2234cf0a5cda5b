"""The pasted or uploaded corpus: accepted once, stored on the server by its hash, out of the widget.

A browser sends every widget's value on every rerun, so a 5 MB text left in the text box made every
click (Next, a poll) upload 5 MB. Here the box is only for typing: once a text is accepted (the box
commits, or a file is uploaded) it is stored (``server/corpus_store.py``), kept in the session
(``state["text_corpus"]``) and the box is emptied; the sidebar shows a one-line summary with "Edit",
which puts the text back in the box. The link names the corpus by its digest (``pages/links.py``).
A store that is down or full, or a browser past its quota (``server/quota.py``), keeps the corpus in
the session only, with a warning: nothing typed is lost. A stored corpus is looked for again every
RECHECK_S, and stored again if the store lost it (a Redis that crashed). Text that cannot be a corpus
(only spaces, over the size limit) stays in the box, so the page can say what is wrong with it and the
user can fix it.
"""

from __future__ import annotations

import time

import streamlit as st

import bpe
from pages.alerts import alert, esc
from pages.session import session_id
from server import corpus_store, jobs, startup

if __name__ == "__main__":  # opened as a page (a fresh server's first request): go through the router
    startup.ensure_router()

RETRY_S = 30.0  # a store that failed is asked again for the same corpus after this long
RECHECK_S = 10.0  # how often a session asks the store whether its corpus is still there


def remember(state: dict, kind: str, text: str) -> str | None:
    """Store this corpus unless the session already did; its digest if it is in the store, else None
    (then ``state["store_warning"]`` says why). A failure is retried only after RETRY_S."""
    if not text.strip() or len(text.encode("utf-8", "surrogatepass")) > jobs.MAX_CORPUS_BYTES:
        return None
    key = corpus_store.digest(kind, text)
    stored: set = state.setdefault("stored", set())
    if key in stored and still_stored(state, key):
        return key
    failed = state.setdefault("store_failed", {})
    if key in failed and time.monotonic() - failed[key][0] < RETRY_S:
        return None
    try:
        corpus_store.store().put(kind, text, client=client_id())
    except corpus_store.StoreUnavailable as exc:
        failed[key] = (time.monotonic(), str(exc))
        return None
    failed.pop(key, None)
    stored.add(key)
    return key


def still_stored(state: dict, key: str) -> bool:
    """Whether the store still has this session's corpus (asked at most every RECHECK_S): a Redis that
    crashed and came back empty loses it, and the session, which still has the text, stores it again."""
    checked = state.setdefault("store_checked", {})
    if time.monotonic() - checked.get(key, 0.0) < RECHECK_S:
        return True
    checked.clear()  # one entry: this session's current corpus
    checked[key] = time.monotonic()
    try:
        if corpus_store.store().has(key):
            return True
    except corpus_store.StoreUnavailable:
        pass
    state["stored"].discard(key)
    return False


def client_id() -> str:
    """Who stores a corpus, for the store's per-client quota: the browser's address (behind the replicas'
    HAProxy, the one it forwards), else this session."""
    address = st.context.ip_address
    if address is None and (forwarded := st.context.headers.get("X-Forwarded-For")):
        address = forwarded.split(",")[-1].strip()  # the hop the proxy in front of us added
    return address or session_id()


def store_warning(state: dict, kind: str, text: str) -> str | None:
    """The sentence for a corpus the store could not take, or None."""
    if not text.strip():
        return None
    failed = state.get("store_failed", {}).get(corpus_store.digest(kind, text))
    if failed is None:
        return None
    return (
        f"{failed[1]} This corpus is kept in this session only: the page works as usual, but a link to it "
        "cannot carry it, and it is gone if the server restarts."
    )


def _accept(state: dict, text: str) -> None:
    state["text_corpus"] = text
    remember(state, "text", text)


def _box_changed(state: dict) -> None:
    """The box committed (blur, Ctrl+Enter): a usable text becomes the corpus and leaves the box."""
    value = st.session_state.get("corpus_text", "")
    if value.strip() and len(value.encode("utf-8", "surrogatepass")) <= jobs.MAX_CORPUS_BYTES:
        _accept(state, value)
        st.session_state["corpus_text"] = ""


def _edit(state: dict) -> None:
    st.session_state["corpus_text"] = state.get("text_corpus", "")


def _done(state: dict) -> None:
    _box_changed(state)
    st.session_state["corpus_text"] = ""


def text_source(state: dict, saved_text: str) -> str:
    """The upload, the summary of the stored corpus and the box; returns the corpus text to train on."""
    if "text_corpus" not in state:  # a new session: the link's corpus
        state["text_corpus"] = saved_text
    st.session_state.setdefault("corpus_text", "")
    upload = st.file_uploader(
        "Upload a .txt file", type=["txt"], key="corpus_file", max_upload_size=jobs.MAX_CORPUS_BYTES // 1_000_000
    )
    if upload is not None and state.get("uploaded") != upload.file_id:
        try:
            uploaded = bpe.text_from_bytes(upload.getvalue(), repr(upload.name))
            if not uploaded.strip():
                raise ValueError(
                    f"The file {upload.name!r} is empty: nothing to train on. The corpus keeps what it had."
                )
            _accept(state, uploaded)
            state["uploaded"] = upload.file_id
            state["new_text_corpus"] = True  # the sidebar sets a stop that trains in seconds
            st.session_state["corpus_text"] = ""
        except ValueError as exc:
            alert("error", exc)
    corpus = state["text_corpus"]
    editing = bool(st.session_state["corpus_text"]) and st.session_state["corpus_text"] == corpus
    if corpus:
        remember(state, "text", corpus)  # e.g. a link's short text, or a store that is back
        key = corpus_store.digest("text", corpus)
        where = "stored on the server" if key in state.get("stored", ()) else "kept in this session"
        lines = corpus.count("\n") + 1
        st.html(
            f'<p class="bpe-note" data-testid="bpe-corpus-summary">Corpus: {len(corpus):,} characters, '
            f"{lines:,} line{'s' if lines != 1 else ''}, {where} (<code>{esc(key[:12])}…</code>). "
            f"“{esc(_excerpt(corpus))}”</p>"
        )
        if editing:
            st.button("Done editing", key="corpus_done", on_click=_done, args=(state,))
        else:
            st.button("Edit", key="corpus_edit", icon=":material/edit:", on_click=_edit, args=(state,))
        if warning := store_warning(state, "text", corpus):
            alert("warning", warning)
    label = "Edit the corpus" if editing else "Paste a new corpus" if corpus else "Text"
    st.text_area(
        f"{label} (up to {jobs.MAX_CORPUS_BYTES // 1_000_000} MB)",
        key="corpus_text",
        height=160,
        on_change=_box_changed,
        args=(state,),
    )
    # Text the box keeps (only spaces, over the limit) is what the page trains on, so it says what is wrong.
    return st.session_state["corpus_text"] or corpus


def _excerpt(text: str, n: int = 60) -> str:
    flat = " ".join(text[: n * 4].split())
    return flat if len(flat) <= n else flat[:n] + "…"
