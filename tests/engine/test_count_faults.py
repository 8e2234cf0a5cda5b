"""Faults in how a student reads the corpus in chunks (bpe.count_faults): the word counts each faulty reader
makes, and the Check naming them on runs of tests/faulty_trainers.py's reading faults (written independently
of bpe.count_faults) on the handout, the prose and the byte corpus, uploaded as CS336 pickles."""

from __future__ import annotations

import functools
import pickle
from collections import Counter

import faulty_trainers
import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, EOT
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

from bpe.check import CS336_SETUP, diagnose
from bpe.check_reading import can_choose, find_count_fault, recounts
from bpe.check_result import to_ours
from bpe.check_setup import Setup, history_bytes, setup_agreed, train_setup
from bpe.count_faults import COUNT_FAULTS, Reading, file_text
from bpe.formats.student_runs import read_student_file

MERGES = {"handout": 12, "prose": 80, "bytes": 80}
READING = (
    "cut-last", "drop-last", "even-chunks", "drop-tail", "chunk-positions", "drop-special-length", "chunk-overwritten",
)  # fmt: skip


# The reading tests compare a fault's run with every reading fault's at 2, 4 and 8 chunks: each run is trained once
# per process. Callers get copies, so a test that changes them leaves the next alone.
@functools.lru_cache(maxsize=1024)
def _trained(text: str, num_merges: int, fault: str | None, chunks: int) -> tuple[dict, tuple]:
    vocab, merges = faulty_trainers.train(text, num_merges, fault)
    return vocab, tuple(merges)


def train(text: str, num_merges: int, fault: str | None = None) -> tuple[dict, list]:
    """faulty_trainers.train, cached by the number of chunks the reading faults cut the file into."""
    vocab, merges = _trained(text, num_merges, fault, faulty_trainers.CHUNKS)
    return dict(vocab), list(merges)


def as_text(counts: Counter) -> Counter:
    return Counter({b"".join(word).decode("utf-8"): n for word, n in counts.items()})


@pytest.mark.parametrize("chunks", [4, 8])
@pytest.mark.parametrize("fault", READING)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_reading_fault_is_named_with_its_step(corpus, fault, chunks, monkeypatch):
    monkeypatch.setattr(faulty_trainers, "CHUNKS", chunks)
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert result.kind == "same"
        return
    same_merges = set()  # the faults that make the same merges, with any of the usual numbers of chunks
    for other in (2, 4, 8):
        monkeypatch.setattr(faulty_trainers, "CHUNKS", other)
        same_merges |= {f for f in READING if train(text, n, f)[1] == merges}
    assert (result.kind, result.step) == ("reading", step) and result.fault in same_merges, result.cause
    assert f"At step {step} we merge" in result.cause and "your count of" in result.cause
    assert f"With those counts our run makes all {n} of your merges." in result.cause


@pytest.mark.parametrize("fault", READING)
@pytest.mark.parametrize("corpus", CORPORA)
def test_each_reader_counts_the_words_as_the_faulty_trainer_does(corpus, fault):
    text = CORPORA[corpus]
    expected = as_text(faulty_trainers.word_counts(text, fault))
    made = [counts for f, _, counts, _ in recounts(text, "gpt2", [EOT]) if f.name == fault]
    assert expected == as_text(faulty_trainers.word_counts(text, None)) or expected in made


def test_positions_restarting_in_each_chunk_are_named_not_the_space_suffix_pre_tokenizer():
    # manoogim's reader: ' the' occurs 48 times, at 30 distinct positions over the 4 chunks; the space-suffix
    # pre-tokenizer makes the first merge, (␣, ␣), too, and then parts
    # (its first 5 merges, then its position-based loop of its own parts from ours: over the whole 80 merges, the
    # first half of the text read alone makes the same merges, and that slip in the standard reader is named)
    text = CORPORA["prose"]
    merges = [*train(text, 80, "chunk-positions")[1][:5], (b"a", b"i")]
    result, _ = diagnose(text, read_student_file(pickle.dumps(({}, merges)), "run.pkl"), CS336_SETUP, [EOT])
    assert (result.kind, result.step, result.fault, result.settings) == ("reading", 1, "chunk-positions", None)
    assert "your counts merge each word's positions from your 4 chunks as one set" in result.cause
    assert "'␣the' counts 30 where it occurs 48 times; your count of (␣, t) drops to 62 while it is 96" in result.cause
    assert "space-suffix" not in result.cause


def test_a_text_given_as_a_list_of_one_document_is_read_as_the_file():
    # the page gives the Check its text as a list of one document; word counts or several texts have no file
    text = CORPORA["handout"]
    student = read_student_file(pickle.dumps(train(text, 12, "cut-last")), "run.pkl")
    result, _ = diagnose([text], student, CS336_SETUP, [EOT])
    assert (result.kind, result.step, result.fault) == ("reading", 1, "cut-last"), result.cause
    assert file_text([text]) == text and file_text([text, text]) is None and file_text({"low": 5}) is None


def test_a_cut_at_evenly_spaced_bytes_names_the_word_it_splits():
    _, result = check(CORPORA["handout"], "even-chunks", 12)
    assert (result.kind, result.step, result.fault) == ("reading", 7, "even-chunks"), result.cause
    assert "your 4 chunks are cut at evenly spaced bytes" in result.cause
    assert "'␣lower' becomes '␣low' and 'er'" in result.cause


def test_chunks_read_short_by_the_special_token_s_length_name_the_words_never_read():
    # charliesabino's reader: f.read(size - len('<|endoftext|>')) drops the handout's last 13 characters
    _, result = check(CORPORA["handout"], "drop-special-length", 12)
    assert (result.kind, result.step, result.fault) == ("reading", 2, "drop-special-length"), result.cause
    assert "your one chunk, the whole file, is read as its size less the length of the special token" in result.cause
    assert "'␣newest' (2 times) becomes '␣'; your count of (e, st) drops to 7 while it is 9" in result.cause


def test_a_reader_that_changes_no_word_is_not_tried():
    text = "low lower newest."  # the last character is a word of its own already
    names = {f.name for f, _, _, _ in recounts(text, "gpt2", [EOT])}
    assert "cut-last" not in names and "chunk-positions" not in names  # no special token: one chunk
    assert names <= set(COUNT_FAULTS)


@settings(max_examples=examples(100), deadline=None)
@given(
    text=st.lists(st.sampled_from([*"ab é😀 \n.'", EOT]), min_size=1, max_size=60).map("".join),
    cuts=st.lists(st.integers(0, 400), max_size=5),
    drop=st.integers(0, 3),
    pre_tokenizer=st.sampled_from(["gpt2", "gpt4", "whitespace", "space-suffix"]),
)
def test_re_reading_around_the_cuts_counts_as_reading_every_piece_again(text, cuts, drop, pre_tokenizer):
    reading = Reading(text, pre_tokenizer, [EOT])
    size = len(reading.data)
    bounds = sorted({0, *(c % size for c in cuts), size})
    pieces = list(zip(bounds, bounds[1:]))
    pieces[-1] = (pieces[-1][0], max(pieces[-1][0], size - drop))
    found = reading.reread(pieces)
    if found is not None:
        assert +found[0] == +reading.read(pieces)
    assert reading.read([(0, size)]) == reading.true


@pytest.mark.parametrize("fault", READING)
@pytest.mark.parametrize("corpus", CORPORA)
def test_the_count_at_the_parting_step_rules_out_only_faults_that_cannot_make_the_choice(corpus, fault):
    # find_count_fault skips the training of a fault whose counts cannot make the student's choice where the runs
    # part: it must find the same fault as when it trains on every one
    text, n = CORPORA[corpus], MERGES[corpus]
    merges = train(text, n, fault)[1]
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        return
    history = train_setup(text, CS336_SETUP, step, [EOT])
    counts = history.pair_counts_after(step - 1)
    ours = history_bytes(history)[step - 1]
    count = {p: counts.get(to_ours(p, history), 0) for p in (ours, merges[step - 1])}
    parting = (ours, count[ours], merges[step - 1], count[merges[step - 1]])
    plain = find_count_fault(text, CS336_SETUP, merges, step, [EOT])
    filtered = find_count_fault(text, CS336_SETUP, merges, step, [EOT], parting=parting)
    assert plain is not None and (filtered.fault, filtered.chunks, filtered.reproduced) == (
        plain.fault,
        plain.chunks,
        plain.reproduced,
    )


def test_counts_that_cannot_make_the_students_choice_are_ruled_out():
    # the handout at step 1: we merge (s, t) and the student (e, s), both counted 9
    reading = Reading(CORPORA["handout"], "gpt2", [EOT])
    parting = ((b"s", b"t"), 9, (b"e", b"s"), 9)
    cut = reading.true - Counter({" newest": 1}) + Counter({" newes": 1, "t": 1})
    more_st = reading.true + Counter({" st": 1})
    assert can_choose(cut, reading.true, CS336_SETUP, False, [], parting)
    assert not can_choose(more_st, reading.true, CS336_SETUP, False, [], parting)
    assert not can_choose(reading.true, reading.true, CS336_SETUP, False, [], parting)  # nothing counted differently


PATTERN = {"special-in-pattern": "prose", "lines": "prose", "bytes-pattern": "bytes", "cjk-single": "bytes"}
PATTERN_EXAMPLES = {
    "special-in-pattern": "'.' becomes '.<|' and 'endoftext'; your count of (e, n) rises to 52 while it is 48",
    "lines": "'↵␣␣␣␣␣␣␣' becomes '↵' and '␣␣␣␣␣␣␣'; your count of (↵, ␣␣␣␣␣␣␣) drops to 0 while it is 12",
    "bytes-pattern": "'café' becomes 'caf' and 'é'",
    "cjk-single": "'␣東京' becomes '␣' and '東' and '京'",  # sakuri932's pattern; the old Check blamed a heap
}


@pytest.mark.parametrize("fault", PATTERN)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_fault_in_the_pre_token_pattern_is_named_with_its_step(corpus, fault):
    # special tokens inside the pattern, lines pre-tokenized one by one, the pattern run on bytes, each CJK character
    # a word: each changes the words' counts before any merge, as a faulty reader does
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus != PATTERN[fault] and result.kind == "same"
        return
    assert (result.kind, result.step, result.fault) == ("reading", step, fault), result.cause
    assert COUNT_FAULTS[fault].sentence in result.cause and PATTERN_EXAMPLES[fault] in result.cause
    assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_special_tokens_never_split_out_are_named_before_an_alternative_in_the_pattern_that_makes_the_same_merges(
    corpus,
):
    # searlion, tangweiwayne: the text pre-tokenized whole, with a tie of their own; an alternative for the special
    # token inside the pattern makes the same merges, and the old Check named only that
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, "specials+greatest-id", n)
    if result.kind != "reading":  # no special token in the text, or the tie acts first
        assert corpus != "prose", result.cause
        return
    plain = "your special token is never split out of the text, so it is cut into words as any other text"
    assert result.step == first_difference(train(text, n)[1], merges) and plain in result.cause, result.cause
    assert result.cause.index(plain) < result.cause.index(COUNT_FAULTS["special-in-pattern"].sentence)


@pytest.mark.parametrize("fault", PATTERN)
@pytest.mark.parametrize("corpus", CORPORA)
def test_each_pattern_fault_counts_the_words_as_the_faulty_trainer_does(corpus, fault):
    text = CORPORA[corpus]
    expected = as_text(faulty_trainers.word_counts(text, fault))
    made = [counts for f, _, counts, _ in recounts(text, "gpt2", [EOT]) if f.name == fault]
    assert expected == as_text(faulty_trainers.word_counts(text, None)) or [expected] == made


def test_a_reading_fault_is_named_before_no_pre_tokenization_that_follows_the_run_as_far():
    # manoogim's run: chunk-positions counts for 5 merges, then a position-based loop of its own; no
    # pre-tokenization with the first-seen tie also makes those 5 merges, by chance
    text = CORPORA["prose"]
    merges = [*train(text, 80, "chunk-positions")[1][:5], (b"a", b"i")]
    student = read_student_file(pickle.dumps(({}, merges)), "run.pkl")
    result, ranked = diagnose(text, student, CS336_SETUP, [EOT])
    assert dict(ranked).get(Setup("first", "none", True)) == 5
    assert (result.kind, result.step, result.fault) == ("reading", 1, "chunk-positions"), result.cause
    assert "does not cut the text into words" not in result.cause


def test_a_last_chunk_never_read_is_named_before_positions_that_make_the_same_merges(monkeypatch):
    # Anson2Leung's reader: boundaries without the file's size, 2 chunks, so the prose's second half is never
    # read. Positions restarting in each of 4 chunks make the same 190 merges by chance (the prose repeats
    # itself), but a reader that reads less and counts the rest right is the simpler explanation.
    monkeypatch.setattr(faulty_trainers, "CHUNKS", 2)
    text = CORPORA["prose"]
    merges, result = check(text, "drop-tail", 190)
    positions = [counts for f, _, counts, _ in recounts(text, "gpt2", [EOT]) if f.name == "chunk-positions"]
    assert any(setup_agreed(dict(counts), CS336_SETUP, merges, (), False) == 190 for counts in positions)
    assert (result.kind, result.step, result.fault) == ("reading", 1, "drop-tail"), result.cause
    true, read = faulty_trainers.word_counts(text), faulty_trainers.word_counts(text, "drop-tail")
    lost = sum(true.values()) - sum(read.values())
    assert "your chunk boundaries never end with the file's size, so the last of your 2 chunks" in result.cause
    assert f"{lost} of its {sum(true.values())} words are never counted" in result.cause
    assert "With those counts our run makes all 190 of your merges." in result.cause


CUT_AND_STRIP = {
    # duoan's reader: the buffer cut after its last space, so the last word is read without its leading space
    "cut-at-space": "becomes '␣' and",
    # fishcat37's reader: for line in f, line.strip(): no indentation and no newline is ever counted
    "lines-stripped": "where it occurs",
}


@pytest.mark.parametrize("fault", CUT_AND_STRIP)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_reader_that_cuts_at_the_last_space_or_strips_lines_is_named_with_its_step(corpus, fault):
    # on the prose the word that loses its space, ' again.', counts in the merges after the 80th
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # a corpus of one line ending in a space: neither reader changes a pair
        assert corpus != "prose" and result.kind == "same", result.cause
        return
    assert (result.kind, result.step, result.fault) == ("reading", step, fault), result.cause
    assert COUNT_FAULTS[fault].sentence in result.cause and CUT_AND_STRIP[fault] in result.cause
    assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause


@pytest.mark.parametrize("fault", CUT_AND_STRIP)
@pytest.mark.parametrize("corpus", CORPORA)
def test_the_cut_and_stripped_readers_count_the_words_as_the_faulty_trainer_does(corpus, fault):
    # (recounts leaves out counts an earlier reader made: on the byte corpus, stripping its one line drops its last
    # space as the reader that stops one character short does, so the reader itself is asked)
    text = CORPORA[corpus]
    counts, _ = COUNT_FAULTS[fault].count(Reading(text, "gpt2", [EOT]), 1)
    assert +counts == as_text(faulty_trainers.word_counts(text, fault))


LETTERS_AND_SPLITS = {
    # 1156230954's pattern for the stdlib re, [a-zA-Z\u00C0-\u017F] for \p{L}: π, 東京 and ȧ are never counted
    "latin-pattern": ("bytes", "'␣東京' becomes '␣'"),
    # Azizimj's split, '(' + re.escape('|').join(special_tokens) + ')': the token's '|' is not escaped
    "unescaped-split": ("prose", "your count of (e, n) rises to"),
}


@pytest.mark.parametrize("fault", LETTERS_AND_SPLITS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_latin_letter_class_or_an_unescaped_split_is_named_with_its_step(corpus, fault):
    # the old Check said a count is off (the Latin class) or that special tokens were not split out (the split)
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    where, example = LETTERS_AND_SPLITS[fault]
    if step is None:
        assert corpus != where and result.kind == "same", result.cause
        return
    assert (result.kind, result.step, result.fault) == ("reading", step, fault), result.cause
    assert COUNT_FAULTS[fault].sentence in result.cause and example in result.cause
    assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause


@pytest.mark.parametrize("fault", LETTERS_AND_SPLITS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_the_latin_class_and_the_unescaped_split_count_the_words_as_the_faulty_trainer_does(corpus, fault):
    text = CORPORA[corpus]
    counts, _ = COUNT_FAULTS[fault].count(Reading(text, "gpt2", [EOT]), 1)
    assert +counts == as_text(faulty_trainers.word_counts(text, fault))


@pytest.mark.parametrize("corpus", CORPORA)
def test_only_the_last_document_counted_is_named_with_the_words_never_counted(corpus):
    # fenzhu's counting loop after the loop over the documents; the old Check said only that a count is off
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, faulty_trainers.LAST_DOCUMENT, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # one document: the handout and the byte corpus hold no special token
        assert EOT not in text and result.kind == "same", result.cause
        return
    assert (result.kind, result.step, result.fault) == ("reading", step, "last-document"), result.cause
    assert COUNT_FAULTS["last-document"].sentence in result.cause and "words are never counted" in result.cause
    assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause


def test_the_last_document_reader_counts_the_words_as_the_faulty_trainer_does():
    text = CORPORA["prose"]
    counts, _ = COUNT_FAULTS["last-document"].count(Reading(text, "gpt2", [EOT]), 1)
    assert +counts == as_text(faulty_trainers.word_counts(text, faulty_trainers.LAST_DOCUMENT))
