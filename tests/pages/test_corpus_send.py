"""The Train page's side of "Send a big file": the digest the browser hands back opens the stored corpus (as a
``corpus=<digest>`` link does); what the browser sends is checked, and a corpus that cannot be opened is a
sentence that quotes the file's name as text."""

from __future__ import annotations

import pytest
from apptest_support import ok, start

from server import corpus_route, corpus_store
from server.quota import Quota
from server.sqlite_store import SqliteStore
from ui import corpus_send
from ui import session_keys as keys

TEXT = "the cat sat on the mat\n\n    the dog sat too\n" * 20


@pytest.fixture
def store(tmp_path):
    made = SqliteStore(tmp_path / "c.sqlite3", quota=Quota(count=10**9, chars=10**12))
    corpus_store.use(made)
    yield made
    corpus_store.use(None)


def test_a_digest_the_route_answered_opens_the_stored_text(store):
    key = store.put("text", TEXT)
    state: dict = {}
    assert corpus_send.open_sent(state, {"digest": key, "name": "corpus.en"}) == TEXT
    assert key in state[keys.STORED] and not corpus_send.refused(state)


@pytest.mark.parametrize(
    "sent, says",
    [
        ({"digest": "../../etc/passwd", "name": "a.txt"}, "named no corpus"),
        ("not a dict", "named no corpus"),
        ({"digest": "0" * 64, "name": "<b>gone</b>.txt"}, "'<b>gone</b>.txt' is no longer in the server's store"),
    ],
)
def test_what_cannot_be_opened_is_a_sentence(store, sent, says):
    state: dict = {}
    assert corpus_send.open_sent(state, sent) is None
    assert says in state[corpus_send.REFUSED] and corpus_send.refused(state)


def test_the_page_offers_the_sender_only_when_the_route_is_served(store, monkeypatch):
    at = start()
    at.radio(key="source").set_value("text").run()
    assert corpus_send.KEY not in [getattr(e, "key", None) for e in at.sidebar]
    monkeypatch.setattr(corpus_route, "served", lambda: True)
    at = start()
    at = ok(at.radio(key="source").set_value("text").run())
    assert corpus_send.KEY in [getattr(e, "key", None) for e in at.sidebar]
