"""The websocket pacing middleware (``server/ws_pacing.py``) at the ASGI level, with a fake app in place of
Streamlit's endpoint: one connection's bucket, its budget of big messages' bytes, the server's gate for big
messages, and the paths it leaves alone.
Time is the tests' own (a clock that stands still, a sleep the test ends), so nothing here waits on the wall clock."""

from __future__ import annotations

import asyncio

from browser_support import in_own_loop
from pacing_support import StandingTime, until
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from server.ws_pacing import STREAM_PATH, Bucket, WebsocketPacing, run_ended


def finished(status=ForwardMsg.FINISHED_SUCCESSFULLY) -> bytes:
    msg = ForwardMsg()
    msg.script_finished = status
    return msg.SerializeToString()


class FakeStreamlit:
    """Reads every message of each connection and notes (connection, bytes) in ``handed``, in the order it got
    them; ``sends[name]`` is how the test makes that connection send a ForwardMsg."""

    def __init__(self) -> None:
        self.handed: list[tuple[str, bytes]] = []
        self.sends: dict[str, asyncio.Queue] = {}

    async def __call__(self, scope, receive, send) -> None:
        name = scope["name"]
        outbox = self.sends.setdefault(name, asyncio.Queue())

        async def sender():
            while True:
                await send({"type": "websocket.send", "bytes": await outbox.get()})

        sending = asyncio.create_task(sender())
        try:
            while (message := await receive())["type"] != "websocket.disconnect":
                self.handed.append((name, message.get("bytes", b"")))
        finally:
            sending.cancel()


class Client:
    """One websocket connection through the middleware: ``put`` is a message from the browser."""

    def __init__(self, pacing: WebsocketPacing, name: str) -> None:
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.sent: list[bytes] = []
        scope = {"type": "websocket", "path": STREAM_PATH, "name": name}
        self.task = asyncio.create_task(pacing(scope, self.inbox.get, self._send))

    async def _send(self, message) -> None:
        self.sent.append(message["bytes"])

    def put(self, data: bytes) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "bytes": data})

    async def close(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await self.task


async def until_taken(client: Client) -> None:
    """Until the middleware has read every message put on ``client`` (without handing it on, maybe)."""
    await until(client.inbox.empty)


def test_the_bucket_gives_its_burst_then_one_token_per_interval():
    now = [0.0]
    bucket = Bucket(rate=4.0, burst=2, clock=lambda: now[0])
    assert [bucket.take(), bucket.take()] == [0.0, 0.0]
    assert bucket.take() == 0.25  # nothing taken: the next token comes in a quarter of a second
    now[0] = 0.25
    assert bucket.take() == 0.0
    now[0] = 100.0
    assert [bucket.take(), bucket.take(), bucket.take() > 0.0] == [0.0, 0.0, True]  # refilled to the burst only


def test_a_bucket_of_bytes_lets_one_message_bigger_than_its_burst_through_then_waits_for_the_debt():
    now = [0.0]
    bucket = Bucket(rate=10.0, burst=50, clock=lambda: now[0])
    assert [bucket.take(20), bucket.take(20)] == [0.0, 0.0]
    assert bucket.take(20) == 1.0  # 10 left: 10 more bytes at 10 a second
    now[0] = 100.0
    assert bucket.take(80) == 0.0  # full: a message over the burst passes alone ...
    assert bucket.take(1) == 3.1  # ... and leaves the bucket 30 in debt
    assert not bucket.full()
    now[0] = 107.0
    assert not bucket.full()
    now[0] = 108.0
    assert bucket.full()  # the debt and the burst refilled


def test_a_connection_past_its_byte_budget_waits_for_its_big_message_while_others_pass_at_once():
    """A paste storm waits at its own connection's byte budget; a teacher's first pastes (within the burst) and
    another session's clicks are handed on without any wait."""

    async def scenario():
        time_ = StandingTime()
        app = FakeStreamlit()
        pacing = WebsocketPacing(
            app, big_bytes=10, hold_s=0.0, big_burst=60, big_rate=8.0, clock=time_.clock, sleep=time_.sleep
        )
        greedy, teacher, clicker = Client(pacing, "greedy"), Client(pacing, "teacher"), Client(pacing, "clicker")
        for i in range(3):
            greedy.put(b"paste %d " % i + b"g" * 20)
        await time_.asked.wait()  # the third paste: 28 bytes, 4 left in the budget
        teacher.put(b"paste 0 " + b"t" * 20)
        teacher.put(b"paste 1 " + b"t" * 20)
        clicker.put(b"click")
        await until(lambda: len(app.handed) == 5)
        handed_meanwhile = list(app.handed)
        time_.let_time_pass()
        await until(lambda: len(app.handed) == 6)
        for client in (greedy, teacher, clicker):
            await client.close()
        return handed_meanwhile, app.handed, time_.waits

    meanwhile, handed, waits = in_own_loop(scenario())
    assert sorted(name for name, _ in meanwhile) == ["clicker", "greedy", "greedy", "teacher", "teacher"]
    assert handed[-1] == ("greedy", b"paste 2 " + b"g" * 20)  # delayed, whole, after the two before it
    assert waits == [3.0]  # the one wait: the greedy connection's third paste, for its 24 missing bytes


def test_a_connection_past_its_burst_waits_while_another_connection_passes_at_once():
    async def scenario():
        time_ = StandingTime()
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, rate=1.0, burst=2, clock=time_.clock, sleep=time_.sleep)
        greedy, other = Client(pacing, "greedy"), Client(pacing, "other")
        for i in range(3):  # one at a time, each after the one before was handed on: three batches
            greedy.put(b"rerun %d" % i)
            await until(lambda n=i + 1: len(app.handed) == n or time_.asked.is_set())
        await time_.asked.wait()  # the third rerun waits for a token
        other.put(b"click")
        await until(lambda: ("other", b"click") in app.handed)
        assert app.handed == [("greedy", b"rerun 0"), ("greedy", b"rerun 1"), ("other", b"click")]
        time_.let_time_pass()
        await until(lambda: ("greedy", b"rerun 2") in app.handed)  # delayed, not lost
        await greedy.close()
        await other.close()
        return app.handed

    assert in_own_loop(scenario())[-1] == ("greedy", b"rerun 2")


def test_messages_waiting_together_are_handed_on_together_on_one_token():
    """Streamlit coalesces reruns that arrive while one is pending: a burst handed on together is one run, where
    the same burst handed on one token at a time would restart the session's run for each."""

    async def scenario():
        time_ = StandingTime()
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, rate=1.0, burst=1, clock=time_.clock, sleep=time_.sleep)
        time_.note = lambda: len(app.handed)
        greedy = Client(pacing, "greedy")
        greedy.put(b"first")
        await until(lambda: len(app.handed) == 1)
        for i in range(5):
            greedy.put(b"rerun %d" % i)
        await time_.asked.wait()
        await until_taken(greedy)
        time_.let_time_pass()
        await until(lambda: len(app.handed) == 6)
        await greedy.close()
        return app.handed, time_.noted

    handed, noted = in_own_loop(scenario())
    assert handed == [("greedy", b"first")] + [("greedy", b"rerun %d" % i) for i in range(5)]
    assert noted[:2] == [1, 6]  # one wait for a token after the first, the next only after the five


def test_a_paced_connection_is_read_ahead_up_to_its_bound_so_its_pings_are_still_answered():
    async def scenario():
        time_ = StandingTime()
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, rate=1.0, burst=1, max_queued=3, clock=time_.clock, sleep=time_.sleep)
        greedy = Client(pacing, "greedy")
        greedy.put(b"rerun 0")
        await until(lambda: len(app.handed) == 1)
        for i in range(1, 10):
            greedy.put(b"rerun %d" % i)
        await time_.asked.wait()
        await until(lambda: greedy.inbox.qsize() <= 6)  # three read ahead
        for _ in range(100):  # whatever else is ready runs: the bound holds
            await asyncio.sleep(0)
        left, handed = greedy.inbox.qsize(), list(app.handed)
        time_.let_time_pass()
        await until(lambda: len(app.handed) == 10)
        await greedy.close()
        return left, handed, app.handed

    left, handed, everything = in_own_loop(scenario())
    assert left == 6 and handed == [("greedy", b"rerun 0")]
    assert everything == [("greedy", b"rerun %d" % i) for i in range(10)]  # in order, none lost


def test_once_the_client_has_gone_what_it_sent_is_handed_on_at_once():
    async def scenario():
        time_ = StandingTime()
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, rate=1.0, burst=1, clock=time_.clock, sleep=time_.sleep)
        greedy = Client(pacing, "greedy")
        greedy.put(b"rerun 0")
        await until(lambda: len(app.handed) == 1)
        for i in range(1, 6):
            greedy.put(b"rerun %d" % i)
        await time_.asked.wait()  # the second rerun waits for a token
        closed = asyncio.create_task(greedy.close())
        await until(lambda: greedy.inbox.qsize() == 1)  # the disconnect is there
        await until_taken(greedy)
        time_.let_time_pass()
        await closed
        return app.handed, time_.waits

    handed, waits = in_own_loop(scenario())
    assert handed == [("greedy", b"rerun %d" % i) for i in range(6)]
    assert len(waits) == 1  # only the wait under way when the disconnect was read


def test_big_messages_are_handed_on_one_at_a_time_while_small_ones_pass():
    async def scenario():
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, big_bytes=10, hold_s=3600)
        first, second, clicker = Client(pacing, "first"), Client(pacing, "second"), Client(pacing, "clicker")
        first.put(b"paste " + b"a" * 20)
        await until(lambda: len(app.handed) == 1)
        second.put(b"paste " + b"b" * 20)
        await until_taken(second)  # read, and waiting for the gate
        clicker.put(b"click")
        await until(lambda: ("clicker", b"click") in app.handed)
        assert [name for name, _ in app.handed] == ["first", "clicker"]
        app.sends["first"].put_nowait(finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN))  # a run cut short: still going
        await until(lambda: len(first.sent) == 1)
        clicker.put(b"click 2")
        await until(lambda: ("clicker", b"click 2") in app.handed)
        assert [name for name, _ in app.handed] == ["first", "clicker", "clicker"]
        app.sends["first"].put_nowait(finished())  # the first paste's run has ended: the second goes on
        await until(lambda: len(app.handed) == 4)
        for client in (first, second, clicker):
            await client.close()
        return app.handed, first.sent

    handed, sent = in_own_loop(scenario())
    assert [name for name, _ in handed] == ["first", "clicker", "clicker", "second"]
    assert handed[-1][1] == b"paste " + b"b" * 20  # whole, as sent
    assert sent == [finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN), finished()]  # the browser gets every message


def test_a_run_that_never_reports_its_end_lets_the_gate_go_after_the_hold():
    async def scenario():
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, big_bytes=10, hold_s=0.0)
        first, second = Client(pacing, "first"), Client(pacing, "second")
        first.put(b"x" * 20)
        second.put(b"y" * 20)
        await until(lambda: len(app.handed) == 2)
        await first.close()
        await second.close()
        return sorted(app.handed)

    assert in_own_loop(scenario()) == [("first", b"x" * 20), ("second", b"y" * 20)]


def test_a_connection_that_closes_during_its_big_messages_run_lets_the_gate_go():
    async def scenario():
        app = FakeStreamlit()
        pacing = WebsocketPacing(app, big_bytes=10, hold_s=3600)
        first, second = Client(pacing, "first"), Client(pacing, "second")
        first.put(b"x" * 20)
        await until(lambda: len(app.handed) == 1)
        second.put(b"y" * 20)
        await until_taken(second)
        await first.close()
        await until(lambda: len(app.handed) == 2)
        await second.close()
        return app.handed

    assert in_own_loop(scenario()) == [("first", b"x" * 20), ("second", b"y" * 20)]


def test_only_a_clean_end_of_a_run_counts():
    assert run_ended(finished())
    assert run_ended(finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert not run_ended(finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN))
    assert not run_ended(b"\xff\xff not a ForwardMsg")
    delta = ForwardMsg()
    delta.delta.new_element.markdown.body = "x" * 2000
    assert not run_ended(delta.SerializeToString())


def test_http_requests_and_other_websockets_pass_untouched():
    async def scenario():
        seen = []

        async def app(scope, receive, send):
            seen.append((scope["path"], receive, send))

        pacing = WebsocketPacing(app)

        async def receive():
            return {}

        async def send(message):
            pass

        await pacing({"type": "http", "path": STREAM_PATH}, receive, send)
        await pacing({"type": "websocket", "path": "/other"}, receive, send)
        return seen, receive, send

    seen, receive, send = in_own_loop(scenario())
    assert seen == [(STREAM_PATH, receive, send), ("/other", receive, send)]


def test_serve_py_hands_the_websocket_through_the_pacing():
    """``streamlit run serve.py`` (scripts/run-app.sh) is the server the pacing protects: it must be in its
    middleware."""
    import ast

    from browser_support import REPO_ROOT

    source = (REPO_ROOT / "serve.py").read_text(encoding="utf-8")
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and ast.unparse(n.func) == "st.App"]
    assert len(calls) == 1
    middleware = [kw for kw in calls[0].keywords if kw.arg == "middleware"]
    assert middleware and "WebsocketPacing" in ast.unparse(middleware[0].value)
