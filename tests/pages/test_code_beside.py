"""The code beside the step: the functions the Train page shows (bpe/reference_loops.py, by their own source)
reproduce the trainer's every step (pair counts, chosen pair, rewritten words), and the page shows those
functions and this step's values."""

from __future__ import annotations

import ast
import inspect

import pytest
from apptest_support import ok, preset_history, start
from streamlit.testing.v1 import AppTest

import bpe
from bpe import reference_loops as loops
from ui import code_beside

STEPS = {"course": loops.course_step, "minbpe": loops.minbpe_step}


def opened(**query) -> AppTest:
    """The Train page at this link with the code beside the step opened, as a click on its expander does."""
    at = start(**query)
    at.session_state[code_beside.OPEN_KEY] = True
    return ok(at.run())


# "hug" is the course's example; "course" and "multilingual" are byte-level (GPT-2 pre-tokenization, Ġ).
@pytest.mark.parametrize("preset", ["hug", "course", "multilingual", "minbpe"])
@pytest.mark.parametrize("style", list(STEPS))
def test_the_displayed_loop_reproduces_every_step_of_the_trainer(preset, style):
    history = preset_history(preset)
    assert history.config.tie_break == "first" and history.num_merges >= 3
    word_freqs = dict(zip(history.words, history.freqs))
    initial = history.splits_at(0)
    splits = {w: list(initial[w]) for w in word_freqs}
    for k in range(1, history.num_merges + 1):
        pair_freqs, best, splits = STEPS[style](splits, word_freqs)
        s = history.state(k)
        assert dict(pair_freqs) == dict(history.pair_counts_after(k - 1)), k
        assert best == s.pair, k
        after = history.splits_at(k)
        assert {w: tuple(v) for w, v in splits.items()} == {w: after[w] for w in word_freqs}, k
        # The values the page shows: the top counts are the loop's, and the words shown as rewritten are.
        shown = code_beside.step_values(history, k)
        assert [c for _, c in shown["top"]] == sorted(pair_freqs.values(), reverse=True)[: len(shown["top"])]
        assert all(pair_freqs[p] == c for p, c in shown["top"])
        for word, before, rewritten in shown["rewritten"]:
            assert list(rewritten) == splits[word] and before != rewritten


def test_a_bytes_greatest_run_differs_from_the_loops_only_where_the_page_says_so():
    """CS336's preset breaks ties by the greatest pair: the loops take the first one, and the page says why."""
    at = opened(preset="cs336", step="1")
    captions = " ".join(c.value for c in at.caption)
    assert "pairs tie here" in captions and "their pick can differ" in captions


def test_the_page_shows_the_source_that_the_tests_run():
    assert code_beside.SOURCES["course"].startswith(inspect.getsource(loops.compute_pair_freqs))
    assert inspect.getsource(loops.minbpe_step) in code_beside.SOURCES["minbpe"]


def _values(at: AppTest) -> tuple[list, tuple]:
    """The top pair counts and the chosen pair, read back from the values block as Python reads them."""
    lines = at.code[0].value.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(">>> sorted(")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(">>>"))
    top = ast.literal_eval("\n".join(lines[start:end]))
    pair_line = lines.index(next(line for line in lines if line in (">>> best_pair", ">>> pair")))
    return top, ast.literal_eval(lines[pair_line + 1])


@pytest.mark.parametrize("preset,step", [("hug", "2"), ("course", "5")])
def test_the_expander_shows_the_loop_and_this_steps_values(preset, step):
    at = opened(preset=preset, step=step)
    assert "The code beside the step" in [e.label for e in at.expander]
    assert at.code[-1].value == code_beside.SOURCES["course"].strip()
    history = preset_history(preset)
    k = int(step)
    top, pair = _values(at)
    assert pair == history.state(k).pair
    # What the displayed function computes from the corpus, run up to this step, is what the page shows.
    word_freqs = dict(zip(history.words, history.freqs))
    initial = history.splits_at(0)
    splits = {w: list(initial[w]) for w in word_freqs}
    for _ in range(k - 1):
        _, _, splits = loops.course_step(splits, word_freqs)
    pair_freqs = loops.compute_pair_freqs(splits, word_freqs)
    assert top and all(pair_freqs[p] == c for p, c in top)
    assert [c for _, c in top] == sorted(pair_freqs.values(), reverse=True)[: len(top)]
    at.radio(key="code_style").set_value("minbpe").run()
    ok(at)
    assert at.code[-1].value == code_beside.SOURCES["minbpe"].strip()
    assert "get_stats(splits[word], stats, freq)" in at.code[0].value
    assert _values(at) == (top, pair)


def test_words_from_the_corpus_are_shown_as_python_reprs_in_code_blocks():
    at = opened(text="<b>x</b> *y* <b>x</b>", step="1", pre_tokenizer="whitespace")
    values = at.code[0].value
    assert "'<b>x</b>'" in values or "'*y*'" in values
    assert not any("<b>" in m.value for m in at.markdown)


def test_the_worksheet_link_starts_at_the_next_step_with_the_runs_parameters():
    at = opened(preset="hug", step="2")
    link = next(b for b in at.get("link_button") if b.proto.label == "Printable worksheet")
    assert link.proto.url.startswith("worksheet?")
    assert "ws_from=3" in link.proto.url and "ws_steps=5" in link.proto.url and "preset=hug" in link.proto.url


def test_a_large_corpus_shows_the_runs_stored_top_counts_and_says_the_print_may_differ():
    words = {f"w{i:04d}x{'ab'[i % 2]}": 1 + i % 7 for i in range(code_beside.EXACT_WORDS + 100)}
    history = bpe.run_training(words, num_merges=4)
    shown = code_beside.step_values(history, 2)
    assert not shown["exact"] and shown["top"] == history.state(2).top_pairs(code_beside.TOP_PAIRS)
    assert "a print may list other pairs or another order" in code_beside.values_text("course", history, 2)
    small = preset_history("hug")
    assert code_beside.step_values(small, 2)["exact"]
    assert "a print may" not in code_beside.values_text("minbpe", small, 2)


def test_a_forced_merge_and_a_wordpiece_run_are_said_beside_the_code():
    captions = " ".join(c.value for c in opened(preset="notebook", step="1").caption)
    assert "This merge was forced (a what-if)" in captions
    at = opened(preset="hug", step="1", algorithm="wordpiece")
    assert "this run trains WordPiece" in " ".join(c.value for c in at.caption)
    assert len(at.code) == 1  # the loop's code, no BPE values for a WordPiece step
    at = opened(preset="hug", step="0")
    assert "Step 0: nothing merged yet" in " ".join(c.value for c in at.caption)


def test_the_closed_expander_draws_nothing_inside_until_opened_and_then_follows_the_steps():
    """Closed, its loop and values are not drawn on each click on Next (serving CPU for nothing shown)."""
    at = start(preset="hug", step="2")
    assert "The code beside the step" in [e.label for e in at.expander]
    assert not at.code and "code_style" not in [r.key for r in at.radio]
    at.session_state[code_beside.OPEN_KEY] = True
    ok(at.run())
    assert at.code[-1].value == code_beside.SOURCES["course"].strip()
    assert "Step 2: the loop's values" in " ".join(c.value for c in at.caption)
    ok(at.button(key="next").click().run())
    assert "Step 3: the loop's values" in " ".join(c.value for c in at.caption)
    at.session_state[code_beside.OPEN_KEY] = False
    ok(at.run())
    assert not at.code


def test_the_loop_chosen_stays_chosen_while_the_expander_is_closed():
    at = opened(preset="hug", step="2")
    ok(at.radio(key="code_style").set_value("minbpe").run())
    at.session_state[code_beside.OPEN_KEY] = False
    ok(at.run())
    ok(at.button(key="next").click().run())
    at.session_state[code_beside.OPEN_KEY] = True
    ok(at.run())
    assert at.radio(key="code_style").value == "minbpe"
    assert at.code[-1].value == code_beside.SOURCES["minbpe"].strip()
