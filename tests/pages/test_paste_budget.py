"""A browser's budget of texts sent (pasted or uploaded) a minute (``server/quota.py`` ``pastes``): a text past it gets
a sentence before the page does any work on it (it is not hashed, stored or trained), a pasted one stays in the box
and is used by a button once the minute has passed, an uploaded one is not read. One budget per browser across the
Train and Check pages: the Check page's pasted corpus (which it stores, and checks) and its uploaded one count in
it too, and so do the Train page's word counts, pasted or uploaded, and a link that carries its corpus itself when
it is longer than any link the page writes (made by hand or by a script). AppTest; texts are small (but one, over the length a page holds by its digest), so a regression that did
the work anyway costs milliseconds (the serving cost is measured by ``benchmarks/bench_classroom.py --greedy``)."""

from __future__ import annotations

import pytest
from apptest_support import CHECK, alerts, check_summary, ok, open_check, settle, start
from streamlit.testing.v1 import AppTest

import bpe
from server import check_jobs, corpus_form, corpus_store, corpus_upload, limits, quota, stored_text
from ui import corpus_box, links, runs

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
        runs,
        "train",
        lambda settings, **kw: digested.extend((settings.text, settings.counts)) or real_train(settings, **kw),
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


@pytest.fixture
def checked(monkeypatch):
    """Every argument tuple the Check page sends to the check's processes (to read a run, or to compare)."""
    sent: list[tuple] = []
    isolated = check_jobs.run_isolated
    monkeypatch.setattr(
        check_jobs, "run_isolated", lambda fn, *args, **kw: sent.append(args) or isolated(fn, *args, **kw)
    )
    return sent


def check_text_page(at: AppTest) -> AppTest:
    """``at`` switched to the Check page, its corpus the pasted text, with a student's merges to check."""
    at.switch_page(CHECK).run()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_paste").set_value("t h\nth e\n").run()
    return ok(at)


def sent_text(sent: list[tuple], text: str) -> bool:
    return any(isinstance(arg, str) and arg == text for args in sent for arg in args)


def test_a_long_paste_on_the_check_page_past_the_budget_the_train_page_spent_is_refused_untouched(budget, checked):
    """A long paste on the Check page is stored and held by its digest, as on the Train page: one budget for both
    pages, so a browser past it on the Train page cannot go on filling the server from the Check page. The
    paste is refused before any work, and the box keeps it until the minute has passed."""
    limit, digested = budget
    at = paste(paste(text_page(), "hug pug pun bun " * 50), "low lower newest widest " * 40)  # the minute's two
    at = check_text_page(at)
    text = "the cat sat on the mat; the dog sat too.\n" * (stored_text.HELD_CHARS // 40 + 10)
    assert len(text) > stored_text.HELD_CHARS  # a paste the page would store and hold by its digest
    at.text_area(key="chk_text").set_value(text)
    ok(at.run())
    (error,) = [a for a in alerts(at, "error") if "may send at most 2" in a]
    assert "This browser has sent 2 corpora in the last 60 seconds" in error and "stays in the box" in error
    assert "once the minute has passed" in error
    assert not any("empty" in a for a in alerts(at, "error"))  # only why, not "The corpus is empty"
    assert at.text_area(key="chk_text").value == text and not check_summary(at)  # nothing typed is lost
    assert not any(t == text for t in digested) and not sent_text(checked, text)  # neither hashed, stored nor checked
    # A minute later (the budget forgets), the button uses the text in the box: stored and held by its digest.
    limit.log.clear()
    at.text_area(key="chk_paste").set_value("")  # (no run to check: the corpus is what this test is about)
    at.button(key="chk_paste_retry").click().run()
    ok(at)
    said = check_summary(at)
    assert f"the pasted text, {len(text):,} characters" in said and "stored on the server" in said
    assert at.session_state["chk_text"] == "" and not [a for a in alerts(at) if "may send" in a]  # left the box


def test_a_paste_on_the_check_page_counts_in_the_budget_and_past_it_is_not_checked(budget, checked):
    """A short paste is stored too (so "Go to step k" carries it) and checked: it is a text sent like any other."""
    limit, digested = budget
    at = check_text_page(open_check())
    first = "hug pug pun bun\n" * 20
    at.text_area(key="chk_text").set_value(first)
    ok(at.run())
    assert sent_text(checked, first)  # within the budget: checked
    limit.refuse("one browser", 1)  # the Train page's text, say: the minute's two are spent
    second = "low lower newest widest\n" * 20
    at.text_area(key="chk_text").set_value(second)
    ok(at.run())
    assert any("may send at most 2" in a and "stays in the box" in a for a in alerts(at, "error"))
    assert not any("empty" in a for a in alerts(at, "error"))
    assert at.text_area(key="chk_text").value == second
    assert second not in digested and not sent_text(checked, second)
    at.text_area(key="chk_text").set_value("")  # emptied: the sentence goes with the text
    ok(at.run())
    assert not [a for a in alerts(at) if "may send" in a]


def test_an_upload_on_the_check_page_counts_in_the_budget_and_past_it_is_not_read(budget, monkeypatch):
    limit, digested = budget
    read: list[bytes] = []
    real_read = corpus_upload.read
    monkeypatch.setattr(
        corpus_upload, "read", lambda data, name, **kw: read.append(data) or real_read(data, name, **kw)
    )
    at = check_text_page(open_check())
    at.file_uploader(key="chk_corpus_file").set_value(("one.txt", b"an upload within the budget " * 40, "text/plain"))
    ok(at.run())
    assert len(read) == 1 and "the uploaded file" in check_summary(at)
    at.button(key="chk_file_drop").click().run()
    at.file_uploader(key="chk_corpus_file").set_value(("two.txt", b"a second upload " * 40, "text/plain"))
    ok(at.run())
    at.button(key="chk_file_drop").click().run()
    at.file_uploader(key="chk_corpus_file").set_value(("storm.txt", b"a storm of uploads " * 100, "text/plain"))
    ok(at.run())
    assert any("may send at most 2" in e and "Upload the file again then" in e for e in alerts(at, "error"))
    assert len(read) == 2 and not any("a storm of uploads" in t for t in digested)


@pytest.fixture
def parsed(monkeypatch):
    """Every text or file read as a word-count table."""
    seen: list = []
    real_lines, real_bytes = bpe.table_to_lines, bpe.text_from_bytes
    monkeypatch.setattr(bpe, "table_to_lines", lambda text, *a: seen.append(text) or real_lines(text, *a))
    monkeypatch.setattr(bpe, "text_from_bytes", lambda data, *a: seen.append(data) or real_bytes(data, *a))
    return seen


def counts_page() -> AppTest:
    at = start()
    at.radio(key="source").set_value("counts").run()
    return ok(settle(at))


def table_of(rows: int, word: str) -> str:
    """A word-count table as a spreadsheet's columns arrive (tab-separated)."""
    return "".join(f"{word}{i}\t{i + 1}\n" for i in range(rows))


def lines_of(rows: int, word: str) -> str:
    """The same table as the ``word count`` lines the page trains on."""
    return "\n".join(f"{word}{i} {i + 1}" for i in range(rows))


def trained_counts(at: AppTest) -> str:
    return at.session_state["bpe_explorer"]["settings"].counts


def test_a_word_counts_paste_past_the_budget_is_refused_untouched_and_stays_in_the_box(budget, parsed):
    """The word counts are stored and linked by their digest as a pasted corpus is: a text sent, in the same budget."""
    limit, digested = budget
    at = counts_page()
    for table in (table_of(30, "hug"), table_of(40, "low")):
        at.text_area(key="counts_paste").set_value(table).run()
        ok(settle(at))
    assert trained_counts(at) == lines_of(40, "low")
    third = table_of(50, "pun")
    at.text_area(key="counts_paste").set_value(third).run()
    ok(settle(at))
    (warning,) = [a for a in alerts(at, "warning") if "may send at most 2" in a]
    assert "This browser has sent 2 corpora in the last 60 seconds" in warning and "stays in the box" in warning
    assert "once the minute has passed" in warning
    assert at.text_area(key="counts_paste").value == third  # nothing typed is lost
    assert trained_counts(at) == lines_of(40, "low")  # the page still trains the table it had
    assert third not in parsed and lines_of(50, "pun") not in digested  # neither read, hashed, stored nor trained
    # A minute later (the budget forgets), the button fills the table with the text in the box.
    limit.log.clear()
    at.button(key="counts_paste_retry").click().run()
    ok(settle(at))
    assert trained_counts(at) == lines_of(50, "pun")
    assert at.text_area(key="counts_paste").value == "" and not [a for a in alerts(at) if "may send" in a]


def test_a_word_counts_upload_past_the_budget_is_not_read(budget, parsed):
    limit, digested = budget
    at = counts_page()
    before = trained_counts(at)
    limit.refuse("one browser", 1), limit.refuse("one browser", 1)  # the minute's two texts are spent
    data = table_of(60, "storm").encode()
    at.file_uploader(key="counts_file").set_value(("storm.tsv", data, "text/plain"))
    ok(settle(at.run()))
    (error,) = alerts(at, "error")
    assert "may send at most 2" in error and "Upload the file again then" in error and "keeps what it had" in error
    assert data not in parsed and lines_of(60, "storm") not in digested  # the file was not read
    assert trained_counts(at) == before


def test_a_text_link_longer_than_any_the_page_writes_is_a_text_sent(budget):
    """A ``?text=`` link stores its corpus: one longer than the page ever puts in a link is made by hand or by a
    script, so it is in the budget as a paste is; the links the page writes (a class opening the teacher's) are not."""
    limit, digested = budget
    limit.refuse("one browser", 1), limit.refuse("one browser", 1)  # the minute's two texts are spent
    short = "hug pug pun bun " * 50
    assert len(short) <= links.MAX_URL_CORPUS_CHARS
    assert f"Corpus: {len(short):,} characters" in summary(start(text=short))  # a link the page writes opens
    teachers = "the teacher's stored corpus\n" * 200  # a class opening the teacher's link sends nothing
    key = corpus_store.store().put("text", teachers, client="the teacher")
    assert f"Corpus: {len(teachers):,} characters" in summary(start(corpus=key))
    scripted = "a scripted link's corpus\n" * 200
    assert len(scripted) > links.MAX_URL_CORPUS_CHARS
    at = start(text=scripted)
    (warning,) = [a for a in alerts(at, "warning") if "may send at most 2" in a]
    assert "This browser has sent 2 corpora in the last 60 seconds" in warning and "stays in the box" in warning
    assert not any("empty" in e for e in alerts(at, "error") + [e.value for e in at.error])
    assert at.text_area(key="corpus_text").value == scripted and "Corpus: " not in summary(at)
    assert scripted not in digested  # neither hashed, stored nor trained
    limit.log.clear()
    at.button(key="corpus_retry").click().run()
    ok(settle(at))
    assert f"Corpus: {len(scripted):,} characters" in summary(at) and scripted in digested


def test_a_counts_link_longer_than_any_the_page_writes_is_a_text_sent(budget, parsed):
    limit, digested = budget
    limit.refuse("one browser", 1), limit.refuse("one browser", 1)
    table = lines_of(300, "w")
    assert len(table) > links.MAX_URL_CORPUS_CHARS
    at = start(counts=table)
    (warning,) = [a for a in alerts(at, "warning") if "may send at most 2" in a]
    assert "stays in the box" in warning
    assert at.text_area(key="counts_paste").value == table and trained_counts(at) != table
    assert table not in parsed and table not in digested
    limit.log.clear()
    at.button(key="counts_paste_retry").click().run()
    ok(settle(at))
    assert trained_counts(at) == table and at.text_area(key="counts_paste").value == ""
