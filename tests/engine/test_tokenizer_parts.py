"""A tokenizer is composed of parts, as the ``tokenizers`` library builds one: trained tokenizers and real
files are the same class with a different model and text side, and each part pickles with the standard
pickler."""

import base64
import pickle

from tokenizer_files import byte_level_bpe
from tokenizers import normalizers

import bpe
from bpe.models import BPE, RankBPE, WordPiece
from bpe.pipeline import PipelineText
from bpe.scheme_text import SchemeText

CORPUS = ["hug hug pug pun bun hugs", "indented  code\n    here, café"] * 3
TEXT = "hugs bun café pun\n  code"


def _rank_file() -> bpe.Tokenizer:
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    return bpe.from_tiktoken("\n".join(lines + ["aHU= 256", "aHVn 257"]), "gpt2")  # "hu", "hug"


def _json_file(tmp_path) -> bpe.Tokenizer:
    """A real file read with its own components (an NFC normaliser: not one of our schemes)."""
    path = tmp_path / "tokenizer.json"
    hf = byte_level_bpe(CORPUS, 300)
    hf.normalizer = normalizers.NFC()
    hf.save(str(path))
    return bpe.load(str(path))


def test_trained_and_real_file_tokenizers_are_one_class_with_different_parts(tmp_path):
    trained = bpe.train(CORPUS, pre_tokenizer="gpt2", vocab_size=280)
    wordpiece = bpe.train(CORPUS, algorithm="wordpiece", vocab_size=40)
    real, ranked = _json_file(tmp_path), _rank_file()
    assert {type(t) for t in (trained, wordpiece, real, ranked)} == {bpe.Tokenizer}
    assert [type(t.model) for t in (trained, wordpiece, real, ranked)] == [BPE, WordPiece, BPE, RankBPE]
    assert [type(t.text) for t in (trained, wordpiece, real, ranked)] == [SchemeText, SchemeText] + [PipelineText] * 2
    assert trained.pipeline is None and real.pipeline is real.text.pipeline is not None
    assert ranked.tokenize("hug hugs") == ["hug", "Ġ", "hug", "s"]


def test_a_trained_model_behind_its_text_side_is_the_trained_tokenizer():
    trained = bpe.train(CORPUS, pre_tokenizer="whitespace", vocab_size=40, special_tokens=["<|end|>"])
    built = bpe.Tokenizer.from_parts(
        BPE(trained.vocab, trained.merges, unk_token="[UNK]", scheme="whitespace"),
        SchemeText("whitespace", ["<|end|>"]),
        special_tokens=["<|end|>"],
    )
    text = TEXT + " <|end|> zz"
    assert built.encode_full(text) == trained.encode_full(text)
    assert built.decode(built.encode(text)) == trained.decode(trained.encode(text))
    assert built.model.tokenize("hugs") == trained.model.tokenize("hugs")


def test_every_kind_round_trips_through_the_standard_pickler_with_empty_caches(tmp_path):
    toks = [
        bpe.train(CORPUS, pre_tokenizer="gpt2", vocab_size=280),
        bpe.train(CORPUS, algorithm="wordpiece", vocab_size=40),
        _json_file(tmp_path),
        _rank_file(),
    ]
    for tok in toks:
        want = tok.encode_full(TEXT)  # fills the caches
        tok.trace(TEXT)
        copy = pickle.loads(pickle.dumps(tok))
        assert type(copy.model) is type(tok.model) and type(copy.text) is type(tok.text)
        assert copy.model.cache_info().currsize == copy.text.cache_info().currsize == 0
        assert copy.text.model is copy.model  # the text side runs the copy's own model
        assert copy.encode_full(TEXT) == want
        assert copy.encode(TEXT) == tok.encode(TEXT)
        assert copy.decode(copy.encode(TEXT)) == tok.decode(tok.encode(TEXT))


def test_a_first_k_view_is_a_tokenizer_of_the_same_parts():
    tok = bpe.train(CORPUS, pre_tokenizer="gpt2", vocab_size=280)
    view = tok.with_merges(3)
    assert type(view) is bpe.Tokenizer and type(view.model) is BPE and view.text.model is view.model
    assert view.merges == tok.merges[:3] and view.vocab is tok.vocab
    assert tok.text.model is tok.model  # the original keeps its own parts
