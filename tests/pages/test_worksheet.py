"""AppTest on the worksheet page: each step's words before it and an empty table, then an answer key whose
pair counts and merges are the trainer's, with the link's bounds said in a sentence."""

from __future__ import annotations

from apptest_support import alerts, open_worksheet, preset_history, read_worksheet

from bpe.display import worksheet


def _pair_text(pair) -> str:
    return f"{pair[0]} + {pair[1]}"


def test_the_answer_key_holds_the_trainers_counts_and_merges_after_the_exercises():
    at = open_worksheet(preset="hug", ws_from="2", ws_steps="3")
    sheet = read_worksheet(at)
    history = preset_history("hug")
    assert sheet.order == ["bpe-ws-step"] * 3 + ["key"] + ["bpe-ws-answer"] * 3
    for k in (2, 3, 4):
        s = history.state(k)
        answer = sheet.sections[("bpe-ws-answer", k)]
        assert answer["rows"][1:] == [[_pair_text(p), f"{c:,}"] for p, c in s.top_pairs(worksheet.KEY_PAIRS)]
        assert f"Merge: {_pair_text(s.pair)} → {s.new_token}" in "".join(answer["text"])
        exercise = sheet.sections[("bpe-ws-step", k)]
        before = history.splits_at(k - 1)
        words = exercise["rows"][1 : 1 + len(history.words)]
        assert words == [[w, f"{history.freqs[history.words.index(w)]:,}", " ".join(before[w])] for w, _, _ in words]
        assert {w for w, _, _ in words} == set(history.words)
        blanks = exercise["rows"][len(words) + 2 :]
        assert len(blanks) == worksheet.BLANK_ROWS and all(cell.strip() == "" for row in blanks for cell in row)
    assert not alerts(at)


def test_a_byte_level_run_prints_every_word_in_first_seen_order():
    """The course's 30 words are all printed, as the key counts all 30 (not the 12 most frequent)."""
    at = open_worksheet(preset="course", ws_from="1", ws_steps="2")
    sheet = read_worksheet(at)
    history = preset_history("course")
    exercise = sheet.sections[("bpe-ws-step", 1)]
    shown = [row[0] for row in exercise["rows"][1 : 1 + len(history.words)]]
    assert shown == list(history.words)  # the "first" tie rule reads the words in this order
    assert any("Ġ" in w for w in shown)
    assert "most frequent" not in "".join(exercise["text"])
    answer = sheet.sections[("bpe-ws-answer", 1)]
    assert answer["rows"][1] == [_pair_text(history.state(1).pair), f"{history.state(1).count:,}"]


def test_too_many_steps_are_cut_to_the_bound_with_a_sentence():
    at = open_worksheet(preset="course", ws_from="1", ws_steps="50")
    sheet = read_worksheet(at)
    assert [k for kind, k in sheet.sections if kind == "bpe-ws-step"] == list(range(1, worksheet.MAX_STEPS + 1))
    assert any("A worksheet holds up to 10 steps" in a for a in alerts(at, "warning"))


def test_a_bad_link_value_is_said_and_the_run_ends_where_it_ends():
    at = open_worksheet(preset="hug", ws_from="<b>", ws_steps="5")
    assert any("ws_from “<b>” is not a whole number" in a for a in alerts(at, "warning"))
    last = preset_history("hug").num_merges
    at = open_worksheet(preset="hug", ws_from=str(last - 1), ws_steps="5")
    assert [k for kind, k in read_worksheet(at).sections if kind == "bpe-ws-step"] == [last - 1, last]
    assert any(f"this run has {last:,} merges" in a for a in alerts(at, "warning"))


def test_corpus_text_is_escaped_in_the_worksheet():
    at = open_worksheet(text="<img src=x onerror=alert(1)> <img src=x onerror=alert(1)> ab", ws_steps="2")
    body = next(h.proto.body for h in at.get("html") if 'class="bpe-ws"' in h.proto.body)
    assert "<img" not in body and "&lt;img" in body


def test_a_first_step_past_the_runs_end_says_so_and_shows_the_last_step():
    last = preset_history("hug").num_merges
    for raw in ("999999999", "9" * 40):
        at = open_worksheet(preset="hug", ws_from=raw, ws_steps="5")
        warnings = alerts(at, "warning")
        assert not any("not a whole number" in a for a in warnings)
        assert any(f"ws_from “{raw[:20]}" in a and f"past this run's last merge ({last:,})" in a for a in warnings)
        assert [k for kind, k in read_worksheet(at).sections if kind == "bpe-ws-step"] == [last]
    at = open_worksheet(preset="hug", ws_from="0", ws_steps="1")
    assert any("ws_from “0” is out of range (it starts at 1)" in a for a in alerts(at, "warning"))
