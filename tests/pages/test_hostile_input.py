"""Hostile links and inputs: each gets a sentence or a bounded result, never a
traceback; values from a link or a file are shown as plain text, never as Markdown."""

from __future__ import annotations

import re

import pytest
from apptest_support import APP, ENCODE, alerts, settle, start
from streamlit.testing.v1 import AppTest

import bpe
from bpe import corpus_text
from server import corpus_form
from server.limits import COUNTS_LIMIT_TEXT, MAX_COUNTS_BYTES
from ui.session import STATE_KEY


def plain(markdown: str) -> str:
    """What a Markdown body shows when every punctuation character is backslash-escaped."""
    return re.sub(r"\\(.)", r"\1", markdown)


def notes(at: AppTest) -> list[str]:
    """Warnings and errors; link and corpus values come as plain-text alerts (alerts.alert)."""
    return alerts(at) + [w.value for w in at.warning] + [e.value for e in at.error]


def typed_counts(at: AppTest, counts: str) -> None:
    """A word-count table as if typed in the sidebar (Streamlit ignores a query string over 512 KB)."""
    at.session_state["source"], at.session_state["counts_text"] = "counts", counts


def step_shown(at: AppTest) -> str:
    body = " ".join(h.proto.body for h in at.get("html"))
    return re.search(r"Step \d+ of \d+", body).group(0)


# -- links and counts that raised -------------------------------------------------------------------


def test_a_forced_step_of_1e999_is_named_and_the_rest_of_the_link_kept():
    at = start(preset="hug", tie_break="hf", forced='[[1e999,"u","g"]]')
    assert any("forced=" in plain(n) and "leaves them out" in plain(n) for n in notes(at)), notes(at)
    assert at.selectbox(key="tie_break").value == "hf"  # only the bad part of the link is dropped
    assert at.session_state[STATE_KEY]["settings"].forced == ()


def test_forced_nested_three_thousand_brackets_deep_is_named():
    at = start(preset="hug", forced="[" * 3000 + "]" * 3000)
    assert any("forced=" in plain(n) and "not readable JSON" in plain(n) for n in notes(at)), notes(at)


@pytest.mark.parametrize(
    "forced",
    [
        '{"a": 1}',
        '[[true, "u", "g"]]',
        '[[1, "u"]]',
        '[[0, "u", "g"]]',
        '[[1, "", "g"]]',
        "[[1, 2, 3]]",
        '[[1.5, "u", "g"]]',
        "[" * 30_000,
    ],
)
def test_malformed_forced_merges_are_named_not_a_traceback(forced):
    at = start(preset="hug", forced=forced)
    assert any("forced=" in plain(n) for n in notes(at)), notes(at)


def test_a_count_of_ten_to_the_twenty_is_refused_with_the_limit():
    with pytest.raises(ValueError, match="at most 1,000,000,000,000"):
        bpe.parse_word_counts("hug 100000000000000000000")
    with pytest.raises(ValueError, match="at most 1,000,000,000,000"):
        bpe.run_training({"hug": 10**20}, num_merges=2)
    at = start(counts="hug 100000000000000000000\npug 5")
    assert "Row 1" in plain(" ".join(notes(at))) and "at most 1,000,000,000,000" in plain(" ".join(notes(at)))


def test_counts_that_add_up_past_64_bits_are_refused():
    counts = {f"{'x' * 1000}{i}": 10**12 for i in range(10_000)}  # 10^19 symbols: past a 64-bit count
    with pytest.raises(ValueError, match="use smaller counts"):
        bpe.run_training(counts, num_merges=1)


@pytest.mark.parametrize(
    "row, says",
    [
        ("hug -3", "1 or more"),
        ("hug 2.5", "not a whole number"),
        ("hug 1e3", "not a whole number"),
        ("hug " + "9" * 5000, "not a whole number"),
    ],
)
def test_negative_float_and_huge_counts_are_named(row, says):
    at = start(counts=row)
    assert says in plain(" ".join(notes(at))), notes(at)


def test_a_hundred_thousand_row_word_count_table_trains(monkeypatch):
    counts = "\n".join(f"w{i} {i % 97 + 1}" for i in range(100_000))
    parsed, parse = [], corpus_text.parse_word_counts

    def counted_parse(text: str, **kwargs):
        parsed.append(len(text.splitlines()))
        return parse(text, **kwargs)

    monkeypatch.setattr(corpus_text, "parse_word_counts", counted_parse)
    at = AppTest.from_file(APP, default_timeout=120)  # typed in the sidebar: a link this long is cut by Streamlit
    typed_counts(at, counts)
    at.session_state["limit"], at.session_state["limit_value"] = "num_merges", 20
    settle(at.run())
    assert not at.exception and not at.error, [e.value for e in at.exception]
    assert step_shown(at) == "Step 0 of 20"
    # Bounded work (the point is no traceback; speed is benchmarked): the table is read once, whole.
    assert parsed == [100_000]


def test_a_word_count_table_over_the_corpus_limit_is_refused():
    rows = "\n".join(f"{'w' * 60}{i} 1" for i in range(MAX_COUNTS_BYTES // 60 + 10))
    at = AppTest.from_file(APP, default_timeout=120)
    typed_counts(at, rows)
    settle(at.run())
    assert not at.exception
    assert f"larger than {COUNTS_LIMIT_TEXT}" in plain(" ".join(notes(at)))


# -- garbage and oversized URL parameters -----------------------------------------------------------


@pytest.mark.parametrize(
    "step, says, shows",
    [
        ("-1", "out of range; using 0", "Step 0 of 7"),
        ("1e9", "“1e9” is not a whole number", "Step 0 of 7"),
        ("1000000000", "out of range; using 100,000", "Step 7 of 7"),
        ("seven", "is not a whole number", "Step 0 of 7"),
    ],
)
def test_garbage_steps_are_named_and_the_step_bounded(step, says, shows):
    at = start(preset="hug", step=step)
    assert any(says in plain(n) for n in notes(at)), notes(at)
    assert step_shown(at) == shows


def test_digits_other_than_ascii_are_named_on_the_train_page():
    """``isdigit`` accepted ``²`` (then ``int()`` raised) and ``٣`` (read silently as 3)."""
    at = start(preset="hug", step="²", limit_value="①", min_frequency="¹", limit="num_merges")
    for name, raw in [("step", "²"), ("limit_value", "①"), ("min_frequency", "¹")]:
        assert f"The link's {name} “{raw}” is not a whole number; it is left out." in alerts(at, "warning"), notes(at)
    assert step_shown(at) == "Step 0 of 7"
    assert "“٣” is not a whole number" in " ".join(alerts(start(preset="hug", step="٣"), "warning"))


def test_a_superscript_step_on_an_encode_link_is_named_there():
    """``/encode?step=²``: the session starts on the Encode page, which says what the link could not restore."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["step"] = "²"
    at.switch_page(ENCODE).run()  # before the first run: the link opens on Encode, as /encode?step=² does
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value.startswith("Encode")
    assert "The link's step “²” is not a whole number; it is left out." in alerts(at, "warning"), notes(at)


def test_limit_value_that_is_not_a_number_is_named_and_the_preset_kept():
    at = start(preset="course", limit_value="1e3")
    assert any("limit_value “1e3” is not a whole number" in plain(n) for n in notes(at)), notes(at)
    assert at.selectbox(key="pre_tokenizer").value == "gpt2"  # the rest of the link still applies


def test_a_100_kb_text_link_trains_and_is_linked_by_its_digest():
    text = "the quick brown fox " * 5_000
    at = start(text=text)
    assert step_shown(at).startswith("Step 0 of") and at.session_state[STATE_KEY]["settings"].text == text
    assert at.text_area(key="corpus_text").value == ""  # stored, so the clicks do not carry it
    assert at.query_params["corpus"] == corpus_form.digest("text", text) and "text" not in at.query_params


def test_special_tokens_that_are_regex_metacharacters_or_empty():
    at = start(text="hug ( pug [ bun *", special="(,[,,*,", limit_value="3")
    assert at.session_state[STATE_KEY]["settings"].special_tokens == ("(", "[", "*")
    at.switch_page(ENCODE).run()
    at.text_area(key="encode_text").set_value("a(b[c*").run()
    assert not at.exception
    assert {"(", "[", "*"} <= set(at.dataframe[0].value["token"])
    tok = bpe.Tokenizer(["a", "b"], [], special_tokens=["(", ".*", "[", "\\"])
    assert tok.tokenize("a.*b(\\") == ["a", ".*", "b", "(", "\\"]
    with pytest.raises(ValueError, match="non-empty"):
        bpe.run_training({"hug": 1}, special_tokens=[""])


# -- link values are plain text -----------------------------------------------------------------------

HOSTILE = {
    "tie_break": "[Download the fixed tokenizer here](http://evil.example/x)",
    "pre_tokenizer": "![t](http://127.0.0.1:9/track.png)",
    "algorithm": ":red-background[**Your session expired**]",
    "preset": "www.evil.example <b>x</b> $x^2$ \n=== :smile:",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_link_values_in_warnings_are_plain_text(name):
    """Quoted word for word in an HTML-escaped block, never in a Markdown body."""
    at = start(**{name: HOSTILE[name]})
    assert any(HOSTILE[name].strip()[:60] in n for n in alerts(at, "warning")), alerts(at)
    assert not [
        m.value
        for m in [*at.warning, *at.error, *at.markdown, *at.caption]
        if "evil" in m.value or "track.png" in m.value or "session expired" in m.value
    ]
    escaped = [h.proto.body for h in at.get("html") if "bpe-alert" in h.proto.body]
    assert not [b for b in escaped if "<b>" in b or "<a " in b or "<img" in b]


def test_errors_quoting_the_corpus_are_plain_text():
    at = start(counts="[x](http://evil.example) many")
    assert any("[x](http://evil.example)" in n for n in alerts(at, "error")), notes(at)
    at = start(preset="hug", forced='[[1, "[a](http://evil.example)", "g"]]')
    assert any("Cannot force the pair ('[a](http://evil.example)', 'g')" in n for n in alerts(at, "error")), notes(at)
    assert not [m.value for m in [*at.warning, *at.error, *at.markdown] if "evil" in m.value]
