"""The Encode page's pick-list of popular tokenizers and side by side, end to end in a real browser, with the Hub offline.

A real server (``streamlit run app.py``) gets ``HF_HUB_OFFLINE=1`` and an ``HF_HUB_CACHE`` laid out as
huggingface_hub lays it out (``models--owner--name/refs/main`` and ``snapshots/<rev>/tokenizer.json``),
holding small files built here under GPT-2's, BERT's and Whisper's names (Whisper's with its empty
token); tiktoken's cache is an empty folder. In Debian's chromium: pick GPT-2 from the pick-list, switch
side by side on, add BERT and Whisper: each one's token count is on the page, and equals what
``tokenizers`` counts for the same text.
"""

from __future__ import annotations

import re

import pytest
import tokenizers
from browser_support import AppServer, wait_for_app, wait_until
from hub_server import lay_out_cache
from playwright.sync_api import expect
from tokenizer_files import byte_level_json, with_empty_token, wordpiece_json

pytestmark = pytest.mark.browser

TEXT = "Tokenizers meet café 🙂 and the model"
REPOS = {
    "GPT-2": "openai-community/gpt2",
    "BERT": "google-bert/bert-base-uncased",
    "Whisper": "openai/whisper-small",
}


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    gpt2 = byte_level_json()
    return {"GPT-2": gpt2, "BERT": wordpiece_json(), "Whisper": with_empty_token(tokenizers.Tokenizer.from_str(gpt2))}


@pytest.fixture(scope="module")
def offline_server(files, tmp_path_factory):
    cache = tmp_path_factory.mktemp("hub")
    for label, repo_id in REPOS.items():
        lay_out_cache(cache, repo_id, files[label])
    tiktoken_cache = tmp_path_factory.mktemp("tiktoken")  # empty: no GPT-4 or GPT-4o file
    server = AppServer(
        env={
            "HF_HUB_OFFLINE": "1",
            "HF_HUB_CACHE": str(cache),
            "HF_HOME": str(cache / "home"),
            "TIKTOKEN_CACHE_DIR": str(tiktoken_cache),
        }
    )
    try:
        yield server.start()
    finally:
        server.stop()


def choose(page, widget, option: str) -> None:
    """Type into a selectbox or multiselect and click the option it lists, marked as on this machine."""
    box = widget.get_by_role("combobox")
    box.click()
    box.fill(option)  # typing opens the list (a multiselect's does not open on a click), filtered to it
    page.get_by_role("option", name=f"{option} · on this machine", exact=True).click()
    wait_for_app(page)


def metric(page, label: str):
    return page.locator('[data-testid="stMetric"]').filter(has_text=label)


def test_three_popular_tokenizers_side_by_side_offline(offline_server, files, page):
    page.goto(f"{offline_server}/encode")
    expect(page.locator(".bpe-tokens").first).to_be_visible(timeout=60_000)
    wait_for_app(page)
    area = page.get_by_label("Text to tokenize (up to 100 KB)")
    area.fill(TEXT)
    area.press("Control+Enter")
    wait_for_app(page)
    page.locator('[data-testid="stRadio"]').first.get_by_text("Popular tokenizer", exact=True).click()
    wait_for_app(page)
    choose(page, page.locator('[data-testid="stSelectbox"]').filter(has_text="Popular tokenizer"), "GPT-2")
    caption = page.get_by_text(re.compile(r"Using GPT-2 \(openai-community/gpt2\)"))
    expect(caption).to_be_visible(timeout=60_000)
    counts = {label: len(tokenizers.Tokenizer.from_str(files[label]).encode(TEXT).ids) for label in REPOS}
    expect(metric(page, "Tokens").first).to_contain_text(str(counts["GPT-2"]))

    page.get_by_text("Side by side with other tokenizers").click()
    wait_for_app(page)
    picks = page.locator('[data-testid="stMultiSelect"]').filter(has_text="And popular tokenizers")
    expect(picks).to_be_visible(timeout=60_000)
    choose(page, picks, "BERT")
    choose(page, picks, "Whisper")
    for label, repo_id in REPOS.items():
        shown = metric(page, f"Tokens, {label} ({repo_id})")
        expect(shown).to_be_visible(timeout=60_000)
        value = shown.locator('[data-testid="stMetricValue"]')
        wait_until(lambda v=value, n=counts[label]: v.text_content() == f"{n:,}", 30, f"{label}'s count")
    assert page.locator('[role="alert"][data-kind="error"]').count() == 0
    # each one's chips, one under the other: the first (GPT-2), fewer merges, BERT and Whisper
    chips = page.locator(".bpe-tokens")
    wait_until(lambda: chips.count() >= 5, 30, "the chips of each tokenizer")
    assert [chips.nth(i).locator(".tok").count() for i in (3, 4)] == [counts["BERT"], counts["Whisper"]]
