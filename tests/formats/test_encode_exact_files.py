"""Every Encode feature works for each unusual file shape real tokenizers have.

Each shape is a small file built here with the builders of ``tokenizer_files.py`` (GPT-2's vocab.json
holding the token "model"; Whisper's empty token, as tokenizer.json and as a ``.tiktoken`` line
``= N``; a rank file whose tokens no merge builds; Kimi K2's pattern with class intersections, as a
rank file's typed pattern and in a tokenizer.json's Split; an NFC
normalizer over Hangul jamo; GPT-4o's added tokens leaving an id gap; a Unigram file). Each is uploaded
through the page's uploader, and each feature switched on in turn: the coloured chips (and the
characters their hover marks), the ids, the bytes, the merge replay of every word, the merge tree of
every token, the first k merges, and side by side (fewer merges; the trained tokenizer, both ways).
Oracles: ``tokenizers`` and tiktoken. A token no merge builds gets its sentence beside its tree and
replay, and a tokenizer's notes are shown wherever it is loaded (Hub name, pick-list, side by side).
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import tiktoken
import tokenizers
from apptest_support import alerts, all_html, blocks, ok, open_encode, tokens, type_text, unescape_md, upload
from hub_server import lay_out_cache
from tokenizer_files import (
    KIMI_K2,
    added_token,
    byte_level_bpe,
    byte_level_file,
    rank_file,
    unreachable,
    with_empty_token,
)

from bpe import display
from bpe import pre_tokenizers as pt
from bpe.corpora import corpus_lines
from bpe.formats import rank_files
from bpe.formats.rank_files import PATTERNS
from server import uploads

UNREACHABLE_NOTE = "No merge of lower-ranked tokens builds this token"


@pytest.fixture(scope="module")
def trained() -> tokenizers.Tokenizer:
    return byte_level_bpe(corpus_lines(5_000) + ["model: the model of a model is a model"] * 50, 600)


@pytest.fixture(scope="module")
def ranks(trained) -> dict[bytes, int]:
    out = {bytes([b]): b for b in range(256)}
    for a, b in json.loads(trained.to_str())["model"]["merges"]:
        out.setdefault(pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b), len(out))
    return out


Reference = Callable[[str, "int | None"], tuple[list[int], list[bytes], "list[tuple[int, int]] | None"]]


@dataclass
class Case:
    """A file shape: what is uploaded, the text, the pattern to type (rank files), and the reference:
    ids, token bytes and (where the library gives them) character offsets of a text with the first k
    merges (all when k is None)."""

    files: list[tuple[str, bytes]]
    text: str
    reference: Reference
    pattern: str | None = None
    sentence: str | None = None  # what the page must say about this file


def json_reference(data: str, renumber: dict[int, int] | None = None) -> Reference:
    """``tokenizers`` reading ``data``, its merges cut to the first k (renumbering added tokens' ids)."""
    parsed = json.loads(data)

    def reference(text: str, k: int | None):
        cut = dict(parsed, model=dict(parsed["model"], merges=parsed["model"]["merges"][:k]))
        tok = tokenizers.Tokenizer.from_str(json.dumps(cut))
        enc = tok.encode(text, add_special_tokens=False)
        ids = [(renumber or {}).get(i, i) for i in enc.ids]
        return ids, [token_bytes(t) for t in enc.tokens], enc.offsets

    return reference


def token_bytes(token: str) -> bytes:
    if token.startswith("<|"):
        return token.encode()
    return pt.symbols_to_bytes(token)


def rank_reference(table: dict[bytes, int], pattern: str) -> Reference:
    """tiktoken with ``table``; with k merges, the ranks below the k-th merge's token (what a rank
    file merged by rank keeps: its unreachable tokens of lower rank too)."""
    merges, _ = rank_files.reachable_merges(table)

    def reference(text: str, k: int | None):
        cut = table
        if k is not None and k < len(merges):
            limit = table[merges[k][0] + merges[k][1]]
            cut = {t: r for t, r in table.items() if r < limit}
        enc = tiktoken.Encoding(
            name="ref", pat_str=PATTERNS.get(pattern, pattern), mergeable_ranks=cut, special_tokens={}
        )
        ids = enc.encode(text)
        return ids, [enc.decode_single_token_bytes(i) for i in ids], None

    return reference


GPT2_TEXT = "the model of a model, café 🙂"
KIMI_TEXT = " quick brown fox 中文文本 ΑΒΓ I'm"
HANGUL_TEXT = "ab \u1100\u1161 cd \u1112\u1161\u11ab\u1100\u116e\u11a8 model"


def cases(trained, ranks) -> dict[str, Case]:
    data = trained.to_str()
    out: dict[str, Case] = {}
    vocab, merges = json.loads(data)["model"]["vocab"], json.loads(data)["model"]["merges"]
    merges_txt = "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)
    out["gpt2 vocab.json + merges.txt"] = Case(
        [("vocab.json", json.dumps(vocab).encode()), ("merges.txt", merges_txt.encode())],
        GPT2_TEXT,
        json_reference(data),
    )
    whisper = with_empty_token(trained)
    out["whisper tokenizer.json"] = Case([("tokenizer.json", whisper.encode())], GPT2_TEXT, json_reference(whisper))
    with_empty = {**ranks, b"": len(ranks)}
    out["whisper .tiktoken"] = Case(
        [("multilingual.tiktoken", rank_file(with_empty).encode())],
        GPT2_TEXT,
        rank_reference(with_empty, "gpt2"),
        pattern="gpt2",
    )
    table = unreachable(ranks)
    by_rank = {r: t for t, r in table.items()}
    odd = [by_rank[r].decode() for r in rank_files.reachable_merges(table)[1]][:6]  # ode, ssign, Ġobj...
    out["unreachable .tiktoken"] = Case(
        [("llama3.tiktoken", rank_file(table).encode())],
        "the model of a model, " + " ".join(odd),
        rank_reference(table, "cl100k"),
        pattern="cl100k",
        sentence="cannot be built by merging lower ranks",
    )
    out["kimi .tiktoken"] = Case(
        [("kimi.tiktoken", rank_file(ranks).encode())],
        KIMI_TEXT,
        rank_reference(ranks, KIMI_K2),
        pattern=KIMI_K2,
    )
    kimi = byte_level_file(ranks, KIMI_K2)  # the same pattern in a tokenizer.json's Split
    out["kimi tokenizer.json"] = Case([("tokenizer.json", kimi.encode())], KIMI_TEXT, json_reference(kimi))
    nfc = json.loads(data)
    nfc["normalizer"] = {"type": "NFC"}
    nfc_text = json.dumps(nfc)
    out["nfc tokenizer.json"] = Case([("tokenizer.json", nfc_text.encode())], HANGUL_TEXT, json_reference(nfc_text))
    gap = json.loads(data)
    size = len(vocab)
    gap["added_tokens"] = [
        {**added_token("<|endoftext|>", size + 1), "normalized": False, "special": True},
        {**added_token("<|endofprompt|>", size + 20), "normalized": False, "special": True},
    ]
    gap_text = json.dumps(gap)
    out["gpt4o added-token gap"] = Case(
        [("tokenizer.json", gap_text.encode())],
        "a model<|endoftext|>b <|endofprompt|>",
        json_reference(gap_text, {size: size + 1, size + 1: size + 20}),
        sentence="would renumber 2 of them",
    )
    return out


NAMES = [
    "gpt2 vocab.json + merges.txt",
    "whisper tokenizer.json",
    "whisper .tiktoken",
    "unreachable .tiktoken",
    "kimi .tiktoken",
    "kimi tokenizer.json",
    "nfc tokenizer.json",
    "gpt4o added-token gap",
]


def open_case(case: Case):
    at = type_text(open_encode(), case.text)
    at = upload(at, *case.files)
    if case.pattern is not None:
        if case.pattern in PATTERNS:
            ok(at.selectbox(key="tiktoken_pattern").set_value(case.pattern).run())
        else:
            ok(at.selectbox(key="tiktoken_pattern").set_value("typed").run())
            ok(at.text_input(key="tiktoken_regex").set_value(case.pattern).run())
    assert not alerts(at, "error"), alerts(at, "error")
    return at


def shown_ids(at) -> list[int]:
    return json.loads(at.code[0].value)


def shown_bytes(at) -> list[bytes]:
    return [bytes.fromhex(h.replace(" ", "")) for h in at.dataframe[0].value["bytes"]]


def utf16(text: str, i: int) -> int:
    return len(text[:i].encode("utf-16-le")) // 2


def chip_spans(at) -> list[tuple[int, int]]:
    return [(int(s), int(e)) for s, e in re.findall(r'data-s="(\d+)" data-e="(\d+)"', blocks(at)[0].value)]


def check_shown(at, case: Case, k: int | None = None) -> None:
    ids, pieces, offsets = case.reference(case.text, k)
    assert shown_ids(at) == ids
    assert at.dataframe[0].value["id"].tolist() == ids
    assert shown_bytes(at) == pieces
    chips = blocks(at)[0].value
    assert chips.count('class="tok') == len(ids)  # a coloured chip for each token
    assert [int(i) for i in re.findall(r'title="id (\d+) · ', chips)] == ids
    table = at.dataframe[0].value
    for token, made in zip(table["token"], table["made by"]):  # a token of two symbols or more is made
        assert made != "base symbol" or len(token) == 1, (token, made)
    if offsets is not None:
        texts = at.dataframe[0].value["text"].tolist()
        assert texts == [case.text[s:e] for s, e in offsets]
        assert chip_spans(at) == [(utf16(case.text, s), utf16(case.text, e)) for s, e in offsets]


_STEP = re.compile(r"<tr><td[^>]*>(merge [\d,]+|rank [\d,]+): .*?</td><td>(.*?)</td></tr>")


def check_replay_steps(at, ours) -> int:
    """Each step of the merge replay is named as the token it makes is named in its tooltip and the
    token table: "merge N" (a rank file merged by rank named them by the token's rank + 1), or, for
    a token no merge builds, "rank N"."""
    (replay,) = [h.value for h in blocks(at) if "bpe-replay" in h.value]
    for head, chips in _STEP.findall(replay):
        titles = re.findall(
            r'<span class="tok" title="([^"]*)" style="[^"]*font-weight:700', chips
        )  # the merged token, bold
        (made,) = {ast.literal_eval(html.unescape(t).rsplit(" · ", 1)[-1]) for t in titles}
        if display.by_rank_only(ours, made):
            assert head == f"rank {ours.vocab[made]:,}", (head, made)
        else:
            assert head == display.made_by(ours, made), (head, made)
    return len(_STEP.findall(replay))


def substrings(text: str) -> list[str]:
    return [text[i:j] for i in range(len(text)) for j in range(i + 1, len(text) + 1)]


def raw_options(at, key: str, candidates) -> list:
    """The values behind a selectbox's shown options (AppTest sets a value, and shows it formatted)."""
    box = at.selectbox(key=key)
    by_label = {box.format_func(c): c for c in candidates}
    assert set(box.options) <= set(by_label), set(box.options) - set(by_label)
    return [by_label[o] for o in box.options]


@pytest.fixture(scope="module")
def all_cases(trained, ranks) -> dict[str, Case]:
    return cases(trained, ranks)


@pytest.mark.parametrize("name", NAMES)
def test_every_encode_feature_for_each_file(all_cases, name):
    case = all_cases[name]
    at = open_case(case)
    (ours, _, _), _ = uploads.parse("files", dict(case.files), "gpt2", case.pattern or "cl100k")
    # colours, ids, bytes, hover spans
    check_shown(at, case)
    if case.sentence:
        assert any(case.sentence in a for a in alerts(at)), alerts(at)
    for as_text in (False, True):
        ok(at.toggle(key="byte_text").set_value(as_text).run())
        check_shown(at, case)
    ok(at.toggle(key="show_ws").set_value(True).run())
    check_shown(at, case)
    assert any("Bytes" in e.label for e in at.expander)
    # merge replay of every word: the replay's last row is the word's tokens
    words = at.selectbox(key="replay_word").options
    assert words
    replay_noted = steps = 0
    for word in raw_options(at, "replay_word", substrings(case.text)):
        ok(at.selectbox(key="replay_word").set_value(word).run())
        assert "bpe-replay" in all_html(at)
        steps += check_replay_steps(at, ours)
        replay_noted += any(UNREACHABLE_NOTE.replace("this token", "") in c.value for c in at.caption)
    assert bool(replay_noted) == (name == "unreachable .tiktoken") and steps > 0
    # merge tree of every token
    unreachable_seen = 0
    for token in raw_options(at, "tree_token", tokens(at)):
        ok(at.selectbox(key="tree_token").set_value(token).run())
        assert "bpe-tree" in all_html(at)
        noted = any(UNREACHABLE_NOTE in c.value for c in at.caption)
        unreachable_seen += noted
        if noted:  # the tree is the token whole; its chips and its row say it is made by rank
            (tree,) = [h.value for h in blocks(at) if '<ul class="bpe-tree">' in h.value]
            assert " = <code>" not in tree
            assert f"{token!r} · bytes" in html.unescape(blocks(at)[0].value)
            row = at.dataframe[0].value.query("token == @token").iloc[0]
            assert row["made by"] == "made by rank (no merge builds it)"
        if name != "unreachable .tiktoken":
            assert not noted
    if name == "unreachable .tiktoken":
        assert unreachable_seen, "the text should hold a token no merge builds"
    # the first k merges
    n = int(at.slider(key="k").max)
    for k in (0, n // 3, n):
        ok(at.slider(key="k").set_value(k).run())
        check_shown(at, case, None if k == n else k)
    # side by side: fewer merges (half of them, the slider's start), with its count
    ok(at.toggle(key="compare").set_value(True).run())
    assert not alerts(at, "error")
    counts = {unescape_md(m.label): m.value for m in at.metric}
    half = len(case.reference(case.text, n // 2)[0])
    assert counts[f"Tokens, {n // 2:,} merges"] == f"{half:,}", counts
    side_ids = [c.value for c in at.code][-2:]
    assert json.loads(side_ids[0]) == case.reference(case.text, None)[0]
    assert json.loads(side_ids[1]) == case.reference(case.text, n // 2)[0]
    # side by side with the trained tokenizer, then the file as the other one, beside the trained
    ok(at.radio(key="compare_with").set_value("other").run())
    assert "Tokens, trained on the Train page" in {unescape_md(m.label) for m in at.metric}
    assert json.loads([c.value for c in at.code][-2]) == case.reference(case.text, None)[0]
    ok(at.radio(key="encode_source").set_value("Trained on the Train page").run())
    assert not alerts(at, "error")
    second = [h.value for h in blocks(at) if 'class="bpe-tokens"' in h.value][-1]
    ids = case.reference(case.text, None)[0]
    assert [int(i) for i in re.findall(r'title="id (\d+) · ', second)] == ids
    assert json.loads([c.value for c in at.code][-1]) == ids
    if case.sentence:  # the file's notes, under its chips
        assert any(case.sentence in c.value for c in at.caption)


def test_a_unigram_file_gets_the_sentence_naming_unigram():
    t5 = {"model": {"unk_id": 2, "vocab": [["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0], ["▁the", -3.1]]}}
    at = upload(open_encode(), ("tokenizer.json", json.dumps(t5).encode()))
    (error,) = alerts(at, "error")
    assert "a Unigram model" in error and error.startswith("Could not use tokenizer.json")
    assert not at.exception and "Upload a tokenizer file" in at.info[0].value


def test_a_tokenizer_s_notes_are_shown_wherever_it_is_loaded(all_cases, tmp_path, monkeypatch):
    """The added-token sentence was shown for uploads only (through the upload's hint): now also for a
    Hub name, a pick of the pick-list and a tokenizer side by side."""
    from huggingface_hub import constants

    from bpe import hub as bpe_hub

    gap = dict(all_cases["gpt4o added-token gap"].files)["tokenizer.json"].decode()
    lay_out_cache(tmp_path, "openai-community/gpt2", gap)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    (note,) = bpe_hub.from_hub("openai-community/gpt2").notes
    assert "would renumber 2 of them" in note

    at = open_encode()
    ok(at.radio(key="encode_source").set_value("Hugging Face Hub").run())
    at.text_input(key="hub_repo").set_value("openai-community/gpt2")
    ok(at.button[0].click().run())
    assert alerts(at, "info") == [note]

    ok(at.radio(key="encode_source").set_value("Popular tokenizer").run())
    ok(at.selectbox(key="popular_pick").set_value("GPT-2").run())
    assert alerts(at, "info") == [note]

    ok(at.radio(key="encode_source").set_value("Trained on the Train page").run())
    assert not alerts(at, "info")
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.multiselect(key="compare_popular").set_value(["GPT-2"]).run())
    assert f"GPT-2 (openai-community/gpt2): {note}" in [unescape_md(c.value) for c in at.caption]
