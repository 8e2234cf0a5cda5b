"""Real tokenizer files on the Encode page: .tiktoken uploads, real tokenizer.json files, Hub names, a
200,000-token vocabulary that is read once; long words' merge replay and merge tree stay small."""

from __future__ import annotations

import json
import random

import pytest
import tiktoken
import tokenizers
from apptest_support import alerts, all_html, ok, open_encode, tokens, type_text, upload
from hub_server import lay_out_cache
from tokenizer_files import rank_file
from tokenizers import decoders, models, normalizers, trainers
from tokenizers import pre_tokenizers as hf_pre

import bpe
from bpe import pre_tokenizers as pt
from bpe.corpora import corpus_lines
from bpe.formats.rank_files import PATTERNS


@pytest.fixture(scope="module")
def ranks() -> dict[bytes, int]:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(
        corpus_lines(20_000),
        trainer=trainers.BpeTrainer(vocab_size=800, show_progress=False, initial_alphabet=hf_pre.ByteLevel.alphabet()),
    )
    out = {bytes([b]): b for b in range(256)}
    for a, b in json.loads(tok.to_str())["model"]["merges"]:
        out.setdefault(pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b), len(out))
    return out


def test_a_tiktoken_file_cuts_like_tiktoken_with_the_chosen_pattern(ranks):
    text = "Numbers 1234567 and don't  stop\n\n"
    at = type_text(upload(open_encode(), ("cl100k_base.tiktoken", rank_file(ranks).encode())), text)
    for name in ("cl100k", "gpt2"):
        ok(at.selectbox(key="tiktoken_pattern").set_value(name).run())
        enc = tiktoken.Encoding(name=name, pat_str=PATTERNS[name], mergeable_ranks=ranks, special_tokens={})
        expected = [pt.bytes_to_symbols(enc.decode_single_token_bytes(i)) for i in enc.encode(text)]
        assert tokens(at) == expected, name
    ok(at.selectbox(key="tiktoken_pattern").set_value("typed").run())
    assert at.info and "Type the split pattern" in at.info[0].value
    ok(at.text_input(key="tiktoken_regex").set_value(r"\S+|\s+").run())
    enc = tiktoken.Encoding(name="typed", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    assert tokens(at) == [pt.bytes_to_symbols(enc.decode_single_token_bytes(i)) for i in enc.encode(text)]
    ok(at.text_input(key="tiktoken_regex").set_value("(?<").run())
    assert "not a regex" in alerts(at, "error")[0]


def llama_file() -> bytes:
    tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    tok.train_from_iterator(
        corpus_lines(20_000),
        trainer=trainers.BpeTrainer(
            vocab_size=600,
            special_tokens=["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)],
            show_progress=False,
            limit_alphabet=100,
        ),
    )
    return tok.to_str().encode()


def test_a_llama_style_file_with_a_normalizer_and_byte_fallback():
    data = llama_file()
    text = "Hello wörld 🙂 the end"
    at = type_text(upload(open_encode(), ("tokenizer.json", data)), text)
    assert tokens(at) == tokenizers.Tokenizer.from_str(data.decode()).encode(text).tokens
    assert "<0xF0>" in tokens(at)
    assert "Prepend + Replace" in " ".join(c.value for c in at.caption)


def test_hub_name_loads_from_the_cache_and_errors_are_sentences(tmp_path, monkeypatch):
    from huggingface_hub import constants

    tok = bpe.train(["This is not a token."] * 3, pre_tokenizer="gpt2", num_merges=20)
    lay_out_cache(tmp_path, "openai-community/gpt2", bpe.to_tokenizer_json(tok))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    at = open_encode()
    ok(at.radio(key="encode_source").set_value("Hugging Face Hub").run())
    assert at.info and "Type a model's name" in at.info[0].value
    at.text_input(key="hub_repo").set_value("Xenova/gpt-4o")
    ok(at.button[0].click().run())
    assert "not in this machine's Hugging Face cache" in alerts(at, "error")[0]
    at.text_input(key="hub_repo").set_value("openai-community/gpt2")
    ok(at.button[0].click().run())
    assert not at.error and not alerts(at, "error")
    assert tokens(at) == tok.tokenize(at.text_area(key="encode_text").value)
    at.text_input(key="hub_repo").set_value("not a name!")
    ok(at.button[0].click().run())
    assert "not a Hub model name" in alerts(at, "error")[0]
    assert "previous model is still in use" in alerts(at, "error")[0]


def letters_file() -> bytes:
    rng = random.Random(5)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 12))) for _ in range(3000)]
    return bpe.to_tokenizer_json(bpe.train(" ".join(words), num_merges=1500)).encode()


def test_a_long_words_replay_is_cut_to_a_budget():
    """A 1,000-character word's merge replay is cut to a budget, not megabytes of HTML."""
    rng = random.Random(2)
    long_word = "".join(rng.choice("abcdefgh") for _ in range(1000))
    mid_word = long_word[:250]
    at = type_text(upload(open_encode(), ("letters.json", letters_file())), f"{long_word} {mid_word}")
    ok(at.selectbox(key="replay_word").set_value(long_word).run())
    assert len(all_html(at)) < 400_000
    assert any("drawn for words of up to 300 symbols" in c.value for c in at.caption)
    ok(at.selectbox(key="replay_word").set_value(mid_word).run())
    assert len(all_html(at)) < 1_000_000
    assert any("more steps were left out" in c.value for c in at.caption)


def test_the_merge_tree_of_a_3000_merge_token_is_cut_not_a_recursion_error():
    """A token of 3,000 nested merges draws a cut tree, not a RecursionError."""
    word = "".join(chr(0x4E00 + i) for i in range(3001))
    data = bpe.to_tokenizer_json(bpe.train({word: 1}, num_merges=3000)).encode()
    at = type_text(upload(open_encode(), ("deep.json", data)), word)
    assert any("built by more than 300 merges" in c.value for c in at.caption)
    assert len(all_html(at)) < 1_000_000


def big_vocab_file(n: int = 200_000) -> bytes:
    """A byte-level BPE file of n tokens: the 256 bytes, then merges of two earlier tokens."""
    symbols = list(pt.bytes_to_unicode().values())
    vocab = {s: i for i, s in enumerate(symbols)}
    merges, rng = [], random.Random(0)
    short = list(symbols)
    while len(vocab) < n:
        a, b = rng.choice(short), rng.choice(symbols)
        if a + b in vocab:
            continue
        vocab[a + b] = len(vocab)
        merges.append([a, b])
        if len(a + b) < 4:
            short.append(a + b)
    return json.dumps(
        {
            "version": "1.0",
            "added_tokens": [],
            "normalizer": None,
            "post_processor": None,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "vocab": vocab, "merges": merges, "unk_token": None},
        }
    ).encode()


def test_a_200000_token_vocabulary_is_read_once_and_reruns_build_nothing(monkeypatch):
    data = big_vocab_file()
    at = upload(open_encode(), ("big.json", data))
    assert "200,000 tokens" in " ".join(c.value for c in at.caption).replace("\\", "")
    built = []
    original = bpe.Tokenizer.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(bpe.Tokenizer, "__init__", counting)
    ok(at.toggle(key="show_ws").set_value(True).run())
    type_text(at, "A short text, typed after the file was read.")
    assert built == [], "a rerun rebuilt a tokenizer"
    # A second session uploading the same bytes gets the parsed tokenizer from the shared cache.
    other = upload(open_encode(), ("same-bytes.json", data))
    assert built == [] and not other.error


def test_every_encode_feature_works_with_a_tiktoken_file(ranks):
    """k merges, merge replay, merge tree, bytes, and side by side with the tokenizer trained on the Train page."""
    text = "the tokenizer tokenizes these tokens"
    at = type_text(upload(open_encode(), ("r.tiktoken", rank_file(ranks).encode())), text)
    full = tokens(at)
    n = len(ranks) - 256
    assert at.slider(key="k").value == n
    ok(at.slider(key="k").set_value(0).run())
    assert len(tokens(at)) == len(text.encode())  # no merges: one token per byte
    ok(at.slider(key="k").set_value(n).run())
    assert tokens(at) == full
    html_all = all_html(at)
    assert "bpe-replay" in html_all and "bpe-tree" in html_all
    assert any("Bytes" in e.label for e in at.expander)
    ok(at.toggle(key="compare").set_value(True).run())
    ok(at.radio(key="compare_with").set_value("other").run())
    assert (
        not at.error and not alerts(at, "error") and len(at.metric) >= 7
    )  # five counts, then one per tokenizer side by side
