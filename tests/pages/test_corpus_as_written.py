"""A pasted or uploaded text is trained as written: one document (newlines, indents, blank lines and CRLF
kept), or the documents between its special tokens. The Train page's worker path (``server.jobs.train_job``
on the sidebar's settings) equals ``tokenizers``' ``BpeTrainer`` trained on the same text, merge for merge;
the Check page says "same" for a correct CS336-style run on such a text."""

from __future__ import annotations

import inspect
import json
import pickle
import textwrap

import pytest
from apptest_support import alerts, ok, open_check
from students import cs336_train

from bpe.check import history_bytes
from bpe.corpora import corpus_lines
from server import jobs
from ui.settings import Settings

EOT = "<|endoftext|>"
CODE = inspect.getsource(textwrap)  # real code: indents of 4 to 16 spaces, blank lines between functions
PROSE = "\n\n".join(corpus_lines(40_000))  # paragraphs separated by blank lines
CRLF = PROSE.replace("\n", "\r\n")
DOCUMENTS = [CODE[:6_000], PROSE[:8_000], "  indented first line\n\n\tand a tab", CODE[6_000:12_000]]


def tokenizers_merges(texts: list[str], vocab_size: int, special_tokens=()) -> list[tuple[str, str]]:
    """``tokenizers``' BpeTrainer with GPT-2's byte-level pre-tokenizer, trained on ``texts`` (each one sequence)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(special_tokens), show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges]


def train_page_history(settings: Settings):
    """The run the Train page trains for these settings (the worker's path)."""
    spec = dict(source=settings.source, preset=settings.preset, text=settings.text, counts=settings.counts)
    history, _ = jobs.train_job(0, spec, settings.options())
    return history


def train_page_run(text: str, vocab_size: int, special_tokens=()):
    """The merges the Train page makes for this pasted text with the tokenizers-like settings."""
    settings = Settings(
        source="text",
        text=text,
        pre_tokenizer="gpt2",
        limit="vocab_size",
        limit_value=vocab_size,
        tie_break="hf",
        special_tokens=tuple(special_tokens),
    )
    history = train_page_history(settings)
    return [history.pair_str(m[:2]) for m in history.merges]


@pytest.mark.parametrize("text", [CODE, PROSE, CRLF], ids=["code with indents", "prose with blank lines", "CRLF text"])
def test_a_pasted_text_trains_as_one_sequence_like_tokenizers(text):
    expected = tokenizers_merges([text], 600)
    ours = train_page_run(text, 600)
    assert ours == expected
    assert any(a.startswith("Ċ") or b.startswith("Ċ") for a, b in ours)  # newlines (and indents) are merged


def test_code_keeps_its_newline_and_indent_pieces():
    ours = train_page_run(CODE, 600)
    assert ("Ċ", "ĠĠĠ") in ours or any(a + b == "ĊĠĠĠ" for a, b in ours)


def test_a_text_split_by_special_tokens_trains_as_its_documents_like_tokenizers():
    text = EOT.join(DOCUMENTS)
    assert jobs.documents(text, [EOT]) == DOCUMENTS
    expected = tokenizers_merges(DOCUMENTS, 700, [EOT])
    assert train_page_run(text, 700, [EOT]) == expected


def test_a_cs336_style_text_through_the_train_page_equals_cs336s_path():
    """Documents joined by <|endoftext|>, as CS336's corpus.en and TinyStories are: the Train page with CS336's
    settings makes CS336's merges (special tokens split out, GPT-2's pattern, 256 bytes, greatest-bytes ties)."""
    text = EOT.join(DOCUMENTS)
    _, expected = cs336_train(text, 150, special_tokens=(EOT,))
    settings = Settings(
        source="text",
        text=text,
        pre_tokenizer="gpt2",
        limit="num_merges",
        limit_value=150,
        tie_break="greatest-bytes",
        special_tokens=(EOT,),
        full_byte_alphabet=True,
    )
    assert history_bytes(train_page_history(settings)) == expected


def test_the_special_tokens_never_reach_the_words():
    corpus = jobs.corpus_of("text", "", f"ab{EOT}ab{EOT}{EOT}", "", special_tokens=[EOT])
    assert corpus == ["ab", "ab"]
    with pytest.raises(ValueError, match="only special tokens"):
        jobs.corpus_of("text", "", f"{EOT} {EOT}", "", special_tokens=[EOT])


def test_presets_keep_their_sentence_lists():
    from bpe.presets import PRESETS

    assert jobs.corpus_of("preset", "course", "", "", special_tokens=[EOT]) == PRESETS["course"].corpus()


def test_a_long_word_is_still_refused_in_one_document():
    text = "short words\n" + "x" * (jobs.MAX_WORD_CHARS + 1) + "\nmore"
    with pytest.raises(ValueError, match="a word of 10,001 characters"):
        jobs.check_word_lengths(jobs.corpus_of("text", "", text, ""), "gpt2")
    jobs.check_word_lengths(jobs.corpus_of("text", "", "y" * jobs.MAX_WORD_CHARS + " z", ""), "gpt2")


def test_the_check_page_says_same_for_a_correct_cs336_run_on_pasted_code():
    """A correct run on text with blank and indented lines is not blamed at the first newline-and-indent merge:
    our side keeps the text as one document, not lines."""
    text = CODE[:5_000] + "\n\n" + PROSE[:3_000]
    vocab, merges = cs336_train(text, 120, special_tokens=(EOT,))
    assert any(b"\n" in a + b for a, b in merges)  # the run does merge newlines: the cut would show
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(text).run()
    at.selectbox(key="chk_pre").set_value("gpt2").run()
    at.selectbox(key="chk_rule").set_value("greatest-bytes").run()
    at.text_input(key="chk_special").set_value(EOT).run()
    at.file_uploader(key="chk_files").set_value(
        [("run.pkl", pickle.dumps((vocab, merges)), "application/octet-stream")]
    )
    ok(at.run())
    assert not at.header or "part at step" not in at.header[0].value
    assert any("all 120 merges agree" in a.lower() for a in alerts(at, "info")), alerts(at)
