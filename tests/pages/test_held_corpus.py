"""A long corpus is held by its digest, never as its text: opened from a link, uploaded, pasted or sent, the
session holds its digest, size and start (server/stored_text.py), the run is trained from the store and is the
same run, and a corpus the store has lost is said (AppTest page logic; the store is the tests' own)."""

from __future__ import annotations

import dataclasses
import time

from apptest_support import ENCODE, alerts, link_of, ok, settle, start, summary
from streamlit.testing.v1 import AppTest

import bpe
from server import corpus_store, jobs, run_store, stored_text
from server.stored_text import StoredText
from ui import corpus_box, corpus_send, runs


def long_text() -> str:
    """1.2 MB, over HELD_CHARS, new on every call (no run of an earlier test is found ready)."""
    return f"{time.time_ns()}\n" + "the cat sat on the mat; the dog sat too.\n" * 30_000


def long_strings(value, seen: set | None = None) -> list[int]:
    """The lengths of the strings over HELD_CHARS that ``value`` holds (through dicts, their keys, sequences,
    sets and dataclasses): what a session would keep of a corpus."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, str):
        return [len(value)] if len(value) > stored_text.HELD_CHARS else []
    if isinstance(value, dict):
        return [n for item in value.items() for part in item for n in long_strings(part, seen)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [n for part in value for n in long_strings(part, seen)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [n for f in dataclasses.fields(value) for n in long_strings(getattr(value, f.name), seen)]
    return []


def held_run(at: AppTest, text: str) -> None:
    """The page's settings hold ``text`` by its digest only, and its run is the one the text itself trains."""
    settings = at.session_state["bpe_explorer"]["settings"]
    assert settings.text == "" and settings.stored == StoredText.of(text, corpus_store.digest("text", text))
    assert long_strings(at.session_state.to_dict()) == []
    history = run_store.RUNS.get(runs.run_key(settings))
    expected = bpe.run_training(jobs.documents(text, settings.special_tokens), **settings.options())
    assert history is not None and history.num_merges > 10 and history.merges == expected.merges
    assert f"{len(text):,} characters" in summary(at) and "stored on the server" in summary(at)
    assert link_of(at)["corpus"] == settings.stored.digest  # the link names it as any stored corpus


def test_a_long_corpus_opened_from_its_link_is_held_by_its_digest():
    text = long_text()
    key = corpus_store.store().put("text", text)
    at = start(corpus=key, limit="num_merges", limit_value="40")
    held_run(at, text)


def on_the_text_page(limit_value: int = 40) -> AppTest:
    at = start()
    at.radio(key="source").set_value("text").run()
    at.number_input(key="limit_value").set_value(limit_value).run()
    return at


def test_a_long_uploaded_file_is_held_by_its_digest():
    text = long_text()
    at = on_the_text_page()
    at.file_uploader(key="corpus_file").set_value(("cats.txt", text.encode(), "text/plain"))
    held_run(ok(settle(at.run())), text)


def test_a_long_paste_is_held_by_its_digest_once_stored():
    text = long_text()
    at = on_the_text_page()
    at.text_area(key="corpus_text").set_value(text)
    held_run(ok(settle(at.run())), text)
    assert at.text_area(key="corpus_text").value == ""


def test_a_long_text_sent_by_the_route_is_opened_as_its_digest_only():
    text = long_text()
    key = corpus_store.store().put("text", text)
    state: dict = {}
    assert corpus_send.open_sent(state, {"digest": key, "name": "cats.txt"}) == StoredText.of(text, key)
    short = "hug pug " * 10
    assert corpus_send.open_sent(state, {"digest": corpus_store.store().put("text", short), "name": "s"}) == short


def test_a_held_corpus_the_store_lost_is_said(monkeypatch, tmp_path):
    text = long_text()
    at = start(corpus=corpus_store.store().put("text", text), limit="num_merges", limit_value="40")
    monkeypatch.setattr(corpus_box, "RECHECK_S", 0.0)
    corpus_store.use(corpus_store.SqliteStore(tmp_path / "empty.sqlite3"))  # a store that has lost it
    try:
        at.run()
        assert "no longer on the server" in summary(at)
        assert any(corpus_box.STORED_GONE in a for a in alerts(at, "error"))
        assert link_of(at)["corpus"] == "text"  # the link no longer names a corpus nobody can open
    finally:
        corpus_store.use(None)


def test_the_encode_page_starts_from_a_held_corpus_first_line():
    text = long_text()
    at = start(corpus=corpus_store.store().put("text", text), limit="num_merges", limit_value="40")
    at.switch_page(ENCODE).run()
    assert ok(at).text_area(key="encode_text").value == text.splitlines()[0]
