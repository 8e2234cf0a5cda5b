"""What a newcomer reads on the Train page, without a browser: nothing chosen or tied before the first merge,
a chart legend that names only what the chart holds, numbers with thousands separators, sparkline captions
that read in the run's order, and the introduction's corpus line."""

from __future__ import annotations

import random

import bpe
from bpe import display
from bpe.presets import PRESETS
from ui import intro, panels


def history_of(corpus, **options) -> bpe.History:
    states = bpe.train_steps(corpus, **options)
    first = next(states)
    for _ in states:
        pass
    return first.history


def hug() -> bpe.History:
    return history_of(PRESETS["hug"].corpus(), **PRESETS["hug"].options)


def test_step_0_marks_no_pair_chosen_or_tied_and_step_1_marks_its_winner():
    history = hug()
    before = panels._pair_view.__wrapped__(history, 0)
    assert {row["role"] for row in before} == {"other"}  # "u g" wins at step 1, not before
    table = panels._pair_table_html.__wrapped__(history, 0)
    assert "chosen" not in table and "tied" not in table
    after = panels._pair_view.__wrapped__(history, 1)
    assert [row["pair"] for row in after if row["role"] == "chosen"] == ["u g"]
    assert "✓ chosen" in panels._pair_table_html.__wrapped__(history, 1)


def test_the_legend_names_only_the_roles_the_chart_holds():
    spec = panels._pair_chart_spec.__wrapped__(False, False, ("chosen", "other"))
    assert spec["encoding"]["color"]["legend"]["values"] == ["chosen", "other"]
    assert spec["encoding"]["color"]["scale"]["domain"] == ["chosen", "tied", "other"]  # colours stay put
    assert panels._pair_chart_spec.__wrapped__(False, False, ("other",))["encoding"]["color"]["legend"] is None


def test_a_run_of_thousands_of_merges_writes_its_numbers_with_separators():
    rng = random.Random(0)
    words = {"".join(rng.choice("abcdefghij") for _ in range(7)) for _ in range(1_500)}
    history = history_of(" ".join(words))
    assert history.num_merges >= 1_000
    html = panels._this_step_html(history.state(0), history)
    assert f"Step 0 of {history.num_merges:,}<" in html and "," in f"{history.num_merges:,}"


def test_sparkline_captions_read_from_the_first_value_to_the_last():
    assert "from 113 to 36" in display.sparkline_image([113, 80, 36], title="Corpus length in tokens")
    assert "between 4 and 20" in display.sparkline_image([20, 4, 9], title="Count of the winning pair")
    assert "from 1,200 to 36" in display.sparkline_image([1_200, 36], title="t")


def test_the_introduction_names_the_corpus_words_with_their_counts():
    line = intro.corpus_words(hug())
    assert line.startswith("<code>pun</code> ×12, <code>hug</code> ×10")
    many = history_of(" ".join(f"w{i}" for i in range(12)))
    assert intro.corpus_words(many).endswith(" and 4 more words")
