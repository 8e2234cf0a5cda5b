"""A stored corpus opened a piece at a time (server/stored_text.py): a short text whole, a long one only counted
(its characters, bytes, lines and start, exactly as the text's own), a damaged or missing one None."""

from __future__ import annotations

import sqlite3
import zlib

import pytest

from server import corpus_form, stored_text
from server.quota import Quota
from server.sqlite_store import SqliteStore
from server.stored_text import StoredText


@pytest.fixture
def store(tmp_path):
    return SqliteStore(tmp_path / "c.sqlite3", quota=Quota(count=10**9, chars=10**12))


def test_a_short_text_and_a_word_count_table_come_back_whole(store):
    text = "low lower\n  newest widest\r\n" * 40
    assert stored_text.open_stored(store.put("text", text), store) == ("text", text)
    assert stored_text.open_stored(store.put("counts", "hug 10\npug 5"), store) == ("counts", "hug 10\npug 5")


def test_a_long_text_is_counted_as_the_text_itself_across_the_inflated_pieces(store):
    """Two- to four-byte characters cut at every piece's edge (pieces of INFLATED bytes), and a text written by
    ``put_chunks`` in parts: the counts are the text's own, and its start is its first HEAD_CHARS characters."""
    text = ("naïve café 日本語 𝄞 ünïcödé\n" * 300_000)[:7_000_001]
    key = store.put("text", text)
    kind, held = stored_text.open_stored(key, store, held_chars=1_000_000)
    assert kind == "text" and isinstance(held, StoredText)
    assert held == StoredText(key, len(text), len(text.encode()), text.count("\n") + 1)
    assert held.head == text[: stored_text.HEAD_CHARS]
    assert held == StoredText.of(text, key)  # as the page makes it from a text it has read


def test_a_text_just_over_the_limit_is_held_and_one_at_it_is_whole(store):
    text = "ab " * 10
    key = store.put("text", text)
    assert stored_text.open_stored(key, store, held_chars=len(text)) == ("text", text)
    assert isinstance(stored_text.open_stored(key, store, held_chars=len(text) - 1)[1], StoredText)


def test_a_missing_or_damaged_corpus_is_none(store, tmp_path):
    assert stored_text.open_stored("0" * 64, store) is None
    key = store.put("text", "hug pug " * 1000)
    other = store.put("text", "bun hug " * 1000)
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        db.execute("UPDATE corpora SET data = ? WHERE digest = ?", (b"not zlib at all", key))  # damaged
        # whole and well-formed, but not what its digest names
        db.execute(
            "UPDATE corpora SET data = ? WHERE digest = ?", (zlib.compress(corpus_form.HEADER + b"text\nx"), other)
        )
    assert stored_text.open_stored(key, store) is None
    assert stored_text.open_stored(other, store) is None


def test_the_preview_leaves_out_a_word_the_head_cut():
    held = StoredText.of("alpha beta gamma " * 2_000, "d" * 64)
    assert len(held.head) == stored_text.HEAD_CHARS and held.head.split()[-1] not in (
        "alpha",
        "beta",
        "gamma",
    )  # cut in a word
    assert held.preview().split() == held.head.split()[:-1]
    assert StoredText.of("alpha beta", "d" * 64).preview() == "alpha beta"  # whole: nothing cut
