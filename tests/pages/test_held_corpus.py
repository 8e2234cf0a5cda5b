"""A long corpus is held by its digest, never as its text: opened from a link, uploaded, pasted or sent, the
session holds its digest, size and start (server/stored_text.py), the run is trained from the store and is the
same run, and a corpus the store has lost is said; the Check page's uploaded corpus likewise, checked from the
store with the same verdict (AppTest page logic; the store is the tests' own)."""

from __future__ import annotations

import dataclasses
import pickle
import time
from urllib.parse import parse_qs, urlsplit

from apptest_support import ENCODE, alerts, check_summary, link_of, ok, open_check, settle, start, summary
from streamlit.testing.v1 import AppTest
from students import cs336_train

import bpe
from bpe import check
from bpe.config import BYTE_LEVEL
from server import check_jobs, corpus_form, corpus_store, jobs, run_store, sqlite_store, stored_text
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
    assert settings.text == "" and settings.stored == StoredText.of(text, corpus_form.digest("text", text))
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
    corpus_store.use(sqlite_store.SqliteStore(tmp_path / "empty.sqlite3"))  # a store that has lost it
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


# The Check page's tests hold a corpus past a lower HELD_CHARS: the page, the check's process and the Train page
# it links to take the same path at any length past it, and each check of a 1.1 MB text (the page's, the test's
# own verdict) cost several CPU-seconds. (That a page edits a text up to 1 MB and holds a longer one: the Train
# page's tests above, and a paste of 1 MB on the Check page in tests/browser/test_browser_corpus_files.py.)
CHECKED_HELD_CHARS = 100_000


def test_a_long_corpus_uploaded_on_the_check_page_is_held_by_its_digest_and_checked_from_the_store(monkeypatch):
    """The Check page kept an uploaded corpus whole in the session and sent it, pickled, to the check's process:
    now it holds the digest, the check reads the text from the store, the verdict is the one the text itself
    gives, and "Go to step k" opens the Train page on the same stored corpus with the Check's special tokens."""
    eot = "<|endoftext|>"
    monkeypatch.setattr(stored_text, "HELD_CHARS", CHECKED_HELD_CHARS)
    text = f"{time.time_ns()}\n" + ("the cat sat on the mat; the dog sat too.\n" * 9 + eot) * 300
    assert len(text) > stored_text.HELD_CHARS
    vocab, merges = cs336_train(text, 20, special_tokens=(eot,), fault="min")
    run = pickle.dumps((vocab, merges))
    sent = []  # what the page sends to the check's processes
    isolated = check_jobs.run_isolated
    monkeypatch.setattr(
        check_jobs, "run_isolated", lambda fn, *args, **kw: sent.append(args) or isolated(fn, *args, **kw)
    )
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.file_uploader(key="chk_corpus_file").set_value(("corpus.en", text.encode(), "text/plain"))
    ok(at.run())
    at.file_uploader(key="chk_files").set_value([("run.pkl", run, "application/octet-stream")])
    ok(at.run())
    key = corpus_form.digest("text", text)
    assert f"{len(text):,} characters, stored on the server" in check_summary(at)
    assert at.session_state["bpe_explorer"]["check"]["chk_file_text"] == StoredText.of(text, key)
    assert long_strings(at.session_state.to_dict()) == [] and long_strings(sent) == []
    # the verdict is the one the text itself gives, compared whole (as a small pasted text is)
    pre, rule = at.selectbox(key="chk_pre").value, at.selectbox(key="chk_rule").value
    assert (pre, at.text_input(key="chk_special").value) == ("gpt2", eot)  # CS336's, set by the upload
    student, _ = check_jobs.read_run([("run.pkl", run)], "", 2_000)
    result, _ = check_jobs.compare("text", "", text, "", student, check.Setup(rule, pre, pre in BYTE_LEVEL), (eot,))
    assert result.step is not None and at.header[0].value.endswith(f"at step {result.step:,}")
    assert result.cause in alerts(at)
    # "Go to step k": the Train page on the same stored corpus, held by its digest, at step k
    link = at.get("link_button")[0].proto
    assert link.label == f"Go to step {result.step:,}"
    query = {k: v[0] for k, v in parse_qs(urlsplit(link.url).query).items()}
    assert query["corpus"] == key and query["special"] == eot and query["step"] == str(result.step)
    train = start(**query)
    settings = train.session_state["bpe_explorer"]["settings"]
    assert settings.stored == StoredText.of(text, key) and settings.special_tokens == (eot,)
    assert (settings.pre_tokenizer, settings.tie_break) == (result.setup.pre_tokenizer, result.setup.tie_break)
    assert long_strings(train.session_state.to_dict()) == [] and not alerts(train, "error")
    assert f"Step {result.step} of {max(len(merges), result.step)}" in " ".join(h.proto.body for h in train.get("html"))


def test_a_long_paste_on_the_check_page_is_held_by_its_digest_and_checked_from_the_store(monkeypatch):
    """The Check page kept a pasted corpus whole in its box (sent again with every click) and built it into
    documents in the serving process: now, as on the Train page, a paste too long to edit leaves the box once
    stored, the summary says where it went, the check reads it from the store with the verdict the text itself
    gives, and "Go to step k" carries its digest."""
    eot = "<|endoftext|>"
    monkeypatch.setattr(stored_text, "HELD_CHARS", CHECKED_HELD_CHARS)
    text = f"{time.time_ns()}\n" + ("the cat sat on the mat; the dog sat too.\n" * 9 + eot) * 300
    assert len(text) > stored_text.HELD_CHARS
    vocab, merges = cs336_train(text, 20, special_tokens=(eot,), fault="min")
    run = pickle.dumps((vocab, merges))
    sent = []  # what the page sends to the check's processes
    isolated = check_jobs.run_isolated
    monkeypatch.setattr(
        check_jobs, "run_isolated", lambda fn, *args, **kw: sent.append(args) or isolated(fn, *args, **kw)
    )
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.file_uploader(key="chk_files").set_value([("run.pkl", run, "application/octet-stream")])
    ok(at.run())
    at.text_area(key="chk_text").set_value(text)
    ok(at.run())
    key = corpus_form.digest("text", text)
    assert long_strings(at.session_state.to_dict()) == [] and long_strings(sent) == []
    assert at.session_state["chk_text"] == ""  # the box was emptied; the summary says where the text went
    said = check_summary(at)
    assert f"the pasted text, {len(text):,} characters, {text.count(chr(10)) + 1:,} lines, stored on the server" in said
    assert corpus_box.EDIT_HELP in " ".join(c.value for c in at.caption)
    assert at.session_state["bpe_explorer"]["check"]["chk_file_text"] == StoredText.of(text, key)
    # the verdict is the one the whole text gives
    pre, rule = at.selectbox(key="chk_pre").value, at.selectbox(key="chk_rule").value
    specials = tuple(s.strip() for s in at.text_input(key="chk_special").value.split(",") if s.strip())
    student, _ = check_jobs.read_run([("run.pkl", run)], "", 2_000)
    setup = check.Setup(rule, pre, pre in BYTE_LEVEL)
    result, _ = check_jobs.compare("text", "", text, "", student, setup, specials)
    assert result.step is not None and at.header[0].value.endswith(f"at step {result.step:,}")
    assert result.cause in alerts(at)
    link = at.get("link_button")[0].proto
    assert link.label == f"Go to step {result.step:,}"
    query = {k: v[0] for k, v in parse_qs(urlsplit(link.url).query).items()}
    assert query["corpus"] == key and query["step"] == str(result.step)
    # "Paste a new text" empties the corpus for a new paste
    at.button(key="chk_file_drop").click().run()
    assert ok(at).text_area(key="chk_text").value == "" and not check_summary(at)


class RefusingStore(sqlite_store.SqliteStore):
    """A store that takes no corpus (down, or full)."""

    def put(self, kind: str, text: str, client: str = "") -> str:
        raise corpus_store.StoreUnavailable("The corpus store is not answering.")


def test_a_long_paste_the_store_cannot_take_stays_in_the_check_pages_box_with_a_warning(tmp_path):
    text = long_text()
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    corpus_store.use(RefusingStore(tmp_path / "refusing.sqlite3"))
    try:
        at.text_area(key="chk_text").set_value(text)
        ok(at.run())
        assert at.text_area(key="chk_text").value == text and not check_summary(at)  # nothing lost
        assert any(
            "The corpus store is not answering." in a and "this session only" in a for a in alerts(at, "warning")
        )
    finally:
        corpus_store.use(None)
