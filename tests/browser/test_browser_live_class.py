"""A live class in real browsers (ui/classroom.py): a teacher at 1280x720 and two phones (390x844) on the
class link. Students follow steps, a preset change and a pasted corpus; one who explores on their own stays
put; a student cannot move the class; the class vote reaches the projector and its reveal.

A teacher who reloads the page keeps the class (a cookie, never a link); a following phone shows the step box
first, its bar and the vote below it.

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_live_class.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import (
    STEP_TEXT,
    STEP_VIEW_DRAWN,
    TIMEOUT_MS,
    assert_no_exception,
    open_train,
    paste_corpus,
    replica_of,
    wait_for_app,
    wait_for_step,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PASTED = "low lower lowest newer newest wider widest " * 3


def start_class(browser, url: str):
    """The teacher's projector on the hug preset at step 1, a class started; (context, page, code)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    open_train(page, f"{url}/?preset=hug&step=1&present=1")
    page.locator(".st-key-class_start button").click()
    code = page.get_by_test_id("bpe-class-code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"), timeout=TIMEOUT_MS)
    expect(code).to_be_in_viewport()  # the class box is where "Start a class" was: the projector shows the code
    return context, page, code.inner_text()


def join(browser, url: str, code: str):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_train(page, f"{url}/?class={code}")
    expect(page.get_by_test_id("bpe-class-mode")).to_contain_text("Following the teacher", timeout=TIMEOUT_MS)
    return context, page


def join_together(browser, url: str, code: str, n: int) -> list:
    """``n`` phones that open the class link at the same moment, as a class does: [(context, page)]."""
    phones = []
    for _ in range(n):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        phones.append((context, page))
        response = page.goto(f"{url}/?class={code}", wait_until="commit")  # the next phone does not wait
        assert response is not None and response.ok
    for _, page in phones:  # then each as open_train waits, and following
        wait_for_app(page)
        page.locator(STEP_VIEW_DRAWN).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        page.get_by_text(STEP_TEXT).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        expect(page.get_by_test_id("bpe-class-mode")).to_contain_text("Following the teacher", timeout=TIMEOUT_MS)
    return phones


def following(teacher, n: int) -> None:
    expect(teacher.get_by_test_id("bpe-following")).to_have_text(f"{n} following", timeout=TIMEOUT_MS)


def step(page, where: str = "next") -> None:
    # while a rerun moves the step controls (a student who stops following), the old button can stay drawn
    # beside the new one for a moment: click once the page holds one
    button = page.locator(f".st-key-{where} button")
    expect(button).to_have_count(1, timeout=TIMEOUT_MS)
    button.click()
    wait_for_app(page)


@pytest.fixture
def live_class(app_server, browser):
    contexts = []
    teacher_context, teacher, code = start_class(browser, app_server)
    contexts.append(teacher_context)
    phones = join_together(browser, app_server, code, 2)
    contexts += [context for context, _ in phones]
    students = [page for _, page in phones]
    try:
        yield teacher, students, code
    finally:
        for context in contexts:
            context.close()


def test_students_follow_steps_a_preset_and_a_pasted_corpus_and_one_may_explore_alone(live_class):
    teacher, (ana, ben), code = live_class
    following(teacher, 2)
    for page in (ana, ben):
        wait_for_step(page, 1)
        assert "token" not in page.url and parse_qs(urlparse(page.url).query)["class"] == [code]
    step(teacher)
    step(teacher)
    for page in (ana, ben):
        wait_for_step(page, 3)
        expect(page.locator(".bpe-bars")).to_be_visible()  # the pair chart of a following phone
        expect(page.locator(".st-key-next")).to_have_count(0)  # the teacher steps for it
    # Ben explores on his own: the projector counts him apart, and the teacher's steps leave him alone.
    ben.locator(".st-key-class_own button").click()
    expect(ben.get_by_test_id("bpe-class-mode")).to_contain_text("Exploring on your own", timeout=TIMEOUT_MS)
    following(teacher, 1)
    step(ben, "back")
    wait_for_step(ben, 2)
    step(teacher)
    wait_for_step(ana, 4)
    # A preset chosen in the sidebar (presenter mode off brings it back) reaches the class.
    teacher.locator(".st-key-present label").click()
    wait_for_app(teacher)
    teacher.locator(".st-key-preset").get_by_text("The course's four sentences").click()
    wait_for_step(teacher, 0)
    wait_for_app(ana)
    expect(ana.get_by_role("heading", name="Step 0 of 19")).to_be_visible(timeout=TIMEOUT_MS)
    assert "preset=course" in ana.url
    step(teacher)
    wait_for_step(ana, 1)
    expect(ana.get_by_role("heading", name="Step 1 of 19")).to_be_visible(timeout=TIMEOUT_MS)
    expect(ben.get_by_role("heading", name="Step 2 of 7")).to_be_visible()  # still his own hug run
    assert "preset=hug" in ben.url or "preset" not in ben.url
    # A pasted corpus reaches the class by its digest in the store.
    paste_corpus(teacher, PASTED)
    expect(ana.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(PASTED):,} characters", timeout=TIMEOUT_MS)
    step(teacher)
    step(teacher)
    wait_for_step(ana, 2)
    assert re.search(r"[?&]corpus=[0-9a-f]{64}(&|$)", ana.url)
    # Ben follows again and lands on the teacher's pasted corpus and step.
    ben.locator(".st-key-class_follow button").click()
    expect(ben.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(PASTED):,} characters", timeout=TIMEOUT_MS)
    wait_for_step(ben, 2)
    following(teacher, 2)
    for page in (teacher, ana, ben):
        assert_no_exception(page)


def a_student_cannot_move_the_class(teacher, ana, ben, code: str) -> None:
    """Ana explores alone and steps her own page, Ben follows and cannot step; a reload joins again."""
    wait_for_step(ana, 1)
    ana.locator(".st-key-class_own button").click()  # Ana's own steps move her page only
    following(teacher, 1)
    step(ana)
    step(ana)
    wait_for_step(ana, 3)
    # Ben follows: he has no step controls, and the keys that step find none to press
    expect(ben.locator(".st-key-next")).to_have_count(0)
    expect(ben.locator(".st-key-step")).to_have_count(0)
    ben.locator(".bpe-step").click()
    ben.keyboard.press("ArrowRight")
    ben.keyboard.press("PageDown")
    wait_for_app(ben)
    expect(ben.get_by_role("heading", name="Step 1 of 7")).to_be_visible(timeout=TIMEOUT_MS)
    expect(teacher.get_by_role("heading", name="Step 1 of 7")).to_be_visible()
    step(teacher)  # the teacher's step reaches Ben, not Ana
    wait_for_step(ben, 2)
    expect(ana.get_by_role("heading", name="Step 3 of 7")).to_be_visible()
    ben.reload()  # a reload joins the class again, at the teacher's step
    wait_for_app(ben)
    wait_for_step(ben, 2)
    expect(ben.get_by_test_id("bpe-class-mode")).to_contain_text(f"Following the teacher · class {code}")
    for page in (ana, ben):  # no teacher's controls on a phone, and no token anywhere in the link
        expect(page.locator(".st-key-class_ask")).to_have_count(0)
        expect(page.locator(".st-key-class_end")).to_have_count(0)
        assert set(parse_qs(urlparse(page.url).query)) <= {"class", "step", "preset"}


# Where a following phone's parts start (px from the top of the page, the page scrolled to its top).
PHONE_TOPS_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const top = (s) => { const e = document.querySelector(s);
    return e ? Math.round(e.getBoundingClientRect().top + main.scrollTop) : null; };
  return {step: top('.bpe-step'), bar: top('[data-testid="bpe-class-mode"]'), vote: top('.st-key-class_choices')};
}"""


def test_a_student_cannot_move_the_class_votes_reach_the_projector_and_the_class_ends_for_everyone(live_class):
    """One class (a class of three pages costs a test as much as the rest of it): a student cannot move it; then,
    both following again at step 1, a vote (a following phone at 390x844 shows it below the step box, which sat at
    522 px under the follow bar and the vote, 369 px without a vote), its reveal and the step after it; the teacher
    reloads the page and still moves the class; the class link says how to serve beyond localhost; the class ends
    for everyone."""
    teacher, students, code = live_class
    ana, ben = students
    a_student_cannot_move_the_class(teacher, ana, ben, code)
    ana.locator(".st-key-class_follow button").click()  # both follow again, and the teacher goes back to step 1
    expect(ana.get_by_test_id("bpe-class-mode")).to_contain_text("Following the teacher", timeout=TIMEOUT_MS)
    following(teacher, 2)
    step(teacher, "back")
    for page in students:
        wait_for_step(page, 1)
    teacher.locator(".st-key-class_ask button").click()
    expect(teacher.get_by_test_id("bpe-answers")).to_have_text("0", timeout=TIMEOUT_MS)
    choices = [page.locator(".st-key-class_choices button") for page in students]
    for c in choices:
        expect(c.first).to_be_visible(timeout=TIMEOUT_MS)
    ana.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    where = ana.evaluate(PHONE_TOPS_JS)
    assert where["step"] <= 300, where  # as high as a phone on its own puts it (tests/browser/test_browser_fit.py)
    assert where["step"] < where["bar"] < where["vote"] < 844, where  # the vote still on the first screen
    for page in (teacher, *students):  # the pair counts would give the answer away: no chart on any screen
        expect(page.locator('[data-testid="stVegaLiteChart"]')).to_have_count(0, timeout=TIMEOUT_MS)
        expect(page.locator(".bpe-bars")).to_have_count(0)  # a following phone's chart is HTML bars
    labels = choices[0].all_inner_texts()
    # hug at step 1 (ug merged): step 2 merges u + n (16)
    assert "u + n" in labels and "h + ug" in labels
    choices[0].filter(has_text=re.compile(r"^u \+ n$")).click()
    expect(teacher.get_by_test_id("bpe-answers")).to_have_text("1", timeout=TIMEOUT_MS)
    expect(students[0].get_by_test_id("bpe-voted")).to_contain_text("u + n", timeout=TIMEOUT_MS)
    choices[1].filter(has_text=re.compile(r"^h \+ ug$")).click()
    expect(teacher.get_by_test_id("bpe-answers")).to_have_text("2", timeout=TIMEOUT_MS)
    teacher.locator(".st-key-class_reveal button").click()
    reveal = teacher.get_by_test_id("bpe-reveal")
    expect(reveal).to_contain_text("Step 2 merges u + n (count 16): 1 of 2 answers chose it", timeout=TIMEOUT_MS)
    expect(teacher.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    expect(students[1].get_by_text("Step 2 merges u + n")).to_be_visible(timeout=TIMEOUT_MS)
    step(teacher)  # the merge: the vote closes, every screen goes on
    for page in students:
        wait_for_step(page, 2)
    expect(teacher.locator(".st-key-class_ask button")).to_be_visible()
    # A teacher who reloads the page keeps the class: a cookie, never a link.
    (kept,) = [c for c in teacher.context.cookies() if c["name"] == "bpe_class"]
    token = kept["value"].partition(".")[2]
    assert kept["value"].startswith(code + ".") and len(token) > 20 and kept["sameSite"] == "Strict"
    teacher.reload()
    wait_for_app(teacher)
    expect(teacher.get_by_test_id("bpe-class-code")).to_have_text(code, timeout=TIMEOUT_MS)
    following(teacher, 2)
    step(teacher)  # the reloaded page still moves the class
    wait_for_step(ana, 3)
    assert token not in teacher.url and token not in ana.url and "class" not in parse_qs(urlparse(teacher.url).query)
    # The class link says how to serve beyond localhost; the class ends for everyone, and is forgotten.
    teacher.locator(".st-key-class_row").get_by_text("Class link").click()
    expect(teacher.locator(".bpe-local").first).to_contain_text("--server.address 0.0.0.0", timeout=TIMEOUT_MS)
    teacher.keyboard.press("Escape")
    teacher.locator(".st-key-class_end button").click()
    expect(teacher.locator(".st-key-class_start button")).to_be_visible(timeout=TIMEOUT_MS)
    expect(ana.get_by_text("The class has ended")).to_be_visible(timeout=TIMEOUT_MS)
    teacher.wait_for_function("() => !document.cookie.includes('bpe_class=')")  # an ended class is forgotten
    teacher.reload()
    wait_for_app(teacher)
    expect(teacher.locator(".st-key-class_start button")).to_be_visible(timeout=TIMEOUT_MS)
    expect(teacher.get_by_test_id("bpe-class-code")).to_have_count(0)


def test_students_on_the_other_replica_follow_and_vote(replicas, browser):
    """Two replicas behind HAProxy (scripts/serve-replicas.sh) share the class through their Redis."""
    url, _ = replicas
    contexts = []
    try:
        teacher_context, teacher, code = start_class(browser, url)
        contexts.append(teacher_context)
        students = []
        for _ in range(2):  # round robin: the two students land on different replicas
            context, page = join(browser, url, code)
            contexts.append(context)
            students.append(page)
        assert {replica_of(c) for c in contexts[1:]} == {"replica1", "replica2"}
        following(teacher, 2)
        step(teacher)
        for page in students:
            wait_for_step(page, 2)
        teacher.locator(".st-key-class_ask button").click()
        for page in students:  # step 3 of the hug example merges h + ug
            page.locator(".st-key-class_choices button").filter(has_text=re.compile(r"^h \+ ug$")).click()
        expect(teacher.get_by_test_id("bpe-answers")).to_have_text("2", timeout=TIMEOUT_MS)
        teacher.locator(".st-key-class_reveal button").click()
        expect(teacher.get_by_test_id("bpe-reveal")).to_contain_text("2 of 2 answers chose it", timeout=TIMEOUT_MS)
    finally:
        for context in contexts:
            context.close()
