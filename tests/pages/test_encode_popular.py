"""The Encode page's pick-list of popular tokenizers, read offline from caches laid out as
huggingface_hub and tiktoken lay them out (with small files built here), the sentence a pick that cannot
be fetched gets, and side by side with three or more tokenizers and their counts.

Nothing is downloaded: the Hub is switched off (HF_HUB_OFFLINE) and its cache and tiktoken's point into
tmp_path."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
import tiktoken
import tokenizers
from apptest_support import alerts, all_html, blocks, ok, open_encode, tokens, type_text, unescape_md
from hub_server import lay_out_cache
from tokenizer_files import byte_level_json, rank_file, wordpiece_json

from bpe import popular
from bpe import pre_tokenizers as pt
from bpe.formats.rank_files import PATTERNS

TEXT = "This is not a token. Tokenizers meet café 🙂"


def ranks_of(tokenizer_json: str) -> dict[bytes, int]:
    out = {bytes([b]): b for b in range(256)}
    for a, b in json.loads(tokenizer_json)["model"]["merges"]:
        out.setdefault(pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b), len(out))
    return out


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return {"gpt2": byte_level_json(), "bert": wordpiece_json()}


@pytest.fixture
def caches(tmp_path, monkeypatch, files):
    """The Hub's cache with GPT-2 and BERT, tiktoken's with a cl100k_base file (our small ranks under
    the published file's name, its hash the one we expect); the Hub switched off."""
    from huggingface_hub import constants

    hub_cache, tt_cache = tmp_path / "hub", tmp_path / "tiktoken"
    lay_out_cache(hub_cache, "openai-community/gpt2", files["gpt2"])
    lay_out_cache(hub_cache, "google-bert/bert-base-uncased", files["bert"])
    ranks = ranks_of(files["gpt2"])
    data = rank_file(ranks).encode()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(hub_cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(hub_cache))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tt_cache))
    path = popular.tiktoken_cache_path("cl100k_base")
    tt_cache.mkdir()
    with open(path, "wb") as f:
        f.write(data)
    url, _, pattern = popular.TIKTOKEN_FILES["cl100k_base"]
    monkeypatch.setitem(popular.TIKTOKEN_FILES, "cl100k_base", (url, hashlib.sha256(data).hexdigest(), pattern))
    return ranks


def pick(at, label: str):
    if at.radio(key="encode_source").value != "Popular tokenizer":
        ok(at.radio(key="encode_source").set_value("Popular tokenizer").run())
    return ok(at.selectbox(key="popular_pick").set_value(label).run())


def tiktoken_tokens(ranks: dict[bytes, int], text: str) -> list[str]:
    enc = tiktoken.Encoding(name="t", pat_str=PATTERNS["cl100k"], mergeable_ranks=ranks, special_tokens={})
    return [pt.bytes_to_symbols(enc.decode_single_token_bytes(i)) for i in enc.encode(text)]


def assert_every_feature(at) -> None:
    """Chips with ids and bytes in their tooltips, the id list, the token table, merge replay and tree,
    the first-k slider: the Encode page's features, drawn without an error."""
    assert not at.error and not alerts(at, "error")
    chips = blocks(at)[0].value
    assert chips.count('class="tok') == len(tokens(at)) and re.search(r'title="id \d+ · ', chips)
    assert at.code[0].value == str(at.dataframe[0].value["id"].tolist())
    html_all = all_html(at)
    assert "bpe-replay" in html_all and "bpe-tree" in html_all
    assert at.slider(key="k").value == at.slider(key="k").max > 0


def test_the_pick_list_reads_gpt2_from_the_hub_cache_exactly(caches, files):
    at = type_text(open_encode(), TEXT)
    ok(at.radio(key="encode_source").set_value("Popular tokenizer").run())
    assert "Pick a tokenizer" in at.info[0].value
    # The picks on this machine first, each list entry saying whether it is here or needs the Hub.
    options = at.selectbox(key="popular_pick").options
    assert options[:3] == ["GPT-2 · on this machine", "GPT-4 (cl100k) · on this machine", "BERT · on this machine"]
    assert options[3] == "GPT-4o (o200k) · from the Hub (needs the network)"
    at = pick(at, "GPT-2")
    assert tokens(at) == tokenizers.Tokenizer.from_str(files["gpt2"]).encode(TEXT).tokens
    assert "GPT-2 (openai-community/gpt2)" in unescape_md(" ".join(c.value for c in at.caption))
    assert_every_feature(at)
    assert any("Bytes" in e.label for e in at.expander)  # byte-level: the bytes explained
    ok(at.slider(key="k").set_value(0).run())
    assert len(tokens(at)) == len(TEXT.encode())  # first k = 0 merges: one token per byte


def test_gpt4_is_read_from_tiktoken_s_cache_through_our_rank_file_reader(caches):
    at = pick(type_text(open_encode(), TEXT), "GPT-4 (cl100k)")
    assert tokens(at) == tiktoken_tokens(caches, TEXT)
    assert "tiktoken's cl100k_base" in unescape_md(" ".join(c.value for c in at.caption))
    assert_every_feature(at)


def test_bert_wordpiece_from_the_hub_cache(caches, files):
    at = pick(type_text(open_encode(), TEXT), "BERT")
    assert tokens(at) == tokenizers.Tokenizer.from_str(files["bert"]).encode(TEXT).tokens
    assert not at.error and not alerts(at, "error") and at.code[0].value


def test_a_pick_that_is_not_cached_offline_gets_one_sentence(caches):
    at = pick(open_encode(), "Llama 3")
    (error,) = alerts(at, "error")
    assert error.startswith("Llama 3 could not be fetched: the Hugging Face Hub cannot be reached")
    assert "NousResearch/Meta-Llama-3-8B" in error and "upload a tokenizer file instead" in error
    assert error.count(". ") == 0  # one sentence
    assert not at.exception
    # The failed pick keeps the text box and its tokens (with the Train page's tokenizer meanwhile).
    assert at.text_area(key="encode_text").value and tokens(at)
    assert any("Meanwhile" in c.value for c in at.caption)
    at = pick(at, "GPT-2")  # the page is still usable
    assert not alerts(at, "error") and tokens(at)


def test_gpt4o_not_in_either_cache_names_both(caches):
    at = pick(open_encode(), "GPT-4o (o200k)")
    (error,) = alerts(at, "error")
    assert "Xenova/gpt-4o's tokenizer.json or of tiktoken's o200k_base file" in error


def test_side_by_side_with_three_tokenizers_and_their_counts(caches, files):
    at = type_text(open_encode(), TEXT)
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.multiselect(key="compare_popular").set_value(["GPT-2", "GPT-4 (cl100k)", "BERT"]).run())
    assert not alerts(at, "error")
    counts = {unescape_md(m.label): m.value for m in at.metric}
    gpt2 = tokenizers.Tokenizer.from_str(files["gpt2"]).encode(TEXT).tokens
    bert = tokenizers.Tokenizer.from_str(files["bert"]).encode(TEXT).tokens
    assert counts["Tokens, GPT-2 (openai-community/gpt2)"] == str(len(gpt2))
    assert counts["Tokens, GPT-4 (cl100k), tiktoken's cl100k_base"] == str(len(tiktoken_tokens(caches, TEXT)))
    assert counts["Tokens, BERT (google-bert/bert-base-uncased)"] == str(len(bert))
    table = at.dataframe[-1].value
    assert list(table.columns) == ["tokenizer", "tokens", "characters per token"]
    assert len(table) == 5  # the trained one, fewer merges, and the three picks
    row = table[table["tokenizer"] == "BERT (google-bert/bert-base-uncased)"].iloc[0]
    assert row["tokens"] == len(bert) and row["characters per token"] == round(len(TEXT) / len(bert), 2)
    sides = [h.value for h in blocks(at) if 'class="bpe-tokens"' in h.value][1:]
    assert len(sides) == 5
    assert [s.count('class="tok') for s in sides][2:] == [len(gpt2), len(tiktoken_tokens(caches, TEXT)), len(bert)]
    ids = [c.value for c in at.code][-5:]  # the ids of each, in the expander
    enc = tiktoken.Encoding(name="t", pat_str=PATTERNS["cl100k"], mergeable_ranks=caches, special_tokens={})
    assert ids[3] == str(enc.encode(TEXT))
    assert ids[4] == str(tokenizers.Tokenizer.from_str(files["bert"]).encode(TEXT).ids)


def test_side_by_side_says_which_pick_could_not_be_fetched_and_shows_the_rest(caches):
    at = type_text(open_encode(), TEXT)
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.multiselect(key="compare_popular").set_value(["GPT-2", "Qwen 2.5"]).run())
    (error,) = alerts(at, "error")
    assert error.startswith("Qwen 2.5 could not be fetched")
    assert "Tokens, GPT-2 (openai-community/gpt2)" in {unescape_md(m.label) for m in at.metric}


def test_one_run_waits_for_the_hub_about_one_deadline_however_many_are_picked(caches, monkeypatch):
    from bpe import hub

    at = type_text(open_encode(), TEXT)
    ok(at.toggle(key="compare").set_value(True).run())
    monkeypatch.setattr(hub, "DEADLINE_S", -1.0)  # as if the time were already spent
    ok(at.multiselect(key="compare_popular").set_value(["GPT-2", "BERT"]).run())
    assert "Not fetched yet: GPT-2, BERT" in at.info[-1].value
    monkeypatch.setattr(hub, "DEADLINE_S", 60.0)
    ok(at.run())
    labels = {unescape_md(m.label) for m in at.metric}
    assert {"Tokens, GPT-2 (openai-community/gpt2)", "Tokens, BERT (google-bert/bert-base-uncased)"} <= labels
