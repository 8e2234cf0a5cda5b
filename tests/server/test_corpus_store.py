"""The corpus store (server/corpus_store.py): the embedded SQLite store and a real Redis, addressed only by the
full sha256 of a corpus, a size budget, a restart, and a Redis stopped mid-class."""

from __future__ import annotations

import sqlite3

import pytest
from redis_support import RedisServer, corpus_store_of

from server import corpus_form, corpus_store
from server.corpus_form import digest
from server.corpus_store import StoreUnavailable
from server.redis_store import RedisStore
from server.sqlite_store import SqliteStore

TEXT = "the quick brown fox jumps over the lazy dog\n" * 120  # 5,280 characters


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def any_store(request, tmp_path):
    with corpus_store_of(request.param, tmp_path) as store:
        yield store


def test_a_corpus_comes_back_by_its_full_digest_only(any_store):
    key = any_store.put("text", TEXT)
    assert key == digest("text", TEXT) and len(key) == 64
    assert any_store.get(key) == ("text", TEXT)
    assert any_store.put("counts", "hug 10\npug 5") != any_store.put("text", "hug 10\npug 5")  # kinds differ
    assert any_store.get(digest("counts", "hug 10\npug 5")) == ("counts", "hug 10\npug 5")
    # no prefix, pattern or other spelling reaches it
    for probe in (key[:12], key[:63], key.upper(), key + "0", "*", key[:60] + "????", "", "../" + key):
        assert any_store.get(probe) is None
    assert any_store.get(digest("text", "never stored")) is None


def test_odd_text_round_trips(any_store):
    odd = "Straße 世界 😀 \r\n\t tab\x00nul " + "\ud800"  # a lone surrogate, as a file's bytes can give
    assert any_store.get(any_store.put("text", odd)) == ("text", odd)


def test_the_embedded_store_survives_a_restart(tmp_path):
    key = SqliteStore(tmp_path / "c.sqlite3").put("text", TEXT)
    assert SqliteStore(tmp_path / "c.sqlite3").get(key) == ("text", TEXT)  # a new process opens the same file


def test_the_embedded_store_evicts_the_least_recently_used_past_its_budget(tmp_path):
    import os

    texts = [os.urandom(3_000).hex() for _ in range(4)]  # the same compressed size each
    store = SqliteStore(tmp_path / "c.sqlite3")
    a, b = store.put("text", texts[0]), store.put("text", texts[1])
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        size = db.execute("SELECT MAX(size) FROM corpora").fetchone()[0]
    store.budget = int(size * 2.5)  # room for two
    assert store.get(a) is not None  # a is used again: b is now the oldest
    c = store.put("text", texts[2])
    assert store.get(b) is None and store.get(a) is not None and store.get(c) is not None
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        assert db.execute("SELECT SUM(size) FROM corpora").fetchone()[0] <= store.budget


def test_a_corpus_larger_than_the_whole_budget_is_refused_with_a_sentence(tmp_path):
    import os

    with pytest.raises(StoreUnavailable, match="full"):
        SqliteStore(tmp_path / "c.sqlite3", budget=1_000).put("text", os.urandom(2_000).hex())


def test_a_damaged_entry_is_not_returned(tmp_path):
    store = SqliteStore(tmp_path / "c.sqlite3")
    key = store.put("text", TEXT)
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        db.execute("UPDATE corpora SET data = ? WHERE digest = ?", (b"not zlib", key))
    assert store.get(key) is None


def test_redis_stopped_mid_class_raises_a_sentence_and_comes_back(redis_server):
    store = RedisStore(redis_server.url)
    key = store.put("text", TEXT)
    redis_server.stop()
    with pytest.raises(StoreUnavailable, match=r"Redis\) is not available"):
        store.put("text", "another corpus")
    with pytest.raises(StoreUnavailable):
        store.get(key)
    redis_server.start()  # no persistence: the corpus is gone, the store works again
    assert store.get(key) is None and store.get(store.put("text", TEXT)) == ("text", TEXT)


def test_a_full_redis_is_a_sentence_too(tmp_path):
    import os

    server = RedisServer(tmp_path, maxmemory="2mb").start()
    try:
        store = RedisStore(server.url)
        with pytest.raises(StoreUnavailable, match="not available"):
            for _ in range(20):
                store.put("text", os.urandom(300_000).hex())
    finally:
        server.stop()


def test_the_environment_chooses_the_store(tmp_path):
    assert isinstance(corpus_store.from_environment({"BPE_DATA_DIR": str(tmp_path)}), SqliteStore)
    assert isinstance(corpus_store.from_environment({"BPE_REDIS_URL": "redis://127.0.0.1:1/0"}), RedisStore)


def test_the_digest_memo_keeps_no_text_alive():
    """The page asks for a corpus's digest on every click, so it is remembered; by the text's hash and
    length, never by the text (a memo keyed by 64 texts of 100 MB would hold 6 GB)."""
    import gc
    import weakref

    class Text(str):  # a str subclass can be weakly referenced; it hashes and encodes as its value
        __slots__ = ("__weakref__",)

    text = Text("a pasted corpus " * 1000)
    first = corpus_form.digest("text", text)
    alive = weakref.ref(text)
    assert corpus_form.digest("text", str(text)) == first
    del text
    gc.collect()
    assert alive() is None, "the digest memo kept the text alive"
