"""The command line (``python -m bpe train``): its word counts and its run equal ``bpe``'s on the same text.

The files are cut into chunks (at special tokens, and at safe line breaks in long stretches without one) and
counted chunk by chunk, possibly in worker processes; the run trained on those counts must be the one
:func:`bpe.run_training` trains on the whole text split at the special tokens, part for part.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

import bpe
from bpe import cli, counting
from bpe.corpora import english_corpus
from bpe.formats import run_file
from bpe.pre_tokenizers import raw_word_to_word

REPO_ROOT = Path(__file__).resolve().parents[2]
SPECIAL = "<|endoftext|>"
PIECES = ["the", "The", " cat", "sat", " ", "  ", "\n", "\n\n", "\r\n", "\t", "    x", ".", "!", "'s", "'ll", "42",
          "1234", "é", "naïve", "😀", "你好", "A", "b\n", "q.\nZ", SPECIAL]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=60).map("".join)


def documents(text: str, specials: tuple[str, ...]) -> list[str]:
    """The text split at the special tokens, as CS336 (and bpe.check) split it before pre-tokenizing."""
    if not specials:
        return [text]
    return re.split("|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)), text)


def same_run(one: bpe.History, other: bpe.History) -> None:
    """Every part the two runs are stepped through from is equal."""
    a, b = one.saved_parts(), other.saved_parts()
    for name in a:
        x, y = a[name], b[name]
        if isinstance(x, bpe.ragged.Ragged):
            x, y = (x.flat, x.start), (y.flat, y.start)
        assert x == y, name
    assert one.config == other.config


@pytest.mark.parametrize("pre_tokenizer", bpe.PRE_TOKENIZERS)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(texts, min_size=1, max_size=3), with_special=st.booleans(), chunk=st.integers(1, 40))
def test_counts_in_chunks_equal_counting_the_whole_text(pre_tokenizer, parts, with_special, chunk):
    specials = (SPECIAL,) if with_special else ()
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, text in enumerate(parts):
            path = Path(folder, f"{i}.txt")
            path.write_bytes(text.encode("utf-8"))
            paths.append(str(path))
        chunks = counting.file_chunks(paths, specials, chunk_bytes=chunk)
        try:
            counts, timings = counting.count_files(paths, pre_tokenizer, specials, workers=1, chunk_bytes=chunk)
        except ValueError:
            counts = {}
    docs = [doc for text in parts for doc in documents(text, specials)]
    expected = bpe.count_words(docs, pre_tokenizer)
    mapped: dict[str, int] = {}
    for word, n in counts.items():
        key = raw_word_to_word(word, pre_tokenizer)
        mapped[key] = mapped.get(key, 0) + n
    assert list(mapped.items()) == list(expected.items())  # same words, same counts, same first-seen order
    assert sum(c.size for c in chunks) == sum(len(t.encode("utf-8")) for t in parts)


ASCII_AND_MORE = st.lists(
    st.one_of(st.characters(max_codepoint=127), st.sampled_from(PIECES)), min_size=0, max_size=120
).map("".join)


@settings(max_examples=examples(300), deadline=None)
@given(text=ASCII_AND_MORE)
def test_the_ascii_pattern_finds_the_words_the_unicode_pattern_finds(text):
    """On all-ASCII text the standard library's pattern (every ASCII character tried, the control characters
    \\x1c-\\x1f that str.isspace counts as space included) cuts as the `regex` pattern does."""
    slow = bpe.pre_tokenizers.word_pattern("gpt2")
    ascii_text = text.encode("ascii", "ignore").decode("ascii")
    assert counting.ASCII_PATTERNS["gpt2"].findall(ascii_text) == slow.findall(ascii_text)


@settings(max_examples=examples(300), deadline=None)
@given(text=ASCII_AND_MORE, block=st.integers(1, 30))
def test_text_in_ascii_and_other_blocks_gives_the_words_of_the_whole_text(text, block):
    """Blocks cut at safe line breaks, each found by the pattern its characters allow, give the whole text's words."""
    slow = bpe.pre_tokenizers.word_pattern("gpt2")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "BLOCK_CHARS", block)
        assert counting.find_words(text, slow, counting.ASCII_PATTERNS["gpt2"]) == slow.findall(text)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts,
    pre_tokenizer=st.sampled_from(bpe.PRE_TOKENIZERS),
    tie_rule=st.sampled_from(bpe.TIE_RULES),
    merges=st.integers(0, 30),
)
def test_the_cli_trains_the_run_bpe_trains_on_the_same_text(text, pre_tokenizer, tie_rule, merges):
    docs = documents(text, (SPECIAL,))
    try:
        expected = bpe.run_training(
            docs, pre_tokenizer=pre_tokenizer, num_merges=merges, special_tokens=[SPECIAL], tie_break=tie_rule
        )
    except ValueError:
        expected = None  # an empty corpus: the command line says so too
    with tempfile.TemporaryDirectory() as folder:
        corpus, out = Path(folder, "corpus.txt"), Path(folder, "run.bpe")
        corpus.write_bytes(text.encode("utf-8"))
        argv = ["train", str(corpus), "--num-merges", str(merges), "--special-token", SPECIAL, "--quiet"]
        argv += ["--tie-rule", tie_rule, "--pre-tokenizer", pre_tokenizer, "--out", str(out), "--workers", "1"]
        argv += ["--chunk-mb", "0.000005"]  # a few bytes a chunk: many cuts
        status = cli.main(argv)
        if expected is None:
            assert status == 2 and not out.exists()
            return
        assert status == 0
        same_run(run_file.load_run(out), expected)


def test_a_few_megabytes_of_real_text_in_worker_processes_give_bpe_trains_run(tmp_path):
    """Real English text, cut into 40 chunks counted by 2 worker processes, to 1,500 tokens: the run equals
    ``bpe.run_training`` on the text split at the special token (CS336's settings)."""
    paragraphs = english_corpus(2_000_000).split("\n\n")
    text = "".join(p + ("\n\n" if i % 3 else SPECIAL) for i, p in enumerate(paragraphs))
    corpus, out = tmp_path / "corpus.txt", tmp_path / "run.bpe"
    corpus.write_bytes(text.encode("utf-8"))
    argv = [sys.executable, "-m", "bpe", "train", str(corpus), "--vocab-size", "1500", "--special-token", SPECIAL]
    argv += ["--tie-rule", "greatest-bytes", "--full-byte-alphabet", "--workers", "2", "--chunk-mb", "0.05"]
    proc = subprocess.run([*argv, "--out", str(out)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    expected = bpe.run_training(
        documents(text, (SPECIAL,)),
        pre_tokenizer="gpt2",
        vocab_size=1500,
        special_tokens=[SPECIAL],
        tie_break="greatest-bytes",
        full_byte_alphabet=True,
    )
    same_run(run_file.load_run(out), expected)
    assert "left" in proc.stderr and "Where the time went" in proc.stderr  # progress with an estimate


def children(me: psutil.Process) -> set[int]:
    """This process's live spawned workers (what the counting pool starts): not multiprocessing's resource
    tracker, nor the forkserver and the training or file-reading workers other tests may have started."""
    alive = set()
    for p in me.children(recursive=False):
        with contextlib.suppress(psutil.Error):
            if p.is_running() and "spawn_main" in " ".join(p.cmdline()):
                alive.add(p.pid)
    return alive


def test_worker_processes_are_gone_after_counting(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(english_corpus(200_000), encoding="utf-8")
    me = psutil.Process()
    before = children(me)
    counts, timings = counting.count_files([str(corpus)], "gpt2", workers=2, chunk_bytes=20_000)
    assert counts and timings.chunks > 2
    assert children(me) - before == set()


def test_a_file_that_is_not_utf8_gets_a_sentence_naming_the_byte(tmp_path, capsys):
    corpus = tmp_path / "latin1.txt"
    corpus.write_bytes("plain text, then café".encode("latin-1"))
    status = cli.main(["train", str(corpus), "--num-merges", "5", "--out", str(tmp_path / "run.bpe"), "--workers", "1"])
    assert status == 2
    err = capsys.readouterr().err
    assert "is not UTF-8 text (byte 20 cannot be decoded)" in err and "Traceback" not in err
    assert not (tmp_path / "run.bpe").exists()


def test_a_missing_file_gets_a_sentence(tmp_path, capsys):
    status = cli.main(["train", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "run.bpe")])
    assert status == 2
    assert "Cannot read" in capsys.readouterr().err


def test_show_says_what_a_run_file_holds(tmp_path, capsys):
    out = tmp_path / "run.bpe"
    run_file.save_run(bpe.run_training("low lower lowest newer", pre_tokenizer="gpt2", num_merges=3), out)
    assert cli.main(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "3 merges" in shown and "Pre-tokenizer gpt2" in shown and "'l' + 'o'" in shown
