"""pages/send_first.py: a step's box leaves before the rest of the step is computed, so Next on a
5 MB corpus answers at once. The wait is checked against a real Streamlit message queue emptied by another thread,
as the server's event loop empties it; the latency it buys is measured in
``benchmarks/bench_corpus_clicks.py --ab``."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from pages import send_first


def test_wait_until_returns_once_another_thread_makes_it_true():
    flag = threading.Event()
    threading.Timer(0.02, flag.set).start()
    started = time.perf_counter()
    assert send_first.wait_until(flag.is_set, timeout=5)
    assert time.perf_counter() - started < 4  # it did not run to its timeout


def test_wait_until_gives_up_after_its_timeout():
    started = time.perf_counter()
    assert not send_first.wait_until(lambda: False, timeout=0.05)
    assert time.perf_counter() - started >= 0.05


class FlushLoop:
    """Streamlit's runtime loop in miniature, on its own thread: it takes a session's queue and writes the
    messages one per turn (an ``asyncio.sleep(0)`` after each, as ``Runtime._loop_coroutine`` does), after
    ``delay`` s (its sleep between flushes). ``written`` lists them in the order they reached the socket."""

    def __init__(self, queue: ForwardMsgQueue, delay: float) -> None:
        self.queue, self.delay, self.written = queue, delay, []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.flush(),))

    async def flush(self) -> None:
        await asyncio.sleep(self.delay)
        for msg in self.queue.flush():
            time.sleep(0.002)  # a write that takes a while, as one does while a busy script thread holds the GIL
            self.written.append(msg)
            await asyncio.sleep(0)
        await asyncio.sleep(0.2)  # the loop stays up a while, as the server's does


def _served_session(monkeypatch, queue: ForwardMsgQueue, loop: asyncio.AbstractEventLoop | None) -> None:
    """This thread as the script thread of a served session whose browser queue is ``queue``."""
    session = SimpleNamespace(session=SimpleNamespace(_browser_queue=queue, _event_loop=loop))
    manager = SimpleNamespace(get_session_info=lambda sid: session if sid == "s1" else None)
    runtime = SimpleNamespace(_session_mgr=manager)
    monkeypatch.setattr(
        send_first, "Runtime", SimpleNamespace(exists=lambda: True, instance=lambda: runtime), raising=True
    )
    monkeypatch.setattr(send_first, "get_script_run_ctx", lambda: SimpleNamespace(session_id="s1"))


def _queue(n: int) -> ForwardMsgQueue:
    """A step's messages up to its title: ``n`` - 1 others, then the title."""
    queue = ForwardMsgQueue()
    for i in range(n):
        msg = ForwardMsg()
        msg.metadata.delta_path[:] = [0, i]
        msg.delta.new_element.html.body = '<h2 class="bpe-step-title">Step 1</h2>' if i == n - 1 else f"<p>{i}</p>"
        queue.enqueue(msg)
    return queue


def test_title_out_returns_once_the_loop_wrote_every_message_up_to_the_title(monkeypatch):
    queue = _queue(12)
    flusher = FlushLoop(queue, delay=0.02)
    _served_session(monkeypatch, queue, flusher.loop)
    flusher.thread.start()
    try:
        assert send_first.title_out(timeout=5)
        # Not only taken from the queue: written, the title last (the old wait returned after the first).
        assert len(flusher.written) == 12
        assert "bpe-step-title" in flusher.written[-1].delta.new_element.html.body
    finally:
        flusher.thread.join()
        flusher.loop.close()


def test_title_out_does_not_hold_a_step_whose_title_is_never_taken(monkeypatch):
    queue = _queue(3)
    loop = asyncio.new_event_loop()
    _served_session(monkeypatch, queue, loop)
    started = time.perf_counter()
    assert not send_first.title_out(timeout=0.03)
    assert time.perf_counter() - started < 1
    loop.close()


def test_title_out_is_a_no_op_outside_a_served_session_or_when_turned_off(monkeypatch):
    assert not send_first.title_out(timeout=0)  # BPE_TITLE_WAIT=0
    queue = _queue(1)
    _served_session(monkeypatch, queue, asyncio.new_event_loop())
    monkeypatch.setattr(send_first, "get_script_run_ctx", lambda: SimpleNamespace(session_id="other"))
    assert not send_first.title_out(timeout=5)  # no such session: nothing to wait for
    monkeypatch.setattr(send_first, "Runtime", SimpleNamespace(exists=lambda: False))
    assert not send_first.title_out(timeout=5)  # no server (a script run by hand)
