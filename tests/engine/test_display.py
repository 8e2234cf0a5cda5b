"""The pure display helpers: colours, labels, tooltips, escaping, disagreement spans, trees."""

from __future__ import annotations

import re

import pytest

import bpe
from bpe import display
from bpe.presets import PRESETS


@pytest.fixture(scope="module")
def hug() -> bpe.Tokenizer:
    """The course's hug tokenizer: merges ug, un, hug, pun, pug, hugs, bun."""
    return bpe.train(PRESETS["hug"].corpus(), **PRESETS["hug"].options)


@pytest.fixture(scope="module")
def course() -> bpe.Tokenizer:
    """The course's four sentences, GPT-2 byte level, with <|endoftext|> as a special token."""
    return bpe.train(PRESETS["course"].corpus(), **PRESETS["course"].options)


def chip_titles(markup: str) -> list[str]:
    return re.findall(r'title="([^"]*)"', markup)


def chip_classes(markup: str) -> list[str]:
    return re.findall(r'<span class="([^"]*)"', markup)


def test_neighbouring_chips_never_share_a_background(course):
    encoding = course.encode_full("aaaa aaaa [UNK] <|endoftext|><|endoftext|> Hopefully, you will")
    chips = display.encoding_html(course, encoding).split("</style>")[-1]  # the chips, not the style sheet
    backgrounds = re.findall(r"background:(#[0-9a-f]+)", chips)
    assert len(backgrounds) == len(encoding.tokens)
    assert all(a != b for a, b in zip(backgrounds, backgrounds[1:]))


def test_chip_lists_colour_by_class_and_keep_tooltips_only_where_they_add_something():
    tokens = ["Ġthe", "x", "x", "<b>"]
    chips = display.chips_html(tokens, highlight=["x"], show_whitespace=True)
    colors = display.color_indices(tokens)
    assert re.findall(r'class="tok ([a-z0-9]+)"', chips) == [f"c{colors[0]}", "hl", "hl", f"c{colors[3]}"]
    assert 'title="Ġthe">·the<' in chips  # whitespace made visible: the tooltip gives the token
    assert chips.count("title=") == 1 and "&lt;b&gt;" in chips and "<b>" not in chips
    for i, color in enumerate(display.PALETTE):  # every colour class exists in the style sheet
        assert f".tok.c{i}{{background:{color}}}" in display.TOKEN_CSS


def test_unknown_and_special_tokens_get_their_own_classes(hug, course):
    classes = chip_classes(display.encoding_html(hug, hug.encode_full("bug mug")))
    assert classes == ["tok", "tok", "tok unk", "tok"]
    classes = chip_classes(display.encoding_html(course, course.encode_full("a<|endoftext|>")))
    assert classes == ["tok", "tok special"]


def test_tooltip_has_id_string_hex_bytes_and_merge_rank(hug, course):
    assert display.token_title(hug, "hug", 9) == "id 9 · 'hug' · bytes 68 75 67 · merge 3"
    assert display.token_title(hug, "h", 2).endswith("base symbol (no merge)")
    assert "'t' is not in the vocabulary" in display.token_title(hug, "[UNK]", 14, "t")
    # An unknown token's bytes are those of the text it replaced, not of the string "[UNK]".
    assert display.token_title(hug, "[UNK]", 14, "é").split(" · ")[2] == "bytes of the text C3 A9"
    assert display.token_title(course, "Ġis", course.vocab["Ġis"]).split(" · ")[2] == "bytes 20 69 73"


def test_whitespace_shows_as_stored_or_as_dots(course):
    assert display.token_label(course, "Ġtoken") == "Ġtoken"
    assert display.token_label(course, "Ġtoken", show_whitespace=True) == "·token"
    assert display.token_label(course, "Ċ", show_whitespace=True) == "↵"


def test_byte_level_tokens_show_their_text_or_their_bytes_when_they_cut_a_character(course):
    emoji = bpe.pre_tokenize("🙂", "gpt2")[0]  # four byte symbols
    assert display.token_label(course, emoji) == "🙂"
    assert display.token_label(course, emoji[:2]) == "<F0><9F>"  # bytes, never U+FFFD
    assert display.cuts_character(course, emoji[:2]) and not display.cuts_character(course, emoji)


def test_user_text_is_escaped_everywhere(hug):
    evil = '<img src=x onerror="alert(1)">'
    tok = bpe.Tokenizer(list(evil), [], special_tokens=["<b>"])
    markup = display.encoding_html(tok, tok.encode_full(evil + "<b>"), evil + "<b>", show_whitespace=True)
    assert "<img" not in markup and "<b>" not in markup and "&lt;b&gt;" in markup and "onerror=&quot;" not in markup
    assert "<img" not in display.merge_tree_html(tok, ("<img", ("<", "b>")))
    assert "<img" not in display.trace_html(tok, tok.trace(evil)[0])


def test_only_the_first_chips_are_drawn(hug):
    encoding = hug.encode_full("hug " * 50)
    assert len(chip_titles(display.encoding_html(hug, encoding, limit=10))) == 10


@pytest.mark.parametrize(
    ("a", "b", "spans"),
    [
        ([(0, 4)], [(0, 4)], []),
        ([(0, 4)], [(0, 3), (3, 4)], [(0, 4)]),  # hugs vs hug|s
        ([(0, 3), (4, 8), (9, 12)], [(0, 3), (4, 6), (6, 8), (9, 12)], [(4, 8)]),
        ([(0, 2), (2, 4)], [(0, 1), (1, 3), (3, 4)], [(0, 4)]),  # boundaries that never line up
        ([(0, 3), (3, 7)], [(1, 3), (3, 7)], [(0, 3)]),  # " is" (Ġis) vs "is": different starts
    ],
)
def test_disagreement_spans_cover_differing_boundaries(a, b, spans):
    assert display.disagreement_spans(a, b) == spans
    assert display.disagreement_spans(b, a) == spans


def test_disagreeing_tokens_are_marked(hug):
    text = "hugs hug"
    a, b = hug.encode_full(text), hug.with_merges(3).encode_full(text)
    spans = display.disagreement_spans(a.offsets, b.offsets, len(text))
    assert spans == [(0, 4)]
    assert chip_classes(display.encoding_html(hug, a, text, marked=spans)) == ["tok diff", "tok"]


def test_word_spans_group_tokens_by_word(hug):
    assert display.word_spans(hug.encode_full("hugs  bun")) == [(0, 4), (6, 9)]


def test_merge_tree_html_nests_the_pairs(hug, course):
    markup = display.merge_tree_html(hug, hug.merge_tree("hugs"))
    assert re.sub(r"<style>.*</style>", "", markup).count("<ul") == 4
    assert "<code>hugs</code> = <code>hug</code> + <code>s</code>" in markup
    assert "<code>ug</code> = <code>u</code> + <code>g</code>" in markup
    assert "<code>Ġtoken</code> = <code>Ġtok</code> + <code>en</code>" in display.merge_tree_html(
        course, course.merge_tree("Ġtoken")
    )


def test_trace_html_lists_every_split(hug):
    markup = display.trace_html(hug, hug.trace("hugs")[0])
    assert markup.count("<tr>") == 4 and "merge 1:" in markup and "merge 6:" in markup


def test_byte_table_explains_why_space_is_g_dot():
    rows = display.byte_table_rows()
    assert len(rows) == 256 and sum(r["shifted"] for r in rows) == 68
    space = rows[0x20]
    assert space["stored as"] == "Ġ" and space["code point"] == "U+0120"
    assert [r["byte"] for r in rows if r["shifted"]].index(0x20) == 32  # the 33rd shifted byte
    assert rows[ord("A")]["stored as"] == "A" and not rows[ord("A")]["shifted"]


def test_token_rows_list_every_token(hug):
    rows = display.token_rows(hug, hug.encode_full("bug"), "bug")
    assert [(r["token"], r["text"], r["bytes"], r["made by"]) for r in rows] == [
        ("b", "b", "62", "base symbol"),
        ("ug", "ug", "75 67", "merge 1"),
    ]  # merges count from 1, as Train's steps
    unknown = display.token_rows(hug, hug.encode_full("thug"), "thug")[0]
    assert (unknown["token"], unknown["text"], unknown["bytes"]) == ("[UNK]", "t", "74")  # not "[UNK]"'s bytes


def test_md_escape_leaves_no_markdown_to_interpret():
    name = "**b** [l](http://x) $x$ :red[r] <i>"
    escaped = display.md_escape(name)
    # What the reader sees (the word joiner that stops http:// from becoming a link is invisible).
    assert re.sub(r"\\(.)", r"\1", escaped).replace("\u2060", "") == name
    assert re.search(r"(?<!\\)[*\[\]()$:<>]", escaped) is None


def test_byte_level_explanation_reads_its_numbers_from_the_byte_map():
    text = display.byte_level_explanation()
    assert "the other 68" in text and "the 33rd of them" in text and "U+0100 + 32 = U+0120 **Ġ**" in text
    assert "U+010A **Ċ**" in text


def test_sparkline_marks_the_step_and_escapes_its_title():
    import base64
    import re

    from bpe.display import sparkline_svg

    def svg_of(html_text):
        return base64.b64decode(re.search(r"base64,([^\"]+)", html_text).group(1)).decode()

    html_text = sparkline_svg([93, 77, 62], marker=1, title="<b>tokens</b>")
    assert "&lt;b&gt;" in html_text and "<b>" not in html_text
    svg = svg_of(html_text)
    assert svg.count("<polyline") == 1
    # The marker is drawn over the image: at the middle point of three, halfway across.
    assert re.search(r'class="spark-mark" style="position:absolute;left:50.00%', html_text)
    assert sparkline_svg([], marker=0) == ""
    assert "spark-mark" not in sparkline_svg([1, 2], marker=None)
    assert "left:1.11%" in sparkline_svg([1, 2], marker=0)  # the 4 px padding of a 360 px image
    assert svg_of(sparkline_svg(list(range(10_000)), marker=5_000)).count(",") < 1_000  # down-sampled


def test_a_token_that_cuts_a_character_keeps_its_whole_characters_as_text(course):
    """Found in a review: " " + the first bytes of 🙂 showed as "20 F0 9F�" while its parts showed
    "Ġ" and "F0 9F�"; now the space stays Ġ (or ·) and only the cut character is bytes."""
    from bpe.pre_tokenizers import bytes_to_symbols

    token = bytes_to_symbols(" 🙂".encode()[:3])
    assert display.token_label(course, token) == "Ġ\u202f<F0><9F>"
    assert display.token_label(course, token, show_whitespace=True) == "·\u202f<F0><9F>"
    assert display.token_label(course, bytes_to_symbols(b"\xf0")) == "<F0>"
    assert display.token_label(course, bytes_to_symbols(b" hi")) == "Ġhi"


def test_encoding_html_shows_word_gaps_and_line_breaks(hug, course):
    """`bug mug thug hugs` was one unbroken run of chips and Python source lost its line breaks."""
    markup = display.encoding_html(hug, hug.encode_full("bug mug thug hugs"), "bug mug thug hugs")
    assert markup.count('<i class="bpe-gap"></i>') == 3 and '"bpe-tokens"><i' not in markup  # mug, thug, hugs
    code = "def f():\n    return 1\n"
    markup = display.encoding_html(course, course.encode_full(code), code)
    assert markup.count("<br>") == 2
    assert ">Ċ</span><br>" in markup or "Ċ" in markup.split("<br>")[0]  # the newline's token stays visible


@pytest.mark.parametrize(
    "text",
    [
        "www.evil.example",
        "see http://evil.example/x now",
        "mail@evil.example",
        "WWW.Evil.example",
        "https://a.b",
        "ftp://x",
    ],
)
def test_md_escape_leaves_nothing_markdown_would_autolink(text):
    """Backslash escapes alone still let Streamlit's Markdown link www.…, http://… and a@b.c (seen in
    chromium); a token or file name from a shared link must never become a link."""
    shown = re.sub(r"\\(.)", r"\1", display.md_escape(text))  # what the reader sees
    assert shown.replace("\u2060", "") == text
    assert not re.search(r"(?i)www\.|\w://|\w@\w", shown), shown
