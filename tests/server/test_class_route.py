"""The class state route (``GET /class-state/<code>``): a following phone's poll answered without a script run.

It answers the class's serial, step and vote from the store both replicas share, counts the asking phone as
following, is never cached, says in a sentence when there is no such class, and gives away nothing of the
teacher's token or the other students. The route is called as the ASGI server calls it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json

import pytest
from redis_support import corpus_store_of
from starlette.applications import Starlette
from starlette.routing import Route

from server import class_route, classroom, corpus_store

HUG = {"preset": "hug", "step": "3"}


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path, monkeypatch):
    monkeypatch.setattr(classroom, "_SHARED", classroom._Shared())
    monkeypatch.setattr(classroom, "BEAT_FLUSH_S", 0.0)  # every heartbeat written at once: counted at once
    monkeypatch.setattr(classroom, "SHARED_READ_S", 0.0)  # every poll reads the store: a move is seen at once
    with corpus_store_of(request.param, tmp_path) as made:
        corpus_store.use(made)
        yield made
        corpus_store.use(None)


def get(path: str) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a GET of ``path`` (with its query) from the route."""
    return in_a_loop(call(path))


def in_a_loop(coroutine):
    """``coroutine`` run to its end on an event loop of its own, in a thread of its own: under Playwright's sync API
    (a browser test earlier in the same run) this thread already has a running loop, and asyncio.run refuses to
    start a second one in it."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def call(path: str) -> tuple[int, dict[str, str], str]:
    app = Starlette(routes=[Route(class_route.PATH + "/{code}", class_route.class_state)])  # not routes(): it
    # marks this process as serving the route, and the pages' tests would poll through a browser that is not there
    url_path, _, query = path.partition("?")
    sent: dict = {"status": None, "headers": {}, "body": b""}
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url_path,
        "raw_path": url_path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver")],
        "client": ("10.1.2.3", 5000),
        "server": ("testserver", 80),
        "root_path": "",
    }

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            sent["status"] = message["status"]
            sent["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            sent["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return sent["status"], sent["headers"], sent["body"].decode()


def test_the_route_answers_the_serial_step_and_vote_as_the_teacher_moves(store):
    code, token = classroom.start(store, HUG)
    status, _, body = get(f"/class-state/{code}")
    first = json.loads(body)
    assert status == 200 and first == {"serial": 1, "step": 3, "vote": None}
    classroom.move(store, code, token, {"preset": "hug", "step": "4"})
    assert json.loads(get(f"/class-state/{code}")[2]) == {"serial": 2, "step": 4, "vote": None}
    classroom.open_vote(store, code, token)
    answer = json.loads(get(f"/class-state/{code}")[2])
    assert answer == {"serial": 3, "step": 4, "vote": {"number": 1, "step": 4, "revealed": False}}


def test_each_poll_counts_its_phone_as_following_once(store):
    code, _ = classroom.start(store, HUG)
    for follower in ("phone-aaaaaaaa", "phone-bbbbbbbb", "phone-aaaaaaaa"):
        assert get(f"/class-state/{code}?f={follower}")[0] == 200
    get(f"/class-state/{code}?f=x")  # not an id a page makes: not counted
    get(f"/class-state/{code}")  # no id (curl): not counted
    assert classroom.attendance(store, code) == {"follow": 2, "own": 0}


def test_no_such_class_is_a_404_with_a_sentence_and_nothing_is_counted(store):
    code, token = classroom.start(store, HUG)
    classroom.end(store, code, token)
    status, headers, body = get(f"/class-state/{code}?f=phone-aaaaaaaa")
    assert status == 404 and body.startswith(f"There is no class {code!r} now: it has ended")
    assert headers["content-type"].startswith("text/plain")
    assert classroom.attendance(store, code) == {"follow": 0, "own": 0}
    status, _, body = get("/class-state/not-a-code")
    assert status == 404 and "a class code is 6 letters and digits" in body


def test_answers_are_never_cached(store):
    code, _ = classroom.start(store, HUG)
    for path in (f"/class-state/{code}", "/class-state/K7P3QX"):  # a class, and none
        headers = get(path)[1]
        assert "no-store" in headers["cache-control"] and headers["pragma"] == "no-cache"


def test_the_answer_holds_nothing_of_the_teachers_token_or_the_other_phones(store):
    code, token = classroom.start(store, HUG)
    classroom.open_vote(store, code, token)
    classroom.cast(store, code, "phone-aaaaaaaa", ("u", "g"))
    get(f"/class-state/{code}?f=phone-aaaaaaaa")
    body = get(f"/class-state/{code}?f=phone-bbbbbbbb")[2]
    kept = " ".join(store.fields(f"class:{code}").values()) + " ".join(store.fields(f"class:{code}:seen"))
    assert classroom._hash(token) in kept  # what the store holds, and the answer must not
    for secret in (token, classroom._hash(token), "phone-aaaaaaaa", classroom._hash("phone-aaaaaaaa")):
        assert secret not in body
    assert set(json.loads(body)) == {"serial", "step", "vote"}


def test_a_store_that_is_away_is_a_503_with_a_sentence(store, monkeypatch):
    code, _ = classroom.start(store, HUG)

    def away(*args, **kwargs):
        raise corpus_store.StoreUnavailable("The corpus store is not answering.")

    monkeypatch.setattr(store, "fields", away)
    status, _, body = get(f"/class-state/{code}")
    assert status == 503 and body.startswith("The corpus store is not answering. The page asks again")


async def until(condition) -> None:
    """Wait until ``condition()`` holds (each turn lets the route's tasks run)."""
    while not condition():
        await asyncio.sleep(0.01)


def test_an_answer_after_a_serial_waits_for_the_teachers_next_move(store, monkeypatch):
    monkeypatch.setattr(classroom, "SHARED_READ_S", 0.01)  # the watcher's reads (0 would read without a pause)
    monkeypatch.setattr(class_route, "HOLD_S", 600.0)  # only the move ends this wait
    code, token = classroom.start(store, HUG)

    async def asked_then_moved():
        asked = asyncio.ensure_future(call(f"/class-state/{code}?f=phone-aaaaaaaa&after=1"))
        await until(lambda: class_route.waiting(code) == 1)
        assert not asked.done()  # the serial is still the one the phone knows: the answer waits
        await asyncio.to_thread(classroom.move, store, code, token, {"preset": "hug", "step": "4"})
        return await asked

    status, headers, body = in_a_loop(asked_then_moved())
    assert status == 200 and json.loads(body) == {"serial": 2, "step": 4, "vote": None}
    assert "no-store" in headers["cache-control"]
    assert classroom.attendance(store, code) == {"follow": 1, "own": 0}  # a waiting phone is counted as well


def test_the_watcher_looks_at_the_class_every_watch_s_whatever_the_pages_shared_read(store, monkeypatch):
    # Every phone of a replica presses after the watcher's read, so its pause is added to every phone's wait: it
    # is not the pages' shared read (here ten minutes), and a move is answered long before the hold ends.
    monkeypatch.setattr(classroom, "SHARED_READ_S", 600.0)
    monkeypatch.setattr(class_route, "HOLD_S", 30.0)
    code, token = classroom.start(store, HUG)

    async def asked_then_moved():
        asked = asyncio.ensure_future(call(f"/class-state/{code}?f=phone-aaaaaaaa&after=1"))
        await until(lambda: class_route.waiting(code) == 1)
        await asyncio.to_thread(classroom.move, store, code, token, {"preset": "hug", "step": "5"})
        return await asyncio.wait_for(asked, timeout=15.0)  # well before the hold: the watcher woke it

    status, _, body = in_a_loop(asked_then_moved())
    assert status == 200 and json.loads(body) == {"serial": 2, "step": 5, "vote": None}


def test_a_waiting_answer_says_when_the_class_ends_and_another_serial_is_answered_at_once(store, monkeypatch):
    monkeypatch.setattr(classroom, "SHARED_READ_S", 0.01)
    monkeypatch.setattr(class_route, "HOLD_S", 600.0)
    code, token = classroom.start(store, HUG)
    assert json.loads(get(f"/class-state/{code}?after=7")[2])["serial"] == 1  # not the phone's serial: at once

    async def asked_then_ended():
        asked = asyncio.ensure_future(call(f"/class-state/{code}?after=1"))
        await until(lambda: class_route.waiting(code) == 1)
        await asyncio.to_thread(classroom.end, store, code, token)
        return await asked

    status, _, body = in_a_loop(asked_then_ended())
    assert status == 404 and "it has ended" in body


def test_a_waiting_answer_comes_back_unchanged_after_its_hold(store, monkeypatch):
    monkeypatch.setattr(classroom, "SHARED_READ_S", 0.01)
    monkeypatch.setattr(class_route, "HOLD_S", 0.05)
    code, _ = classroom.start(store, HUG)
    status, _, body = get(f"/class-state/{code}?f=phone-aaaaaaaa&after=1")
    assert status == 200 and json.loads(body)["serial"] == 1  # the phone asks again, and is counted again
