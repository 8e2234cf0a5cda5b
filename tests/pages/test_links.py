"""Links (ui/links.py) read from plain mappings, without AppTest: what a link restores, and the
sentence it gets for what it cannot (the page tests check the same through the app)."""

from __future__ import annotations

import doctest

import ui.links
from ui.links import (
    MAX_FORCED_CHARS,
    MAX_LIMIT_VALUE,
    MAX_URL_CORPUS_CHARS,
    settings_from_params,
    settings_to_params,
    step_from_params,
)
from ui.settings import Settings, preset_settings


def read(params: dict[str, str]) -> tuple[Settings, list[str]]:
    notes: list[str] = []
    return settings_from_params(params, notes), notes


def test_a_view_written_as_params_reads_back_the_same():
    settings = Settings(source="text", text="hug pug", pre_tokenizer="gpt2", tie_break="hf", forced=((2, ("a", "b")),))
    params = settings_to_params(settings, 3)
    assert read(params) == (settings, [])
    assert step_from_params(params, []) == 3


def test_a_preset_link_carries_only_what_differs_from_the_preset():
    assert settings_to_params(preset_settings("hug"), 0) == {"step": "0", "preset": "hug"}
    assert read({"preset": "hug"}) == (preset_settings("hug"), [])


def test_a_corpus_too_long_for_a_link_is_marked_and_asked_for_again():
    settings = Settings(source="text", text="x " * MAX_URL_CORPUS_CHARS)
    params = settings_to_params(settings, 0)
    assert params["corpus"] == "text" and "text" not in params
    restored, notes = read(params)
    assert restored.source == "text" and restored.text == ""
    assert len(notes) == 1 and "paste or upload it again" in notes[0]


def test_an_unknown_preset_falls_back_with_a_note():
    settings, notes = read({"preset": "nope"})
    assert settings == preset_settings("hug")
    assert notes == ["The link names a preset that does not exist (nope); showing hug."]


def test_a_choice_that_is_not_one_keeps_the_presets_value():
    settings, notes = read({"preset": "hug", "tie_break": "coin"})
    assert settings.tie_break == "first"
    assert len(notes) == 1 and "“coin” is not one of first" in notes[0]


def test_numbers_are_whole_and_kept_in_range():
    settings, notes = read({"limit_value": "10000000"})
    assert settings.limit_value == MAX_LIMIT_VALUE and "out of range" in notes[0]
    settings, notes = read({"min_frequency": "1e999"})
    assert settings.min_frequency == 0 and "not a whole number" in notes[0]
    notes = []
    assert step_from_params({"step": "-4"}, notes) == 0 and "out of range" in notes[0]
    assert step_from_params({"step": "x"}, []) == 0


def test_forced_merges_are_read_defensively():
    settings, notes = read({"forced": '[[1, "h", "u"]]'})
    assert settings.forced == ((1, ("h", "u")),) and notes == []
    for raw, says in [
        ("[" * 100_000 + "]" * 100_000, "characters long"),
        ("[1, 2", "not readable JSON"),
        ("{}", "is not a list"),
        ('[[0, "a", "b"]]', "not [step, token, token]"),
        ("x" * (MAX_FORCED_CHARS + 1), "characters long"),
    ]:
        settings, notes = read({"forced": raw})
        assert settings.forced == preset_settings("hug").forced
        assert len(notes) == 1 and "forced=" in notes[0] and says in notes[0], (raw[:20], notes)


def test_special_tokens_and_byte_alphabet():
    settings, _ = read({"special": "<s>,,</s>,<s>", "full_byte_alphabet": "1"})
    assert settings.special_tokens == ("<s>", "</s>")
    assert settings.full_byte_alphabet is False  # whitespace pre-tokenizer: not byte level
    settings, _ = read({"pre_tokenizer": "gpt2", "full_byte_alphabet": "1"})
    assert settings.full_byte_alphabet is True


def test_docstring_examples():
    result = doctest.testmod(ui.links)
    assert result.attempted > 0 and result.failed == 0


def test_only_ascii_digits_are_numbers():
    """``str.isdigit`` accepts ``²``, ``①`` and ``¹`` (which ``int()`` rejects: a traceback) and ``٣`` or
    ``𝟗`` (which ``int()`` reads: accepted silently). A link's number is ASCII digits; anything else is named."""
    for raw in ["²", "①", "¹", "٣", "𝟗", "1²", "-²", "--5", "-", "1_000", "+3", "٣٣"]:
        notes: list[str] = []
        assert step_from_params({"step": raw}, notes) == 0, raw
        assert notes == [f"The link's step “{raw}” is not a whole number; it is left out."], raw
        for name in ("limit_value", "min_frequency"):
            settings, notes = read({"preset": "hug", name: raw})
            assert getattr(settings, name) == getattr(preset_settings("hug"), name), (name, raw)
            assert notes == [f"The link's {name} “{raw}” is not a whole number; it is left out."], (name, raw)
    notes = []
    assert step_from_params({"step": " 12 "}, notes) == 12 and notes == []
