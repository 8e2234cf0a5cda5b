"""The trained runs, shared by every session, and how a page gets one.

:func:`train` returns the run for a ``Settings``: from the run store (``RUNS``: finished runs kept
by measured memory, oldest evicted first, and the last few failures), or from a job in the training
process pool (``server/jobs.py``: one job per run, however many sessions ask). A page waiting on a
job that takes more than FIRST_WAIT_S shows its progress and a Stop button, and reruns when the run is
ready. :func:`tokenizer_for` turns a run's step into a ``bpe.Tokenizer`` (kept on the run).
What this leaves out: the training itself (``bpe``, in the worker) and the session's own state
(``ui/session.py``).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import os
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import fields

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

import bpe
from server import heap, jobs, limits
from ui import panels, vocabulary
from ui.alerts import alert
from ui.session import app_state, session_id
from ui.settings import Settings

# 1 GiB of trained runs, shared by all sessions; stated in the UI and README (a deployment may set BPE_RUN_MEMORY_MIB)
RUN_MEMORY_BUDGET = int(os.environ.get("BPE_RUN_MEMORY_MIB", "1024")) << 20
# Per run, for what the server caches on it: its step views (panels.per_run, 8 MiB), the candidate words of
# the pairs provenance looked up (bpe.history.CANDIDATES_KEPT entries of 12 bytes, about 5 MB) and the word splits
# it rebuilt (bpe.history.SPLITS_KEPT, about 200 bytes each) and the largest shares of pair counts (bpe.state.SHARES_KEPT,
# about 600 bytes each); without the candidates, 1 GiB of runs held 1.02 GiB at rest (benchmarks/bench_memory_at_rest.py)
# and the HTML of the splits' rows (ui.panels.ROWS_KEPT, about 600 bytes each) and of chips
# (ui.vocabulary.CHIPS_KEPT, about 260 bytes each) kept on the run for the step view
VIEWS_ALLOWANCE = (
    (8 << 20)
    + 12 * bpe.history.CANDIDATES_KEPT
    + 200 * bpe.history.SPLITS_KEPT
    + 600 * bpe.state.SHARES_KEPT
    + 600 * panels.ROWS_KEPT
    + 260 * vocabulary.CHIPS_KEPT
)
FIRST_WAIT_S = 1.0  # a run that trains faster than this shows at once, without a progress bar
POLL_S = 0.5  # how often a waiting page asks its job how far it got
# A browser's rerun carries every widget's value, so each poll of a page with a pasted corpus uploads the
# whole text again (seen in chromium: a 1.4 MB paste, one 1.4 MB websocket frame per poll). Over this
# size the page polls every POLL_BIG_S instead: a quarter of the uploads, and of the server's work on them.
POLL_BIG_CHARS = 200_000
POLL_BIG_S = 2.0
FAILURES_KEPT = 64
RUN_KEYS_KEPT = 2  # per session: its settings and the sidebar's preview of them (without forced merges)


def poll_interval(settings: Settings) -> float:
    """Seconds between a waiting page's polls: longer when each poll carries a large corpus."""
    return POLL_BIG_S if max(len(settings.text), len(settings.counts)) > POLL_BIG_CHARS else POLL_S


LIMITS_SENTENCE = (
    f"Limits: {limits.LIMIT_TEXT} of text, {limits.COUNTS_LIMIT_TEXT} of word counts, {jobs.MAX_MERGES:,} merges "
    f"(also for “until no pair is left”), words of up to {jobs.MAX_WORD_CHARS:,} characters; trained runs share "
    f"{RUN_MEMORY_BUDGET >> 30} GiB of server memory (the oldest is dropped, and trained again if asked for)."
)


class _RunStore:
    """Finished runs shared by every session (run key -> History, newest last), evicted oldest first
    once their measured sizes pass RUN_MEMORY_BUDGET; and the last few settings that failed, each as its
    sentence (a failure is deterministic: twenty sessions asking for a bad run do not train it twenty
    times). Only the sentence: an exception kept would keep every frame it passed through, and a frame
    holds the settings and their corpus (failed 24 MB pastes kept about 1 GB a wave of 20 sessions)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: OrderedDict[str, tuple[bpe.History, int]] = OrderedDict()
        self.failures: OrderedDict[str, str] = OrderedDict()
        self.nbytes = 0

    def get(self, key: str) -> bpe.History | None:
        with self.lock:
            failure = self.failures.get(key)
            if failure is None and key in self.runs:
                self.runs.move_to_end(key)
                return self.runs[key][0]
        if failure is not None:
            raise ValueError(failure)  # a new exception each time, its frames the asking page's only
        return None

    def put(self, key: str, history: bpe.History, nbytes: int, longer: bool = False) -> bpe.History:
        """Store ``history`` under ``key``, or return the run already there. ``longer``: a run with more
        merges replaces the one there (the merges kept by a later Stop, after an earlier one's copy)."""
        replaced = []
        with self.lock:
            if key in self.runs:
                old, size = self.runs[key]
                if not (longer and history.num_merges > old.num_merges):
                    return old
                replaced.append(self.runs.pop(key)[0])
                self.nbytes -= size
            self.runs[key] = (history, nbytes + VIEWS_ALLOWANCE)
            self.nbytes += nbytes + VIEWS_ALLOWANCE
            evicted = replaced + self._over_budget()
        self._free(evicted)
        return history

    def charge(self, key: str, history: bpe.History, nbytes: int) -> None:
        """Count ``nbytes`` more for a stored run (a tokenizer kept on it), evicting older runs if need be."""
        with self.lock:
            entry = self.runs.get(key)
            if entry is None or entry[0] is not history:
                return  # evicted meanwhile: what is kept on it goes with it
            self.runs[key] = (history, entry[1] + nbytes)
            self.nbytes += nbytes
            evicted = self._over_budget()
        self._free(evicted)

    def _over_budget(self) -> list:
        """Drop the oldest runs past the budget, keeping the newest (under the lock)."""
        evicted = []
        while self.nbytes > RUN_MEMORY_BUDGET and len(self.runs) > 1:
            _, (old, size) = self.runs.popitem(last=False)
            evicted.append(old)
            self.nbytes -= size
        return evicted

    @staticmethod
    def _free(evicted: list) -> None:
        # A run's hundreds of thousands of lists and tuples are frozen once they arrive, so full
        # collections skip them; an evicted run is freed only by unfreezing and collecting once
        # (server/heap.py).
        if evicted:
            heap.watch_evicted(evicted)  # a session still showing one frees it later (heap.sweeper)
            evicted.clear()  # the store's last references: the collection below frees them
            heap.refreeze(True)
        else:
            heap.refreeze(False)

    def fail(self, key: str, sentence: str) -> None:
        with self.lock:
            self.failures[key] = sentence
            while len(self.failures) > FAILURES_KEPT:
                self.failures.popitem(last=False)


RUNS = _RunStore()


def run_key(settings: Settings) -> str:
    """A run's identity: a digest of its settings (the job table and store never hold the corpus twice).
    Memoized in the session (the last RUN_KEYS_KEPT settings), so a 5 MB pasted corpus is digested once,
    not on every click, and the memo goes with the session: a module-level one (256 entries) kept 256
    sessions' corpora after they had gone."""
    memo = app_state().setdefault("run_keys", OrderedDict()) if get_script_run_ctx() is not None else None
    if memo is not None and (key := memo.get(settings)) is not None:
        memo.move_to_end(settings)
        return key
    key = settings_digest(settings)
    if memo is not None:
        memo[settings] = key
        while len(memo) > RUN_KEYS_KEPT:
            memo.popitem(last=False)
    return key


def settings_digest(settings: Settings) -> str:
    """The SHA-256 of every field, each with its name and length: the text is hashed as it is, not its
    ``repr`` (escaping a 5 MB text took 50 ms)."""
    h = hashlib.sha256()
    for f in fields(settings):
        value = getattr(settings, f.name)
        data = value if isinstance(value, str) else repr(value)
        data = data.encode("utf-8", "surrogatepass")
        h.update(f"{f.name}:{len(data)}:".encode() + data)
    return h.hexdigest()


def stopped_key(key: str) -> str:
    """Where the merges made before Stop are kept: apart from the full run, so "Train again" trains
    that one, and a session that did not press Stop never gets the shorter run for its settings."""
    return key + "/stopped"


def _keep(key: str, history: bpe.History, nbytes: int) -> bpe.History:
    """Store a finished run, or the part a Stop kept, under its key (the most merges kept, if Stop was
    pressed more than once: a session that stopped a run another still waited for got a copy of the
    merges so far, and the run's last session may stop it later)."""
    if history.stop_reason == "stopped":
        return RUNS.put(stopped_key(key), history, nbytes, longer=True)
    return RUNS.put(key, history, nbytes)


def _store_result(key: str, job: jobs.Job) -> None:
    """When a job ends (in the pool's thread): keep its run, or its ValueError."""
    exc = job.future.exception() if not job.future.cancelled() else None
    if isinstance(exc, ValueError):
        RUNS.fail(key, str(exc))
    elif exc is None and not job.future.cancelled():
        _keep(key, *job.future.result())


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
    return jobs.submit(
        key,
        spec,
        settings.options(),
        session_id(),
        lambda job: _store_result(key, job),
        finished=lambda: RUNS.get(key) is not None,
        alive=session_alive,
    )


def _result(settings: Settings, key: str, job: jobs.Job, timeout: float | None) -> bpe.History:
    """The job's run, waiting up to ``timeout`` (TimeoutError after); ValueError for bad input.

    A failure becomes a new ValueError raised outside the ``except`` block, and the job's own exception
    loses the frames it gathered here: the job's future keeps that exception, and a frame of this
    function holds the settings and their corpus."""
    try:
        history, nbytes = job.future.result(timeout=timeout)
    except (cf.TimeoutError, TimeoutError):
        raise
    except ValueError as exc:
        failure = str(exc)
        RUNS.fail(key, failure)
        exc.__traceback__ = None
    except jobs.Stopped as exc:
        failure = "This run was stopped before it finished. Change the corpus or settings to train again."
        exc.__traceback__ = None
    except Exception as exc:  # a worker died (out of memory, killed): say so, and let the next ask retry
        jobs.reset_if_broken()
        failure = f"Training failed on the server ({type(exc).__name__}); reload the page to try again."
        exc.__traceback__ = None
    else:
        return _keep(key, history, nbytes)
    del job
    raise ValueError(failure)


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
        history = _result(settings, key, job, None if block else FIRST_WAIT_S)
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
            jobs.leave(job, me, on_kept=lambda history, nbytes: _keep(key, history, nbytes))
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


TOKENIZERS_PER_RUN = 4  # the steps whose tokenizers are kept on a run (its last step, Encode's step, ...)
# A tokenizer's memory per vocabulary entry (measured with tracemalloc: 5 MiB for python-docs at 15,875 tokens, 330
# bytes each); without it, 1 GiB of runs held 1.10 GiB at rest (benchmarks/bench_memory_at_rest.py)
TOKENIZER_BYTES_PER_TOKEN = 400
_TOKENIZERS: weakref.WeakKeyDictionary[bpe.History, OrderedDict] = weakref.WeakKeyDictionary()
_TOKENIZERS_LOCK = threading.Lock()


def tokenizer_for(settings: Settings, step: int) -> bpe.Tokenizer:
    """The run's tokenizer as at ``step``, made once and shared by every session (the downloads and
    the Encode page ask for it). Kept on the run itself (weakly), so it goes when the run is evicted:
    a cache of its own (``st.cache_resource``, 16 entries) kept tokenizers of runs long gone, outside
    the run budget, and their objects, made while the run was alive, pinned its freed memory."""
    history = train(settings, block=True)
    with _TOKENIZERS_LOCK:
        kept = _TOKENIZERS.setdefault(history, OrderedDict())
        if step in kept:
            kept.move_to_end(step)
            return kept[step]
    tok = bpe.Tokenizer.from_state(history.state(step))
    with _TOKENIZERS_LOCK:
        new = kept.setdefault(step, tok) is tok
        while len(kept) > TOKENIZERS_PER_RUN:
            kept.popitem(last=False)
    if new:  # counted against the run budget, with the run it is kept on
        RUNS.charge(run_key(settings), history, TOKENIZER_BYTES_PER_TOKEN * len(tok.vocab))
    return kept.get(step, tok)


def current_tokenizer() -> bpe.Tokenizer | None:
    """The tokenizer the training page last trained (its final step), or None if training failed."""
    s = app_state()
    try:
        history = train(s["settings"])
    except ValueError:
        return None
    return tokenizer_for(s["settings"], history.num_merges)
