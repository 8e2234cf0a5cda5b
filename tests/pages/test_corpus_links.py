"""A pasted corpus of any size on one link: stored under its digest, out of the text box, and
opened from ``?corpus=<digest>`` at the link's step; a forgotten digest gets its sentence; a store that is
down keeps the corpus in the session with a warning (AppTest page logic; the store is the tests' own)."""

from __future__ import annotations

import pytest
from apptest_support import CORPUS, alerts, link_of, ok, pasted, settle, start, step_text, summary
from redis_support import RedisServer

from server import corpus_form, corpus_store
from server.redis_store import RedisStore


def test_a_5000_character_corpus_shared_by_link_opens_at_the_same_step():
    """The link names the corpus by its digest (not corpus=text), so no student gets a warning or "The corpus is
    empty"."""
    teacher = pasted()
    link = link_of(teacher)
    assert link["corpus"] == corpus_form.digest("text", CORPUS) and "text" not in link and link["step"] == "7"
    assert sum(len(v) for v in link.values()) < 200  # the link carries the digest, not the text
    student = start(**link)
    assert student.slider(key="step").value == 7 and not alerts(student, "error")
    assert student.radio(key="source").value == "text"
    assert step_text(student).count("Step 7 of") == step_text(teacher).count("Step 7 of") >= 1
    assert f"{len(CORPUS):,} characters" in summary(student) and "stored on the server" in summary(student)


def test_the_accepted_text_leaves_the_box_and_edit_brings_it_back():
    at = pasted("low lower newest widest " * 10, step=2)
    assert at.text_area(key="corpus_text").value == ""  # nothing big rides along with every click
    assert "240 characters" in summary(at)
    at.button(key="corpus_edit").click().run()
    assert at.text_area(key="corpus_text").value == "low lower newest widest " * 10
    at.text_area(key="corpus_text").set_value("hug pug hug pug bun").run()
    ok(settle(at))
    assert at.text_area(key="corpus_text").value == "" and "19 characters" in summary(at)
    assert link_of(at)["corpus"] == corpus_form.digest("text", "hug pug hug pug bun")
    assert at.slider(key="step").value == 0  # a new corpus opens at its first step


def test_an_uploaded_file_is_stored_and_linked_by_its_digest_too():
    at = start()
    at.radio(key="source").set_value("text").run()
    at.file_uploader(key="corpus_file").set_value(("notes.txt", CORPUS.encode(), "text/plain")).run()
    ok(settle(at))
    assert link_of(at)["corpus"] == corpus_form.digest("text", CORPUS)
    assert at.text_area(key="corpus_text").value == ""


def test_a_word_count_table_is_linked_by_its_digest():
    at = start(counts="hug 10\npug 5\npun 12\nbun 4\nhugs 5", step="2")
    link = link_of(at)
    assert "counts" not in link and len(link["corpus"]) == 64
    again = start(**link)
    assert again.radio(key="source").value == "counts" and again.slider(key="step").value == 2


def test_a_forgotten_digest_says_so_in_one_sentence_and_offers_the_paste_box():
    at = start(corpus="ab" * 32, step="7", tie_break="hf")
    notes = alerts(at, "warning")
    assert notes == [
        "The corpus this link points to is no longer on the server (old corpora are removed to make room): "
        "paste or upload it again in the sidebar. The link's settings are applied."
    ]
    assert not alerts(at, "error") and not at.error  # not "The corpus is empty"
    assert at.radio(key="source").value == "text" and at.text_area(key="corpus_text").value == ""
    assert at.selectbox(key="tie_break").value == "hf"
    at.text_area(key="corpus_text").set_value(CORPUS).run()  # pasted again: the link's step
    ok(settle(at))
    assert not alerts(at, "warning") and at.slider(key="step").value == 7


def test_a_corpus_value_that_is_no_digest_is_named():
    at = start(corpus="ab" * 31 + "z!")
    assert any("is not a corpus address" in n for n in alerts(at, "warning"))
    assert at.radio(key="source").value == "preset"


@pytest.fixture
def redis_store(tmp_path):
    server = RedisServer(tmp_path).start()
    corpus_store.use(RedisStore(server.url))
    try:
        yield server
    finally:
        corpus_store.use(None)
        server.stop()


def test_redis_stopped_mid_class_keeps_the_corpus_in_the_session_with_a_warning(redis_store):
    teacher = pasted()
    link = link_of(teacher)
    assert start(**link).slider(key="step").value == 7  # shared through Redis
    redis_store.stop()
    # The teacher's session keeps its corpus and its step; a new paste is kept in the session, said once.
    teacher.slider(key="step").set_value(8).run()
    assert teacher.slider(key="step").value == 8 and not teacher.exception
    new_text = "the store is down but the text is not lost " * 40
    teacher.text_area(key="corpus_text").set_value(new_text).run()
    ok(settle(teacher))
    warning = " ".join(alerts(teacher, "warning"))
    assert "The corpus store (Redis) is not available" in warning and "kept in this session only" in warning
    assert "kept in this session" in summary(teacher) and f"{len(new_text):,} characters" in summary(teacher)
    assert link_of(teacher)["corpus"] == "text"  # too long for a link, as before the store
    # A student opening the old link hears that the store cannot be reached.
    student = start(**link)
    assert any("cannot be opened now" in n for n in alerts(student, "warning"))
    # Redis back (empty: no persistence): the session stores its corpus again and the link names it.
    redis_store.start()
    teacher.session_state["bpe_explorer"]["store_failed"].clear()  # skip the 30 s wait before a retry
    teacher.slider(key="step").set_value(1).run()
    teacher.run()
    assert link_of(teacher)["corpus"] == corpus_form.digest("text", new_text)
