"""Upload bodies are read at a pace no one session sets for the others: a byte bucket per session on Streamlit's upload route.

Streamlit's upload route (``PUT /_stcore/upload_file/<session id>/<file id>``) reads each file in the serving
process: the multipart parser runs on the event loop every session shares, the file is spooled, read back whole
and kept in memory. A script that asks for twenty upload URLs and fills each with 59 MB keeps that process busy
with its bytes while every other session's clicks wait behind them. :class:`UploadPacing` is an ASGI middleware
(``st.App(..., middleware=[...])`` in ``serve.py``, beside ``server/ws_pacing.py``) that hands the route each
chunk of such a body once the session's bucket has room for it: ``burst`` bytes at once (a file of the corpus
limit, 100 MB, with room to spare, so one upload never waits), then ``rate`` bytes a second. While a chunk waits
the route asks uvicorn for nothing more, uvicorn stops reading that socket, and the sender's own TCP window
fills: the waiting bytes stay with the client, not in the server.

Nothing is refused, cut or reordered: a paced upload arrives whole, later. What a session may hold is
``server/upload_limits.py``'s. Other requests, websockets and other sessions' uploads pass untouched.

Left out: the Train page's ``POST /corpus-upload`` (``server/corpus_route.py``), which reads a chunk at a time into
the store under its own limits; a bucket per address (why: ``server/ws_pacing.py``); a session id made up for
the path gets a bucket of its own, but Streamlit refuses an unknown session before it reads the body.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable

from server.ws_pacing import Bucket

UPLOAD_PATH = "/_stcore/upload_file/"
BURST = float(os.environ.get("BPE_UPLOAD_BURST_MB", "128")) * (1 << 20)  # bytes one session uploads at once
RATE = float(os.environ.get("BPE_UPLOAD_MB_S", "16")) * (1 << 20)  # and a second, past that burst


def upload_session(scope) -> str | None:
    """The session id of a PUT to Streamlit's upload route, else None."""
    if scope["type"] != "http" or scope.get("method") != "PUT":
        return None
    _, found, rest = scope["path"].partition(UPLOAD_PATH)
    session = rest.split("/", 1)[0]
    return session if found and session else None


class UploadPacing:
    """The ASGI middleware: each upload's body through its session's bucket of bytes. ``clock`` and ``sleep``
    are the buckets' time (tests pass their own)."""

    def __init__(
        self,
        app,
        rate: float = RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.app = app
        self.rate, self.burst, self.clock, self.sleep = rate, burst, clock, sleep
        self.buckets: dict[str, Bucket] = {}  # sessions whose bucket has not refilled yet

    async def __call__(self, scope, receive, send) -> None:
        session = upload_session(scope)
        if session is None:
            await self.app(scope, receive, send)
            return

        async def paced_receive():
            message = await receive()
            if message["type"] == "http.request" and (size := len(message.get("body", b""))):
                bucket = self._bucket(session)
                while (wait := bucket.take(size)) > 0.0:
                    await self.sleep(wait)
            return message

        await self.app(scope, paced_receive, send)

    def _bucket(self, session: str) -> Bucket:
        """The session's bucket; the buckets of sessions that have refilled are forgotten meanwhile."""
        if session not in self.buckets:
            for name in [name for name, bucket in self.buckets.items() if bucket.full()]:
                del self.buckets[name]
            self.buckets[session] = Bucket(self.rate, self.burst, self.clock)
        return self.buckets[session]
