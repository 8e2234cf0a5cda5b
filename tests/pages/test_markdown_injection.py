"""No live link from a link, a file, the corpus or a token: both pages opened on a shared
``?text=`` corpus whose words are Markdown payloads, with the toggles and steps that draw their captions,
notes, warnings and options, and every Markdown-bearing element AppTest exposes checked for a link or
an image that would render. Values the pages did not write reach Markdown escaped by
``bpe.display.md_escape``, or are drawn as escaped HTML (``ui/alerts.py``)."""

from __future__ import annotations

import re

from apptest_support import APP, ENCODE, alerts, ok, start
from streamlit.testing.v1 import AppTest

import bpe
from ui.session import STATE_KEY

PAYLOADS = (
    "[x](http://evil.example)",
    "![i](http://evil.example/i.png)",
    "<img src=x>",
    "www.evil.example",
    "a@b.c",
    "**b**",
    ":red[x]",
)
# One long word made of every payload: its merge replay runs over the step budget, so the Encode page
# writes its "Showing the first N merge steps … The word ends as K tokens: …" caption.
LONG_WORD = "".join(p.replace(" ", "") for p in PAYLOADS) * 2
TEXT = " ".join(PAYLOADS * 4 + (LONG_WORD,))
LINK = {
    "text": TEXT,
    "limit": "num_merges",
    "limit_value": "2000",
    "min_frequency": "3",
    "step": "12",
    # bad values: each gets a warning quoting it
    "tie_break": PAYLOADS[0],
    "algorithm": PAYLOADS[1],
    "special": "<img src=x>,[s](http://evil.example/s)",
}

# Where Markdown would make a link or an image: an unescaped "](" (inline link or image), raw "<img",
# and the text Streamlit's renderer autolinks even after backslashes (md_escape puts a word joiner,
# U+2060, before "://", the "." after "www" and an "@" between letters).
LIVE = re.compile(r"(?<!\\)\]\(|(?<!\\)<img|(?i:https?)\\?:\\?/\\?/|(?i:www)\\?\.|\w\\?@\w")


def markdown_strings(at: AppTest) -> list[tuple[str, str]]:
    """(where, source) for every string of the page that Streamlit renders as Markdown: markdown, captions,
    alerts, toasts, metric/widget/expander/tab labels, tooltips, and radio and segmented-control options
    (selectbox options are plain text; st.html bodies are HTML, checked by the alert tests)."""
    found = []
    for node in [*at.main, *at.sidebar]:
        proto, kind = getattr(node, "proto", None), getattr(node, "type", "?")
        if proto is None or kind in ("html", "code", "exception"):
            continue
        fields = proto.DESCRIPTOR.fields_by_name
        for name in ("body", "label", "help"):
            if name in fields and getattr(proto, name):
                found.append((f"{kind}.{name}", getattr(proto, name)))
        if kind == "radio":
            found += [(f"{kind}.option", o) for o in proto.options]
        elif kind == "button_group":
            found += [(f"{kind}.option", o.content) for o in proto.options]
    return found


def live_links(at: AppTest) -> list[tuple[str, str]]:
    return [(where, text) for where, text in markdown_strings(at) if LIVE.search(text)]


def assert_no_live_link(at: AppTest) -> None:
    ok(at)
    assert markdown_strings(at), "nothing to check: the walk found no Markdown"
    assert not live_links(at), live_links(at)


def test_the_checker_sees_a_live_link_and_passes_escaped_text():
    from bpe.display import md_escape

    for payload in ("[x](http://evil.example)", "![i](y)", "<img src=x>", "www.evil.example", "a@b.c", "http://x"):
        assert LIVE.search(f"tokens: {payload}"), payload
        assert not LIVE.search(f"tokens: {md_escape(payload)}"), payload


def test_the_train_page_shows_link_and_corpus_markdown_as_text():
    at = start(**LINK)
    assert len(alerts(at, "warning")) == 2, alerts(at)  # the two bad choices, quoted as plain text
    assert_no_live_link(at)
    for toggle in ("predict", "what_if"):
        at.toggle(key=toggle).set_value(True).run()
        assert_no_live_link(at)
    at.button(key="what_if_go").click().run()  # force the runner-up: "Forced merges in this run: …"
    assert_no_live_link(at)
    at.text_input(key="split_search").set_value("evil").run()
    assert_no_live_link(at)
    at.button(key="cmp_go").click().run()  # compare tie rules
    assert_no_live_link(at)
    at.slider(key="step").set_value(at.slider(key="step").max).run()  # the last step: its stop sentence
    assert_no_live_link(at)


def test_the_encode_page_shows_token_markdown_as_text():
    at = start(**LINK)
    at.switch_page(ENCODE).run()
    at.text_area(key="encode_text").set_value(TEXT).run()
    assert_no_live_link(at)  # as at the link's Train step, 12
    at.button_group(key="merges_choice").set_value("all").run()
    assert_no_live_link(at)
    at.selectbox(key="replay_word").set_value(LONG_WORD).run()
    captions = " ".join(c.value for c in at.caption)
    assert "Showing the first" in captions and "The word ends as" in captions, captions
    assert_no_live_link(at)
    at.toggle(key="show_ws").set_value(True).run()
    assert_no_live_link(at)
    for token in at.selectbox(key="tree_token").options[:20]:
        at.selectbox(key="tree_token").set_value(token).run()
        assert_no_live_link(at)
    at.toggle(key="compare").set_value(True).run()
    for other in ("merges", "wordpiece", "other"):
        at.radio(key="compare_with").set_value(other).run()
        assert_no_live_link(at)
    # An uploaded tokenizer whose file name is a link: "Using …" and the side-by-side metric quote it.
    data = bpe.to_tokenizer_json(at.session_state[STATE_KEY]["encode"]["shown"][1]).encode()
    at.radio(key="encode_source").set_value("Uploaded file").run()
    name = "[x](http:evil.example)www.evil.example.json"  # a file name has no "/"
    at.file_uploader(key="encode_files").set_value([(name, data, "application/json")]).run()
    assert_no_live_link(at)
    assert any("evil" in text for _, text in markdown_strings(at))  # the name is shown, escaped


def test_an_encode_link_with_bad_values_quotes_them_as_text():
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in {**LINK, "step": "²"}.items():
        at.query_params[key] = value
    at.switch_page(ENCODE).run()  # the link opens on Encode, as /encode?…&step=² does
    assert len(alerts(at, "warning")) == 3, alerts(at)
    assert_no_live_link(at)
