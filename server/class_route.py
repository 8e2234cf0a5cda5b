"""The class state route: a following phone's browser asks ``GET /class-state/<code>?f=<id>&after=<serial>``.

A student following the teacher only needs to know *when* the teacher moved: the serial of the class's view
(``server/classroom.py``). Asked through a Streamlit fragment on a timer, each poll is a whole script run
(Streamlit's floor, a few ms of CPU); asked here (served beside the pages by ``serve.py``'s ``st.App``), it
is one small HTTP answer: the browser (``ui/class.js``) presses the step view's hidden button only when the
serial is not the one its page shows, and that run takes the teacher's step (``ui/classroom.py``).

With ``after`` (the newest serial the browser knows) the answer waits (a long poll) until the class's serial
is another, or ``HOLD_S`` has passed: a class that waits costs the server one answer per phone per ``HOLD_S``,
and a move reaches every waiting phone at once, not at each phone's next poll. One watcher per class and
server (:class:`_Watch`, an asyncio task while anyone waits) reads the shared view every
``classroom.WATCH_S`` and wakes the class's waiting answers when the serial changes.

The answer is JSON ``{"serial": n, "step": s, "vote": null | {"number", "step", "revealed"}}``, never cached
(``Cache-Control: no-store``), read from this server's shared read of the class (:func:`classroom.shared_view`:
one store read per class per ``SHARED_READ_S`` whatever the number of phones; the state lives in the store,
so every replica answers the same). ``f`` is the page's anonymous follower id: each answer counts it as
following (:func:`classroom.beat`, batched), so the projector's "N following" counts the phones that ask.
A class that has ended (or never was) is a 404 whose body is one sentence; a store that is away, a 503.
The answer holds nothing the teacher's token could be found from, nor any other student's id.

    curl 'http://localhost:8501/class-state/K7P3QX?f=abc'

What this leaves out: the page's side (``ui/classroom.py``, ``ui/class.js``) and serving (``serve.py``).
"""

from __future__ import annotations

import asyncio
import re
import time

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from server import classroom as live
from server import corpus_store

PATH = "/class-state"
NO_CACHE = {"Cache-Control": "no-store, max-age=0", "Pragma": "no-cache"}
HOLD_S = 5.0  # an answer with ``after`` waits at most this long (well inside classroom.SEEN_WINDOW_S: it counts)
FOLLOWER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")  # what ui/classroom.py makes; anything else is not counted

_served = False  # routes() was asked for: this process serves the route (serve.py)
# Store calls run in threads (a store that is away must not stall the event loop the pages' websockets share);
# a few at once are plenty, as polls of one class share one read.
_threads = anyio.CapacityLimiter(4)


def answer(code: str, follower: str | None) -> tuple[int, dict | str]:
    """(HTTP status, JSON body or sentence) for a poll of class ``code`` by ``follower``; blocking (the store)."""
    store = corpus_store.store()
    try:
        shown = live.shared_view(store, code)
        if shown is not None and follower is not None and FOLLOWER_ID.fullmatch(follower):
            live.beat(store, code, follower, True)
    except corpus_store.StoreUnavailable as exc:
        return 503, f"{exc} The page asks again in a moment."
    return _body(code, shown)


def _body(code: str, shown: live.View | None) -> tuple[int, dict | str]:
    if shown is None:
        return 404, f"There is no class {code!r} now: it has ended, or it went idle for {live.IDLE_S // 60} minutes."
    vote = shown.vote
    return 200, {
        "serial": shown.serial,
        "step": shown.step,
        "vote": None if vote is None else {"number": vote.number, "step": vote.step, "revealed": vote.revealed},
    }


_UNREAD = object()


class _Watch:
    """One class's waiting answers on this server's event loop, and the task that wakes them: it reads the shared
    view every ``classroom.WATCH_S`` while anyone waits, and on a new serial sets ``changed`` (a new
    event for the next wait) with the view it read."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.waiting = 0
        self.changed = asyncio.Event()
        # What the watcher read last: None is "no class", so before its first read it holds a value no read gives,
        # and that first read always wakes the waiting answers (a class that ended before it is then told at once).
        self.serial: int | None | object = _UNREAD
        self.shown: live.View | None | Exception = None
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self.waiting:
                await asyncio.sleep(live.WATCH_S)
                try:
                    shown = await anyio.to_thread.run_sync(
                        live.shared_view, corpus_store.store(), self.code, live.WATCH_S, limiter=_threads
                    )
                except corpus_store.StoreUnavailable as exc:
                    shown = exc
                serial = shown.serial if isinstance(shown, live.View) else None
                if serial != self.serial:
                    self.serial, self.shown = serial, shown
                    woken, self.changed = self.changed, asyncio.Event()
                    woken.set()
        finally:
            _watches.pop((id(asyncio.get_running_loop()), self.code), None)


_watches: dict[tuple[int, str], _Watch] = {}  # (event loop, code) -> its watch


def waiting(code: str) -> int:
    """How many answers for class ``code`` wait on this event loop (the tests wait for theirs to start waiting)."""
    watch = _watches.get((id(asyncio.get_running_loop()), code))
    return watch.waiting if watch is not None else 0


async def _held(code: str, follower: str | None, after: str) -> tuple[int, dict | str]:
    """:func:`answer`, held until the serial is not ``after`` or ``HOLD_S`` has passed."""
    key = (id(asyncio.get_running_loop()), code)
    watch = _watches.get(key)
    if watch is None or watch.task.done():
        watch = _watches[key] = _Watch(code)
    watch.waiting += 1
    try:
        woken = watch.changed  # taken before the read: a change made after the read still wakes this answer
        status, body = await anyio.to_thread.run_sync(answer, code, follower, limiter=_threads)
        deadline = time.monotonic() + HOLD_S
        while status == 200 and str(body["serial"]) == after and (left := deadline - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(woken.wait(), left)
            except TimeoutError:
                break
            woken = watch.changed
            if isinstance(watch.shown, Exception):
                return 503, f"{watch.shown} The page asks again in a moment."
            status, body = _body(code, watch.shown)
        return status, body
    finally:
        watch.waiting -= 1


async def class_state(request: Request) -> Response:
    """The class's serial, step and vote (JSON), or a sentence (404: no such class; 503: the store is away); with
    ``after``, once the serial is another (or after ``HOLD_S``)."""
    code = request.path_params["code"]
    follower, after = request.query_params.get("f"), request.query_params.get("after")
    if not live.valid_code(code):  # a link is anyone's text: no store look-up for what cannot be a code
        status, body = 404, f"There is no class {code[:20]!r}: a class code is {live.CODE_LEN} letters and digits."
    elif after is not None:
        status, body = await _held(code, follower, after)
    else:
        status, body = await anyio.to_thread.run_sync(answer, code, follower, limiter=_threads)
    if isinstance(body, str):
        return PlainTextResponse(body + "\n", status_code=status, headers=NO_CACHE)
    return JSONResponse(body, status_code=status, headers=NO_CACHE)


def routes() -> list[Route]:
    """The route ``serve.py`` adds to Streamlit's (from then on, :func:`served` is True in this process)."""
    global _served
    _served = True
    return [Route(PATH + "/{code}", class_state, methods=["GET"])]


def served() -> bool:
    """Whether this process serves the route (started by ``serve.py``, not ``streamlit run app.py``)."""
    return _served
