"""AppTest drives the Check page's references: a saved run (.bpe file) chosen instead of a corpus, and a run
in CS336's shapes switching the settings to CS336's."""

from __future__ import annotations

import pickle

import faulty_trainers
from apptest_support import alerts, ok, open_check, pairs
from students import cs336_json, cs336_train, merges_txt

import bpe
from bpe.check_saved import WITHOUT_CORPUS
from bpe.formats import run_file
from bpe.presets import CS336_TEXT

TEXT = faulty_trainers.CORPORA["prose"]
EOT = faulty_trainers.EOT


def saved_run() -> bytes:
    """The prose corpus's run as ``python -m bpe train`` saves it (documents cut at the special token)."""
    run = bpe.run_training(TEXT.split(EOT), pre_tokenizer="gpt2", num_merges=80, tie_break="greatest-bytes",
                           special_tokens=(EOT,))  # fmt: skip
    return run_file.dumps(run)


def upload_student(at, fault):
    data = pickle.dumps(faulty_trainers.train(TEXT, 80, fault))
    at.file_uploader(key="chk_files").set_value([("run.pkl", data, "application/octet-stream")])
    return ok(at.run())


def with_saved_run(data: bytes = b"", name: str = "tinystories.bpe"):
    at = open_check()
    at.radio(key="chk_source").set_value("saved").run()
    at.file_uploader(key="chk_run_file").set_value([(name, data or saved_run(), "application/octet-stream")])
    return ok(at.run())


def test_a_loop_fault_is_named_against_a_saved_run_with_its_step():
    at = upload_student(with_saved_run(), "left-symbol")
    assert at.header[0].value == "The runs part at step 9"
    assert "<code>r</code> + <code>e</code>" in pairs(at)["Our run"]
    (cause,) = alerts(at, "warning")
    assert "your update for the merge (e, r) subtracts the pairs beside every e" in cause
    assert any(c.value.startswith("**Ours: the saved run** tinystories") for c in at.caption)
    assert any("80 merges" in t.value for t in at.text)  # what the saved run holds
    assert not at.get("link_button")  # a link cannot carry a run file: the caption says how to open it
    assert any("open the run file on the Train page (Open a saved run), step 9" in c.value for c in at.caption)


def test_a_correct_run_equals_the_saved_run_and_what_needs_the_corpus_is_said():
    at = upload_student(with_saved_run(), None)
    (verdict,) = alerts(at, "info")
    assert verdict == "Your run equals ours with gpt2 pre-tokenization, the greatest-bytes tie rule and a 256-byte " \
                      "base: all 80 merges agree."  # fmt: skip
    at = upload_student(with_saved_run(), "whitespace")
    assert alerts(at, "warning")[0].endswith(WITHOUT_CORPUS)


def test_a_file_that_is_not_a_run_file_gets_its_name_and_a_sentence():
    at = upload_student(with_saved_run(b"hug 10\npug 5\n", name="<b>notes</b>.bpe"), None)
    (error,) = alerts(at, "error")
    assert error.startswith("<b>notes</b>.bpe: ") and "not a BPE Explorer run file" in error


def test_before_a_run_file_is_chosen_the_page_asks_for_it():
    at = open_check()
    at.radio(key="chk_source").set_value("saved").run()
    at = upload_student(at, None)
    assert any(i.value == "Upload the saved run (.bpe) to compare your merges with it." for i in at.info)
    assert at.selectbox(key="chk_pre").disabled and at.selectbox(key="chk_rule").disabled


def test_a_cs336_pickle_switches_the_settings_to_cs336s():
    at = open_check()
    at.selectbox(key="chk_pre").set_value("whitespace").run()
    at.selectbox(key="chk_rule").set_value("first").run()
    at.text_input(key="chk_special").set_value("").run()
    vocab, merges = cs336_train(CS336_TEXT, 12)
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    assert at.selectbox(key="chk_pre").value == "gpt2" and at.selectbox(key="chk_rule").value == "greatest-bytes"
    assert at.text_input(key="chk_special").value == "<|endoftext|>"
    assert any(c.value == "Set to CS336's settings for your upload in CS336's shapes." for c in at.caption)
    (verdict,) = alerts(at, "info")
    assert verdict == "Your run equals ours with gpt2 pre-tokenization, the greatest-bytes tie rule and a 256-byte " \
                      "base: all 12 merges agree."  # fmt: skip
    assert not at.header or "runs part" not in at.header[0].value  # no step under other settings first


def test_a_cs336_json_switches_the_settings_and_a_merges_txt_does_not():
    at = open_check()
    at.selectbox(key="chk_pre").set_value("whitespace").run()
    vocab, merges = cs336_train(CS336_TEXT, 12)
    at.file_uploader(key="chk_files").set_value([("run.json", cs336_json(vocab, merges).encode(), "application/json")])
    ok(at.run())
    assert at.selectbox(key="chk_pre").value == "gpt2"
    at = open_check()
    at.selectbox(key="chk_pre").set_value("whitespace").run()
    handout = [("s", "t"), ("e", "st"), ("o", "w")]
    at.file_uploader(key="chk_files").set_value([("merges.txt", merges_txt(handout).encode(), "text/plain")])
    ok(at.run())
    assert "Read as merges.txt" in " ".join(c.value for c in at.caption)
    assert at.selectbox(key="chk_pre").value == "whitespace"
