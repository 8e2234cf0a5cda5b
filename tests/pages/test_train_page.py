"""AppTest walks through the training page: the hug walkthrough, presets, the chart, bad input, escaping."""

from __future__ import annotations

import json
from fractions import Fraction
from html.parser import HTMLParser

import pandas as pd
import pyarrow as pa
import pytest
from apptest_support import APP, alerts, settle, start, step_text, unescape_md
from streamlit.testing.v1 import AppTest

import bpe
from bpe import formats
from bpe.display import byte_text, mark_whitespace
from bpe.presets import PRESETS
from server import limits
from ui.assets import KEYS_JS, RESTORE_JS, SKIP_JS, SKIP_LINK


class _TableReader(HTMLParser):
    """Collects the tables of our HTML blocks by their data-table name: header row, then cells as text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._rows = self.tables.setdefault(dict(attrs).get("data-table", f"t{len(self.tables)}"), [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._rows = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_tables(at: AppTest) -> dict[str, list[list[str]]]:
    """The tables the page drew as HTML, by their ``data-table`` name."""
    reader = _TableReader()
    for block in at.get("html"):
        reader.feed(block.proto.body)
    return reader.tables


def html_table(at: AppTest, name: str) -> pd.DataFrame:
    """A table the page drew as HTML (``data-table=name``), as a DataFrame of strings."""
    rows = html_tables(at)[name]
    return pd.DataFrame(rows[1:], columns=rows[0])


def chart_frames(at: AppTest) -> list:
    """The data of each Vega-Lite chart on the page (inline in the spec, or Arrow datasets)."""
    frames = []
    for element in at.main:
        if getattr(element, "type", None) == "vega_lite_chart":
            spec = json.loads(element.proto.spec)
            frames += [pd.DataFrame(rows) for rows in spec.get("datasets", {}).values()]
            frames += [pa.ipc.open_stream(d.data.data).read_pandas() for d in element.proto.datasets]
            if element.proto.HasField("data") and element.proto.data.data:
                frames.append(pa.ipc.open_stream(element.proto.data.data).read_pandas())
    return frames


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_hug_walkthrough_reads_like_the_course():
    at = start()
    assert at.slider(key="step").value == 0
    click(at, "next")
    text = step_text(at)
    assert "ug = hug 10 + pug 5 + hugs 5 = 20" in text and "count 20" in text
    click(at, "next")
    assert "un = pun 12 + bun 4 = 16" in step_text(at) and "count 16" in step_text(at)
    click(at, "next")
    assert "hug = hug 10 + hugs 5 = 15" in step_text(at)
    assert at.query_params["step"] == ["3"] or at.query_params["step"] == "3"
    click(at, "back")
    assert at.slider(key="step").value == 2 and "count 16" in step_text(at)
    at.slider(key="step").set_value(3).run()
    assert "count 15" in step_text(at)
    click(at, "start")
    assert at.slider(key="step").value == 0
    click(at, "end")
    assert "no pair left" in " ".join(s.value for s in at.success)


def test_chart_shows_the_same_numbers_as_the_table():
    at = start(step="1")
    table = html_table(at, "pairs")
    chart = chart_frames(at)[0]
    assert list(chart["pair"]) == list(table["pair"])
    assert list(chart["count"]) == [int(c) for c in table["count"]]
    assert table.iloc[0]["pair"] == "u g" and table.iloc[0]["chosen"] == "✓"
    assert list(table["chosen"]).count("✓") == 1
    assert dict(zip(table["pair"], table["count"].astype(int)))["h u"] == 15


def test_url_restores_the_step():
    at = start(preset="hug", step="2")
    assert at.slider(key="step").value == 2 and "count 16" in step_text(at)


def test_history_table_lists_merges_so_far():
    at = start(step="3")
    frame = html_table(at, "history")
    assert list(frame["new token"])[::-1] == ["ug", "un", "hug"]
    assert [int(c) for c in frame["count"]][::-1] == [20, 16, 15]


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_reproduces_its_merges(key):
    at = start(preset=key)
    p = PRESETS[key]
    expected = bpe.run_training(p.corpus(), forced_merges=p.forced_merges, **p.options)
    click(at, "end")
    shown = list(html_table(at, "history")["new token"])[::-1]
    # A space shows as ·; byte-level tokens as the text they stand for (␣Straße), except in the course's
    # own GPT-2 presets, which read as the course prints them (Ġ).
    as_text = p.options.get("pre_tokenizer") in bpe.BYTE_LEVEL and key not in ("course", "notebook")
    show = byte_text if as_text else mark_whitespace
    merges = [show(r["new_token"]) for r in formats.merge_rows(expected)]
    assert len(shown) == min(len(merges), 15)  # the page sends the last 15 merges
    assert shown == merges[len(merges) - len(shown) :]


def test_course_preset_gives_the_course_merges():
    at = start(preset="course")
    click(at, "end")
    frame = html_table(at, "history")
    assert (
        list(frame["new token"])[::-1]
        == [
            "Ġa",
            "Ġto",
            "en",
            "Th",
            "This",
            "ou",
            "se",
            "Ġtok",
            "Ġtoken",
            "nd",
            "Ġis",
            "Ġth",
            "Ġthe",
            "in",
            "Ġab",
            "Ġtokeni",
        ][-15:]
    )
    assert "The last 15 of 19 merges" in step_text(at)


def test_switching_preset_resets_to_its_settings():
    at = start()
    at.radio(key="preset").set_value("aa-abc").run()
    assert at.selectbox(key="pre_tokenizer").value == "space-suffix"
    click(at, "end")
    frame = html_table(at, "history")
    assert list(frame["new token"])[::-1] == ["ab", "abc", "aa", "aa·"]


# -- bad input ------------------------------------------------------------------------------------------
def errors(at: AppTest) -> str:
    """The errors as the student reads them (they reach markdown escaped: bpe.display.md_escape)."""
    return " ".join(alerts(at, "error") + [unescape_md(e.value) for e in at.error])


def test_empty_text_shows_an_error_and_keeps_the_input():
    at = start()
    at.radio(key="source").set_value("text").run()
    at.text_area(key="corpus_text").set_value("   ").run()
    assert "empty" in errors(at) and not at.exception
    assert at.text_area(key="corpus_text").value == "   "


def test_vocab_size_below_the_alphabet_names_the_minimum():
    at = start()
    at.radio(key="limit").set_value("vocab_size").run()
    at.number_input(key="limit_value").set_value(3).run()
    assert "at least 7" in errors(at) and not at.exception


def test_malformed_word_count_line_is_named():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["counts"] = "hug 10\npug five"
    at.run()
    assert not at.exception
    assert "Row 2 ('pug five')" in errors(at)  # the page shows word counts as a table
    assert at.radio(key="source").value == "counts"


def test_too_large_corpus_is_refused_with_the_limit():
    at = start()
    at.radio(key="source").set_value("text").run()
    settle(at.text_area(key="corpus_text").set_value("ab " * (limits.MAX_CORPUS_BYTES // 3 + 1)).run())
    assert f"larger than {limits.LIMIT_TEXT}" in errors(at) and not at.exception


def test_user_text_is_escaped():
    payload = "<img src=x onerror=alert(1)> <script>alert(2)</script>"
    at = start()
    at.radio(key="source").set_value("text").run()
    at.text_area(key="corpus_text").set_value(payload).run()
    assert not at.exception and not at.error and not alerts(at, "error")
    # every HTML block but our own constant scripts (keys, skip link, and restore from app.py)
    html = " ".join(
        h.proto.body for h in at.get("html") if h.proto.body not in (KEYS_JS, RESTORE_JS, SKIP_LINK + SKIP_JS)
    )
    assert "&lt;img" in html and "<img src=x" not in html and "<script>" not in html


def test_wordpiece_shows_the_score_formula():
    at = start()
    at.radio(key="algorithm").set_value("wordpiece").run()
    at.slider(key="step").set_value(1).run()
    assert "= 5 / (20 × 5) = 1/20" in step_text(at)


def test_wordpiece_ranks_the_pairs_by_score_in_table_and_chart():
    """The course's WordPiece step 1: (##g, ##s) wins at 1/20 with count 5, below four pairs by count
    (found in a review: the table ranked by count, so the winner sat 5th with nothing saying why)."""
    at = start(preset="hug", algorithm="wordpiece", step="1")
    table = html_table(at, "pairs")
    assert list(table.columns[:3]) == ["pair", "score", "count"]
    assert (table.iloc[0]["pair"], table.iloc[0]["score"], table.iloc[0]["count"]) == ("##g ##s", "1/20", "5")
    assert table.iloc[0]["chosen"] == "✓" and set(table["score"][1:5]) == {"1/36"}
    chart = chart_frames(at)[0]
    assert list(chart["pair"]) == list(table["pair"])
    assert list(chart["value"]) == [float(Fraction(x)) for x in table["score"]]
    at.slider(key="step").set_value(2).run()
    tied = html_table(at, "pairs")
    assert set(tied[tied["tied"] == "✓"]["score"]) == {"1/36"}  # tied on score, whatever their counts
    assert "same score" in " ".join(h.proto.body for h in at.get("html"))
    bpe_table = html_table(start(preset="hug", step="1"), "pairs")
    assert "score" not in bpe_table.columns and bpe_table.iloc[0]["pair"] == "u g"


def test_compare_tie_rules_finds_the_first_difference():
    at = start(preset="minbpe")
    at.selectbox(key="cmp_a").set_value("first").run()
    at.selectbox(key="cmp_b").set_value("lexicographic").run()
    click(at, "cmp_go")
    assert "step 2" in " ".join(m.value for m in at.markdown)


def test_compare_tie_rules_lists_both_runs_side_by_side_and_jumps_to_the_difference():
    """Compare tie rules was one sentence: now the two merge lists from the first difference, and a
    button that opens that step."""
    at = start(preset="minbpe")
    at.selectbox(key="cmp_a").set_value("first").run()
    at.selectbox(key="cmp_b").set_value("lexicographic").run()
    click(at, "cmp_go")
    a, b = html_table(at, "compare-a"), html_table(at, "compare-b")
    assert list(a["step"]) == list(b["step"]) == ["2", "3"]
    assert a.iloc[0]["merge"] != b.iloc[0]["merge"] and a.iloc[0][""] == "≠"
    click(at, "cmp_jump")
    assert at.slider(key="step").value == 2


def test_what_if_forces_a_pair_and_retrains():
    at = start(step="0")
    at.toggle(key="what_if").set_value(True).run()
    at.selectbox(key="what_if_pair").set_value(("h", "u")).run()
    click(at, "what_if_go")
    assert at.slider(key="step").value == 1
    assert "h + u" in step_text(at) or "hu" in step_text(at)
    assert "chosen by hand" in " ".join(w.value for w in at.warning)


def test_what_if_preselects_the_runner_up_and_refuses_the_winner():
    """What-if offered the pair that would win anyway (u g at step 1) and forced it without a word."""
    at = start(step="0")
    at.toggle(key="what_if").set_value(True).run()
    assert at.selectbox(key="what_if_pair").value != ("u", "g")  # the runner-up, not the winner
    at.selectbox(key="what_if_pair").set_value(("u", "g")).run()
    click(at, "what_if_go")
    assert "is what step 1 merges anyway" in unescape_md(errors(at)) and at.slider(key="step").value == 0
    at.selectbox(key="what_if_pair").set_value(("p", "u")).run()
    click(at, "what_if_go")
    assert at.slider(key="step").value == 1 and "count 17" in step_text(at)
    assert "Step 1 now merges p + u → pu (count 17)" in " ".join(h.proto.body for h in at.get("html"))


def test_predict_the_next_merge_says_right_or_wrong_and_why():
    at = start(step="2")
    at.toggle(key="predict").set_value(True).run()
    at.radio(key="guess_2").set_value(("p", "un")).run()
    assert "Not this time" in unescape_md(" ".join(w.value for w in at.warning))
    at.radio(key="guess_2").set_value(("h", "ug")).run()
    assert "Right: h + ug (count 15)" in unescape_md(" ".join(s.value for s in at.success))


def test_a_what_if_survives_the_url_even_with_spaces_in_tokens():
    at = start(text="aa abc abc", pre_tokenizer="space-suffix", forced='[[1, "a", " "]]', step="1")
    assert "chosen by hand" in " ".join(w.value for w in at.warning)
    assert list(html_table(at, "history")["new token"]) == ["a·"]  # the space made visible
    forced = at.query_params["forced"]
    forced = forced[0] if isinstance(forced, list) else forced
    assert json.loads(forced) == [[1, "a", " "]]
    broken = start(forced="[[1, 2]]", preset="hug", step="1")
    assert "count 20" in step_text(broken)  # a malformed link falls back to the default view


def test_a_space_inside_a_token_is_shown_everywhere_on_the_page():
    """How BPE works merges a trailing space ("aa" + " "): every panel must show it (as ·), or the
    step reads "aa + [empty] → aa" and two vocabulary entries look alike. Byte-level Ġ stays as stored."""
    at = start(preset="aa-abc", step="4")
    title = next(h.proto.body for h in at.get("html") if "bpe-step-title" in h.proto.body)
    assert ">·</span> → <span" in title and ">aa·</span>" in title
    assert "aa· = aa· 1 = 1" in step_text(at) and "(abc, ·)" in step_text(at)
    assert list(html_table(at, "pairs")["pair"]) == ["aa ·", "abc ·"]
    assert list(html_table(at, "history")["new token"]) == ["aa·", "aa", "abc", "ab"]
    vocabulary = " ".join(h.proto.body for h in at.get("html") if "Vocabulary:" in h.proto.body)
    assert 'title="aa ">aa·</span>' in vocabulary  # the tooltip keeps the token as stored
    course = start(preset="course", step="2")
    assert list(html_table(course, "history")["new token"]) == ["is", "Ġt"]


def test_what_if_options_are_plain_text_not_markdown():
    """A selectbox shows its options as typed: no markdown escapes like \\$ or \\<."""
    at = start(text="$x^2$ <b>x</b> $x^2$", pre_tokenizer="whitespace", step="0")
    at.toggle(key="what_if").set_value(True).run()
    labels = at.selectbox(key="what_if_pair").options
    assert "$ + x" in labels and not any("\\" in label for label in labels)


def test_predict_hides_the_pair_counts_until_the_student_answers():
    """At step 0 the pair counts would give the answer away (the chart marks the next merge)."""
    at = start(step="0")
    assert chart_frames(at) and "pairs" in html_tables(at)
    at.toggle(key="predict").set_value(True).run()
    assert not chart_frames(at) and "pairs" not in html_tables(at)
    assert "hidden until you answer" in " ".join(i.value for i in at.info)
    at.radio(key="guess_0").set_value(("u", "g")).run()
    assert "Right" in unescape_md(" ".join(s.value for s in at.success))
    assert chart_frames(at) and html_table(at, "pairs").iloc[0]["pair"] == "u g"


def test_an_answered_prediction_shows_the_counts_the_next_merge_chose_from():
    """At step 2 the question is about step 3: once answered, the table must hold the counts step 3
    chose from (h ug 15, b un 4), not step 2's (u n 16, p u 12), and going back keeps the answer."""
    at = start(step="2")
    at.toggle(key="predict").set_value(True).run()
    at.radio(key="guess_2").set_value(("b", "un")).run()
    assert "b + un occurs 4 times" in unescape_md(warnings(at))
    table = html_table(at, "pairs")
    assert table.iloc[0]["pair"] == "h ug" and table.iloc[0]["chosen"] == "✓"
    assert dict(zip(table["pair"], table["count"]))["b un"] == "4" and "u n" not in list(table["pair"])
    assert "Pair counts step 3 chose from" in " ".join(h.proto.body for h in at.get("html"))
    assert list(chart_frames(at)[0]["pair"]) == list(table["pair"])
    click(at, "next")
    click(at, "back")
    assert at.radio(key="guess_2").value == ("b", "un") and html_table(at, "pairs").iloc[0]["pair"] == "h ug"


def test_what_if_at_the_last_step_says_why_it_cannot_merge_more():
    at = start(preset="course", step="19")
    at.toggle(key="what_if").set_value(True).run()
    assert "what_if_pair" not in [s.key for s in at.selectbox]  # no pair to pick
    text = " ".join(m.value for m in at.markdown)
    assert "This is the last step" in text and "raise the limit" in text


def test_a_what_if_link_that_cannot_happen_shows_the_run_without_it():
    at = start(preset="hug", forced='[[1, "x", "y"]]', step="1")
    assert "Cannot force the pair" in errors(at) and "leaves out the what-if merges" in errors(at)
    assert "count 20" in step_text(at) and "forced" not in at.query_params


def test_the_settings_preview_shows_words_as_the_splits_do():
    """The sidebar's first pre-tokenized words as the splits show them (a pasted text's byte-level
    words as text, ␣ for a space; the course's presets as stored, Ġ), counts after their word, not
    glued to it with a whitespace dot."""

    def preview(at: AppTest) -> str:
        return " ".join(h.proto.body for h in at.sidebar.get("html"))

    hug = preview(start(preset="hug"))
    assert '>hug</span><span class="bpe-note"> ×10</span>' in hug and "·×" not in hug
    gpt2 = preview(start(text="This is it", pre_tokenizer="gpt2"))
    assert (
        ">This</span>" in gpt2 and ">␣is</span>" in gpt2 and 'title="stored as Ġit · bytes 20 69 74">␣it</span>' in gpt2
    )
    course = preview(start(preset="course"))
    assert ">Ġis</span>" in course


def warnings(at: AppTest) -> str:
    return " ".join(alerts(at, "warning") + [unescape_md(w.value) for w in at.warning])


def test_a_link_that_could_not_carry_its_corpus_says_to_paste_it_again():
    """A corpus the store could not keep, over 1,500 characters, leaves the link with corpus=text (and links
    made before the corpus store said so too): the page asks for the text, without "The corpus is empty"."""
    long_text = "the quick brown fox " * 100  # 2,000 characters: over the URL's 1,500
    from server import corpus_form

    assert start(text=long_text).query_params["corpus"] == corpus_form.digest("text", long_text)  # stored
    reopened = start(corpus="text", tie_break="hf", step="3")
    assert "too long to fit in a link" in warnings(reopened) and "paste or upload it again" in warnings(reopened)
    assert not alerts(reopened, "error") and not reopened.error
    assert reopened.radio(key="source").value == "text" and reopened.selectbox(key="tie_break").value == "hf"
    reopened.text_area(key="corpus_text").set_value(long_text).run()
    assert "too long to fit" not in warnings(reopened) and "Step 3 of" in step_text(reopened)


def test_link_values_out_of_range_or_unknown_are_named_not_silently_replaced():
    at = start(preset="course", pre_tokenizer="bogus", limit_value="999999999")
    assert "pre_tokenizer “bogus” is not one of" in warnings(at) and "using gpt2" in warnings(at)
    assert "limit_value 999,999,999 is out of range; using 100,000" in warnings(at)
    assert at.selectbox(key="pre_tokenizer").value == "gpt2"
    negative = start(preset="hug", limit="num_merges", limit_value="-1")
    assert "using 0" in warnings(negative) and "Step 0 of 0" in step_text(negative)
    assert "does not exist" in warnings(start(preset="nope"))


def test_an_empty_upload_keeps_the_text_already_typed():
    at = start()
    at.radio(key="source").set_value("text").run()
    at.text_area(key="corpus_text").set_value("low lower newest").run()
    at.file_uploader(key="corpus_file").set_value(("empty.txt", b"", "text/plain")).run()
    assert "is empty" in unescape_md(errors(at)) and "keeps what it had" in unescape_md(errors(at))
    assert at.session_state["bpe_explorer"]["settings"].text == "low lower newest"
    at.file_uploader(key="corpus_file").set_value(("words.txt", b"hug pug hug", "text/plain")).run()
    assert at.session_state["bpe_explorer"]["settings"].text == "hug pug hug" and not at.exception
    assert at.text_area(key="corpus_text").value == ""  # stored on the server, out of the box


def test_a_half_typed_word_count_row_is_left_out_not_the_whole_page():
    """A word typed before its count ('bug' alone) replaced the whole page with an error about
    spaces; the row is left out with a note, and the other rows keep training."""
    at = start(counts="hug 10\npug 5\nbug", step="1")
    assert not at.error, [e.value for e in at.error]
    assert "ug = hug 10 + pug 5 = 15" in step_text(at)
    assert "row 3 (bug: no count yet)" in " ".join(h.proto.body for h in at.sidebar.get("html"))
    # A row that cannot be a count is named, with what to fix, and the rest still trains.
    at = start(counts="hug 10\npug five", step="1")
    assert "Row 2 (&#x27;pug five&#x27;): the count &#x27;five&#x27; is not a whole number" in " ".join(
        h.proto.body for h in at.sidebar.get("html")
    )
    assert "= hug 10 = 10" in step_text(at)


def test_the_word_count_table_opens_with_the_presets_rows():
    at = start()
    at.radio(key="source").set_value("counts").run()
    assert not at.exception
    from server import corpus_form

    assert at.query_params["corpus"] == corpus_form.digest("counts", "hug 10\npug 5\npun 12\nbun 4\nhugs 5")
    assert "ug = hug 10 + pug 5 + hugs 5" in step_text(click(at, "next"))


def test_a_new_corpus_opens_at_step_0_with_a_stop_that_trains_fast():
    """From hug step 3, pasting text opened at "Step 3 of 258" (merges 1-2 never seen) and kept the
    preset's "until no pair is left", so a 5 MB paste trained 55,979 merges for about 150 s."""
    at = start(step="3")
    at.radio(key="source").set_value("text").run()
    at.text_area(key="corpus_text").set_value("low lower newest widest " * 20).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.slider(key="step").value == 0 and "Step 0 of" in step_text(at)
    assert at.radio(key="limit").value == "num_merges" and at.number_input(key="limit_value").value == 1000
    assert "starts at 1,000 merges" in " ".join(c.value for c in at.sidebar.caption)


def test_until_no_pair_is_left_on_a_large_corpus_asks_first():
    at = start()
    at.radio(key="source").set_value("text").run()
    at.radio(key="limit").set_value("none").run()
    at.text_area(key="corpus_text").set_value("ab ba " * 20_000).run()
    assert "take minutes" in " ".join(w.value for w in at.warning)
    assert "Step 0 of" not in step_text(at)  # nothing trained yet
    click(at, "confirm_no_limit")
    assert "Step 0 of" in step_text(at)


def test_byte_level_tokens_read_as_text_except_in_the_courses_walkthrough():
    """German, Chinese and emoji showed only as byte-map text (ĠStraÃŁe) in every panel; the course's
    own Ġ walkthrough keeps reading as the course prints it."""
    at = start(text="Die Straße, die Straße. 世界 世界 😀 😀", pre_tokenizer="gpt2", step="12")
    splits = html_table(at, "splits")
    assert "␣Straße" in list(splits["word"]) and "Ã" not in " ".join(splits["word"])
    assert at.toggle(key="byte_text").value
    at.toggle(key="byte_text").set_value(False).run()
    assert "ĠStraÃŁe" in list(html_table(at, "splits")["word"])
    course = start(preset="course", step="2")
    assert not course.toggle(key="byte_text").value
    assert list(html_table(course, "history")["new token"]) == ["is", "Ġt"]


def test_small_things_ticks_plurals_preset_names_and_play_at_the_end():
    at = start(step="3")
    x = json.loads(next(e for e in at.main if getattr(e, "type", None) == "vega_lite_chart").proto.spec)
    assert x["encoding"]["x"]["axis"]["format"] == "d" and x["encoding"]["x"]["axis"]["tickMinStep"] == 1
    # Every preset's whole name is shown (a select box cut "Python documentation, 1 MB (a r…").
    assert at.radio(key="preset").options == [unescape_md(PRESETS[k].title) for k in PRESETS] or [
        unescape_md(o) for o in at.radio(key="preset").options
    ] == [PRESETS[k].title for k in PRESETS]
    # "1 other pair tied", not "1 other pair(s)"
    tied = start(text="ab cd", pre_tokenizer="whitespace", step="1")
    assert "1 other pair tied at this count" in step_text(tied)
    # Play at the last step says why it stopped.
    click(at, "end")
    at.toggle(key="play").set_value(True).run()
    assert not at.toggle(key="play").value
    assert "Play stopped: step 7 is the last step" in " ".join(i.value for i in at.info)


def test_the_corpus_callbacks_run_even_when_their_widget_value_was_dropped():
    # a following phone's click can reach the source and preset callbacks after the class applied another view
    # and Streamlit dropped the widget's value: a KeyError there was a traceback on the phone
    from streamlit.testing.v1 import AppTest

    def callbacks_alone():
        import streamlit as st

        from ui import sidebar

        sidebar._source_changed()
        sidebar._apply_preset()
        st.text(str(st.session_state.get("step")))

    at = AppTest.from_function(callbacks_alone, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert at.text[-1].value == "0"
