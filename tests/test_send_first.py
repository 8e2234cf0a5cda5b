"""pages/send_first.py: a step's box leaves before the rest of the step is computed (issue 20's Next
latency at 5 MB). The wait is checked against a real Streamlit message queue emptied by another thread,
as the server's event loop empties it; the latency it buys is measured in
``benchmarks/bench_corpus_clicks.py --ab``."""

from __future__ import annotations

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


def _served_session(monkeypatch, queue: ForwardMsgQueue) -> None:
    """This thread as the script thread of a served session whose browser queue is ``queue``."""
    session = SimpleNamespace(session=SimpleNamespace(_browser_queue=queue))
    manager = SimpleNamespace(get_session_info=lambda sid: session if sid == "s1" else None)
    runtime = SimpleNamespace(_session_mgr=manager)
    monkeypatch.setattr(
        send_first, "Runtime", SimpleNamespace(exists=lambda: True, instance=lambda: runtime), raising=True
    )
    monkeypatch.setattr(send_first, "get_script_run_ctx", lambda: SimpleNamespace(session_id="s1"))


def _title(queue: ForwardMsgQueue) -> None:
    msg = ForwardMsg()
    msg.metadata.delta_path[:] = [0, 0]
    msg.delta.new_element.html.body = '<h2 class="bpe-step-title">Step 1 of 7</h2>'
    queue.enqueue(msg)


def test_title_out_returns_once_the_loop_took_the_queued_title(monkeypatch):
    queue = ForwardMsgQueue()
    _title(queue)
    _served_session(monkeypatch, queue)
    sent = []
    loop = threading.Timer(0.02, lambda: sent.extend(queue.flush()))  # the event loop's next flush
    loop.start()
    assert send_first.title_out(timeout=5)
    assert queue.is_empty() and len(sent) == 1  # the title had left when the step went on
    loop.join()


def test_title_out_does_not_hold_a_step_whose_title_is_never_taken(monkeypatch):
    queue = ForwardMsgQueue()
    _title(queue)
    _served_session(monkeypatch, queue)
    started = time.perf_counter()
    assert not send_first.title_out(timeout=0.03)
    assert time.perf_counter() - started < 1


def test_title_out_is_a_no_op_outside_a_served_session_or_when_turned_off(monkeypatch):
    assert not send_first.title_out(timeout=0)  # BPE_TITLE_WAIT=0
    queue = ForwardMsgQueue()
    _title(queue)
    _served_session(monkeypatch, queue)
    monkeypatch.setattr(send_first, "get_script_run_ctx", lambda: SimpleNamespace(session_id="other"))
    assert not send_first.title_out(timeout=5)  # no such session: nothing to wait for
    monkeypatch.setattr(send_first, "Runtime", SimpleNamespace(exists=lambda: False))
    assert not send_first.title_out(timeout=5)  # no server (a script run by hand)
