"""A following student's step view (pages/train.py, ui/classroom.py, ui/pair_bars.py): every phone of a class runs it
at each of the teacher's steps, all at once, so it draws what the student reads (the step box with "Following the
teacher", the pair chart as HTML bars made once per step, the rewritten words) and nothing for stepping alone;
"Explore on my own" brings the step controls and the Vega-Lite chart back."""

from __future__ import annotations

import html
import re

from apptest_support import link_of, ok, page_html, start

import bpe
from server import classroom, corpus_store
from ui import links, panels
from ui.settings import corpus_of, preset_settings

STEP_CONTROLS = {"start", "back", "next", "end"}


def follower(step: int = 3):
    """A phone on the link of a class whose teacher is at ``step`` of the hug example."""
    code, _ = classroom.start(corpus_store.store(), links.settings_to_params(preset_settings("hug"), step))
    return start(**{"class": code}), code


def charts(at) -> list:
    return [e for e in at.main if getattr(e, "type", None) == "vega_lite_chart"]


def test_a_following_phone_shows_the_step_chart_and_words_without_step_controls():
    at, code = follower()
    page = page_html(at)
    assert "Step 3 of 7" in page and f"Following the teacher · class {code}" in page
    assert 'class="bpe-bars"' in page and not charts(at)  # the pair chart, as bars in the words' block
    assert "Corpus splits" in page and 'class="rw"' in page  # the words this merge rewrote
    assert not STEP_CONTROLS & {b.key for b in at.button}
    assert "step" not in {s.key for s in at.slider}
    assert {"class_own", "class_sync"} <= {b.key for b in at.button}
    assert link_of(at)["class"] == code and link_of(at)["step"] == "3"  # a reload joins the class again


def test_the_class_line_is_in_the_step_box_block_right_below_the_box():
    at, code = follower()
    (block,) = [h.proto.body for h in at.get("html") if "Following the teacher" in h.proto.body]
    assert block.index('class="bpe-step"') < block.index("Following the teacher")


def test_exploring_on_your_own_brings_the_step_controls_back_and_following_again_takes_them_away():
    at, _ = follower()
    at.button(key="class_own").click().run()
    ok(at)
    assert "Exploring on your own" in page_html(at)
    assert STEP_CONTROLS <= {b.key for b in at.button} and at.slider(key="step").value == 3
    assert charts(at) and 'class="bpe-bars"' not in page_html(at)
    at.button(key="next").click().run()
    assert "Step 4 of 7" in page_html(ok(at))
    at.button(key="class_follow").click().run()
    assert "Step 3 of 7" in page_html(ok(at)) and not STEP_CONTROLS & {b.key for b in at.button}


def test_the_bars_are_the_pair_counts_the_step_chose_from_with_the_chosen_and_tied_marked():
    at, _ = follower()
    settings = preset_settings("hug")
    s = bpe.run_training(corpus_of(settings), **settings.options()).state(3)
    bars = re.findall(
        r'<span class="bpe-bar-pair">(.*?)</span><span class="bpe-bar-track"><span class="bpe-bar (\w+)" '
        r'style="width:[\d.]+%"></span><span class="bpe-bar-n">([\d,]+)</span>',
        page_html(at),
    )
    pairs = [(html.unescape(pair), int(n.replace(",", ""))) for pair, _, n in bars]
    assert pairs == [(f"{a} {b}", count) for (a, b), count in s.top_pairs(len(pairs))] and len(pairs) > 1
    roles = {html.unescape(pair): role for pair, role, _ in bars}
    assert roles[" ".join(s.pair)] == "chosen"
    shown_tied = {" ".join(p) for p in s.tied if p != s.pair} & set(roles)
    assert {p for p, r in roles.items() if r == "tied"} == shown_tied


def test_the_bars_are_made_once_per_step_for_every_phone_of_the_class():
    settings = preset_settings("hug")
    history = bpe.run_training(corpus_of(settings), **settings.options())
    made = panels._pair_bars_html(history, 3)
    assert all(panels._pair_bars_html(history, 3) is made for _ in range(30)) and "bpe-bar chosen" in made
