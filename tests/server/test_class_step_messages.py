"""What the server sends a following phone at each of the teacher's steps (pages/train.py's step view, ui/classroom.py),
read off Streamlit's websocket by the benchmarks' protocol client: every phone of a class runs that step view at the
same moment, so each run sends few elements (each is a message and a wake-up of the server's event loop) and writes
the URL once, and none of them is a control for stepping alone."""

from __future__ import annotations

import re

from browser_support import SERVE_SCRIPT, on_new_server
from st_client import Session

MAX_ELEMENTS = 6  # the step box with the class's line, two buttons, the chart (in its keyed box), the words


async def a_followers_step(url: str) -> tuple[dict, str, set]:
    """A teacher starts a class on the hug example at step 1 and steps once; what one following phone's press of
    the hidden button brought: (messages by kind, its HTML, the keys of the widgets it drew)."""
    teacher = Session(url, "preset=hug&step=1&present=1")
    await teacher.open()
    await teacher.click("class_start")
    code = re.search(r'data-testid="bpe-class-code">([A-Z2-9]{6})<', "".join(teacher.html)).group(1)
    student = Session(url, f"class={code}")
    await student.open()
    await teacher.click("next")
    student.received.clear()
    student.ids.clear()
    await student.click("class_sync")
    await teacher.close()
    await student.close()
    return dict(student.received), "".join(student.html), set(student.ids)


def test_a_followers_step_sends_the_step_its_line_and_words_in_few_elements_and_no_step_controls():
    (received, page, widgets), _ = on_new_server(a_followers_step, script=SERVE_SCRIPT)
    assert "Step 2 of 7" in page and "Following the teacher" in page and "Corpus splits" in page
    assert widgets == {"class_own", "class_sync"}  # no Start, Back, Next, End, nor the step slider
    assert received["delta"] <= MAX_ELEMENTS, received
    assert received["page_info_changed"] == 1, received  # the step and the class code in one write of the URL
