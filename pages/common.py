"""What the pages share: the session's corpus and settings, cached training, the URL.

All of the app's state lives in ``st.session_state[STATE_KEY]`` (one namespaced
dict), so the encode page uses the tokenizer trained on the training page and
nothing resets when the user switches pages. Training is cached with
``st.cache_resource`` keyed by corpus and settings: it runs once, and every
session that trains the same thing shares the (immutable) history.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import gc
import hashlib
import html
import json
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

import bpe
from bpe import display
from bpe.presets import DEFAULT_PRESET, PRESETS
from pages import jobs, tcp

STATE_KEY = "bpe_explorer"
MAX_CORPUS_BYTES = jobs.MAX_CORPUS_BYTES  # pasted or uploaded text; stated in the UI and README
MAX_URL_CORPUS_CHARS = 1_500  # a pasted corpus longer than this is not put in the URL


def _leave_folder_pages_mode() -> None:
    """Make the first run after a server start go through ``app.py``'s router.

    Streamlit 1.67 decides when a server starts whether a folder named ``pages/`` beside the
    entry script means its old multipage API, and only ``st.navigation`` (in ``app.py``) turns
    that off. So until some session has run ``app.py``, a direct link such as
    ``/train?step=7`` runs ``pages/train.py`` alone (no page config, no CSS) and the sidebar
    lists every module here as a page. Every page imports this module first: if that mode is
    still on, turn it off exactly as ``st.navigation`` does and run again, now through the router.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        PagesManager.uses_pages_directory = False
        st.rerun()


_leave_folder_pages_mode()


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run (hashable: it is part of the cache key)."""

    source: str = "preset"  # preset | text | counts
    preset: str = DEFAULT_PRESET
    text: str = ""
    counts: str = ""
    pre_tokenizer: str = "whitespace"
    limit: str = "num_merges"  # num_merges | vocab_size | none
    limit_value: int = 10
    special_tokens: tuple[str, ...] = ()
    tie_break: str = "first"
    min_frequency: int = 0
    algorithm: str = "bpe"
    full_byte_alphabet: bool = False
    forced: tuple[tuple[int, tuple[str, str]], ...] = ()

    def options(self) -> dict:
        """Keyword arguments for ``bpe.train_steps``."""
        opts = dict(
            pre_tokenizer=self.pre_tokenizer,
            special_tokens=self.special_tokens,
            tie_break=self.tie_break,
            min_frequency=self.min_frequency,
            algorithm=self.algorithm,
            full_byte_alphabet=self.full_byte_alphabet,
            forced_merges=dict(self.forced),
        )
        if self.limit in ("num_merges", "vocab_size"):
            opts[self.limit] = self.limit_value
        return opts


def preset_settings(key: str) -> Settings:
    """The settings that reproduce a preset exactly."""
    p = PRESETS[key]
    o = p.options
    limit = "vocab_size" if "vocab_size" in o else "num_merges" if "num_merges" in o else "none"
    return Settings(
        source="preset",
        preset=key,
        pre_tokenizer=o.get("pre_tokenizer", "whitespace"),
        limit=limit,
        limit_value=o.get(limit, 10) if limit != "none" else 10,
        special_tokens=tuple(o.get("special_tokens", ())),
        tie_break=o.get("tie_break", "first"),
        forced=tuple(sorted(p.forced_merges.items())),
    )


def app_state() -> dict:
    """The session's one namespaced dict, created on first use (from the URL if it has one)."""
    if STATE_KEY not in st.session_state:
        notes: list[str] = []
        settings = settings_from_url(notes)
        step = step_from_url(notes)
        # link_notes: what the link could not restore, shown until the user changes these settings
        st.session_state[STATE_KEY] = {
            "settings": settings,
            "step": step,
            "error": None,
            "link_notes": (settings, notes),
        }
    return st.session_state[STATE_KEY]


def keep_widgets(store: dict, keys) -> None:
    """Keep the values of a page's widgets in ``store`` (part of our state) and set them back.

    Streamlit forgets a widget's value when a run does not draw it (another page is shown, or the
    page stopped early), and the browser then shows it empty while the server may still hold the
    old value. Setting each value by script before the widgets are drawn sends it to the browser
    with the widget, every run, so the two always agree."""
    for key in keys:
        if key in st.session_state:
            store[key] = st.session_state[key]
        if key in store:
            st.session_state[key] = store[key]


# -- corpus and training -------------------------------------------------------------------------
def corpus_of(settings: Settings):
    """The corpus a setting describes, or raise ValueError with what to fix."""
    return jobs.corpus_of(settings.source, settings.preset, settings.text, settings.counts)


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's reach (``gc.freeze``).

    Streamlit, pandas and Altair are hundreds of thousands of long-lived objects; without this,
    Python's full collections re-scan them all (measured in benchmarks/bench_pages.py). Streamlit's
    own full collection after every script run is off (``runner.postScriptGC`` in .streamlit/config.toml);
    Python's collector still runs one now and then. Garbage is collected first, so only live
    objects are frozen. Called once, at start-up; a trained run is frozen when it is stored and
    unfrozen for collection when it is evicted (``_RunStore.put``)."""
    gc.collect()
    gc.freeze()


_started = False


def freeze_once_at_startup() -> None:
    global _started
    if not _started:
        _started = True
        sockets = tcp.no_delay()  # small websocket messages go out at once (pages/tcp.py)
        print(f"bpe: TCP_NODELAY set on {sockets} server sockets", file=sys.stderr, flush=True)
        jobs.warm()  # the training workers start with the server, not with the first student
        freeze_heap()


RUN_MEMORY_BUDGET = 1 << 30  # 1 GiB of trained runs, shared by all sessions; stated in the UI and README
VIEWS_ALLOWANCE = 8 << 20  # per run, for the step views cached on it (panels.per_run)
FIRST_WAIT_S = 1.0  # a run that trains faster than this shows at once, without a progress bar
POLL_S = 0.5  # how often a waiting page asks its job how far it got
# A browser's rerun carries every widget's value, so each poll of a page with a pasted corpus uploads the
# whole text again (seen in chromium: a 1.4 MB paste, one 1.4 MB websocket frame per poll). Over this
# size the page polls every POLL_BIG_S instead: a quarter of the uploads, and of the server's work on them.
POLL_BIG_CHARS = 200_000
POLL_BIG_S = 2.0
FAILURES_KEPT = 64


def poll_interval(settings: Settings) -> float:
    """Seconds between a waiting page's polls: longer when each poll carries a large corpus."""
    return POLL_BIG_S if max(len(settings.text), len(settings.counts)) > POLL_BIG_CHARS else POLL_S


LIMITS_SENTENCE = (
    f"Limits: {jobs.MAX_CORPUS_BYTES // 1_000_000} MB of text or word counts, {jobs.MAX_MERGES:,} merges "
    f"(also for “until no pair is left”), words of up to {jobs.MAX_WORD_CHARS:,} characters; trained runs share "
    f"{RUN_MEMORY_BUDGET >> 30} GiB of server memory (the oldest is dropped, and trained again if asked for)."
)


class _RunStore:
    """Finished runs shared by every session (run key -> History, newest last), evicted oldest first
    once their measured sizes pass RUN_MEMORY_BUDGET; and the last few settings that failed (a
    failure is deterministic: twenty sessions asking for a bad run do not train it twenty times)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: OrderedDict[str, tuple[bpe.History, int]] = OrderedDict()
        self.failures: OrderedDict[str, ValueError] = OrderedDict()
        self.nbytes = 0

    def get(self, key: str) -> bpe.History | None:
        with self.lock:
            if key in self.failures:
                raise self.failures[key]
            if key in self.runs:
                self.runs.move_to_end(key)
                return self.runs[key][0]
            return None

    def put(self, key: str, history: bpe.History, nbytes: int) -> bpe.History:
        with self.lock:
            if key in self.runs:
                return self.runs[key][0]
            self.runs[key] = (history, nbytes + VIEWS_ALLOWANCE)
            self.nbytes += nbytes + VIEWS_ALLOWANCE
            evicted = []
            while self.nbytes > RUN_MEMORY_BUDGET and len(self.runs) > 1:
                _, (old, size) = self.runs.popitem(last=False)
                evicted.append(old)
                self.nbytes -= size
        # A run's hundreds of thousands of lists and tuples would be scanned by every full collection
        # (Python's own; Streamlit's after every script run is off in .streamlit/config.toml), so they
        # are frozen (gc.freeze) once they arrive. Frozen objects are never collected, which is what
        # leaked about 25 MB per training before (issue 15 #4); so when a run is evicted, everything is
        # unfrozen, collected once, and frozen again.
        if evicted:
            del evicted, old
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        return history

    def fail(self, key: str, exc: ValueError) -> None:
        with self.lock:
            self.failures[key] = exc
            while len(self.failures) > FAILURES_KEPT:
                self.failures.popitem(last=False)


RUNS = _RunStore()


@functools.lru_cache(maxsize=256)
def run_key(settings: Settings) -> str:
    """A run's identity: a digest of its settings (the job table and store never hold the corpus twice).
    Memoized: a 5 MB pasted corpus is digested once, not on every click."""
    return hashlib.sha256(repr(settings).encode("utf-8", "surrogatepass")).hexdigest()


def _store_result(key: str, job: jobs.Job) -> None:
    """When a job ends (in the pool's thread): keep its run, or its ValueError."""
    exc = job.future.exception() if not job.future.cancelled() else None
    if isinstance(exc, ValueError):
        RUNS.fail(key, exc)
    elif exc is None and not job.future.cancelled():
        RUNS.put(key, *job.future.result())


def session_id() -> str:
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "bare"


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
    )


def _result(settings: Settings, key: str, job: jobs.Job, timeout: float | None) -> bpe.History:
    """The job's run, waiting up to ``timeout`` (TimeoutError after); ValueError for bad input."""
    try:
        history, nbytes = job.future.result(timeout=timeout)
    except (cf.TimeoutError, TimeoutError):
        raise
    except ValueError as exc:
        RUNS.fail(key, exc)
        raise
    except jobs.Stopped:
        raise ValueError(
            "This run was stopped before it finished. Change the corpus or settings to train again."
        ) from None
    except Exception as exc:  # a worker died (out of memory, killed): say so, and let the next ask retry
        jobs.reset_if_broken()
        raise ValueError(
            f"Training failed on the server ({type(exc).__name__}); reload the page to try again."
        ) from exc
    return RUNS.put(key, history, nbytes)


def train(settings: Settings, *, block: bool = False) -> bpe.History:
    """The run for these settings, trained once in the process pool however many sessions ask
    (shared by all of them); ValueError on bad input.

    A run that takes longer than FIRST_WAIT_S does not hold the page: the page shows its progress
    and a Stop button (a fragment polling every POLL_S, or POLL_BIG_S for a large corpus) and stops
    here; when the run is ready the page reruns and finds it in the store. ``block=True`` waits instead (callbacks and cached
    functions, which cannot draw)."""
    key = run_key(settings)
    history = RUNS.get(key)
    if history is not None:
        return history
    state = app_state() if get_script_run_ctx() is not None else {}
    if not block and state.get("stopped") == key:
        _stopped_notice(state)
    job = jobs.job_for(key) or _submit(settings, key)
    if job is None:  # it finished between the look in RUNS and the look for a job
        return RUNS.get(key)
    job.waiters.add(session_id())
    try:
        return _result(settings, key, job, None if block else FIRST_WAIT_S)
    except (cf.TimeoutError, TimeoutError):
        _waiting(job, key, state, poll_interval(settings))
        st.stop()
        raise  # not reached


def _waiting(job: jobs.Job, key: str, state: dict, every: float) -> None:
    """Progress and a Stop button while the pool trains, polled every ``every`` seconds; the whole
    page reruns when the run is ready."""
    me = session_id()

    def stop() -> None:
        jobs.leave(job, me)
        state["stopped"] = key

    def poll() -> None:
        if job.future.done():
            st.rerun(scope="app")
        step = job.progress()
        seconds = time.monotonic() - job.started
        if step == 0:
            text = f"Reading the corpus… ({seconds:.0f} s)"
        else:
            text = f"Training… merge {step:,}" + (f" of {job.total:,}" if job.total else "") + f" ({seconds:.0f} s)"
        st.progress(min(step / job.total, 1.0) if job.total else (step % 1000) / 1000, text=text)
        others = len(job.waiters) - 1
        if others > 0:
            st.caption(
                f"{others} other session{'s' if others > 1 else ''} asked for this same run: it is trained "
                "once, for all of you."
            )
        st.button("Stop training", key="stop_training", icon=":material/stop_circle:", on_click=stop)

    st.fragment(poll, run_every=every)()


def _stopped_notice(state: dict) -> None:
    alert("info", "Training was stopped. Change the corpus or settings, or train this run again.")
    st.button("Train again", key="train_again", icon=":material/replay:", on_click=lambda: state.pop("stopped", None))
    st.stop()


@st.cache_resource(max_entries=16, show_spinner=False)
def tokenizer_for(settings: Settings, step: int) -> bpe.Tokenizer:
    return bpe.Tokenizer.from_state(train(settings, block=True).state(step))


def current_tokenizer() -> bpe.Tokenizer | None:
    """The tokenizer the training page last trained (its final step), or None if training failed."""
    s = app_state()
    try:
        history = train(s["settings"])
    except ValueError:
        return None
    return tokenizer_for(s["settings"], history.num_merges)


# -- the URL --------------------------------------------------------------------------------------
def settings_to_params(settings: Settings, step: int) -> dict[str, str]:
    """Query parameters that restore this view (the corpus itself only if it is short)."""
    base = preset_settings(settings.preset) if settings.source == "preset" else Settings(source=settings.source)
    params: dict[str, str] = {"step": str(step)}
    if settings.source == "preset":
        params["preset"] = settings.preset
    elif not corpus_fits_url(settings):
        params["corpus"] = settings.source  # a marker: the link cannot carry the corpus itself
    elif settings.source == "text":
        params["text"] = settings.text
    elif settings.source == "counts":
        params["counts"] = settings.counts
    for name in (
        "pre_tokenizer",
        "limit",
        "limit_value",
        "tie_break",
        "min_frequency",
        "algorithm",
        "full_byte_alphabet",
    ):
        value = getattr(settings, name)
        if value != getattr(base, name):
            params[name] = str(int(value) if isinstance(value, bool) else value)
    if settings.special_tokens != base.special_tokens:
        params["special"] = ",".join(settings.special_tokens)
    if settings.forced != base.forced:
        # JSON, not "a b": tokens may contain spaces (space-suffix) or any other character.
        params["forced"] = json.dumps([[k, a, b] for k, (a, b) in settings.forced], ensure_ascii=False)
    return params


def corpus_fits_url(settings: Settings) -> bool:
    if settings.source == "text":
        return len(settings.text) <= MAX_URL_CORPUS_CHARS
    if settings.source == "counts":
        return len(settings.counts) <= MAX_URL_CORPUS_CHARS
    return True


URL_CHOICES = {
    "pre_tokenizer": bpe.PRE_TOKENIZERS,
    "limit": ("num_merges", "vocab_size", "none"),
    "tie_break": bpe.TIE_RULES,
    "algorithm": bpe.ALGORITHMS,
}
MAX_LIMIT_VALUE = 100_000  # the sidebar's number input goes up to this
MAX_FORCED_CHARS = 20_000  # a link's what-if merges, as JSON
MAX_FORCED_MERGES = 1_000
MAX_SHOWN_CHARS = 80  # a link value quoted in a note is cut to this


def shown(value: str) -> str:
    """A value from a link, cut to a readable length for a note (the note is escaped where it is drawn)."""
    value = str(value)
    return value if len(value) <= MAX_SHOWN_CHARS else value[:MAX_SHOWN_CHARS] + f"… ({len(value):,} characters)"


def _whole_number(name: str, raw: str, notes: list[str], low: int, high: int) -> int | None:
    """A link's whole number, kept within [low, high]; None (and a note) when it is not one."""
    raw = raw.strip()
    if not (raw.lstrip("-").isdigit() and len(raw) <= 30):
        notes.append(f"The link's {name} “{shown(raw)}” is not a whole number; it is left out.")
        return None
    value = int(raw)
    kept = max(low, min(value, high))
    if kept != value:
        notes.append(f"The link's {name} {value:,} is out of range; using {kept:,}.")
    return kept


def forced_from_url(raw: str, notes: list[str]) -> tuple[tuple[int, tuple[str, str]], ...] | None:
    """A link's what-if merges (JSON ``[[step, a, b], ...]``), or None and a note saying what is wrong.
    Read defensively: a link is anyone's text (a number like 1e999, brackets nested thousands deep)."""
    problem = None
    if len(raw) > MAX_FORCED_CHARS:
        problem = f"is {len(raw):,} characters long, over the {MAX_FORCED_CHARS:,} a link may carry"
    else:
        try:
            items = json.loads(raw)
        except (ValueError, RecursionError):
            items, problem = None, "is not readable JSON"
        if problem is None and not isinstance(items, list):
            problem = "is not a list of [step, token, token] entries"
        elif problem is None and len(items) > MAX_FORCED_MERGES:
            problem = f"has {len(items):,} entries, more than {MAX_FORCED_MERGES:,}"
        elif problem is None:
            forced = []
            for item in items:
                ok = (
                    isinstance(item, list)
                    and len(item) == 3
                    and type(item[0]) is int
                    and 1 <= item[0] <= MAX_LIMIT_VALUE
                    and all(isinstance(t, str) and t for t in item[1:])
                )
                if not ok:
                    problem = (
                        f"has an entry that is not [step, token, token] with a step from 1 to {MAX_LIMIT_VALUE:,}: "
                        f"“{shown(json.dumps(item, ensure_ascii=False) if _shallow(item) else '…')}”"
                    )
                    break
                forced.append((item[0], (item[1], item[2])))
            else:
                return tuple(sorted(dict(forced).items()))
    notes.append(f"The link's what-if merges (forced=) {problem}, so the run leaves them out.")
    return None


def _shallow(item) -> bool:
    return not isinstance(item, (list, dict)) or all(not isinstance(x, (list, dict)) for x in item)


def settings_from_url(notes: list[str] | None = None) -> Settings:
    """Settings from ``st.query_params``. What a link cannot restore is left at the preset's value
    and said in ``notes`` (a sentence each, quoting the link's value as plain text: the page escapes it)."""
    q = st.query_params
    notes = notes if notes is not None else []
    if "text" in q:
        s = Settings(source="text", text=q["text"])
    elif "counts" in q:
        s = Settings(source="counts", counts=q["counts"])
    elif q.get("corpus") in ("text", "counts"):
        s = Settings(source=q["corpus"])
        notes.append(
            f"This link was made from a corpus too long to fit in a link (over {MAX_URL_CORPUS_CHARS:,} "
            "characters), so it does not carry the text: paste or upload it again in the sidebar. "
            "The link's settings are applied."
        )
    else:
        preset = q.get("preset", DEFAULT_PRESET)
        if preset not in PRESETS:
            notes.append(f"The link names a preset that does not exist ({shown(preset)}); showing {DEFAULT_PRESET}.")
            preset = DEFAULT_PRESET
        s = preset_settings(preset)
    changes: dict = {}
    for name, choices in URL_CHOICES.items():
        if name in q and q[name] in choices:
            changes[name] = q[name]
        elif name in q:
            notes.append(
                f"The link's {name} “{shown(q[name])}” is not one of {', '.join(choices)}; using {getattr(s, name)}."
            )
    for name, top in (("limit_value", MAX_LIMIT_VALUE), ("min_frequency", bpe.MAX_WORD_COUNT)):
        if name in q:
            value = _whole_number(name, q[name], notes, 0, top)
            if value is not None:
                changes[name] = value
    if "full_byte_alphabet" in q:
        changes["full_byte_alphabet"] = q["full_byte_alphabet"] == "1"
    if "special" in q:
        changes["special_tokens"] = tuple(dict.fromkeys(t for t in q["special"].split(",") if t))
    if "forced" in q:
        forced = forced_from_url(q["forced"], notes)
        if forced is not None:
            changes["forced"] = forced
    s = replace(s, **changes)
    if s.full_byte_alphabet and s.pre_tokenizer not in bpe.BYTE_LEVEL:
        s = replace(s, full_byte_alphabet=False)
    return s


def step_from_url(notes: list[str] | None = None) -> int:
    """The link's step (the page clamps it to the run's last step)."""
    if "step" not in st.query_params:
        return 0
    step = _whole_number("step", st.query_params["step"], notes if notes is not None else [], 0, MAX_LIMIT_VALUE)
    return 0 if step is None else step


def sync_url(settings: Settings, step: int) -> None:
    """Write the view into the URL, on every run. Not only when the server's copy differs: a run cut
    short (a Play tick interrupted by Pause) can leave the browser's address bar ahead of that copy.
    Stepping changes the URL on every click anyway, so this sends nothing more then."""
    st.query_params.from_dict(settings_to_params(settings, step))


# -- small rendering helpers --------------------------------------------------------------------
# The styles of our HTML blocks, sent once per full page run (app.py). A fragment rerun (every
# step) leaves it in place, so the blocks themselves only carry classes.
PAGE_CSS = display.TOKEN_CSS + (
    "<style>"
    ".bpe-step{border:1px solid #d0d3d9;border-radius:8px;padding:10px 14px;margin-bottom:4px}"
    # Headings for screen readers (h2 the step, h3 each section), drawn as before.
    ".bpe-step-title{font-size:1.4rem;line-height:2;font-weight:400;padding:0;margin:0;letter-spacing:normal}"
    ".bpe-step p{margin:4px 0}"
    ".bpe-h{font-size:1.35rem;font-weight:600;margin:10px 0 6px 0;padding:0;line-height:1.4;letter-spacing:normal}"
    ".bpe-note{font-size:0.85rem;color:#5f6368;margin:4px 0}"
    ".bpe-table{border-collapse:collapse;font-size:0.92rem;margin:2px 0;max-width:100%}"
    ".bpe-table th,.bpe-table td{border-bottom:1px solid #e6e8eb;padding:3px 8px;text-align:left;vertical-align:top}"
    ".bpe-table th{font-weight:600;color:#444}"
    # break-word, not anywhere: "anywhere" lets a column shrink to one letter, so narrow columns wrapped
    # words letter by letter; pairs and tokens never wrap inside.
    ".bpe-table td{overflow-wrap:break-word}"
    ".bpe-table td.pair,.bpe-table td.new-token{white-space:nowrap}"
    ".bpe-table td.from,.bpe-table th.from{font-size:0.8rem;color:#444}"
    ".bpe-table td.from{overflow-wrap:anywhere;min-width:8em}"
    ".bpe-table td.long{white-space:normal;overflow-wrap:anywhere;min-width:6em}"
    ".bpe-grid{display:grid;grid-template-columns:3fr 2fr;gap:24px;align-items:start}"
    # No panel wider than its column: grid cells may shrink below their content (a scrollbar as the
    # last resort), sentences break inside long tokens; chips and cells cut long tokens (display.shorten).
    ".bpe-grid>div{min-width:0;overflow-x:auto}"
    ".bpe-step,.bpe-note{overflow-wrap:anywhere}"
    ".bpe-scroll{max-height:320px;overflow:auto;line-height:1.9}"
    ".bpe-alphabet{font-family:monospace;color:#333;word-spacing:0.3em}"
    ".bpe-lazy{content-visibility:auto;contain-intrinsic-size:auto 400px}"
    ".bpe-alert{border-radius:8px;padding:12px 16px;margin:0 0 8px 0;white-space:pre-wrap;overflow-wrap:anywhere}"
    ".bpe-alert-error{background:#ffecec;color:#7d353b}"
    ".bpe-alert-warning{background:#fff8e6;color:#6d5a1f}"
    ".bpe-alert-info{background:#eaf3fc;color:#1d4f7c}"
    "@media (max-width:800px){.bpe-grid{grid-template-columns:1fr}}"
    "</style>"
)


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


__all__ = [
    "MAX_CORPUS_BYTES",
    "MAX_URL_CORPUS_CHARS",
    "alert",
    "PAGE_CSS",
    "PRESETS",
    "STATE_KEY",
    "Settings",
    "app_state",
    "corpus_fits_url",
    "corpus_of",
    "current_tokenizer",
    "esc",
    "freeze_heap",
    "keep_widgets",
    "preset_settings",
    "settings_from_url",
    "settings_to_params",
    "step_from_url",
    "sync_url",
    "tokenizer_for",
    "train",
]
