"""Uploaded tokenizer files are read off the serving interpreter, within a memory cap and a time limit, and
kept in one store shared by every session within a byte budget; after a server restart the
Encode page says to upload again instead of keeping a stale file list."""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

import pytest
from apptest_support import APP, ENCODE, alerts, ok, open_encode, settle
from streamlit.testing.v1 import AppTest
from tokenizer_files import big_tokenizer_json

from server import uploads
from ui import encode_sources


@pytest.fixture(scope="module")
def big_file() -> bytes:
    """A valid 400,000-token tokenizer.json padded to 60 MB (the size of the file that stalled the class)."""
    data = big_tokenizer_json(400_000)
    return data + b" " * (60_000_000 - len(data))


@pytest.fixture(scope="module")
def small_file() -> bytes:
    return big_tokenizer_json(2_000)


@pytest.fixture
def store(monkeypatch):
    """A store of its own for the test (the budget set by the test)."""
    fresh = uploads.Store(uploads.BUDGET)
    monkeypatch.setattr(uploads, "STORE", fresh)
    return fresh


def pids() -> set[int]:
    """This process's living children (multiprocessing's)."""
    return {p.pid for p in mp.active_children()}


@pytest.mark.timeout(600)
def test_a_60_mb_file_is_read_in_another_process(big_file):
    """The parse runs in a child process and the server keeps only the parsed tokenizer. How long the
    serving thread waits meanwhile is a timing, printed by ``benchmarks/bench_uploads.py``."""
    done, result, children = threading.Event(), [], set()

    def read():
        result.append(uploads.parse("files", {"tokenizer.json": big_file}, "gpt2", "cl100k"))
        done.set()

    pool = pids()  # the training pool's workers, if an earlier test started them
    before = uploads.rss_bytes()
    reader = threading.Thread(target=read)
    reader.start()
    peak = before
    while not done.wait(0.01):
        peak = max(peak, uploads.rss_bytes())
        children.update(pids() - pool)
    reader.join()
    (tok, used, hint), pickled = result[0]
    assert tok.vocab_size == 400_000 and used == "tokenizer.json" and hint is None
    assert children, "no parsing process was seen"
    # The server holds the parsed tokenizer (as the store counts it) and, while unpickling, its pickle;
    # never the parse's working set.
    assert peak - before < pickled * (uploads.HELD_PER_PICKLED_BYTE + 1) < uploads.BUDGET
    assert pids() <= pool


@pytest.mark.timeout(120)
def test_a_file_over_the_memory_cap_gets_a_sentence_and_the_server_goes_on(small_file):
    padded = small_file + b" " * 40_000_000
    with pytest.raises(ValueError, match=r"needed more than the 64 MB of memory one file may use"):
        uploads.parse("files", {"tokenizer.json": padded}, "gpt2", "cl100k", memory=64 * 2**20)
    (tok, _, _), _ = uploads.parse("files", {"tokenizer.json": small_file}, "gpt2", "cl100k")
    assert tok.vocab_size == 2_000


@pytest.mark.timeout(120)
def test_a_file_over_the_time_limit_gets_a_sentence_and_its_process_is_ended(big_file, monkeypatch):
    pool = pids()
    waits, ended = [], []  # this thread's waits for the reader's answer, and the readers it ended
    poll, kill, here = Connection.poll, BaseProcess.kill, threading.get_ident()

    def recorded_poll(conn, timeout=0.0):
        heard = poll(conn, timeout)
        if threading.get_ident() == here:
            waits.append((timeout, heard))
        return heard

    def recorded_kill(proc):
        if threading.get_ident() == here:
            ended.append(proc)
        kill(proc)

    monkeypatch.setattr(Connection, "poll", recorded_poll)
    monkeypatch.setattr(BaseProcess, "kill", recorded_kill)
    with pytest.raises(ValueError, match=r"took longer than the 1 s limit, so it was stopped"):
        uploads.parse("files", {"tokenizer.json": big_file}, "gpt2", "cl100k", seconds=1)
    # The server waited once, for the 1 s limit, heard nothing, and killed the reader mid-parse (a reader
    # that had finished would have exited 0; one that ended itself by its own alarm, by SIGALRM).
    assert waits == [(1, False)]
    assert len(ended) == 1 and ended[0].exitcode == -signal.SIGKILL
    assert pids() <= pool


def test_the_store_keeps_within_its_budget_and_sets_aside_the_least_recently_used():
    store = uploads.Store(100)
    store.put("a", "A", 40)
    store.put("b", "B", 40)
    assert store.get("a") == "A"  # a is now the most recently used
    store.put("c", "C", 40)
    assert (store.get("a"), store.get("b"), store.get("c")) == ("A", None, "C")
    assert store.used() == 80
    with pytest.raises(ValueError, match=r"would take about .* uploaded tokenizers may take .* in all"):
        store.put("d", "D", 101)


@pytest.mark.timeout(300)
def test_five_uploads_at_once_stay_within_the_shared_budget(store):
    files = [big_tokenizer_json(20_000, seed=s) for s in range(5)]
    one = uploads.parse("files", {"t.json": files[0]}, "gpt2", "cl100k")[1] * uploads.HELD_PER_PICKLED_BYTE
    store.budget = int(2.5 * one)  # room for two of the five
    got, errors = [], []

    def read(data):
        try:
            got.append(uploads.read_files({"t.json": data}, "gpt2", "cl100k"))
        except ValueError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=read, args=(f,)) for f in files]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(got) == 5
    assert store.used() <= store.budget and len(store.entries) == 2


# -- the page ------------------------------------------------------------------------------------------
def upload(at: AppTest, key: str, data: bytes) -> AppTest:
    if at.radio(key="encode_source").value != "Uploaded file":
        ok(at.radio(key="encode_source").set_value("Uploaded file").run())
    at.file_uploader(key=key).set_value([("tokenizer.json", data, "application/json")])
    return ok(at.run())


def test_a_file_over_the_memory_cap_on_the_page_says_so(monkeypatch, store, small_file):
    monkeypatch.setattr(uploads, "PARSE_MEMORY", 64 * 2**20)
    at = upload(open_encode(), "encode_files", small_file + b" " * 40_000_000)
    (error,) = alerts(at, "error")
    assert "needed more than the 64 MB of memory one file may use" in error and "No tokenizer is loaded" in error


def test_a_tokenizer_set_aside_for_others_is_read_again_from_the_session_s_files(store, small_file):
    at = upload(open_encode(), "encode_files", small_file)
    (key,) = store.entries
    first = store.get(key)[0]
    store.entries.clear()  # other sessions' files took its place
    ok(at.run())
    assert store.get(key) is not None and store.get(key)[0] is not first
    assert not alerts(at, "error")


def test_after_a_restart_the_page_says_to_upload_again_and_draws_an_empty_uploader():
    # A new session (the restarted server's) whose first run arrives with "Uploaded file" chosen, as
    # the browser sends it after a restart: its uploader listed a file this server never received.
    at = AppTest.from_file(APP, default_timeout=120)
    settle(at.run())
    at.session_state["encode_source"] = "Uploaded file"
    at.switch_page(ENCODE).run()
    ok(at)
    assert encode_sources.RESTARTED in alerts(at, "warning")
    assert [u.key for u in at.get("file_uploader")] != ["encode_files"]  # a new key: the stale list is gone
    assert at.info[0].value == "Upload a tokenizer file to tokenize with it."
    # Uploading again clears the sentence.
    at = upload(at, at.get("file_uploader")[0].key, big_tokenizer_json(300))
    assert encode_sources.RESTARTED not in alerts(at, "warning")
    assert not at.info or at.info[0].value != "Upload a tokenizer file to tokenize with it."


def test_a_session_choosing_uploaded_file_later_sees_no_restart_sentence():
    at = open_encode()
    ok(at.radio(key="encode_source").set_value("Uploaded file").run())
    assert encode_sources.RESTARTED not in alerts(at, "warning")
    assert [u.key for u in at.get("file_uploader")] == ["encode_files"]
