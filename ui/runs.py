"""How a page gets the run for its settings, and what it shows while the run trains.

:func:`train` returns the run for a ``Settings``: from the run store (``server/run_store.py``), or from a
job in the training process pool (``server/jobs.py``: one job per run, however many sessions ask). A page
waiting on a job that takes more than FIRST_WAIT_S shows its progress and a Stop button, and reruns when
the run is ready. :func:`tokenizer_for` turns a run's step into a ``bpe.Tokenizer``
(``server/tokenizer_cache.py``). What this leaves out: keeping runs (``server/run_store.py``), their keys
(``server/run_keys.py``), the training itself (``bpe``, in the worker) and the session's own state
(``ui/session.py``).
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections import OrderedDict

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

import bpe
from server import corpus_form, corpus_store, jobs, limits, run_keys, run_store
from server.run_keys import stopped_key
from server.run_store import RUN_MEMORY_BUDGET, RUNS, keep, store_result
from server.tokenizer_cache import tokenizer_at
from ui import corpus_box
from ui import session_keys as keys
from ui.alerts import alert
from ui.session import app_state, session_id
from ui.settings import Settings

FIRST_WAIT_S = 1.0  # a run that trains faster than this shows at once, without a progress bar
POLL_S = 0.5  # how often a waiting page asks its job how far it got
# A browser's rerun carries every widget's value, so each poll of a page with a pasted corpus uploads the
# whole text again (seen in chromium: a 1.4 MB paste, one 1.4 MB websocket frame per poll). Over this
# size the page polls every POLL_BIG_S instead: a quarter of the uploads, and of the server's work on them.
POLL_BIG_CHARS = 200_000
POLL_BIG_S = 2.0


def poll_interval(settings: Settings) -> float:
    """Seconds between a waiting page's polls: longer when each poll carries a large corpus."""
    return POLL_BIG_S if max(settings.text_chars(), len(settings.counts)) > POLL_BIG_CHARS else POLL_S


LIMITS_SENTENCE = (
    f"Limits: {limits.LIMIT_TEXT} of text, {limits.COUNTS_LIMIT_TEXT} of word counts, {jobs.MAX_MERGES:,} merges "
    f"(also for “until no pair is left”), words of up to {jobs.MAX_WORD_CHARS:,} characters; trained runs share "
    f"{RUN_MEMORY_BUDGET >> 30} GiB of server memory (the oldest is dropped, and trained again if asked for)."
)


def run_key(settings: Settings) -> str:
    """A run's identity (``server/run_keys.py``), memoized in the session (its last RUN_KEYS_KEPT settings),
    so a 5 MB pasted corpus is digested once, not on every click, and the memo goes with the session: a
    module-level one (256 entries) kept 256 sessions' corpora after they had gone."""
    memo = app_state().setdefault("run_keys", OrderedDict()) if get_script_run_ctx() is not None else None
    return run_keys.run_key(settings, memo)


def session_alive(waiter: str) -> bool:
    """Whether a waiting session is still there: connected to this server, as Streamlit's runtime
    knows it (a closed tab's websocket closes at once; a hidden tab stays connected, though its
    browser may poll only once a minute). Callers outside a session ("bare": tests, benchmarks)
    and pages without a server (AppTest) always are."""
    if waiter == "bare" or not Runtime.exists():
        return True
    return bool(Runtime.instance().is_active_session(waiter))  # AppTest's stand-in runtime answers truthy


def _submit(settings: Settings, key: str) -> jobs.Job | None:
    """A job for this run, or None if it was stored since the caller looked (then RUNS has it)."""
    spec = dict(source=settings.source, preset=settings.preset, text=settings.text, counts=settings.counts)
    if settings.source == "text" and settings.stored is not None:  # held by its digest: the worker reads it
        where = corpus_store.address(corpus_store.store())
        spec.update(stored=(where, settings.stored.digest), chars=settings.stored.chars)
    elif settings.source == "text" and len(settings.text) > jobs.BIG_TEXT_CHARS and get_script_run_ctx() is not None:
        digest = corpus_form.digest("text", settings.text)  # known already: the page stored the text
        if digest in app_state().get(keys.STORED, ()):  # the worker reads it from the store: no pickled copy
            where = corpus_store.address(corpus_store.store())
            spec.update(text="", stored=(where, digest), chars=len(settings.text))
    return jobs.submit(
        key,
        spec,
        settings.options(),
        session_id(),
        lambda job: store_result(key, job),
        finished=lambda: RUNS.get(key) is not None,
        alive=session_alive,
        group=corpus_box.client_id() if get_script_run_ctx() is not None else None,  # one address's share
    )


def train(settings: Settings, *, block: bool = False) -> bpe.History:
    """The run for these settings, trained once in the process pool however many sessions ask
    (shared by all of them); ValueError on bad input.

    A run that takes longer than FIRST_WAIT_S does not hold the page: the page shows its progress
    and a Stop button (a fragment polling every POLL_S, or POLL_BIG_S for a large corpus) and stops
    here; when the run is ready the page reruns and finds it in the store. ``block=True`` waits instead (callbacks and cached
    functions, which cannot draw)."""
    key = run_key(settings)
    state = app_state() if get_script_run_ctx() is not None else {}
    if state and state.get("waiting_for") != key:  # moved to another run: stop waiting for the old one
        jobs.switch(session_id(), key)
        state["waiting_for"] = key
    if settings.source != "preset" and state:  # a corpus this session brought: its run goes with its sessions
        RUNS.shown(session_id(), key)
    history = RUNS.get(key)
    if history is not None:
        return history
    if state.get("stopped") == key:  # this session pressed Stop: the merges made before it, if kept
        if (kept := RUNS.get(stopped_key(key))) is not None:
            return kept
        if not block:
            if jobs.stopping(key) is not None:
                _stopping(key, poll_interval(settings))
            _stopped_notice(state, key)
    job = jobs.job_for(key) or _submit(settings, key)
    if job is None:  # it finished between the look in RUNS and the look for a job
        return RUNS.get(key)
    job.waiters.add(session_id())
    try:
        history = run_store.result(key, job, None if block else FIRST_WAIT_S)
        if history.stop_reason == "stopped" and state:  # stopped by another session as this one asked
            state["stopped"] = key
        return history
    except (cf.TimeoutError, TimeoutError):
        _waiting(job, key, state, poll_interval(settings))
        st.stop()
        raise  # not reached


def _waiting(job: jobs.Job, key: str, state: dict, every: float) -> None:
    """Progress and a Stop button while the pool trains, polled every ``every`` seconds; the whole
    page reruns when the run is ready. The poll and the button keep the run's key, not its job: a
    session (kept two minutes after its tab closes) that held the job held its finished run through
    the job's future, and an evicted run stayed in memory."""
    me, started, total = session_id(), job.started, job.total
    del job

    def stop() -> None:  # the merges made so far are kept, also when another session's run goes on
        if (job := jobs.job_for(key)) is not None:
            jobs.leave(job, me, on_kept=lambda history, nbytes: keep(key, history, nbytes))
        state["stopped"] = key

    def poll() -> None:
        job = jobs.job_for(key)
        # Stop pressed (a click in this fragment reruns only it): the whole page shows what Stop kept, also
        # when the job goes on for another session.
        if job is None or job.future.done() or state.get("stopped") == key:
            st.rerun(scope="app")
        step = job.progress()
        seconds = time.monotonic() - started
        if step == 0:
            text = f"Reading the corpus… ({seconds:.0f} s)"
        else:
            text = f"Training… merge {step:,}" + (f" of {total:,}" if total else "") + f" ({seconds:.0f} s)"
        st.progress(min(step / total, 1.0) if total else (step % 1000) / 1000, text=text)
        others = len(job.live_waiters() - {me})  # sessions still open: a closed tab is not counted
        if others > 0:
            st.caption(
                f"{others} other session{'s' if others > 1 else ''} asked for this same run: it is trained "
                "once, for all of you."
            )
        st.button("Stop training", key="stop_training", icon=":material/stop_circle:", on_click=stop)

    st.fragment(poll, run_every=every)()


def _stopping(key: str, every: float) -> None:
    """After Stop, until the worker hands back the merges it made (it looks every 50 merges), or a copy of
    them when the run goes on for another session."""

    def poll() -> None:
        job = jobs.stopping(key)
        if job is None or job.future.done():
            st.rerun(scope="app")
        st.progress(1.0, text=f"Stopping after merge {job.progress():,}: keeping the merges made so far…")

    st.fragment(poll, run_every=every)()
    st.stop()


def _train_again(state: dict) -> None:
    st.button("Train again", key="train_again", icon=":material/replay:", on_click=lambda: state.pop("stopped", None))


def _stopped_notice(state: dict, key: str) -> None:
    """Stop kept nothing: pressed before the first merges, or another open session still waits for the run."""
    if jobs.job_for(key) is not None:
        alert(
            "info",
            "You stopped waiting for this run, but another open session still waits for it, so it goes on "
            "training. Train again to wait for it too, or change the corpus or settings.",
        )
    else:
        alert("info", "Training was stopped before any merge was made. Change the corpus or settings, or train again.")
    _train_again(state)
    st.stop()


def stopped_at(history: bpe.History, settings: Settings, state: dict) -> None:
    """Above the step box of a run cut short by Stop: what it holds, and a way to train all of it."""
    if history.stop_reason != "stopped":
        return
    k = history.num_merges
    of = {
        "num_merges": f" of {settings.limit_value:,}",
        "vocab_size": f" (of a vocabulary of {settings.limit_value:,})",
    }
    of = of.get(settings.limit, "")
    alert(
        "info",
        f"Training was stopped at merge {k:,}{of}: you can step through these {k:,} merges. "
        "Train again to make the whole run.",
    )
    _train_again(state)


def tokenizer_for(settings: Settings, step: int) -> bpe.Tokenizer:
    """The run's tokenizer as at ``step``, made once and shared by every session (the downloads and the
    Encode page ask for it), kept in the run's cache (``server/tokenizer_cache.py``)."""
    return tokenizer_at(train(settings, block=True), step)


def current_tokenizer() -> bpe.Tokenizer | None:
    """The tokenizer the training page last trained (its final step), or None if training failed."""
    s = app_state()
    try:
        history = train(s[keys.SETTINGS])
    except ValueError:
        return None
    return tokenizer_for(s[keys.SETTINGS], history.num_merges)
