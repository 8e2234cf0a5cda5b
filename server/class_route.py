"""The class state route: a following phone's browser asks ``GET /class-state/<code>?f=<id>`` for the class's serial.

A student following the teacher only needs to know *when* the teacher moved: the serial of the class's view
(``server/classroom.py``). Asked through a Streamlit fragment on a timer, each poll is a whole script run
(Streamlit's floor, a few ms of CPU); asked here (served beside the pages by ``serve.py``'s ``st.App``), it
is one small HTTP answer: the browser (``ui/class.js``) presses the step view's hidden button only when the
serial is not the one its page shows, and that run takes the teacher's step (``ui/classroom.py``).

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

import re

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from server import classroom as live
from server import corpus_store

PATH = "/class-state"
NO_CACHE = {"Cache-Control": "no-store, max-age=0", "Pragma": "no-cache"}
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
    if shown is None:
        return 404, f"There is no class {code!r} now: it has ended, or it went idle for {live.IDLE_S // 60} minutes."
    vote = shown.vote
    return 200, {
        "serial": shown.serial,
        "step": shown.step,
        "vote": None if vote is None else {"number": vote.number, "step": vote.step, "revealed": vote.revealed},
    }


async def class_state(request: Request) -> Response:
    """The class's serial, step and vote (JSON), or a sentence (404: no such class; 503: the store is away)."""
    code = request.path_params["code"]
    follower = request.query_params.get("f")
    if not live.valid_code(code):  # a link is anyone's text: no store look-up for what cannot be a code
        status, body = 404, f"There is no class {code[:20]!r}: a class code is {live.CODE_LEN} letters and digits."
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
