"""Two replicas behind HAProxy (scripts/serve-replicas.sh): a student whose replica dies lands
on the other and keeps their step, because the state lives in the URL and training is deterministic."""

from __future__ import annotations

import os
import re
import signal

import pytest
from browser_support import (
    LONG_CORPUS,
    TIMEOUT_MS,
    open_train,
    paste_and_step,
    replica_of,
    wait_for_reconnect,
    watch_connection,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def open_step(context, url: str):
    page = context.new_page()
    open_train(page, url)
    return page


def test_a_corpus_pasted_on_one_replica_opens_by_link_on_the_other(replicas, browser):
    """The replicas share pasted corpora through the Redis that serve-replicas.sh starts."""
    url, run_dir = replicas
    assert (run_dir / "redis.pid").exists()
    teacher = browser.new_context(viewport={"width": 1280, "height": 900})
    students = []
    try:
        link = paste_and_step(teacher.new_page(), url, LONG_CORPUS, 7)
        # Round robin: of two new students, one lands on the other replica.
        for _ in range(2):
            student = browser.new_context(viewport={"width": 1280, "height": 900})
            students.append(student)
            page = student.new_page()
            open_train(page, link)
            expect(page.get_by_role("heading", name=re.compile(r"Step 7 of"))).to_be_visible(timeout=TIMEOUT_MS)
            expect(page.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(LONG_CORPUS):,} characters")
            expect(page.locator(".bpe-alert-warning")).to_have_count(0)
        assert replica_of(teacher) in {replica_of(s) for s in students}
        assert len({replica_of(s) for s in students}) == 2
    finally:
        for c in [teacher, *students]:
            c.close()


# Last in the module: it kills a replica of the shared pair, and nothing restarts one.
def test_a_student_whose_replica_dies_lands_on_the_other_and_keeps_the_step(replicas, browser):
    url, run_dir = replicas
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        pages = [open_step(c, f"{url}/?preset=course&tie_break=hf&step=3") for c in contexts]
        for page in pages:
            page.locator(".st-key-next button").click()
            expect(page.get_by_role("heading", name=re.compile(r"Step 4 of"))).to_be_visible(timeout=TIMEOUT_MS)
        served = [replica_of(c) for c in contexts]
        assert sorted(served) == ["replica1", "replica2"]  # cookie stickiness, round robin: one each
        victim = served[0]
        page = pages[0]
        watch_connection(page)
        os.kill(int((run_dir / f"{victim}.pid").read_text()), signal.SIGKILL)
        # The first student's websocket drops; the page reconnects through HAProxy to the other replica.
        wait_for_reconnect(page)
        expect(page.get_by_role("heading", name=re.compile(r"Step 4 of"))).to_be_visible(timeout=TIMEOUT_MS)
        page.locator(".st-key-next button").click(timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name=re.compile(r"Step 5 of"))).to_be_visible(timeout=TIMEOUT_MS)
        assert "step=5" in page.url and "tie_break=hf" in page.url
        with pytest.raises(ProcessLookupError):  # the step moved on a live session: the survivor's
            os.kill(int((run_dir / f"{victim}.pid").read_text()), 0)
        # The second student never noticed.
        pages[1].locator(".st-key-next button").click()
        expect(pages[1].get_by_role("heading", name=re.compile(r"Step 5 of"))).to_be_visible(timeout=TIMEOUT_MS)
    finally:
        for c in contexts:
            c.close()
