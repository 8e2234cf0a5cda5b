"""The per-run caches behind a step's splits and vocabulary, which make Next on a 5 MB run quick: a step drawn
from cached rows and chips is the step drawn from scratch, character for character."""

from __future__ import annotations

import pytest

import bpe
from bpe import display
from bpe.display import tokens as chip_module
from ui import panels, vocabulary
from ui.settings import Settings

TEXT = (
    "the quick brown fox jumps over the lazy dog, the dog sleeps; Straße und Öl — "
    "naïve café 北京 12 345 the fox the fox\n\ttabs and  spaces  "
) * 8


def run(pre_tokenizer: str) -> bpe.History:
    states = bpe.train_steps(TEXT, num_merges=40, pre_tokenizer=pre_tokenizer)
    first = next(states)
    for _ in states:
        pass
    return first.history


def fresh(history: bpe.History) -> None:
    history.cache.clear()


@pytest.mark.parametrize("as_text", [False, True])
def test_chips_from_the_cache_are_the_chips_made_again(monkeypatch, as_text):
    tokens = ["Ġthe", "Ġthe", "a b", "\n", "x" * 40, "<tag>&", "Ãł", "ĠStra"]
    plain = display.chips_html(tokens, highlight=["Ġthe"], as_text=as_text)
    cache: dict = {}
    assert display.chips_html(tokens, highlight=["Ġthe"], as_text=as_text, cache=cache) == plain
    made = []
    monkeypatch.setattr(chip_module, "chip", lambda *a, **k: made.append(a) or "")
    assert display.chips_html(tokens, highlight=["Ġthe"], as_text=as_text, cache=cache) == plain
    assert made == []  # every chip came from the cache
    assert display.chips_html(tokens, highlight=["a b"], as_text=as_text, cache=cache) != plain  # colour is key


def test_given_titles_bypass_the_cache():
    cache: dict = {}
    first = display.chips_html(["a", "b"], titles=["one", "two"], cache=cache)
    assert display.chips_html(["a", "b"], titles=["three", "four"], cache=cache) != first
    assert cache == {}


@pytest.mark.parametrize("pre_tokenizer", ["whitespace", "gpt2"])
@pytest.mark.parametrize("text", [False, True])
@pytest.mark.parametrize("present", [False, True])
def test_a_step_drawn_from_cached_rows_and_chips_is_the_step_drawn_afresh(pre_tokenizer, text, present):
    h = run(pre_tokenizer)
    settings = Settings(source="text", text=TEXT, pre_tokenizer=pre_tokenizer, limit_value=40)
    fresh(h)
    # Steps forward, back and forward again, as a class clicks: rows and chips come back from the caches.
    walk = [*range(h.num_merges + 1), *range(h.num_merges, -1, -3), *range(0, h.num_merges + 1, 2)]
    cached = []
    for step in walk:
        s = h.state(step)
        cached.append(
            panels._splits_html(s, h, "", text, present) + vocabulary.vocabulary_html(s, settings, text, present)
        )
    assert h.cache.items("row") and h.cache.items("chip")  # the caches were used
    for step, seen in zip(walk, cached):
        fresh(h)
        s = h.state(step)
        assert (
            panels._splits_html(s, h, "", text, present) + vocabulary.vocabulary_html(s, settings, text, present)
            == seen
        ), step


def test_long_words_rows_and_chips_are_not_kept_past_what_the_run_store_counts():
    """A corpus of long words (a pasted data file: words of up to MAX_WORD_CHARS characters) made splits rows of
    thousands of chips, each kept on the run: 40 rows of 3,000-character words held 25 MB after seven steps,
    where the run store counts the run cache's budget (server/run_store.py)."""
    import random
    import string

    rng = random.Random(7)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(3_000)) for _ in range(40)]
    states = bpe.train_steps(" ".join(words * 2), num_merges=6, pre_tokenizer="whitespace")
    first = next(states)
    for _ in states:
        pass
    h = first.history
    fresh(h)
    drawn = [panels._splits_html(h.state(step), h, "", False, False) for step in range(h.num_merges + 1)]
    assert all(html_text.count('class="tok') >= 40 * 2_900 for html_text in drawn)  # the long rows were drawn
    rows = h.cache.items("row")
    chips = h.cache.items("chip")
    held = sum(len(row) for _, row in rows) + sum(len(chip) for _, chip in chips)
    assert held <= h.cache.nbytes <= h.cache.budget
    # Drawn again, from whatever was kept, the same.
    assert [panels._splits_html(h.state(step), h, "", False, False) for step in range(h.num_merges + 1)] == drawn


def test_the_splits_a_run_keeps_stay_within_what_the_run_store_counts_for_long_words():
    """The splits a run keeps were once bounded by entries only: splits of long words (a pasted data file) are
    thousands of ids each. Here 60 words of 3,000 characters, every word rebuilt at every step: the ids kept
    (8 bytes each) stay within the run cache's byte budget, which the run store counts."""
    import bisect
    import random

    from bpe import history as history_module

    rng = random.Random(3)
    words = ["".join(rng.choice("abcdef") for _ in range(3_000)) for _ in range(60)]
    states = bpe.train_steps(" ".join(words), num_merges=20, pre_tokenizer="whitespace")
    first = next(states)
    for _ in states:
        pass
    h = first.history
    fresh_splits = {}
    for step in range(1, h.num_merges + 1):
        for i in range(len(h.words)):
            fresh_splits[(i, step)] = h.split_ids_at(i, step)
        ids = sum(len(split) for _, split in h.cache.items("split"))
        assert 8 * ids <= h.cache.limits["split"] <= h.cache.budget, step  # the budget server/run_store.py counts
    assert 8 * ids <= h.cache.nbytes  # the count the bound goes by is the cache's
    # What comes out of the bounded cache is the split the merges make, replayed here without it.
    for (i, step), split in fresh_splits.items():
        ids = list(h.initial_splits[i])
        for s in (h.word_steps[i] or [])[: bisect.bisect_right(h.word_steps[i] or [], step)]:
            a, b, new = h.merges[s - 1]
            ids = history_module._merge_word(ids, a, b, new)
        assert split == tuple(ids)


def test_the_from_column_cuts_long_words_so_a_step_view_stays_small():
    """The pair counts' "from" column wrote every word whole: on a corpus of long words (a pasted data file) each
    step's pair view held six 3,000-character words per pair, some 180 KB kept per step on the run (up to
    the run cache) and sent on every click. Words past FROM_WORD characters are now cut in the middle."""
    import random

    rng = random.Random(5)
    words = ["".join(rng.choice("abcdef") for _ in range(3_000)) for _ in range(20)]
    states = bpe.train_steps(" ".join(words + ["short words here"] * 3), num_merges=4, pre_tokenizer="whitespace")
    first = next(states)
    for _ in states:
        pass
    h = first.history
    rows = panels._pair_view.__wrapped__(h, 2)
    froms = [row["from"] for row in rows if row["from"]]
    assert froms, "the top pairs have their provenance"
    assert max(len(text) for text in froms) <= 600  # six words of 64 characters at most, their counts, "+ more"
    assert any(display.shorten(w, panels.FROM_WORD) in text for text in froms for w in words)  # cut, still named


def test_a_steps_html_blocks_are_made_once_for_every_session_that_comes_to_that_step(monkeypatch):
    """A class steps through one run: the step box, the splits and vocabulary, and the history of a step are made
    for the first session there and reused by the others (and by a click back), each as it is made afresh."""
    h = run("gpt2")
    settings = Settings(source="text", text=TEXT, pre_tokenizer="gpt2", limit_value=40)
    fresh(h)
    draw = {
        "_step_box": lambda k: panels._this_step_html(h.state(k), h),
        "_splits_vocab_body": lambda k: panels._splits_vocab_html(h.state(k), h, settings, False, False),
        "_history_body": lambda k: panels._history_html(h, k),
    }
    made = []
    for name in draw:
        maker = getattr(panels, name)
        monkeypatch.setattr(panels, name, lambda *a, _name=name, _maker=maker: made.append(_name) or _maker(*a))
    steps = [0, 1, 2, 3]
    first = {name: [d(k) for k in steps] for name, d in draw.items()}
    assert sorted(made) == sorted(name for name in draw for _ in steps)
    made.clear()
    for _session in range(3):  # more sessions at the same steps, and clicks back
        assert {name: [d(k) for k in steps] for name, d in draw.items()} == first
        assert {name: [d(k) for k in reversed(steps)] for name, d in draw.items()} == {
            name: v[::-1] for name, v in first.items()
        }
    assert made == []
    fresh(h)
    assert {name: [d(k) for k in steps] for name, d in draw.items()} == first  # the same as made afresh


def test_a_search_in_the_splits_is_drawn_for_its_session_and_a_long_block_is_not_kept(monkeypatch):
    h = run("whitespace")
    settings = Settings(source="text", text=TEXT, pre_tokenizer="whitespace", limit_value=40)
    fresh(h)
    plain = panels._splits_vocab_html(h.state(2), h, settings, False, False)
    monkeypatch.setitem(panels.st.session_state, panels.keys.SPLIT_SEARCH, "fox")
    searched = panels._splits_vocab_html(h.state(2), h, settings, False, False)
    assert searched != plain and "fox" in searched
    monkeypatch.setattr(panels, "STEP_HTML_KEPT", len(plain) - 1)
    fresh(h)
    monkeypatch.delitem(panels.st.session_state, panels.keys.SPLIT_SEARCH)
    assert panels._splits_vocab_html(h.state(2), h, settings, False, False) == plain
    assert not [key for key, _ in h.cache.items("view") if key[1] == "splits_vocab"]


def test_a_steps_pair_rows_are_counted_in_the_runs_budget_by_what_they_hold():
    """Its rows' dicts and values are counted (their keys are the same strings in every row, held once)."""
    import sys

    from bpe.run_cache import ENTRY_BYTES

    h = run("whitespace")
    fresh(h)
    panels._pair_view.__wrapped__(h, 3)  # the counts' provenance, which the run's cache keeps as its own kinds
    before = h.cache.nbytes
    rows = panels._pair_view(h, 3)
    held = sys.getsizeof(rows) + sum(sys.getsizeof(row) + sum(map(sys.getsizeof, row.values())) for row in rows)
    assert rows and h.cache.nbytes - before == held + ENTRY_BYTES
    assert all(row.keys() == rows[0].keys() and all(a is b for a, b in zip(row, rows[0])) for row in rows)
