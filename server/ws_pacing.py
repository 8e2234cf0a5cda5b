"""Websocket messages are handed to Streamlit at a pace no one client sets for the others: a bucket per connection, big messages one at a time.

Streamlit's websocket endpoint reads each message a browser sends, parses it as a ``BackMsg`` on the event loop
every session shares, and starts a run of that session's script for it. So one client sending thousands of
reruns, or twenty clients pasting 24 MB each at once, held every other session's clicks behind their parsing and
their runs. :class:`WebsocketPacing` is an ASGI middleware (``st.App(..., middleware=[...])``, ``serve.py``) in
front of ``/_stcore/stream`` that chooses only *when* it hands each message on:

- **A bucket per connection:** ``burst`` batches at once, then ``rate`` a second; a batch is the message a token
  was taken for and every message of that connection already waiting behind it, handed on together, so that
  Streamlit coalesces their reruns into one run, as it did when a burst came in at once (each message handed on
  alone would restart the session's run). Messages wait in order, read ahead of Streamlit so that the socket's
  ping answers still arrive (uvicorn closes a connection whose pings go unanswered for a minute); past
  ``max_queued`` messages, or ``max_queued_bytes`` besides the one it waits to hand on, the socket is left unread
  and the greedy connection's own TCP window fills. Once the client has gone, what it sent is handed on at once.
  A person clicking, typing or holding a key stays far below it.
- **Big messages one at a time, server-wide:** a message over ``big_bytes`` (a pasted text of megabytes) waits
  for the gate, and holds it until its session's run has ended (the connection sends ``script_finished``, other
  than "stopped for a rerun") or ``hold_s`` has passed. Small messages (clicks) never wait for it, so they pass
  while pastes queue; the pastes are parsed and run one after another instead of all at once.
- **A byte budget per connection for big messages:** before the gate, a big message takes its size from a second
  bucket of its connection, ``big_burst`` bytes at once (a teacher pasting two or three corpora never waits), then
  ``big_rate`` bytes a second. The budget of texts sent (``server/quota.py``) refuses a storm of pastes on the
  page, but only after Streamlit has read, parsed and run each one; this bounds how much of the serving process
  one connection's megabytes take, whatever it sends (a paste storm; a text the page refused, which stays in the
  box and comes back with each of that session's clicks). Its small messages behind a waiting one wait in order.

Nothing is dropped, merged or reordered: a delayed message arrives in its order, and its run (with the page's
sentence for an over-limit paste) happens. Messages of other paths and plain HTTP pass untouched.

Left out: a cap per address (behind ``serve-replicas.sh``'s HAProxy every connection comes from HAProxy's
address, and a class behind one NAT shares one, so the cap would be the class's); uploads are HTTP requests,
paced by ``server/upload_pacing.py``. A big message is already in memory when it waits for
the gate: uvicorn has read the whole frame (``server.maxWidgetStateSize`` bounds it).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

STREAM_PATH = "/_stcore/stream"
RATE = float(os.environ.get("BPE_WS_RATE", "20"))  # batches a second per connection, past its burst
BURST = int(os.environ.get("BPE_WS_BURST", "40"))  # batches one connection may send in a row
BIG_BYTES = 1 << 20  # a message over this waits for the gate (a 1 MB paste does not; 5 MB and more do)
HOLD_S = 3.0  # the longest one big message keeps the gate shut while its run goes on
MB = 1 << 20
BIG_BURST = float(os.environ.get("BPE_WS_BIG_BURST_MB", "16")) * MB  # big messages' bytes a connection sends at once
BIG_RATE = float(os.environ.get("BPE_WS_BIG_MB_S", "2")) * MB  # and a second, past that burst
MAX_QUEUED = 10_000  # messages read ahead for one connection before its socket is left unread
MAX_QUEUED_BYTES = 8 << 20  # bytes read ahead for one connection besides the message it waits to hand on
FINISHED_MAX_BYTES = 512  # a ForwardMsg saying a run ended is a few dozen bytes; bigger ones are not parsed


class Bucket:
    """Tokens for one connection's messages (or bytes): ``burst`` at first, refilled at ``rate`` a second."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self, n: float = 1.0) -> float:
        """Take ``n`` tokens and return 0.0, or return the seconds until they can be taken (nothing taken).
        ``n`` over the burst is taken once the bucket is full, leaving it in debt: a message bigger than the
        burst passes alone, and what comes after it waits for the bucket to refill."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        need = min(n, float(self.burst))
        if self.tokens >= need:
            self.tokens -= n
            return 0.0
        return (need - self.tokens) / self.rate

    def full(self) -> bool:
        """Whether the bucket has refilled to its burst (a bucket in that state can be forgotten and made anew)."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst


@dataclass
class _Connection:
    bucket: Bucket
    big: Bucket  # the bytes of this connection's big messages
    batch: bool = False  # handing on the messages that were waiting together, on one token
    holding: asyncio.Event | None = None  # set when this connection's big message lets the gate go
    holds: list = field(default_factory=list)  # the tasks that keep the gate shut, so they are not collected


def run_ended(data: bytes) -> bool:
    """Whether ``data`` (a ForwardMsg the server sends) says a run ended, other than to start again at once."""
    if len(data) > FINISHED_MAX_BYTES:
        return False
    msg = ForwardMsg()
    try:
        msg.ParseFromString(data)
    except Exception:  # noqa: BLE001 - not ours to judge; only a clean script_finished counts
        return False
    return msg.WhichOneof("type") == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN


class _ReadAhead:
    """One connection's messages read from the server as they come, kept in order until handed on. Reading
    stops only while more than ``max_count`` messages, or ``max_bytes`` besides the first, wait: uvicorn reads
    the client's pings' answers with its messages, and a socket left unread for a minute is closed."""

    def __init__(self, receive, max_count: int, max_bytes: int) -> None:
        self.receive, self.max_count, self.max_bytes = receive, max_count, max_bytes
        self.queue: deque = deque()
        self.bytes = 0
        self.arrived = asyncio.Event()  # set by the reader, cleared by the one waiting for a message
        self.taken = asyncio.Event()  # set as a message is handed on, cleared by the reader waiting for room
        self.ended = False  # the disconnect has been read: what is left is handed on at once
        self.task = asyncio.create_task(self._read())

    def _full(self) -> bool:
        return len(self.queue) >= self.max_count or self.bytes - _size(self.queue[0]) >= self.max_bytes

    async def _read(self) -> None:
        while True:
            while self.queue and self._full():
                self.taken.clear()
                await self.taken.wait()
            message = await self.receive()
            self.queue.append(message)
            self.bytes += _size(message)
            self.arrived.set()
            if message["type"] == "websocket.disconnect":
                self.ended = True
                return

    async def next(self):
        """The next message in order; the reader's own error if it failed."""
        while not self.queue:
            if self.task.done():
                self.task.result()  # raises what the reader met
                return {"type": "websocket.disconnect", "code": 1006}  # asked again after the disconnect
            self.arrived.clear()
            waiter = asyncio.ensure_future(self.arrived.wait())
            await asyncio.wait([waiter, self.task], return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
        message = self.queue.popleft()
        self.bytes -= _size(message)
        self.taken.set()
        return message


def _size(message) -> int:
    return len(message.get("bytes") or message.get("text") or b"")


class WebsocketPacing:
    """The ASGI middleware: each ``/_stcore/stream`` connection's messages through its bucket, big ones through
    the server's gate. ``clock`` and ``sleep`` are the bucket's time (tests pass their own)."""

    def __init__(
        self,
        app,
        rate: float = RATE,
        burst: int = BURST,
        big_bytes: int = BIG_BYTES,
        hold_s: float = HOLD_S,
        big_burst: float = BIG_BURST,
        big_rate: float = BIG_RATE,
        max_queued: int = MAX_QUEUED,
        max_queued_bytes: int = MAX_QUEUED_BYTES,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.app = app
        self.rate, self.burst, self.big_bytes, self.hold_s = rate, burst, big_bytes, hold_s
        self.big_burst, self.big_rate = big_burst, big_rate
        self.max_queued, self.max_queued_bytes = max_queued, max_queued_bytes
        self.clock, self.sleep = clock, sleep
        self.gate: asyncio.Lock | None = None  # made in the server's event loop, at the first big message

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket" or not scope["path"].endswith(STREAM_PATH):
            await self.app(scope, receive, send)
            return
        conn = _Connection(Bucket(self.rate, self.burst, self.clock), Bucket(self.big_rate, self.big_burst, self.clock))
        ahead = _ReadAhead(receive, self.max_queued, self.max_queued_bytes)

        async def paced_receive():
            if not (conn.batch and ahead.queue):  # a new batch: one token
                while not ahead.ended and (wait := conn.bucket.take()) > 0.0:
                    await self.sleep(wait)
            message = await ahead.next()
            conn.batch = bool(ahead.queue)  # what has come meanwhile goes on with it, and Streamlit coalesces it
            if message["type"] == "websocket.receive" and (size := _size(message)) > self.big_bytes:
                while not ahead.ended and (wait := conn.big.take(size)) > 0.0:  # its bytes, before the gate
                    await self.sleep(wait)
                await self._enter_gate(conn)
            return message

        async def watched_send(message) -> None:
            if (
                conn.holding is not None
                and message["type"] == "websocket.send"
                and run_ended(message.get("bytes") or b"")
            ):
                conn.holding.set()
                conn.holding = None
            await send(message)

        try:
            await self.app(scope, paced_receive, watched_send)
        finally:
            ahead.task.cancel()
            if conn.holding is not None:  # the connection ended during its big message's run
                conn.holding.set()

    async def _enter_gate(self, conn: _Connection) -> None:
        """Wait for the gate, then keep it shut until this connection's run ends or ``hold_s`` has passed."""
        if self.gate is None:
            self.gate = asyncio.Lock()
        await self.gate.acquire()
        if conn.holding is not None:  # a big message before this one still held it: its hold ends now
            conn.holding.set()
        conn.holding = asyncio.Event()
        task = asyncio.create_task(self._hold(conn.holding))
        conn.holds.append(task)
        task.add_done_callback(conn.holds.remove)

    async def _hold(self, ended: asyncio.Event) -> None:
        try:
            await asyncio.wait_for(ended.wait(), self.hold_s)
        except TimeoutError:
            pass
        finally:
            self.gate.release()
