"""Two replicas behind HAProxy (scripts/serve-replicas.sh, issue 15): a student whose replica dies lands
on the other and keeps their step, because the state lives in the URL and training is deterministic."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest
from browser_support import (
    REPO_ROOT,
    TIMEOUT_MS,
    free_port,
    healthy,
    open_train,
    wait_for_reconnect,
    wait_until,
    watch_connection,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def haproxy_path() -> str | None:
    return shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)


@pytest.fixture
def replicas():
    if haproxy_path() is None:
        msg = "haproxy not installed (scripts/test.sh installs Debian's haproxy)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " -- replica tests must not skip in CI", pytrace=False)
        pytest.skip(msg)
    run_dir = Path(tempfile.mkdtemp(prefix="bpe-replicas-"))
    port, r1, r2 = free_port(), free_port(), free_port()
    env = {**os.environ, "PORT": str(port), "BIND": "127.0.0.1", "REPLICA_PORTS": f"{r1} {r2}", "RUN_DIR": str(run_dir)}
    log = open(run_dir / "script.log", "w")
    proc = subprocess.Popen(
        ["bash", "scripts/serve-replicas.sh"],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, (run_dir / "script.log").read_text()
        return healthy(url)

    try:
        wait_until(up, 90, lambda: f"HAProxy and two replicas at {url}:\n{(run_dir / 'script.log').read_text()}")
        yield url, run_dir
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(run_dir, ignore_errors=True)


def replica_of(context) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "BPE_REPLICA")


def open_step(context, url: str):
    page = context.new_page()
    open_train(page, url)
    return page


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


def test_a_corpus_pasted_on_one_replica_opens_by_link_on_the_other(replicas, browser):
    """The replicas share pasted corpora through the Redis that serve-replicas.sh starts (issue 20)."""
    from test_browser_corpus_links import CORPUS, paste_and_step

    url, run_dir = replicas
    assert (run_dir / "redis.pid").exists()
    teacher = browser.new_context(viewport={"width": 1280, "height": 900})
    students = []
    try:
        link = paste_and_step(teacher.new_page(), url, CORPUS, 7)
        # Round robin: of two new students, one lands on the other replica.
        for _ in range(2):
            student = browser.new_context(viewport={"width": 1280, "height": 900})
            students.append(student)
            page = student.new_page()
            open_train(page, link)
            expect(page.get_by_role("heading", name=re.compile(r"Step 7 of"))).to_be_visible(timeout=TIMEOUT_MS)
            expect(page.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(CORPUS):,} characters")
            expect(page.locator(".bpe-alert-warning")).to_have_count(0)
        assert replica_of(teacher) in {replica_of(s) for s in students}
        assert len({replica_of(s) for s in students}) == 2
    finally:
        for c in [teacher, *students]:
            c.close()
