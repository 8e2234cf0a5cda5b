"""A following phone on a server with the class state route (``serve.py``, ``server/class_route.py``): its browser
waits on the route (``ui/class.js``), not on a fragment's timer, so between the teacher's steps it asks for no
script run at all; a step, a vote and the end of the class still reach it, and the projector counts it.

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_class_route.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import re

import pytest
from browser_support import ONE_WORKER, SERVE_SCRIPT, TIMEOUT_MS, AppServer, open_train, wait_for_app, wait_for_step
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
QUIET_ANSWERS = 2  # route answers a phone takes while nothing happens (each after the route's hold)
FRAGMENT_POLLS = 3  # script runs a fragment on a one-second timer would have asked for meanwhile, at least


@pytest.fixture(scope="module")
def served():
    server = AppServer(script=SERVE_SCRIPT, env=ONE_WORKER)
    url = server.start()
    try:
        yield url
    finally:
        server.stop()


class Watched:
    """A phone's page, with the script runs its browser asked for (``BackMsg.rerun_script`` on the websocket) and
    its answers from the class state route counted as they happen."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.runs = 0
        self.answers = 0
        self.page.on("websocket", lambda ws: ws.on("framesent", self._sent))
        self.page.on("requestfinished", self._finished)

    def _sent(self, payload) -> None:
        if isinstance(payload, bytes):
            msg = BackMsg()
            msg.ParseFromString(payload)
            self.runs += msg.WhichOneof("type") == "rerun_script"

    def _finished(self, request) -> None:
        self.answers += "/class-state/" in request.url

    def wait(self, condition, what: str) -> None:
        """Until ``condition()`` holds; Playwright hands over the page's events while it waits a turn."""
        for _ in range(TIMEOUT_MS // 100):
            if condition():
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"waited {TIMEOUT_MS} ms for {what}: {self.runs} runs, {self.answers} answers")


def test_a_following_phone_waits_on_the_route_with_no_script_runs_and_still_follows(served, browser):
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 720})
    phone = Watched(browser)
    try:
        teacher = teacher_context.new_page()
        open_train(teacher, f"{served}/?preset=hug&step=1&present=1")
        teacher.locator(".st-key-class_start button").click()
        code = teacher.get_by_test_id("bpe-class-code")
        expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"), timeout=TIMEOUT_MS)
        open_train(phone.page, f"{served}/?class={code.inner_text()}")
        line = phone.page.get_by_test_id("bpe-class-mode")
        expect(line).to_contain_text("Following the teacher", timeout=TIMEOUT_MS)
        assert re.fullmatch(r"/class-state/[A-Z2-9]{6}\?f=[\w-]{16}", line.get_attribute("data-bpe-poll"))
        # The projector counts the phone from its answers (no fragment beats for it).
        expect(teacher.get_by_test_id("bpe-following")).to_have_text("1 following", timeout=TIMEOUT_MS)
        # Nothing happens: the phone's browser waits on the route and asks for no script run.
        runs, answers = phone.runs, phone.answers
        phone.wait(
            lambda: phone.answers >= answers + QUIET_ANSWERS or phone.runs >= runs + FRAGMENT_POLLS,
            "the phone to ask the route again, or to poll by script runs",
        )
        assert phone.runs == runs, f"{phone.runs - runs} script runs while the class stood still"
        # The teacher steps: one run (the step view's hidden button), the step shown.
        teacher.locator(".st-key-next button").click()
        wait_for_app(teacher)
        wait_for_step(phone.page, 2)
        assert phone.runs > runs
        # A vote opened on the projector reaches the phone as well.
        teacher.locator(".st-key-class_ask button").click()
        expect(phone.page.locator(".st-key-class_choices button").first).to_be_visible(timeout=TIMEOUT_MS)
        # The end of the class: the route answers 404, and the page says the class has ended.
        teacher.locator(".st-key-class_end button").click()
        expect(phone.page.get_by_text("The class has ended")).to_be_visible(timeout=TIMEOUT_MS)
        expect(phone.page.locator("[data-bpe-poll]")).to_have_count(0)
    finally:
        teacher_context.close()
        phone.context.close()
