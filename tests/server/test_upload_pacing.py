"""The upload pacing middleware (``server/upload_pacing.py``) at the ASGI level, with a fake upload route in place
of Streamlit's: a session's bucket of bytes, other sessions' uploads beside it, and the requests it leaves alone.
Time is the tests' own (``pacing_support.StandingTime``), so nothing here waits on the wall clock."""

from __future__ import annotations

import asyncio

from browser_support import in_own_loop
from pacing_support import StandingTime

from server.upload_pacing import UPLOAD_PATH, UploadPacing, upload_session


class FakeUploadRoute:
    """Reads each request's body to its end, noting (session, chunk) in ``read`` in the order it got them."""

    def __init__(self) -> None:
        self.read: list[tuple[str, bytes]] = []
        self.done: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        session = scope["path"].split("/")[-2]
        while True:
            message = await receive()
            self.read.append((session, message["body"]))
            if not message["more_body"]:
                break
        self.done.append(session)
        await send({"type": "http.response.start", "status": 204, "headers": []})


def put(pacing: UploadPacing, session: str, chunks: list[bytes]) -> asyncio.Task:
    """A PUT of ``chunks`` to the upload route, as uvicorn hands a body on: one message per chunk."""
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive():
        return messages.pop(0)

    async def send(message):
        pass

    scope = {"type": "http", "method": "PUT", "path": f"{UPLOAD_PATH}{session}/file-1"}
    return asyncio.create_task(pacing(scope, receive, send))


def test_a_session_past_its_byte_budget_waits_while_another_sessions_upload_passes_at_once():
    async def scenario():
        time_ = StandingTime()
        route = FakeUploadRoute()
        pacing = UploadPacing(route, rate=8.0, burst=40, clock=time_.clock, sleep=time_.sleep)
        greedy = put(pacing, "greedy", [b"a" * 16, b"b" * 16, b"c" * 16, b""])
        await time_.asked.wait()  # its third chunk: 16 bytes, 8 left in the budget
        teacher = put(pacing, "teacher", [b"t" * 30, b""])
        await teacher
        meanwhile = list(route.read)
        time_.let_time_pass()
        await greedy
        return meanwhile, route.read, time_.waits

    meanwhile, read, waits = in_own_loop(scenario())
    assert meanwhile == [("greedy", b"a" * 16), ("greedy", b"b" * 16), ("teacher", b"t" * 30), ("teacher", b"")]
    assert read[len(meanwhile) :] == [("greedy", b"c" * 16), ("greedy", b"")]  # whole, in order, later
    assert waits == [1.0]  # the one wait: the greedy session's third chunk, for its 8 missing bytes


def test_one_upload_within_the_burst_never_waits_and_a_refilled_sessions_bucket_is_forgotten():
    async def scenario():
        time_ = StandingTime()
        route = FakeUploadRoute()
        pacing = UploadPacing(route, rate=8.0, burst=40, clock=time_.clock, sleep=time_.sleep)
        await put(pacing, "teacher", [b"t" * 20, b"t" * 20, b""])
        kept = set(pacing.buckets)
        time_.now += 5.0  # the teacher's 40 bytes refilled
        await put(pacing, "student", [b"s" * 10, b""])
        return route.done, kept, set(pacing.buckets), time_.waits

    done, kept, later, waits = in_own_loop(scenario())
    assert done == ["teacher", "student"] and waits == []
    assert kept == {"teacher"} and later == {"student"}


def test_only_puts_to_the_upload_route_are_paced():
    assert upload_session({"type": "http", "method": "PUT", "path": "/_stcore/upload_file/abc/def"}) == "abc"
    assert upload_session({"type": "http", "method": "PUT", "path": "/app/_stcore/upload_file/abc/def"}) == "abc"
    assert upload_session({"type": "http", "method": "DELETE", "path": "/_stcore/upload_file/abc/def"}) is None
    assert upload_session({"type": "http", "method": "PUT", "path": "/corpus-upload"}) is None
    assert upload_session({"type": "websocket", "path": "/_stcore/stream"}) is None

    async def scenario():
        seen = []

        async def app(scope, receive, send):
            seen.append((scope["path"], receive, send))

        pacing = UploadPacing(app)

        async def receive():
            return {}

        async def send(message):
            pass

        await pacing({"type": "http", "method": "GET", "path": "/_stcore/health"}, receive, send)
        await pacing({"type": "websocket", "path": "/_stcore/stream"}, receive, send)
        return seen, receive, send

    seen, receive, send = in_own_loop(scenario())
    assert seen == [("/_stcore/health", receive, send), ("/_stcore/stream", receive, send)]


def test_serve_py_hands_uploads_through_the_pacing():
    """``streamlit run serve.py`` (scripts/run-app.sh) is the server the pacing protects: it must be in its
    middleware."""
    import ast

    from browser_support import REPO_ROOT

    source = (REPO_ROOT / "serve.py").read_text(encoding="utf-8")
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and ast.unparse(n.func) == "st.App"]
    assert len(calls) == 1
    middleware = [kw for kw in calls[0].keywords if kw.arg == "middleware"]
    assert middleware and "UploadPacing" in ast.unparse(middleware[0].value)
