"""AppTest drives the Check page: a student's run made by an independent implementation (tests/students.py)
with one fault, uploaded or pasted, and the page names the fault and its step, links to that step on the
Train page, and ranks our settings."""

from __future__ import annotations

import pickle
from urllib.parse import parse_qs, urlsplit

import faulty_trainers
import minbpe_trainers
import pytest
from apptest_support import alerts, ok, open_check, pairs, start
from streamlit.testing.v1 import AppTest
from students import (
    course_loop,
    cs336_json,
    cs336_train,
    merges_txt,
    minbpe_model,
    minbpe_train,
    subword_nmt_codes,
    subword_nmt_train,
)

import bpe.check
from bpe.presets import CS336_TEXT


def paste(at: AppTest, text: str) -> AppTest:
    at.text_area(key="chk_paste").set_value(text).run()
    return ok(at)


def test_the_page_opens_on_the_cs336_preset_and_asks_for_a_run():
    at = open_check()
    assert at.selectbox(key="chk_preset").value == "cs336"
    assert at.selectbox(key="chk_rule").value == "greatest-bytes"
    assert "Upload your run" in at.info[0].value


def test_the_handout_merges_agree():
    at = paste(open_check(), "s t\ne st\no w\nl ow\nw est\nn e\nne west\nw i\nwi d\nwid est\nlow e\nlowe r\n")
    (verdict,) = alerts(at, "info")  # the settings that reproduce the run lead the verdict
    assert verdict.startswith("Your run equals ours with whitespace pre-tokenization, the greatest-bytes tie rule")
    assert "all 12 merges agree" in verdict


def test_an_uploaded_cs336_pickle_with_the_other_tie_rule_is_named_with_its_step_and_link():
    at = open_check()
    vocab, merges = cs336_train(CS336_TEXT, 12, pattern=None, fault="min")
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    # the settings that reproduce every merge lead; the step where ours part follows (a student needs both)
    assert at.header[0].value == "With the settings compared here the runs part at step 1"
    side = pairs(at)
    assert (
        "<code>s</code> + <code>t</code>" in side["Our run"] and "<code>e</code> + <code>s</code>" in side["Your run"]
    )
    (cause,) = alerts(at, "info")
    assert cause.startswith("Your run equals ours with whitespace pre-tokenization and the lexicographic tie rule")
    assert "(the smallest pair wins)" in cause and not alerts(at, "warning")
    assert any(c.value == bpe.check.LEGEND for c in at.caption)
    link = at.get("link_button")[0].proto
    assert link.label == "Go to step 1"
    query = parse_qs(urlsplit(link.url).query)
    assert urlsplit(link.url).path == "./" and query["step"] == ["1"] and query["preset"] == ["cs336"]
    around = at.dataframe[0].value
    assert around.values.tolist()[:2] == [[1, "(s, t)", "(e, s)"], [2, "(e, st)", "(es, t)"]]
    ranking = at.dataframe[-1].value
    assert ranking.iloc[0]["tie rule"] == "lexicographic" and ranking.iloc[0].iloc[-1] == 12


def test_pasted_course_loop_with_whitespace_kept_lists_the_words():
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    text = "low low low lower lower newest"
    at.text_area(key="chk_text").set_value(text).run()
    at.selectbox(key="chk_rule").set_value("first").run()
    at.selectbox(key="chk_pre").set_value("whitespace").run()
    paste(at, repr(course_loop(text, 6, fault="whitespace")))
    assert at.header[0].value == "With the settings compared here the runs part at step 3"
    assert alerts(at, "info")[0].startswith("Your run equals ours with space-suffix pre-tokenization")
    words = at.dataframe[1].value
    assert words.iloc[0].tolist() == ["low␣", 0, 3]


def test_special_tokens_merged_in_a_cs336_json_upload():
    at = open_check()
    text = "the cat<|endoftext|><|endoftext|><|endoftext|>the dog"
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(text).run()
    at.selectbox(key="chk_pre").set_value("gpt2").run()
    vocab, merges = cs336_train(text, 6, fault="specials")
    at.file_uploader(key="chk_files").set_value([("run.json", cs336_json(vocab, merges).encode(), "application/json")])
    ok(at.run())
    assert at.header[0].value == "The runs part at step 1"
    assert "did not split special tokens out" in alerts(at, "warning")[0]
    assert not any("does not split special tokens" in c.value for c in at.caption)  # the Train page splits them too


def test_minbpe_and_subword_nmt_files_are_read_by_structure():
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value("low low low lower").run()
    at.selectbox(key="chk_rule").set_value("first").run()
    at.selectbox(key="chk_pre").set_value("gpt4").run()
    merges, _ = minbpe_train("low low low lower", 4)
    at.file_uploader(key="chk_files").set_value([("tok.model", minbpe_model(merges).encode(), "text/plain")])
    ok(at.run())
    assert any("Read as minbpe .model: 4 merges, a vocabulary of 260." == c.value for c in at.caption)
    assert any("all 4 merges agree" in a for a in alerts(at, "info"))
    codes = subword_nmt_codes(subword_nmt_train({"low": 3, "lower": 1}, 3))
    at.file_uploader(key="chk_files").set_value([("codes.txt", codes.encode(), "text/plain")])
    ok(at.run())
    assert any("subword-nmt codes" in c.value for c in at.caption)


def test_a_file_of_no_known_format_gets_the_sentence_and_a_class_pickle_is_refused(tmp_path):
    at = open_check()
    at.file_uploader(key="chk_files").set_value([("notes.txt", b"hello\nworld\n", "text/plain")])
    ok(at.run())
    (error,) = alerts(at, "error")
    assert "none of the formats" in error and "minbpe v1" in error and "'notes.txt'" in error
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            import os

            return (os.system, (f"touch {marker}",))

    at.file_uploader(key="chk_files").set_value([("run.pkl", pickle.dumps(Evil()), "application/octet-stream")])
    ok(at.run())
    assert "refuses any pickle" in alerts(at, "error")[0]
    assert not marker.exists()


def test_train_page_offers_the_cs336_files_or_says_why_not():
    at = start(preset="cs336", step="12")
    keys = {b.key for b in at.get("download_button")} if at.get("download_button") else set()
    assert {"dl_cs336_json", "dl_cs336_pickle"} <= keys
    at = start(text="café café café", pre_tokenizer="whitespace", step="1")
    captions = [c.value for c in at.caption]
    assert any(
        c.startswith("No cs336_vocab_merges.json: CS336's vocabulary starts from the 256 bytes") for c in captions
    )


def test_a_file_over_the_size_limit_is_refused_with_its_size():
    at = open_check()
    at.file_uploader(key="chk_files").set_value([("big.txt", b"a b\n" * 1_300_000, "text/plain")])
    ok(at.run())
    assert "is 5,200,000 bytes; the check reads files of up to 5,000,000 bytes" in alerts(at, "error")[0]


def _text_corpus(at: AppTest, text: str, pre: str, rule: str) -> None:
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(text).run()
    at.selectbox(key="chk_pre").set_value(pre).run()
    at.selectbox(key="chk_rule").set_value(rule).run()
    at.text_input(key="chk_special").set_value("").run()


def test_a_corpus_read_with_its_last_character_cut_off_is_named_on_the_page():
    at = open_check()
    text = faulty_trainers.CORPORA["handout"]
    _text_corpus(at, text, "gpt2", "greatest-bytes")
    data = pickle.dumps(faulty_trainers.train(text, 12, "cut-last"))
    at.file_uploader(key="chk_files").set_value([("run.pkl", data, "application/octet-stream")])
    ok(at.run())
    assert at.header[0].value == "The runs part at step 1"
    (cause,) = alerts(at, "warning")
    assert "your corpus's last character is counted as a word of its own" in cause
    assert "'␣newest' becomes '␣newes' and 't'" in cause


def test_an_uploaded_merges_txt_counting_overlaps_once_is_named():
    at = open_check()
    text = "aaa aaa aaa ab ab ab ab"
    _text_corpus(at, text, "whitespace", "first")
    data = merges_txt(course_loop(text, 2, fault="overlap")).encode()
    at.file_uploader(key="chk_files").set_value([("merges.txt", data, "text/plain")])
    ok(at.run())
    assert at.header[0].value == "The runs part at step 1"
    assert "from overlapping pairs" in alerts(at, "warning")[0]
    assert at.dataframe[1].value.iloc[0].tolist()[:2] == ["aaa", 6]


def test_an_uploaded_pickle_on_characters_is_named_a_missing_byte_base():
    at = open_check()
    text = "café café naïve café"
    _text_corpus(at, text, "gpt2", "greatest-bytes")
    vocab, merges = cs336_train(text, 4, special_tokens=(), fault="chars")
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    assert at.header[0].value == "With the settings compared here the runs part at step 1"
    assert "the greatest-bytes tie rule and characters as the base: all 4 merges agree" in alerts(at, "info")[0]


def test_a_correct_cs336_run_on_the_handout_preset_equals_ours_with_cs336_settings():
    at = open_check()  # the preset's own settings are the handout's whitespace split
    vocab, merges = cs336_train(CS336_TEXT, 12)  # CS336's GPT-2 pattern
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    (verdict,) = alerts(at, "info")
    assert verdict.startswith(
        "Your run equals ours with gpt2 pre-tokenization, the greatest-bytes tie rule and a 256-byte base"
    )
    assert not alerts(at, "warning")


def test_a_run_stopping_short_of_the_target_vocabulary_is_flagged_with_its_step():
    at = open_check()
    at.selectbox(key="chk_pre").set_value("gpt2").run()
    vocab, merges = cs336_train(CS336_TEXT, 6)
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    assert any("all 6 merges agree" in a for a in alerts(at, "info"))
    at.number_input(key="chk_target").set_value(500).run()
    assert at.header[0].value == "The runs part at step 7"
    (cause,) = alerts(at, "warning")
    assert "ends after step 6 where a vocabulary of 500 asks for 243 merges" in cause


def test_a_merge_loop_fault_is_named_on_the_page():
    at = open_check()
    text = "aaaa aaaa aaaa abab abab the cat"
    _text_corpus(at, text, "gpt2", "greatest-bytes")
    vocab, merges = faulty_trainers.train(text, 6, "adjacent")
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    (cause,) = alerts(at, "warning")
    assert "counts the pair of two merged tokens side by side" in cause


@pytest.mark.parametrize("pattern", ["", minbpe_trainers.GPT4])
def test_a_correct_minbpe_model_switches_the_page_to_minbpes_settings_and_is_the_same(pattern):
    """minbpe trains on <|endoftext|> as text, on the whole text (Basic) or cut by its .model's pattern (Regex)."""
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(faulty_trainers.PROSE).run()
    model = minbpe_trainers.train(faulty_trainers.PROSE, 256 + 40, pattern)
    at.file_uploader(key="chk_files").set_value([("tok.model", model.encode(), "text/plain")])
    ok(at.run())
    assert at.selectbox(key="chk_pre").value == ("gpt4" if pattern else "none")
    assert (at.selectbox(key="chk_rule").value, at.text_input(key="chk_special").value) == ("first", "")
    assert at.number_input(key="chk_target").value == 296
    assert any(c.value.startswith("Set to minbpe's settings for your .model") for c in at.caption)
    assert not any("part at step" in h.value for h in at.header) and not alerts(at, "warning")
    cut = "gpt4 pre-tokenization" if pattern else "no pre-tokenization (each text one sequence)"
    assert alerts(at, "info") == [
        f"Your run equals ours with {cut}, the first tie rule and a 256-byte base: all 40 merges agree."
    ]


def test_a_minbpe_model_one_merge_short_of_a_round_size_is_asked_about_and_told_once_the_size_is_set():
    """The .model holds no vocab_size, so the page's target is the run's own (399): the verdict asks; set to
    400, the run stops short at step 144."""
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(faulty_trainers.PROSE).run()
    model = minbpe_trainers.train(faulty_trainers.PROSE, 400, minbpe_trainers.GPT4, "one-short")
    at.file_uploader(key="chk_files").set_value([("tok.model", model.encode(), "text/plain")])
    ok(at.run())
    assert at.number_input(key="chk_target").value == 399
    (said,) = alerts(at, "info")
    assert said.endswith("one short of 400: if you asked for 400, your loop stops one merge early (set the target "
                         "to the size you asked for to check).")  # fmt: skip
    at.number_input(key="chk_target").set_value(400)
    ok(at.run())
    (cause,) = alerts(at, "warning")
    assert "Your run stops short" in cause and "asks for 144 merges" in cause, cause
