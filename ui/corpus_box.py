"""The pasted or uploaded corpus: accepted once, stored on the server by its hash, out of the widget.

A browser sends every widget's value on every rerun, so a big text left in the text box made every
click (Next, a poll) upload it again. Here the box is only for typing: once a text is accepted (the box
commits, or a file is uploaded) it is stored (``server/corpus_store.py``), kept in the session
(``state["text_corpus"]``) and the box is emptied; the sidebar shows a one-line summary with "Edit",
which puts the text back in the box. The link names the corpus by its digest (``ui/links.py``). A text too
long to edit (over ``stored_text.HELD_CHARS``) is held by its digest once the store has it
(``server/stored_text.py``: its size, lines and start, never the text), so a session never holds a 100 MB text;
if the store loses such a text, the page says so and asks for it again.
A store that is down or full, or a browser past its quota (``server/quota.py``), keeps the corpus in
the session only, with a warning: nothing typed is lost. A browser past its budget of texts sent a minute
(``quota.pastes``, pasted or uploaded) gets a sentence before the page does any work on its text (no
encoding, hashing, storing or training: a hostile paste storm costs the server a comparison each),
and a pasted text stays in the box with a button to use it once the minute has passed. The size and
line count of the session's corpus are counted once per corpus, not on every click. A stored corpus is looked for again every
RECHECK_S, and stored again if the store lost it (a Redis that crashed). Text that cannot be a corpus
(only spaces, over the size limit) stays in the box, so the page can say what is wrong with it and the
user can fix it.

The Check page's box does the same for a text too long to edit (:func:`check_text_source`), which the
check then reads from the store off the serving process (``server/check_jobs.py``); a text pasted there is in
the same budget of texts sent (one per browser for both pages), and one past it stays in the box, unchecked.

Files come through :func:`upload_text` (the Train page's and the Check page's alike): any name, read as
UTF-8, within ``server/limits.py``; a file refused gets its sentence below the uploader for as long as it
stays there, and the page says nothing else about the corpus (not "The corpus is empty").
"""

from __future__ import annotations

import io
import sys
import time

import streamlit as st

from bpe.corpus_text import utf8_size
from server import corpus_form, corpus_store, corpus_upload, jobs, limits, quota, run_store, stored_text, upload_limits
from server.stored_text import StoredText
from ui import corpus_send
from ui import session_keys as keys
from ui.alerts import alert, esc
from ui.session import session_id

RETRY_S = 30.0  # a store that failed is asked again for the same corpus after this long
RECHECK_S = 10.0  # how often a session asks the store whether its corpus is still there
EDIT_MAX_CHARS = 1_000_000  # a corpus put back in the text box for editing (a browser's box is slow past this)
FACTS_KEPT = 4  # corpora whose size and lines a session remembers (the Train page's, the Check page's, an edit)
STORED_GONE = "This corpus is no longer in the server's store (old corpora are removed to make room)."
EDIT_HELP = f"Texts of up to {EDIT_MAX_CHARS:,} characters are edited here; paste or upload a bigger one anew."


def blank(text: str) -> bool:
    """Empty or only whitespace (``not text.strip()`` copies the whole text: 0.3 s for 20 MB, on every run)."""
    return not text or text.isspace()


def facts(state: dict, text: str) -> tuple[int, int]:
    """(UTF-8 bytes, lines) of a corpus, counted once per corpus and session: encoding and counting a 5 MB
    text holds the interpreter (every session's script waits), and the page asks on every click. Kept by the
    text's ``hash`` and length (``str`` caches its hash), so the memo never keeps a text alive."""
    if len(text) > jobs.MAX_CORPUS_BYTES:  # too big whatever its encoding: not worth counting
        return len(text), 0
    memo = state.setdefault("corpus_facts", {})
    key = (hash(text), len(text))
    if (found := memo.get(key)) is None:
        found = memo[key] = (utf8_size(text), text.count("\n") + 1)
        while len(memo) > FACTS_KEPT:
            del memo[next(iter(memo))]
    return found


def too_big(state: dict, text: str) -> bool:
    return facts(state, text)[0] > jobs.MAX_CORPUS_BYTES


def remember(state: dict, kind: str, text: str) -> str | None:
    """Store this corpus unless the session already did; its digest if it is in the store, else None
    (then ``state["store_warning"]`` says why). A failure is retried only after RETRY_S."""
    if blank(text) or too_big(state, text):
        return None
    key = corpus_form.digest(kind, text)
    stored: set = state.setdefault(keys.STORED, set())
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
    state[keys.STORED].discard(key)
    return False


def client_id() -> str:
    """Who stores a corpus, for the store's per-client quota: the browser's address (behind the replicas'
    HAProxy, the one it forwards), else this session."""
    address = st.context.ip_address
    if not isinstance(address, str):  # kept as a quota's key: never an object of the runtime's (AppTest's mock)
        address = None
    return quota.client_name(address, st.context.headers.get("X-Forwarded-For"), session_id())  # as the route does


def store_warning(state: dict, kind: str, text: str) -> str | None:
    """The sentence for a corpus the store could not take, or None."""
    if blank(text):
        return None
    failed = state.get("store_failed", {}).get(corpus_form.digest(kind, text))
    if failed is None:
        return None
    return (
        f"{failed[1]} This corpus is kept in this session only: the page works as usual, but a link to it "
        "cannot carry it, and it is gone if the server restarts."
    )


def _accept(state: dict, text: str | StoredText) -> None:
    """``text`` becomes the session's corpus: stored, and once the store has a long one, held by its digest."""
    state.pop(corpus_send.REFUSED, None)  # a new corpus: a refused send is behind us
    state["text_corpus"] = text
    if isinstance(text, str) and (key := remember(state, "text", text)) and len(text) > stored_text.HELD_CHARS:
        text = state["text_corpus"] = StoredText.of(text, key, *facts(state, text))
    if isinstance(text, StoredText):
        state.get("held_gone", set()).discard(text.digest)  # sent or uploaded again: in the store again
    held = text.head if isinstance(text, StoredText) else text
    run_store.RUNS.hold(session_id(), "train", sys.getsizeof(held))  # counted with the runs (the server's memory)


def _still_held(state: dict, held: StoredText) -> bool:
    """Whether the store still has a text the session holds by its digest (the session cannot store it again)."""
    gone = state.setdefault("held_gone", set())
    if held.digest in gone:
        return False
    state.setdefault(keys.STORED, set()).add(held.digest)
    if still_stored(state, held.digest):
        return True
    gone.add(held.digest)
    return False


def _box_changed(state: dict) -> None:
    """The box committed (blur, Ctrl+Enter): a usable text becomes the corpus and leaves the box. A text past
    the browser's budget of texts sent stays in the box, untouched, with the sentence saying why."""
    value = st.session_state.get("corpus_text", "")
    state.pop(keys.PASTE_REFUSED, None)
    if blank(value):
        return
    if value != state.get("text_corpus") and (refused := quota.pastes().refuse(client_id(), len(value))):
        state[keys.PASTE_REFUSED] = refused  # before any work on the text: only its length was read
        return
    if not too_big(state, value):
        _accept(state, value)
        st.session_state["corpus_text"] = ""


def refused_paste(refused: str, key: str, on_click, args: tuple, level: str = "warning") -> None:
    """What every paste box the budget of texts sent refused shows above it: why, that the text is kept, and a
    button (``key``) that sends it again through the box's own handler. The Check page says it as an error: there
    the refused text is the whole input, and nothing else is checked meanwhile."""
    alert(level, f"{refused} Your text stays in the box: use it once the minute has passed.")
    st.button("Use the text in the box", key=key, on_click=on_click, args=args)


def paste_refused(state: dict) -> str | None:
    """The sentence for a pasted text the budget refused, while the box still holds it."""
    return state.get(keys.PASTE_REFUSED) if st.session_state.get("corpus_text") else None


def _edit(state: dict) -> None:
    corpus = state.get("text_corpus", "")
    st.session_state["corpus_text"] = corpus if isinstance(corpus, str) else ""  # one held by its digest is not edited


def _done(state: dict) -> None:
    _box_changed(state)
    st.session_state["corpus_text"] = ""


def text_source(state: dict, saved_text: str | StoredText) -> str | StoredText:
    """The upload, the summary of the stored corpus and the box; returns the corpus text to train on (a long
    text in the store: held by its digest, ``server/stored_text.py``)."""
    if "text_corpus" not in state:  # a new session: the link's corpus
        state["text_corpus"] = saved_text
    st.session_state.setdefault("corpus_text", "")
    upload = upload_text(state, "corpus_file", let_go=True)
    sent = corpus_send.sent_text(state)  # a big file the browser sent to the upload route, if it is served
    upload = sent if upload is None else upload
    if upload is not None:
        _accept(state, upload)
        state["new_text_corpus"] = True  # the sidebar sets a stop that trains in seconds
        st.session_state["corpus_text"] = ""
    corpus = state["text_corpus"]
    refused = paste_refused(state)
    editing = not refused and bool(st.session_state["corpus_text"]) and st.session_state["corpus_text"] == corpus
    if isinstance(corpus, StoredText):
        key, chars, lines, start = corpus.digest, corpus.chars, corpus.lines, corpus.head
        where = "stored on the server" if _still_held(state, corpus) else "no longer on the server"
    elif corpus:
        remember(state, "text", corpus)  # e.g. a link's short text, or a store that is back
        key, chars, lines, start = corpus_form.digest("text", corpus), len(corpus), facts(state, corpus)[1], corpus
        where = "stored on the server" if key in state.get(keys.STORED, ()) else "kept in this session"
    if corpus:
        st.html(
            f'<p class="bpe-note" data-testid="bpe-corpus-summary">Corpus: {chars:,} characters, '
            f"{lines:,} line{'s' if lines != 1 else ''}, {where} (<code>{esc(key[:12])}…</code>). "
            f"“{esc(_excerpt(start))}”</p>"
        )
        if where == "no longer on the server":
            alert("error", f"{STORED_GONE} Upload it again.")
        if editing:
            st.button("Done editing", key="corpus_done", on_click=_done, args=(state,))
        else:  # a text too big to show in the box is replaced, not edited (a browser shows 20 MB in minutes)
            st.button(
                "Edit",
                key="corpus_edit",
                icon=":material/edit:",
                on_click=_edit,
                args=(state,),
                disabled=chars > EDIT_MAX_CHARS,
                help=EDIT_HELP,
            )
        if isinstance(corpus, str) and (warning := store_warning(state, "text", corpus)):
            alert("warning", warning)
    if refused:
        refused_paste(refused, "corpus_retry", _box_changed, (state,))
    label = "Edit the corpus" if editing else "Paste a new corpus" if corpus else "Text"
    st.text_area(
        f"{label} (up to {limits.LIMIT_TEXT})",
        key="corpus_text",
        height=160,
        on_change=_box_changed,
        args=(state,),
        help="For more than a few MB, upload the file instead: a browser's text box takes seconds per MB to show "
        "a pasted text, before the page gets any of it.",
    )
    # Text the box keeps (only spaces, over the limit) is what the page trains on, so it says what is wrong;
    # a text the budget refused is not looked at.
    return corpus if refused else st.session_state["corpus_text"] or corpus


UPLOAD_LABEL = f"Upload a text file (any name, UTF-8, up to {limits.LIMIT_TEXT})"


def upload_text(state: dict, key: str, label: str = UPLOAD_LABEL, let_go: bool = False, on_change=None) -> str | None:
    """The uploader of a text corpus (any extension, read as UTF-8); the text of a file uploaded since the
    last run, else None. A file refused (too big, not UTF-8, empty) gets its sentence as an error below the
    uploader for as long as it stays there; Streamlit's own refusal (a tooltip) only comes past
    ``limits.UPLOAD_WIDGET_MB``. ``let_go``: once read or refused, the uploader's copy of the file is dropped
    from the server's memory (the uploader then returns None, its file name still shown), so a 100 MB file is
    held once, as the session's text, and a refused one not at all; ``on_change(state)`` is then how the page hears that the file was removed."""
    upload = st.file_uploader(
        label,
        type=None,
        key=key,
        max_upload_size=limits.UPLOAD_WIDGET_MB,
        on_change=_uploader_changed,
        args=(state, key, on_change),
    )
    refusals = state.setdefault("upload_refusals", {})
    if upload is None:
        if f"{key}_refused_gone" not in state:  # (a refused file let go still shows: its sentence stays)
            refusals.pop(key, None)
        return None
    text = None
    if state.get(f"{key}_read") != upload.file_id:
        state[f"{key}_read"] = upload.file_id
        refusals.pop(key, None)
        try:
            if refusal := limits.upload_refusal(upload.name, upload.size):
                raise ValueError(refusal)
            if refusal := quota.pastes().refuse(client_id(), upload.size):  # before the file is read
                raise ValueError(f"{refusal} Upload the file again then.")
            text = _read_upload(state, key, upload, let_go)
        except ValueError as exc:
            refusals[key] = f"{exc} The corpus keeps what it had."
            text = None
            # A refused file's bytes go too: the uploader's value is deep-copied into every run of the session
            # (Streamlit's register_widget), so a kept 59 MB file cost each rerun a 59 MB copy; and the widget
            # state's own copy is emptied, or the session would hold the refused file for as long as it lasts.
            if let_go and upload_limits.let_go(session_id(), upload.file_id):
                state[f"{key}_refused_gone"] = upload.file_id
                _close_copies(key, upload)
    if refusal := refusals.get(key):
        alert("error", refusal)
    return text


def _held(key: str, upload):
    """The widget state's copy of ``upload`` (whose bytes are Streamlit's own), else ``upload`` itself."""
    held = st.session_state.get(key)
    if held is not upload and isinstance(held, io.BytesIO) and getattr(held, "file_id", None) == upload.file_id:
        return held
    return upload


def _close_copies(key: str, upload) -> None:
    """Empty this run's copy of a let-go file and the widget state's (closing a ``BytesIO`` frees its bytes)."""
    held = _held(key, upload)
    upload.close()
    held.close()


def _read_upload(state: dict, key: str, upload, let_go: bool) -> str:
    """Read, digest and store an uploaded file a chunk at a time (``server/corpus_upload.py``), and note what
    that found (its digest, size and lines, or why the store could not take it) so that nothing reads the text
    whole again; ValueError with the sentence for a file that cannot be a corpus."""
    held = _held(key, upload)
    if held is not upload:
        upload.close()  # this run's copy (a widget's value is returned deep-copied: another 100 MB) goes first
        upload = held
    read = corpus_upload.read(upload.getvalue(), upload.name, client=client_id())
    if blank(read.text):
        raise ValueError(f"The file {upload.name!r} is empty: nothing to train on.")
    memo = state.setdefault("corpus_facts", {})
    memo[(hash(read.text), len(read.text))] = (read.nbytes, read.lines)
    if read.store_failure is None:
        state.setdefault(keys.STORED, set()).add(read.key)
        state.get("store_failed", {}).pop(read.key, None)
    else:
        state.setdefault("store_failed", {})[read.key] = (time.monotonic(), read.store_failure)
    if let_go:  # the uploader's bytes go now: from Streamlit's store of uploads, and from the file holding them
        if upload_limits.let_go(session_id(), upload.file_id):  # (not under AppTest, which reads it again)
            upload.close()
    return read.text


def _uploader_changed(state: dict, key: str, on_change) -> None:
    """The student removed or replaced the file: a refused one's sentence goes with it."""
    if state.pop(f"{key}_refused_gone", None) is not None:
        state.get("upload_refusals", {}).pop(key, None)
    if on_change is not None:
        on_change(state)


def upload_refused(state: dict, key: str = "corpus_file") -> bool:
    """True while the uploader ``key`` holds a file it refused, or (the Train page's) while a big file sent
    was refused, or (the Check page's) while its pasted text was refused (the page then says why, not "empty")."""
    return (
        key in state.get("upload_refusals", {})
        or (key == "corpus_file" and corpus_send.refused(state))
        or (key == "chk_corpus_file" and check_paste_refused(state) is not None)
    )


def _excerpt(text: str, n: int = 60) -> str:
    flat = " ".join(text[: n * 4].split())
    return flat if len(flat) <= n else flat[:n] + "…"


CHECK_PASTED = "chk_held_pasted"  # the Check page's held corpus was pasted (not uploaded)


def _check_file_changed(state: dict) -> None:
    """The Check page's uploader changed: a file removed makes the box the corpus again (unless the corpus is a
    text pasted since). (Its value is no sign otherwise: once read, the file is let go, and the uploader returns
    None while still showing it.)"""
    if st.session_state.get("chk_corpus_file") is None and not state.get(CHECK_PASTED):
        _drop_check_file(state)


def _drop_check_file(state: dict) -> None:
    state.pop(CHECK_PASTED, None)
    if state.pop("chk_file_text", None) is not None:
        run_store.RUNS.hold(session_id(), "check", 0)


def _check_box_changed(state: dict, app_state: dict) -> None:
    """The Check page's box committed: a text too long to edit leaves the box once the store has it, and is held
    by its digest as an uploaded one is (the Train page's box does the same, ``_box_changed``), so it is neither
    sent again with every click nor kept whole in the session. A text the store could not take, or one over the
    size limit, stays in the box: the page checks it as it is, or says what is wrong with it. Every text pasted
    here is stored (a short one at the page's run, so that "Go to step k" carries it) and checked, so it is a
    text sent like one pasted on the Train page, in the same budget: past it, the text stays in the box,
    untouched (only its length was read), and the page neither stores nor checks it."""
    value = st.session_state.get("chk_text", "")
    state.pop(keys.CHECK_REFUSED, None)
    if blank(value):
        return
    if refused := quota.pastes().refuse(client_id(), len(value)):
        state[keys.CHECK_REFUSED] = refused
        return
    if len(value) <= stored_text.HELD_CHARS or too_big(app_state, value):
        return
    key = remember(app_state, "text", value)
    if key is None:
        return
    app_state.get("held_gone", set()).discard(key)  # pasted again: in the store again
    held = state["chk_file_text"] = StoredText.of(value, key, *facts(app_state, value))
    state[CHECK_PASTED] = True
    st.session_state["chk_text"] = ""
    run_store.RUNS.hold(session_id(), "check", sys.getsizeof(held.head))


def check_text_source(state: dict, app_state: dict) -> str | StoredText:
    """The Check page's text corpus: an uploaded file (any extension, the same limits as the Train page),
    stored by its digest as the Train page stores its corpus (so "Go to step k" links to it) and, once the store
    has a long one, held by its digest (``server/stored_text.py``: the check reads it from the store), or else
    the pasted text (one too long to edit likewise held by its digest once stored, the box emptied:
    ``_check_box_changed``). ``state`` is the Check page's, ``app_state`` the session's (which knows what is stored)."""
    upload = upload_text(state, "chk_corpus_file", let_go=True, on_change=_check_file_changed)
    if upload is not None:
        state.pop(CHECK_PASTED, None)
        held = state["chk_file_text"] = _check_file_corpus(state, app_state, upload)
        run_store.RUNS.hold(session_id(), "check", sys.getsizeof(held.head if isinstance(held, StoredText) else held))
    text = state.get("chk_file_text")
    was_pasted = bool(state.get(CHECK_PASTED)) and isinstance(text, StoredText)
    if isinstance(text, StoredText):
        key, chars, start = text.digest, text.chars, text.head
        where = "stored on the server" if _still_held(app_state, text) else "no longer on the server"
    elif text:
        remember(app_state, "text", text)
        key, chars, start = corpus_form.digest("text", text), len(text), text
        where = "stored on the server" if key in app_state.get(keys.STORED, ()) else "kept in this session"
    if text:
        lines = f"{text.lines:,} line{'s' if text.lines != 1 else ''}, " if was_pasted else ""
        st.html(
            f'<p class="bpe-note" data-testid="bpe-check-corpus-summary">Corpus: '
            f"{'the pasted text' if was_pasted else 'the uploaded file'}, {chars:,} characters, {lines}{where} "
            f"(<code>{esc(key[:12])}…</code>). “{esc(_excerpt(start))}”</p>"
        )
        if where == "no longer on the server":
            alert("error", f"{STORED_GONE} {'Paste or upload' if was_pasted else 'Upload'} it again.")
        if was_pasted:  # the box was emptied: this says where the text went, and how to replace it
            st.caption(
                f"Your text left the box once stored, so that it is not sent again with every click. {EDIT_HELP}"
            )
        # The file stays the corpus when the uploader comes back empty (another page, another source, then back):
        # its bytes were let go once read, so only this says how to return to the box.
        st.button("Paste a new text" if was_pasted else "Paste a text instead", key="chk_file_drop",
                  icon=":material/edit:", on_click=_drop_check_file, args=(state,))  # fmt: skip
        return text
    if refused := check_paste_refused(state):
        refused_paste(refused, "chk_paste_retry", _check_box_changed, (state, app_state), level="error")
    st.text_area("…or paste the text (the same you trained on)", key="chk_text", height=120,
                 on_change=_check_box_changed, args=(state, app_state))  # fmt: skip
    if refused:  # not looked at: neither stored nor checked (the page says nothing more than the sentence above)
        return ""
    pasted = st.session_state.get("chk_text", "")
    remember(app_state, "text", pasted)  # a pasted corpus too travels in the link by its digest
    if warning := store_warning(app_state, "text", pasted):  # why a long one stays in the box
        alert("warning", warning)
    return pasted


def check_paste_refused(state: dict) -> str | None:
    """The sentence for the Check page's pasted text the budget refused, while its box still holds it."""
    return state.get(keys.CHECK_REFUSED) if st.session_state.get("chk_text") else None


def held_gone(app_state: dict, corpus) -> bool:
    """Whether ``corpus`` is a text held by its digest that the store has lost (the summary has said so)."""
    return isinstance(corpus, StoredText) and corpus.digest in app_state.get("held_gone", ())


def _check_file_corpus(state: dict, app_state: dict, text: str) -> str | StoredText:
    """An uploaded file's text as the Check page's corpus: once the store has it (the upload stored it), a text
    too long to edit is held by its digest, as on the Train page (``_accept``), so the session never holds it."""
    key = corpus_form.digest("text", text)  # remembered by the upload: not hashed again
    counted = facts(state, text)  # counted by the upload, in the Check page's state
    app_state.setdefault("corpus_facts", {})[(hash(text), len(text))] = counted
    if key in state.get(keys.STORED, ()):  # the upload stored it under the Check page's state
        app_state.setdefault(keys.STORED, set()).add(key)
        app_state.get("held_gone", set()).discard(key)  # uploaded again: in the store again
    if remember(app_state, "text", text) and len(text) > stored_text.HELD_CHARS:
        return StoredText.of(text, key, *counted)
    return text
