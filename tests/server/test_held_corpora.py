"""What the server holds of a big corpus: the texts sessions hold count against the trained runs' memory budget
(server/run_store.py ``RunStore.hold``: a big upload makes the oldest runs go, and a session that ends gives its
room back), and the pool keeps no pickled copy of a corpus once its job is sent (server/jobs.py)."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from apptest_support import ok, settle, start
from browser_support import wait_until

import bpe
from server import corpus_form, corpus_store, jobs, run_store, sqlite_store
from ui import runs
from ui.settings import Settings

# where multiprocessing's queue feeder thread pickles and keeps the last message it sent
FEEDER = tracemalloc.Filter(True, "*/multiprocessing/queues.py", all_frames=True)


def a_run(text: str) -> bpe.History:
    return bpe.run_training([text], pre_tokenizer="whitespace", num_merges=3)


def test_a_held_corpus_makes_the_oldest_runs_go_and_its_session_gives_the_room_back(monkeypatch):
    store = run_store.RunStore()
    for name in ("old", "newer", "newest"):
        store.put(name, a_run(f"hug pug {name}"), 1_000)  # each counted with its cache's budget
    monkeypatch.setattr(run_store, "RUN_MEMORY_BUDGET", store.nbytes + 1_000)
    store.hold("session-1", "train", 1_001)  # past the budget by one byte: the oldest run goes
    assert list(store.runs) == ["newer", "newest"] and store.nbytes <= run_store.RUN_MEMORY_BUDGET
    store.hold("session-1", "train", 100)  # a smaller corpus replaces the big one: counted once
    assert store.nbytes == sum(size for _, size in store.runs.values()) + 100
    store.hold("session-1", "check", 50)
    store.release("session-1")
    assert store.nbytes == sum(size for _, size in store.runs.values()) and not store.held


@pytest.mark.timeout(300)
def test_the_pool_keeps_no_pickled_corpus_once_its_job_is_sent():
    text = f"{time.time_ns()} " + "hug pug pun " * 1_500_000  # 18 MB: a job that carries a big text
    tracemalloc.start(30)
    try:
        runs.train(Settings(source="text", text=text, limit_value=3), block=True)

        def kept() -> int:
            return sum(t.size for t in tracemalloc.take_snapshot().filter_traces([FEEDER]).traces)

        wait_until(
            lambda: kept() < len(text) // 10, 60, lambda: f"the pickled job to go ({kept() / 2**20:.1f} MiB kept)"
        )
    finally:
        tracemalloc.stop()
    assert jobs.BIG_TEXT_CHARS < len(text)


@pytest.mark.timeout(300)
def test_a_big_uploaded_corpus_goes_to_its_worker_by_its_digest_and_trains_the_same_run(monkeypatch):
    text = f"{time.time_ns()}\n" + "the cat sat on the mat; the dog sat too.\n" * 30_000  # 1.2 MB
    sent: list[tuple] = []
    real_submit = jobs.submit
    monkeypatch.setattr(jobs, "submit", lambda *args, **kw: sent.append(args[:3]) or real_submit(*args, **kw))
    at = start()
    at.radio(key="source").set_value("text").run()
    at.number_input(key="limit_value").set_value(40).run()
    at.file_uploader(key="corpus_file").set_value(("cats.txt", text.encode(), "text/plain"))
    ok(settle(at.run()))
    key, spec, options = [job for job in sent if job[1]["source"] == "text"][-1]  # the upload's (after the box's)
    assert spec["text"] == "" and spec["stored"][1] == corpus_form.digest("text", text) and spec["chars"] == len(text)
    history = run_store.RUNS.get(key)
    expected = bpe.run_training(jobs.documents(text, options.get("special_tokens", ())), **options)
    assert history is not None and history.num_merges > 10 and history.merges == expected.merges


def test_a_corpus_gone_from_the_store_is_said_and_not_kept_as_a_failure(tmp_path):
    store = sqlite_store.SqliteStore(tmp_path / "c.sqlite3")
    spec = {"source": "text", "preset": "", "text": "", "counts": ""}
    gone = {**spec, "stored": (corpus_store.address(store), "0" * 64), "chars": 10}
    with pytest.raises(jobs.CorpusGone):
        jobs.train_job(0, gone, {"pre_tokenizer": "whitespace", "num_merges": 3})
    key = store.put("text", "hug pug hug")
    there = {**spec, "stored": (corpus_store.address(store), key), "chars": 11}
    history, _ = jobs.train_job(0, there, {"pre_tokenizer": "whitespace", "num_merges": 3})
    assert history.merges == bpe.run_training(["hug pug hug"], pre_tokenizer="whitespace", num_merges=3).merges
