"""A browser's budget of texts sent (pasted or uploaded) a minute (``server/quota.py`` ``pastes``): a text past it gets
a sentence before the page does any work on it (it is not hashed, stored or trained), a pasted one stays in the box
and is used by a button once the minute has passed, an uploaded one is not read. AppTest; texts are small, so a
regression that did the work anyway costs milliseconds (the serving cost is measured by
``benchmarks/bench_classroom.py --greedy``)."""

from __future__ import annotations

import pytest
from apptest_support import alerts, ok, settle, start
from streamlit.testing.v1 import AppTest

from server import corpus_form, corpus_upload, limits, quota
from ui import corpus_box, runs

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def budget(monkeypatch):
    """Two texts a minute for one browser; records every text digested (to store or to link) or trained on."""
    monkeypatch.setattr(corpus_box, "client_id", lambda: "one browser")
    limit = quota.Quota(count=2, chars=10**9, verbs=("sent", "send", "corp"))
    quota.use_pastes(limit)
    digested: list[str] = []
    real_digest, real_train = corpus_form.digest, runs.train
    monkeypatch.setattr(corpus_form, "digest", lambda kind, text: digested.append(text) or real_digest(kind, text))
    monkeypatch.setattr(
        runs, "train", lambda settings, **kw: digested.append(settings.text) or real_train(settings, **kw)
    )
    try:
        yield limit, digested
    finally:
        quota.use_pastes(None)


def paste(at: AppTest, text: str) -> AppTest:
    at.text_area(key="corpus_text").set_value(text).run()
    return ok(settle(at))


def summary(at: AppTest) -> str:
    return " ".join(h.proto.body for h in at.get("html") if "bpe-corpus-summary" in h.proto.body)


def text_page() -> AppTest:
    at = start()
    at.radio(key="source").set_value("text").run()
    return at


def test_a_paste_past_the_budget_is_refused_untouched_and_stays_in_the_box(budget):
    limit, digested = budget
    first, second, third = ("hug pug pun bun " * 50, "low lower newest widest " * 40, "a third pasted text " * 60)
    at = paste(paste(text_page(), first), second)
    assert f"Corpus: {len(second):,} characters" in summary(at)
    at = paste(at, third)
    (warning,) = [a for a in alerts(at, "warning") if "may send at most 2" in a]
    assert "This browser has sent 2 corpora in the last 60 seconds" in warning and "stays in the box" in warning
    assert at.text_area(key="corpus_text").value == third  # nothing typed is lost
    assert f"Corpus: {len(second):,} characters" in summary(at)  # the page still shows (and trains) the second
    assert third not in digested  # neither hashed, stored nor trained
    # A minute later (the budget forgets), the button uses the text in the box.
    limit.log.clear()
    at.button(key="corpus_retry").click().run()
    ok(settle(at))
    assert f"Corpus: {len(third):,} characters" in summary(at)
    assert at.text_area(key="corpus_text").value == "" and not [a for a in alerts(at) if "may send" in a]


def test_a_paste_past_the_budget_with_no_corpus_yet_says_only_that(budget):
    limit, _ = budget
    limit.refuse("one browser", 1), limit.refuse("one browser", 1)  # the minute's two texts are spent
    at = paste(text_page(), "hug pug pun bun " * 50)
    assert any("may send at most 2" in a for a in alerts(at, "warning"))
    assert not any("empty" in e for e in alerts(at, "error") + [e.value for e in at.error])


def test_an_upload_past_the_budget_is_not_read(budget, monkeypatch):
    limit, digested = budget
    read: list[bytes] = []
    real_read = corpus_upload.read
    monkeypatch.setattr(
        corpus_upload, "read", lambda data, name, **kw: read.append(data) or real_read(data, name, **kw)
    )
    limit.refuse("one browser", 1), limit.refuse("one browser", 1)
    at = text_page()
    at.file_uploader(key="corpus_file").set_value(("storm.txt", b"a storm of uploads " * 100, "text/plain"))
    ok(settle(at.run()))
    (error,) = alerts(at, "error")
    assert "may send at most 2" in error and "Upload the file again then" in error
    assert not read and not any("a storm of uploads" in t for t in digested)


def test_a_text_of_the_size_limit_is_allowed_once_a_minute():
    budget = quota.Quota.pastes_from_environment({})
    assert budget.refuse("a", limits.MAX_CORPUS_BYTES) is None  # alone in its minute: over the characters, allowed
    assert "may send at most" in budget.refuse("a", 10)
    assert budget.refuse("b", 5_000_000) is None and budget.refuse("b", 5_000_000) is None  # others count as usual
