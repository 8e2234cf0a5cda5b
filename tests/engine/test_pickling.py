"""Tokenizers pickle with the standard pickler: their word caches are left out and start empty, and a real
file's text pipeline is rebuilt from the JSON it was read from."""

import pickle

from tokenizer_files import byte_level_bpe

import bpe

TEXT = "Hello world, hello tokens! 你好 😀\n  indented"


def test_a_trained_tokenizer_round_trips_and_starts_with_empty_caches():
    tok = bpe.train(["hug hug pug pun bun hugs"] * 3, pre_tokenizer="whitespace", vocab_size=20)
    tok.tokenize("hug pug")  # fills the word cache
    copy = pickle.loads(pickle.dumps(tok))
    assert copy.model.cache_info().currsize == copy.text.cache_info().currsize == 0
    assert copy.tokenize("hugs bun") == tok.tokenize("hugs bun")
    assert copy.encode("hugs bun") == tok.encode("hugs bun")


def test_a_real_file_tokenizer_round_trips(tmp_path):
    hf = byte_level_bpe(["Hello world, hello tokens!", "indented  code\n    here"], 300)
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    tok = bpe.load(str(path))
    copy = pickle.loads(pickle.dumps(tok))
    assert type(copy) is type(tok)
    assert list(copy.encode_full(TEXT).ids) == list(tok.encode_full(TEXT).ids) == hf.encode(TEXT).ids
    assert copy.decode(copy.encode(TEXT)) == tok.decode(tok.encode(TEXT))
