"""The Encode page opened on the Train page's toy example offers tokenizers that cut real text: the quick
byte-level presets (picking one trains it, and the Train page follows) and the popular tokenizers whose
files are on this machine; a real tokenizer in use hides the offer."""

from __future__ import annotations

from apptest_support import ok, open_encode, tokens, type_text, unescape_md

from ui.session import STATE_KEY

TEXT = "Tokenizers meet café and 日本語."


def test_the_toy_tokenizer_offers_byte_level_presets_that_cut_any_text():
    at = type_text(open_encode(), TEXT)
    assert "[UNK]" in tokens(at)  # the hug example's seven merges: real text is unknown
    offer = at.get("button_group")[0]
    assert "toy tokenizer" in offer.label and "[UNK]" in offer.label
    assert offer.options[:2] == ["The course's GPT-2-style tokenizer", "Byte level, many scripts"]
    ok(offer.set_value("multilingual").run())
    settings = at.session_state[STATE_KEY]["settings"]
    assert (settings.source, settings.preset) == ("preset", "multilingual")  # the Train page follows
    at = type_text(at, TEXT)
    assert tokens(at) and "[UNK]" not in tokens(at)
    assert not at.get("button_group")  # a real tokenizer in use: no offer


def test_trained_tokenizers_kept_one_after_another_sit_side_by_side():
    at = open_encode()
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.button(key="keep_run").click().run())  # the hug example's tokenizer
    ok(at.get("button_group")[0].set_value("course").run())  # train the course's, which is now in use
    ok(at.button(key="keep_run").click().run())  # kept, but the first column already shows it
    labels = [unescape_md(m.label) for m in at.metric if m.label.startswith("Tokens, ")]
    assert (
        len(labels) == 3 and "Tokens, trained: hug, pug, pun, bun, hugs (the course), whitespace, all merges" in labels
    )
    ok(at.button(key="forget_runs").click().run())
    assert len([m for m in at.metric if m.label.startswith("Tokens, ")]) == 2
