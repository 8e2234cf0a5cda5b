"""The app opens a run file from the command line: the Train page's run store serves the saved run itself."""

from __future__ import annotations

import pytest

import bpe
from bpe.formats import run_file
from ui import run_file_input, runs, session
from ui.settings import corpus_of

TEXT = "low lower lowest newer wider " * 20


def test_an_opened_run_is_the_run_every_part_of_the_page_gets():
    saved = bpe.run_training(TEXT, pre_tokenizer="gpt2", vocab_size=300, tie_break="greatest-bytes")
    settings, history = run_file_input.open_run(run_file.dumps(saved))
    assert runs.train(settings, block=True) is history  # from the store: never trained again
    assert history.merges == saved.merges and history.words == saved.words
    assert (settings.limit, settings.limit_value, settings.tie_break) == ("vocab_size", 300, "greatest-bytes")
    assert runs.tokenizer_for(settings, history.num_merges).vocab == bpe.Tokenizer.from_state(saved.final).vocab


def test_two_run_files_get_two_names_and_a_settings_name_is_never_a_corpus():
    one = run_file.dumps(bpe.run_training(TEXT, num_merges=3))
    other = run_file.dumps(bpe.run_training(TEXT, num_merges=4))
    a, _ = run_file_input.open_run(one)
    b, _ = run_file_input.open_run(other)
    assert runs.run_key(a) != runs.run_key(b)
    with pytest.raises(ValueError, match="The corpus is empty"):
        corpus_of(a)  # evicted and asked again: a sentence, not a run of something else under its name


def test_a_file_that_is_not_a_run_gets_the_format_s_sentence():
    with pytest.raises(ValueError, match="not a BPE Explorer run file"):
        run_file_input.open_run(b"hug 10\npug 5\n")


def test_a_saved_run_dropped_from_the_store_says_so_and_the_sidebar_goes_on():
    """The run store evicts the oldest runs; an open saved run whose file the uploader no longer holds (another
    page was shown) is closed with a sentence, never trained again under its name."""
    from streamlit.testing.v1 import AppTest

    def sidebar_only():
        import streamlit as st

        from ui import run_file_input, session

        st.write(repr(run_file_input.saved_run(session.app_state())))

    history = bpe.run_training(TEXT, num_merges=2)
    never_stored = run_file_input.settings_for(history, "0" * 64)  # as if evicted: not in the run store
    at = AppTest.from_function(sidebar_only, default_timeout=60)
    at.session_state[session.STATE_KEY] = {
        "saved_run": {"file_id": "gone", "name": "run.bpe", "settings": never_stored}
    }
    at.run()
    assert not at.exception
    assert at.markdown[-1].value == "None"
    assert any("run.bpe was dropped from the server" in h.proto.body for h in at.get("html"))
    assert "saved_run" not in at.session_state[session.STATE_KEY]


def test_a_saved_run_is_named_by_its_own_field_never_by_a_preset_name():
    import hashlib

    from bpe.presets import PRESETS

    data = run_file.dumps(bpe.run_training(TEXT, num_merges=3))
    settings, _ = run_file_input.open_run(data)
    assert settings.saved_run == hashlib.sha256(data).hexdigest()
    assert settings.preset in PRESETS and settings.text == ""  # the sidebar's preset radio can show it
