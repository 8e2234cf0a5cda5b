"""The corpus upload route (``POST /corpus-upload``): a body read a chunk at a time into the store, never held
whole; the page's limits and quotas; every refusal a sentence with a 4xx status.

The route is called as the ASGI server calls it, with a body that arrives in 64 KB pieces made as they are
asked for, so the test itself never holds the body either and ``tracemalloc`` sees what the route holds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import tracemalloc

import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from server import corpus_form, corpus_route, corpus_store, limits, quota
from server.quota import Quota
from server.sqlite_store import SqliteStore

PIECE = 65_536  # what uvicorn hands an app at a time
UNLIMITED = Quota(count=10**9, chars=10**12)
LINE = b"the cat sat on the mat, said the old man \xc3\xa9t\xc3\xa9\n"  # UTF-8 beyond ASCII


@pytest.fixture
def store(tmp_path):
    made = SqliteStore(tmp_path / "c.sqlite3", budget=1 << 30, quota=UNLIMITED)
    corpus_store.use(made)
    quota.use_pastes(UNLIMITED)
    yield made
    corpus_store.use(None)
    quota.use_pastes(None)


def pieces_of(size: int, line: bytes = LINE, bad_at: int | None = None):
    """``size`` bytes of repeated ``line``, in PIECE-sized pieces made one at a time (0xff at ``bad_at``)."""
    block = line * (PIECE // len(line) + 2)
    sent = 0
    while sent < size:
        n, start = min(PIECE, size - sent), sent % len(line)
        piece = bytearray(block[start : start + n])
        if bad_at is not None and sent <= bad_at < sent + n:
            piece[bad_at - sent] = 0xFF
        yield bytes(piece)
        sent += n


def text_of(size: int, line: bytes = LINE) -> bytes:
    return b"".join(pieces_of(size, line))


def post(body, query: str = "name=corpus.txt", headers: dict | None = None, length: int | None = None):
    """(status, body text) of a POST to the route; ``body`` an iterable of pieces; ``length`` the
    Content-Length sent (None: none, as a chunked body)."""
    app = Starlette(routes=[Route(corpus_route.PATH, corpus_route.upload, methods=["POST"])])  # not routes(): it
    # marks this process as serving the route, and the pages' tests would offer the sender
    pieces = iter(body)
    read = [0]
    sent: dict = {"status": None, "body": b""}
    raw = [(b"host", b"testserver")] + [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    if length is not None:
        raw.append((b"content-length", str(length).encode()))
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": corpus_route.PATH,
        "raw_path": corpus_route.PATH.encode(),
        "query_string": query.encode(),
        "headers": raw,
        "client": ("10.1.2.3", 5000),
        "server": ("testserver", 80),
        "root_path": "",
    }

    async def receive():
        piece = next(pieces, None)
        if piece is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read[0] += len(piece)
        return {"type": "http.request", "body": piece, "more_body": True}

    async def send(message):
        if message["type"] == "http.response.start":
            sent["status"] = message["status"]
        elif message["type"] == "http.response.body":
            sent["body"] += message.get("body", b"")

    # A thread of its own: under Playwright's sync API (a browser test earlier in the same run) this thread
    # already has a running event loop, and asyncio.run refuses to start a second one in it.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    post.read = read[0]
    return sent["status"], sent["body"].decode()


def test_a_20_mb_body_is_stored_while_the_route_holds_a_few_chunks_of_it(store):
    size = 20_000_000
    tracemalloc.start()
    try:
        status, body = post(pieces_of(size), length=size)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 200, body
    # a few chunks (the piece being checked, its decoded text, a compressed piece), whatever the body's size
    assert peak < 6 * corpus_route.CHUNK < size / 3, f"the route held {peak:,} bytes at once for {size:,}"
    answer = json.loads(body)
    text = text_of(size).decode()
    assert answer["digest"] == corpus_form.digest("text", text)  # the same corpus as the same text pasted
    assert answer["link"] == f"http://testserver/?corpus={answer['digest']}"
    assert answer["bytes"] == size and answer["lines"] == text.count("\n") + 1
    assert store.get(answer["digest"]) == ("text", text)


def test_a_body_without_a_stated_length_is_stored_as_well(store):
    status, body = post(pieces_of(3_000_000))
    assert status == 200, body
    assert store.get(json.loads(body)["digest"]) == ("text", text_of(3_000_000).decode())


def test_a_byte_order_mark_is_not_part_of_the_text(store):
    status, body = post([b"\xef\xbb", b"\xbfhug pug"], length=11)
    assert status == 200, body
    assert json.loads(body)["digest"] == corpus_form.digest("text", "hug pug")


@pytest.mark.parametrize("bad_at", [0, 5, 1_048_575, 1_048_576, 3_000_001])
def test_bad_utf8_names_the_byte_by_its_position_in_the_file(store, bad_at):
    status, body = post(pieces_of(4_000_000, bad_at=bad_at), query="name=latin1.txt")
    assert status == 422
    assert body == (
        f"The file 'latin1.txt' is not UTF-8 text: byte {bad_at:,} (0xff) cannot be decoded. "
        "Save it as UTF-8 and upload it again.\n"
    )


def test_a_file_cut_inside_a_character_names_where_the_character_starts(store):
    status, body = post([b"abc", b"\xc3"], query="name=cut.txt")
    assert status == 422 and "byte 3 (0xc3) cannot be decoded" in body


def test_a_binary_file_and_an_empty_one_are_refused_with_a_sentence(store):
    status, body = post([b"PK\x03\x04\x00\x00 zip"], query="name=a.zip")
    assert status == 422 and "'a.zip' looks like a binary file" in body
    status, body = post([b"  \n\t "], query="name=blank.txt")
    assert (status, body) == (422, "The file 'blank.txt' is empty: nothing to train on.\n")


def test_a_stated_length_over_the_limit_is_refused_before_any_byte_is_read(store):
    status, body = post(pieces_of(10), query="name=big.txt", length=limits.MAX_CORPUS_BYTES + 1)
    assert status == 413 and post.read == 0
    assert body == f"{limits.upload_refusal('big.txt', limits.MAX_CORPUS_BYTES + 1)}\n"


def test_a_body_over_the_limit_without_a_stated_length_is_refused_once_it_passes_the_limit(store, monkeypatch):
    monkeypatch.setattr(limits, "MAX_CORPUS_BYTES", 2_000_000)
    status, body = post(pieces_of(50_000_000), query="name=huge.txt")
    assert status == 413 and "'huge.txt' is more than" in body
    assert post.read < 2_000_000 + 2 * PIECE  # it stopped reading there


def test_the_budget_of_texts_sent_a_minute_refuses_with_its_sentence(store):
    quota.use_pastes(Quota(count=1, chars=10**9, verbs=("sent", "send", "corp")))
    assert post([b"hug pug"], length=7)[0] == 200
    status, body = post([b"pun bun"], length=7)
    assert status == 429 and "may send at most 1" in body and "Send the file again then." in body
    assert post.read == 0  # refused before the body was read


def test_the_stores_quota_of_new_corpora_refuses_with_its_sentence(store):
    store.quota = Quota(count=1, chars=10**9)
    assert post([b"hug pug"], length=7)[0] == 200
    status, body = post([b"pun bun"], length=7)
    assert status == 429 and "may store at most 1" in body
    assert post([b"hug pug"], length=7)[0] == 200  # stored already: counts nothing


def test_a_store_that_is_down_is_a_503_with_a_sentence(store, monkeypatch):
    def down(*args, **kwargs):
        raise corpus_store.StoreUnavailable("The corpus store (Redis) is not available (refused).")

    monkeypatch.setattr(store, "put_chunks", down)
    status, body = post([b"hug pug"], length=7)
    assert status == 503 and body.startswith("The corpus store (Redis) is not available (refused). The file is not")


def test_a_post_from_another_sites_page_is_refused(store):
    status, body = post([b"hug pug"], headers={"Origin": "http://evil.example"}, length=7)
    assert status == 403 and "another site's page" in body and post.read == 0
    assert post([b"hug pug"], headers={"Origin": "http://testserver"}, length=7)[0] == 200  # its own page
