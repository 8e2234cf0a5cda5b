"""AppTest drives the encode page: one test per control, uploads good and bad, side by side, limits.

The app is started from ``app.py`` (the router) and switched to ``pages/encode.py`` with
``AppTest.switch_page``, so the page runs exactly as in the browser, with the tokenizer
the Train page trains from its settings (the default is the course's hug corpus, whose
merges are ug, un, hug, pun, pug, hugs, bun). AppTest in Streamlit 1.67 supports
``st.file_uploader`` (``set_value((name, bytes, mime))``), so uploads go through the widget.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tokenizers
from apptest_support import (
    APP,
    ENCODE,
    alerts,
    blocks,
    chip_tokens,
    ok,
    open_encode,
    tokens,
    type_text,
    unescape_md,
    upload,
)
from streamlit.testing.v1 import AppTest
from tokenizers import decoders, models, pre_tokenizers, trainers

import bpe
from bpe import formats
from bpe.presets import COURSE_SENTENCES, MULTILINGUAL, PRESETS
from ui.session import STATE_KEY
from ui.settings import Settings

# -- helpers ------------------------------------------------------------------------------------------


def hug_tokenizer() -> bpe.Tokenizer:
    return bpe.train(PRESETS["hug"].corpus(), **PRESETS["hug"].options)


@pytest.fixture(scope="module")
def hf_file(tmp_path_factory) -> Path:
    """A byte-level BPE tokenizer.json trained by the tokenizers library itself."""
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(list(COURSE_SENTENCES + MULTILINGUAL) * 3, trainer)
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    tok.save(str(path))
    return path


UNIGRAM_JSON = tokenizers.Tokenizer(models.Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -2.0)], 0, False)).to_str()
GARBAGE = b"\x89PNG\r\n\x1a\n\x00\xff\xfe garbage"


# -- the tokens of the text -------------------------------------------------------------------------------
def test_default_text_is_tokenized_with_the_tokenizer_trained_on_the_train_page():
    at = open_encode()
    assert at.text_area(key="encode_text").value == "bug mug thug hugs"
    assert tokens(at) == hug_tokenizer().tokenize("bug mug thug hugs")
    assert tokens(at)[-1] == "hugs"


def test_typing_text_changes_the_tokens():
    at = type_text(open_encode(), "bug mug thug")
    assert tokens(at) == ["b", "ug", "[UNK]", "ug", "[UNK]", "hug"] == hug_tokenizer().tokenize("bug mug thug")
    assert chip_tokens(at) == tokens(at)
    assert at.code[0].value == str(hug_tokenizer().encode("bug mug thug"))
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {
        "Characters": "12",
        "Bytes (UTF-8)": "12",
        "Words": "3",
        "Tokens": "6",
        "Characters per token": "2.00",
    }


def test_unknown_tokens_have_their_own_style_and_a_tooltip_naming_the_character():
    at = type_text(open_encode(), "bug mug")
    chips = blocks(at)[0].value
    assert chips.count('class="tok unk"') == 1
    assert "unknown: &#x27;m&#x27; is not in the vocabulary" in chips
    assert "id 9 · &#x27;hug&#x27;" not in chips and "merge 1" in chips and "rank" not in chips  # ug


def test_whitespace_toggle_shows_dots_instead_of_g_dot():
    at = type_text(open_encode(preset="course"), "a token\n")
    assert ">Ġtoken</span>" in blocks(at)[0].value and ">Ċ</span>" in blocks(at)[0].value
    ok(at.toggle(key="show_ws").set_value(True).run())
    assert ">·token</span>" in blocks(at)[0].value and ">↵</span>" in blocks(at)[0].value
    assert tokens(at) == ["a", "Ġtoken", "Ċ"]  # the tokens themselves do not change


def test_k_slider_applies_only_the_first_k_merges():
    at = type_text(open_encode(), "hugs")
    assert at.slider(key="k").max == 7 and at.slider(key="k").value == 7 and tokens(at) == ["hugs"]
    ok(at.slider(key="k").set_value(0).run())
    assert tokens(at) == ["h", "u", "g", "s"]
    ok(at.slider(key="k").set_value(3).run())
    assert tokens(at) == ["hug", "s"]


def test_merge_replay_shows_the_split_after_each_merge():
    at = type_text(open_encode(), "bug hugs")
    assert at.selectbox(key="replay_word").options == ["bug", "hugs"]
    ok(at.selectbox(key="replay_word").set_value("hugs").run())
    replay = next(h.value for h in blocks(at) if "bpe-replay" in h.value)
    steps = re.findall(r"merge (\d+):", replay)
    assert steps == ["1", "3", "6"]  # ug, then hug, then hugs: numbered as the Train page's steps
    splits = [re.findall(r">([^<>]+)</span>", row) for row in replay.split("<tr>")[1:]]
    assert splits == [["h", "u", "g", "s"], ["h", "ug", "s"], ["hug", "s"], ["hugs"]]


def test_merge_tree_breaks_a_token_into_its_pairs():
    at = type_text(open_encode(), "bug hugs")
    ok(at.selectbox(key="tree_token").set_value("hugs").run())
    tree = next(h.value for h in blocks(at) if "bpe-tree" in h.value and "<ul" in h.value.split("</style>")[-1])
    assert "<code>hugs</code> = <code>hug</code> + <code>s</code>" in tree
    assert "<code>hug</code> = <code>h</code> + <code>ug</code>" in tree
    assert "<code>ug</code> = <code>u</code> + <code>g</code>" in tree


def test_byte_view_explains_g_dot_and_shows_tokens_that_cut_a_character():
    at = type_text(open_encode(preset="course"), "a 🙂")
    expander = next(e for e in at.expander if "why a space is Ġ" in e.label)
    assert "U+0120" in expander.markdown[0].value and "33rd" in expander.markdown[0].value
    cut = at.dataframe[1].value
    assert cut["token"].tolist()[:1] == ["ð"]  # 0xF0, the first byte of 🙂
    byte_table = at.dataframe[2].value
    assert len(byte_table) == 256 and byte_table.loc[0x20, "stored as"] == "Ġ"
    assert ">ð</span>" in blocks(at)[0].value  # the course's preset shows tokens as stored, as the course prints them
    ok(at.toggle(key="byte_text").set_value(True).run())
    assert "&lt;F0&gt;" in blocks(at)[0].value and "\ufffd" not in blocks(at)[0].value


def test_no_byte_view_for_character_level_tokenizers():
    at = open_encode()
    assert not [e for e in at.expander if "why a space is Ġ" in e.label]


# -- uploads ---------------------------------------------------------------------------------------------------
def test_uploaded_tokenizer_json_cuts_like_the_tokenizers_library(hf_file):
    text = "This is not a token. 🙂 Hopefully, ελληνικά!"
    at = type_text(upload(open_encode(), ("tokenizer.json", hf_file.read_bytes())), text)
    assert tokens(at) == tokenizers.Tokenizer.from_file(str(hf_file)).encode(text).tokens
    assert "Using tokenizer.json:" in unescape_md(at.caption[0].value)


def test_uploaded_vocab_and_merges_cut_like_the_tokenizers_library(hf_file, tmp_path):
    vocab, merges = tokenizers.Tokenizer.from_file(str(hf_file)).model.save(str(tmp_path))
    text = "They are trained and generate tokens."
    at = type_text(
        upload(open_encode(), ("vocab.json", Path(vocab).read_bytes()), ("merges.txt", Path(merges).read_bytes())), text
    )
    assert tokens(at) == tokenizers.Tokenizer.from_file(str(hf_file)).encode(text).tokens
    assert not alerts(at, "warning")  # a byte-level vocabulary read byte-level: nothing to point out


def test_a_character_level_vocab_read_byte_level_is_pointed_out():
    """The hug run's own vocab.json + merges.txt, left at the default gpt2 pre-tokenizer: the page says
    the vocabulary has no Ġ; picked as whitespace, it cuts like the course."""
    vocab, merges = bpe.to_vocab_merges(hug_tokenizer())
    at = upload(open_encode(), ("vocab.json", vocab.encode()), ("merges.txt", merges.encode()))
    assert "has no Ġ" in " ".join(alerts(at, "warning"))
    ok(at.selectbox(key="upload_pre").set_value("whitespace").run())
    assert not alerts(at, "warning")
    assert tokens(type_text(at, "bug thug")) == ["b", "ug", "[UNK]", "hug"]


def test_a_second_tokenizer_json_replaces_the_first(hf_file, tmp_path):
    """Switching tokenizers needs no extra step: of several tokenizer.json files, the last one counts."""
    path = tmp_path / "hug.json"
    formats.save(hug_tokenizer(), path)
    at = upload(open_encode(), ("hug.json", path.read_bytes()), ("gpt.json", hf_file.read_bytes()))
    assert "Using gpt.json:" in unescape_md(at.caption[0].value) and not alerts(at, "error"), alerts(at)
    assert "Using the last file uploaded, gpt.json" in " ".join(alerts(at, "warning"))


def test_file_saved_by_bpe_round_trips(tmp_path):
    path = tmp_path / "tokenizer.json"
    formats.save(hug_tokenizer(), path)
    at = type_text(upload(open_encode(), ("tokenizer.json", path.read_bytes())), "bug mug thug")
    assert tokens(at) == ["b", "ug", "[UNK]", "ug", "[UNK]", "hug"]


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("tokenizer.json", UNIGRAM_JSON.encode(), "Unigram model; BPE Explorer reads BPE models only"),
        ("tokenizer.json", GARBAGE, "not UTF-8 text"),
        ("tokenizer.json", b'{"model": ', "not valid JSON"),
        ("merges.txt", b"#version: 0.2\nu g\n", "merges.txt holds merges without their vocabulary: add the vocab.json"),
        ("vocab.json", b'{"u": 0, "g": 1}', "vocab.json is a vocabulary without its merges: add the merges.txt"),
    ],
)
def test_bad_file_shows_an_error_and_keeps_the_previous_tokenizer(hf_file, name, data, says):
    at = type_text(upload(open_encode(), ("tokenizer.json", hf_file.read_bytes())), "hugs")
    before = tokens(at)
    at = upload(at, (name, data))
    assert len(alerts(at, "error")) == 1 and says in alerts(at, "error")[0]
    assert "The previous tokenizer is still in use." in alerts(at, "error")[0]
    assert tokens(at) == before == tokenizers.Tokenizer.from_file(str(hf_file)).encode("hugs").tokens


def test_vocab_and_merges_added_beside_a_tokenizer_json_are_used_and_the_box_shows_only_for_them(hf_file, tmp_path):
    """Adding vocab.json + merges.txt while a tokenizer.json was still listed gave a generic error, and the
    vocab+merges pre-tokenizer box showed for a tokenizer.json too (where it does nothing)."""
    at = upload(open_encode(), ("tokenizer.json", hf_file.read_bytes()))
    assert not [s for s in at.selectbox if s.key == "upload_pre"]
    loaded = tokenizers.Tokenizer.from_file(str(hf_file))
    paths = loaded.model.save(str(tmp_path))
    files = [("tokenizer.json", hf_file.read_bytes())] + [(Path(p).name, Path(p).read_bytes()) for p in paths]
    at = upload(at, *files)
    assert not at.error, [e.value for e in at.error]
    assert "Using vocab.json + merges.txt:" in unescape_md(at.caption[0].value)
    assert "remove tokenizer.json from the list" in " ".join(alerts(at, "warning"))
    assert [s for s in at.selectbox if s.key == "upload_pre"]


def test_bad_first_file_says_no_tokenizer_is_loaded():
    at = upload(open_encode(), ("tokenizer.json", UNIGRAM_JSON.encode()))
    assert "No tokenizer is loaded." in alerts(at, "error")[0]
    assert "Upload a tokenizer file" in at.info[0].value and not at.dataframe


def test_text_outside_a_vocabulary_without_unk_is_cut_as_tokenizers_cuts_it(tmp_path):
    """Such a file is read as tokenizers reads it, which drops the unknown character, rather than the page
    saying it cannot encode "abc"."""
    tok = tokenizers.Tokenizer(models.BPE())  # no unk token
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(["ab ab"], trainers.BpeTrainer(show_progress=False))
    at = type_text(upload(open_encode(), ("tokenizer.json", tok.to_str().encode())), "abc")
    assert not at.error and tokens(at) == tok.encode("abc").tokens == ["ab"]
    assert at.text_area(key="encode_text").value == "abc"


# -- size -------------------------------------------------------------------------------------------------------
def test_text_over_100_kb_is_refused_but_kept():
    at = open_encode()
    assert "100 KB" in at.text_area(key="encode_text").label
    at = type_text(at, "hug " * 25_000 + "x")
    assert "100,001 bytes" in at.error[0].value and "100 KB" in at.error[0].value
    assert not at.dataframe and not blocks(at) and not at.code
    assert at.text_area(key="encode_text").value == "hug " * 25_000 + "x"


def test_long_text_draws_the_first_2000_chips_and_lists_every_id():
    at = type_text(open_encode(), "hugs " * 20_000)  # exactly 100 KB
    assert blocks(at)[0].value.count('class="tok') == 2_000
    assert any("Showing the first 2,000 of 20,000 tokens" in c.value for c in at.caption)
    assert at.code[0].value == str([12] * 20_000)


# -- side by side -------------------------------------------------------------------------------------------
def test_side_by_side_with_wordpiece_marks_where_the_boundaries_differ():
    at = type_text(open_encode(), "bug hugs")
    ok(at.toggle(key="compare").set_value(True).run())
    assert at.radio(key="compare_with").value == "merges"  # the cheap one first
    ok(at.radio(key="compare_with").set_value("wordpiece").run())
    wordpiece = bpe.train(PRESETS["hug"].corpus(), **PRESETS["hug"].options, algorithm="wordpiece")
    metrics = {unescape_md(m.label): m.value for m in at.metric}
    assert metrics["Tokens, WordPiece, same corpus"] == str(len(wordpiece.tokenize("bug hugs")))
    sides = [h.value for h in blocks(at) if 'class="bpe-tokens"' in h.value][1:]
    assert len(sides) == 2
    # BPE: b ug | hugs; WordPiece: bu ##g | hugs -> only "bug" differs
    assert [re.findall(r'class="(tok[^"]*)"', s) for s in sides] == [
        ["tok diff", "tok diff", "tok"],
        ["tok diff", "tok diff", "tok"],
    ]
    assert "1 stretches of text" in at.caption[-1].value


def test_side_by_side_says_when_wordpiece_cannot_be_trained():
    at = open_encode(preset="notebook")  # forces ('Ġ', 't') first, a pair WordPiece's first step lacks
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.radio(key="compare_with").set_value("wordpiece").run())
    assert "WordPiece cannot be trained with these settings: Cannot force the pair ('Ġ', 't')" in alerts(at, "error")[0]
    assert tokens(at)  # the first tokenizer's tokens are still shown


def test_side_by_side_with_fewer_merges_compares_token_counts():
    at = type_text(open_encode(), "hugs hugs")
    ok(at.toggle(key="compare").set_value(True).run())
    assert at.slider(key="compare_k").value == 3  # half of the 7 merges
    ok(at.slider(key="compare_k").set_value(0).run())
    metrics = {m.label: m for m in at.metric}
    assert metrics["Tokens, 0 merges"].value == "8"
    assert metrics["Tokens, the tokenizer trained on the Train page"].value == "2"


def test_side_by_side_with_the_uploaded_tokenizer(hf_file):
    at = upload(open_encode(), ("tokenizer.json", hf_file.read_bytes()))
    ok(at.radio(key="encode_source").set_value("Trained on the Train page").run())
    at = type_text(at, "hugs are tokens")
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.radio(key="compare_with").set_value("other").run())
    other = tokenizers.Tokenizer.from_file(str(hf_file)).encode("hugs are tokens").tokens
    assert {unescape_md(m.label): m.value for m in at.metric}["Tokens, tokenizer.json"] == str(len(other))


def test_side_by_side_asks_for_an_upload_when_there_is_none():
    at = open_encode()
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.radio(key="compare_with").set_value("other").run())
    assert "upload a tokenizer" in at.info[0].value


# -- state ------------------------------------------------------------------------------------------------------
def test_text_and_controls_survive_a_visit_to_the_train_page():
    at = type_text(open_encode(), "bug hugs")
    ok(at.slider(key="k").set_value(3).run())
    ok(at.toggle(key="show_ws").set_value(True).run())
    at.switch_page("pages/train.py").run()
    ok(at.switch_page(ENCODE).run())
    assert at.text_area(key="encode_text").value == "bug hugs"
    assert at.slider(key="k").value == 3 and at.toggle(key="show_ws").value
    assert tokens(at) == ["b", "ug", "hug", "s"]


def test_settings_that_do_not_train_show_an_error_on_the_encode_page():
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state[STATE_KEY] = {"settings": Settings(source="text", text=""), "step": 0, "error": None}
    at.run()
    ok(at.switch_page(ENCODE).run())
    assert "do not train a tokenizer" in at.error[0].value


def test_the_first_view_follows_the_train_pages_step():
    """Coming from Train step 3, Encode applied all 7 merges (hugs stayed one token instead of the
    course's hug s) behind a caption-like button, and still said "7 merges" when k was 3. Now the
    step-3 tokenizer is the default, one two-way control switches to all merges, and one line says
    which is in use. The default text is the course's own words, not a sentence of [UNK]s."""
    at = open_encode(preset="hug", step="3")
    assert at.text_area(key="encode_text").value == "bug mug thug hugs"
    assert at.slider(key="k").value == 3 and at.segmented_control(key="merges_choice").value == "step"
    assert tokens(at) == ["b", "ug", "[UNK]", "ug", "[UNK]", "hug", "hug", "s"]
    line = unescape_md(" ".join(m.value for m in at.caption))
    assert (
        "Using the tokenizer trained on the Train page: BPE, whitespace pre-tokenizer, **the first 3 of 7 "
        "merges (as at Train step 3)**" in line
    )
    ok(at.segmented_control(key="merges_choice").set_value("all").run())
    assert at.slider(key="k").value == 7 and tokens(at)[-1] == "hugs"
    assert "**all 7 merges**" in " ".join(m.value for m in at.caption)
    # Trained and never stepped (step 0): the whole tokenizer, no choice to make.
    fresh = open_encode(preset="hug")
    assert fresh.slider(key="k").value == 7 and not [c for c in fresh.get("button_group") if c.key == "merges_choice"]
    assert "**all 7 merges**" in " ".join(m.value for m in fresh.caption)


def test_the_vocabulary_size_says_why_it_differs_from_the_train_page():
    """Train counts what it learned (hug: 14; course: 50); the tokenizer adds [UNK] or the unseen bytes."""
    hug = " ".join(c.value for c in open_encode(preset="hug").caption)
    assert "15 tokens in the vocabulary (with \\[UNK\\] at the end" in hug
    course = " ".join(c.value for c in open_encode(preset="course").caption)
    assert (
        "BPE, gpt2 pre-tokenizer, **all 19 merges**, 276 tokens in the vocabulary (50 from training, plus the 226 bytes"
        in course
    )
    assert "WordPiece, " in " ".join(c.value for c in open_encode(preset="course", algorithm="wordpiece").caption)


@pytest.mark.parametrize("preset", ["hug", "course"])
def test_an_empty_text_shows_no_tokens_and_no_traceback(preset):
    """Found in a review: clearing the box with a byte-level tokenizer raised KeyError: 'token'."""
    at = type_text(open_encode(preset=preset), "")
    assert tokens(at) == [] and not at.error and not alerts(at, "error")
    assert at.dataframe[0].value.columns.tolist()[:3] == ["#", "id", "token"]


def test_one_merge_numbering_and_no_none_in_the_token_table():
    """Train calls u+g step 1, and so does Encode: no "merge rank 0", no "merge rank 7 (merge 8)", no None."""
    at = type_text(open_encode(), "bug hugs")
    table = at.dataframe[0].value
    assert "None" not in table.astype(str).to_string() and "<NA>" not in table.astype(str).to_string()
    assert list(table["made by"]) == ["base symbol", "merge 1", "merge 6"]


def test_encode_reads_non_ascii_as_text_like_the_train_page():
    """ĠStraÃŁe on Train, ĠStraße on Encode: both now read ␣Straße, and the one toggle shows the stored form."""
    at = type_text(
        open_encode(text="Die Straße, die Straße. 世界 世界", pre_tokenizer="gpt2", limit_value="60"), "die Straße 世界"
    )
    labels = re.findall(r">([^<>]*)</span>", blocks(at)[0].value)
    assert "␣Straße" in labels and "␣世界" in labels and not any("Ġ" in label for label in labels), labels
    ok(at.toggle(key="byte_text").set_value(False).run())
    assert ">ĠStraÃŁe</span>" in blocks(at)[0].value
