"""One client cannot push the class's corpus out of the store.

Many large pastes from one client must not fill the store and evict the teacher's corpus (embedded store or
Redis); a ``?text=`` link stores a corpus too; after a Redis crash the teacher's page must not say "stored on
the server" while students get "no longer on the server". Here with small corpora, budgets and quotas.
"""

from __future__ import annotations

import random
import sqlite3
import string
import time

import pytest
from apptest_support import CORPUS, alerts, link_of, ok, pasted, start, summary
from redis_support import RedisServer

from server import corpus_store
from server.corpus_store import StoreUnavailable
from server.quota import Quota
from server.redis_store import RedisStore
from server.sqlite_store import SqliteStore
from ui import corpus_box, links

UNLIMITED = Quota(count=10**9, chars=10**12)


def random_text(chars: int, rng: random.Random) -> str:
    """Letters that hardly compress, so each corpus takes about its size in the store."""
    return "".join(rng.choice(string.ascii_letters + " ") for _ in range(chars))


def test_130_pastes_from_one_client_do_not_evict_the_teachers_corpus(tmp_path):
    rng = random.Random(130)
    store = SqliteStore(tmp_path / "c.sqlite3", budget=250_000, quota=Quota(count=10, chars=10**9))
    teacher = store.put("text", CORPUS, client="teacher")
    refused = []
    for _ in range(130):
        try:
            store.put("text", random_text(20_000, rng), client="one student")
        except StoreUnavailable as exc:
            refused.append(str(exc))
    assert len(refused) == 120  # ten a minute
    assert "may store at most 10" in refused[0] and "wait a minute" in refused[0]
    assert store.get(teacher) == ("text", CORPUS)
    assert store.put("text", random_text(100, rng), client="another student")  # others still may
    assert store.put("text", CORPUS, client="one student") == teacher  # stored already: not counted, not refused


def test_corpora_opened_recently_and_pinned_ones_are_evicted_last(tmp_path):
    rng = random.Random(28)
    store = SqliteStore(tmp_path / "c.sqlite3", budget=250_000, quota=UNLIMITED)
    opened = store.put("text", random_text(20_000, rng), client="teacher")
    pinned = store.put("text", random_text(20_000, rng), client="presenter")
    store.pin(pinned)
    first = store.put("text", random_text(20_000, rng), client="student 0")
    assert store.get(opened) is not None  # a student opens the teacher's link
    for i in range(1, 60):  # many clients, each within its quota, fill the store over and over
        store.put("text", random_text(20_000, rng), client=f"student {i}")
    assert store.get(first) is None  # stored and never opened: evicted
    assert store.get(opened) is not None and store.get(pinned) is not None


def test_a_text_link_stores_its_corpus_within_the_same_quota(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus_box, "client_id", lambda: "one browser", raising=False)
    corpus_store.use(SqliteStore(tmp_path / "c.sqlite3", quota=Quota(count=1, chars=10**9)))
    try:
        first = ok(start(text="hug pug pun bun " * 100))
        assert "stored on the server" in summary(first)
        second = ok(start(text="a second corpus by link " * 100))
        assert "kept in this session" in summary(second)
        assert any("may store at most 1" in a and "kept in this session only" in a for a in alerts(second, "warning"))
    finally:
        corpus_store.use(None)


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path, maxmemory="8mb", policy="volatile-lru").start()
    try:
        yield server
    finally:
        server.stop()


def test_redis_evicts_others_before_a_pinned_corpus(redis_server):
    rng = random.Random(5)
    store = RedisStore(redis_server.url, quota=UNLIMITED)
    pinned = store.put("text", random_text(100_000, rng), client="presenter")
    store.pin(pinned)
    first = store.put("text", random_text(100_000, rng), client="student 0")
    for i in range(1, 200):  # 20 MB into a Redis of 8
        store.put("text", random_text(100_000, rng), client=f"student {i}")
    assert store.get(first) is None
    assert store.get(pinned) is not None


def test_after_a_redis_crash_the_teachers_page_stores_its_corpus_again(tmp_path, monkeypatch):
    server = RedisServer(tmp_path).start()
    corpus_store.use(RedisStore(server.url))
    try:
        teacher = pasted()
        link = link_of(teacher)
        assert "stored on the server" in summary(teacher)
        server.stop()
        server.start()  # empty: the crash lost what Redis held
        monkeypatch.setattr(corpus_box, "RECHECK_S", 0.0, raising=False)  # the page asks the store at its next rerun
        teacher.slider(key="step").set_value(8).run()
        assert "stored on the server" in summary(teacher)
        student = ok(start(**link))
        assert links.CORPUS_GONE not in " ".join(alerts(student))
        assert student.slider(key="step").value == 7
    finally:
        corpus_store.use(None)
        server.stop()


def test_the_share_popover_pins_the_corpus_it_shares(tmp_path):
    from ui import share

    store = SqliteStore(tmp_path / "c.sqlite3")
    corpus_store.use(store)
    try:
        key = store.put("text", CORPUS, client="presenter")
        share.pin_shared_corpus("text")  # a link without a stored corpus: nothing to pin
        share.pin_shared_corpus(key)
    finally:
        corpus_store.use(None)
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        assert db.execute("SELECT pinned FROM corpora WHERE digest = ?", (key,)).fetchone()[0] > time.time()
