"""AppTest: Encode's presenter view: the tokens in large type and one word's merge replay."""

from __future__ import annotations

import html
import re

from apptest_support import ok, open_encode, type_text


def test_presenter_view_shows_large_tokens_and_the_replay_of_the_longest_word():
    at = type_text(open_encode(), "bug mug thug hugs")
    at.toggle(key="encode_present").set_value(True).run()
    ok(at)
    bodies = [h.value for h in at.html if h.value.startswith('<div class="bpe-enc-present')]
    assert len(bodies) == 2, bodies  # the tokens, then the replay
    chips = [html.unescape(c) for c in re.findall(r'<span class="tok[^>]*>(.*?)</span>', bodies[0])]
    assert [c.strip("·␣ ") for c in chips] == ["b", "ug", "[UNK]", "ug", "[UNK]", "hug", "hugs"], str(chips)
    assert at.selectbox(key="present_word").value == "thug"  # the first longest word: the most merges to replay
    assert re.search(r">hug<", bodies[1]) and re.search(r">ug<", bodies[1])  # t h u g → t h ug → t hug
    assert not at.dataframe and not at.metric  # the numbers and tables are left out
    at.toggle(key="encode_present").set_value(False).run()
    assert ok(at).metric and not [h for h in at.html if h.value.startswith('<div class="bpe-enc-present')]
