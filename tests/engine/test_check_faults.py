"""The Check on faulty students' runs: every merge-loop, tie and setting fault of tests/faulty_trainers.py
(written independently of bpe.merge_faults), on the CS336 handout, English prose with indented code and
two <|endoftext|> separators, and text of multi-byte characters, uploaded as CS336 pickles. The Check
names the fault (or one that makes the same merges) and the step where the run leaves the correct one;
a run the fault leaves unchanged, and the correct trainer's run, are "same"."""

from __future__ import annotations

import functools
import pickle
from collections import Counter

import check_support
import faulty_trainers
import pytest
from check_support import first_difference
from faulty_trainers import (
    ACCUMULATED,
    ADJACENT_CROSS,
    CORPORA,
    EOT,
    FIRST_POSITION,
    HEAP_FAULTS,
    HEAP_REMOVAL,
    ID_SUM,
    ID_SUM_MEANT,
    IGNORES_INPUT,
    INT_SUM,
    KEPT_PAIR,
    LAZY_HEAP,
    LOOP_FAULTS,
    LOST_LAST,
    LOST_LAST_COUNTED,
    LOST_STEP,
    NEVER_MERGES,
    OFFSET_SET,
    ONCE_PER_WORD,
    OVERLAP_COLLAPSE,
    OVERLAP_DUPLICATE,
    OVERLAP_STALE,
    PER_WORD,
    RECORDED_POSITIONS,
    RIGHT_ADDED,
    RIGHT_FIRST,
    RIGHT_TO_LEFT,
    SAMPLE,
    SELECTION_FAULTS,
    SET_ORDER,
    SETTING_FAULTS,
    SKIPPED_WORDS,
    SKIPS_NEXT,
    SPECIAL_BAN,
    STALE_GUARDED,
    STALE_KEPT,
    STALE_OVERLAP,
    SUBSTRING_COUNTS,
    TIE_FAULTS,
    TWIN_NEVER,
    UNCOUNTED_LEFT,
    WRONG_INDEX,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

from bpe import check_cause
from bpe.check import CS336_SETUP, Setup, compare, diagnose, history_bytes, train_setup
from bpe.check_cleaned import cleaned_agreed
from bpe.check_notation import show_pair
from bpe.check_set_order import set_order
from bpe.check_setup import student_words
from bpe.dict_order_ties import LAST_TIE
from bpe.fault_replay import faulty_merges, replay
from bpe.formats.student_runs import StudentRun, read_student_file
from bpe.merge_faults import CORRECT, FAULTS
from bpe.occurrence_order import merge_from_end
from bpe.tie_keys import RECOUNT_TIE, TIE_KEYS
from bpe.word_merges import merge_all


# A test compares its fault's run with many others' (every loop fault's, the correct one's): each run is trained, and
# each checked, once per process. Callers get copies of the merges, so a test that changes them leaves the next alone.
@functools.lru_cache(maxsize=4096)
def _trained(text: str, num_merges: int, fault: str | None) -> tuple[dict, tuple]:
    vocab, merges = faulty_trainers.train(text, num_merges, fault)
    return vocab, tuple(merges)


def train(text: str, num_merges: int, fault: str | None = None) -> tuple[dict, list]:
    vocab, merges = _trained(text, num_merges, fault)
    return dict(vocab), list(merges)


@functools.lru_cache(maxsize=1024)
def _checked(text: str, fault: str | None, num_merges: int):
    merges, result = check_support.check(text, fault, num_merges)
    return tuple(merges), result


def check(text: str, fault: str | None, num_merges: int):
    merges, result = _checked(text, fault, num_merges)
    return list(merges), result


MERGES = {"handout": 12, "prose": 80, "bytes": 80}
SETTING_KINDS = {"lower": {"case"}, "whitespace": {"pre-tokenizer", "whitespace"}, "chars": {"byte-base"},
                 "specials": {"specials"}, "none": {"pre-tokenizer"}, "one-sequence": {"pre-tokenizer"}}  # fmt: skip


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_correct_trainer_is_the_same_on_every_corpus(corpus):
    merges, result = check(CORPORA[corpus], None, MERGES[corpus])
    assert result.kind == "same" and result.step is None
    assert result.cause.startswith("Your run equals ours with gpt2 pre-tokenization, the greatest-bytes tie rule")
    assert f"all {len(merges)} merges agree" in result.cause


@pytest.mark.parametrize("fault", LOOP_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_loop_fault_is_named_with_its_step(corpus, fault):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert result.kind == "same"
        return
    assert result.step == step
    same_merges = {f for f in LOOP_FAULTS if train(text, n, f)[1] == merges}
    if train(text, n, STALE_KEPT)[1] == merges:  # stale-neighbours in a loop that keeps the merged pair's count
        same_merges.add("stale-neighbours")
    assert result.kind in ("merge-loop", "overlap") and result.fault in same_merges, result.cause
    assert f"At step {step} we merge" in result.cause and "your count" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_loop_that_never_merges_is_named_where_it_takes_its_first_pair_again(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, NEVER_MERGES, n)
    assert set(merges) == {train(text, n)[1][0]}  # the student's run: the first merge, over and over
    assert (result.kind, result.fault, result.step) == ("merge-loop", "never-merges", 2), result.cause
    assert f"your run merges {show_pair(merges[0])} again" in result.cause and "never changes a word" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_heap_out_of_order_is_told_as_a_selection_that_passes_over_the_highest_count(corpus):
    # 1611Dhruv's heap: a pair down to 0 is replaced by the last entry, sifted only down; the counts are right, the
    # top is not always the greatest. The old Check said a count is off (prose)
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, HEAP_REMOVAL, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert result.step == step, result.cause
    if result.fault == "lost-pair":  # the pair it passes over is never taken: the selection lost it
        assert "your selection never offered" in result.cause
        return
    assert result.kind == "count", result.cause
    assert "your counts may well be right, and your selection does not always take the pair with the highest count" in (
        result.cause
    )


@pytest.mark.parametrize("corpus", CORPORA)
def test_occurrences_merged_in_the_order_of_a_set_of_positions_are_named_with_their_step(corpus):
    # Ethan-a2's loop visits list(pos[pair]): a set's order, so '␣ππππ' after (π, π) may split π ππ π; the old Check
    # named a tie rule that followed the run by chance (prose) or said a count is off (bytes)
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, SET_ORDER, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no run of three of one symbol
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "set-order", step), result.cause
    assert "your loop merges a pair's occurrences in the order of the set of their positions" in result.cause
    assert f"our loop merging in that order makes all {len(merges)} of your merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_occurrences_merged_in_the_order_of_a_set_of_offset_tuples_are_named_with_their_step(corpus):
    # salzhu's loop visits a set of (word, byte offset, live) tuples: its order splits a run like '␣ππππ' otherwise; the
    # old Check said an overlapping decrement (prose) or a character base (bytes)
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, OFFSET_SET, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no run of three of one symbol
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "set-order", step), result.cause
    assert "your loop merges a pair's occurrences in the order of the set of their positions" in result.cause
    assert f"our loop merging in that order makes all {len(merges)} of your merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_that_loses_the_last_symbol_of_an_odd_run_is_named_with_its_step(corpus):
    # AndreySvistunovHSEMIEM's merge appends the last symbol only when the last two are not the pair: '␣😀😀😀' merging
    # (😀, 😀) becomes '␣ 😀😀' while (😀😀, 😀) is counted; the old Check said whitespace kept on words (prose) or a
    # character base (bytes)
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, LOST_LAST, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no word ends in a run of one symbol that a merge cuts oddly
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "lost-last", step), result.cause
    assert "so a word ending in a run of odd length of" in result.cause and "loses its last" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["lost-last"], tie="greatest-bytes").reproduced == len(merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_list_of_words_mutated_while_iterated_is_named_with_its_step(corpus):
    # dequeueing's loop removes each word from the pair's list inside 'for w in list': every second word is never
    # merged; the old Check said a merged token is never counted (handout, bytes) or named no cause (prose)
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, SKIPPED_WORDS, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None
    assert (result.kind, result.fault, result.step) == ("merge-loop", "skipped-words", step), result.cause
    assert "every second word holding the pair is never merged" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["skipped-words"], tie="greatest-bytes").reproduced >= step + 1


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_selection_that_never_takes_a_pair_inside_a_special_token_is_named_with_its_step(corpus):
    # richiefeng's selection leaves out every pair whose bytes are a substring of <|endoftext|> ('nd', 'en'): the old
    # Check said a count is off, or the selection is out of order
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, SPECIAL_BAN, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no pair of the special token's bytes is ever the one to take
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "special-ban", step), result.cause
    assert "never takes a pair whose merged bytes are part of the special token <|endoftext|>" in result.cause
    assert f"makes all {len(merges)} of your merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_listed_once_per_word_holding_it_is_named_at_its_first_repeat(corpus):
    # JRyanShue's loop appends the merge inside the loop over the words: the old Check said the merge never changes a
    # word, and a list longer than the vocabulary allows went unflagged
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    vocab, merges = train(text, n, PER_WORD)
    once = list(dict.fromkeys(merges))
    assert once == train(text, n)[1] and len(merges) > n
    step = next(k for k in range(1, len(merges)) if merges[k] == merges[k - 1]) + 1
    result, _ = diagnose(text, read_student_file(pickle.dumps((vocab, merges)), "run.pkl"), CS336_SETUP, [EOT],
                         vocab_size=257 + n)  # fmt: skip
    assert (result.kind, result.fault, result.step) == ("merge-loop", "per-word", step), result.cause
    assert f"is listed {merges.count(merges[step - 1])} times" in result.cause
    assert f"your list holds {len(merges)} merges, {n} different, where a vocabulary of {257 + n} asks for {n}" in (
        result.cause
    )
    assert "Taken once each, your run equals ours with gpt2 pre-tokenization" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_that_skips_the_symbol_after_a_new_token_is_named_with_its_step(corpus):
    # angeris's merge moves its index on by two after merging in place: '␣ππππ' keeps a (\xcf, \x80) after the first π;
    # the old Check said stale positions (prose) or overlapping pairs counted once (bytes)
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, SKIPS_NEXT, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no occurrence right after another
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "skips-next", step), result.cause
    assert "so an occurrence right after a merged one is never merged" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["skips-next"], tie="greatest-bytes").reproduced == len(merges)


# set J's students: the loop each trainer copies, and what the Check says of it
SET_J_LOOPS = {
    RIGHT_ADDED: "instead of subtracting it (+= instead of -=)",  # no6rainer: the old Check said a count is off
    OVERLAP_STALE: "overlapping ones too",  # qufy6: a count is off
    OVERLAP_COLLAPSE: "collapses into one",  # YVSemlani: a tie no rule breaks
    OVERLAP_DUPLICATE: "gains symbols",  # hashemelezabi: a count is off
    TWIN_NEVER: "never counts the pair of two",  # SplashCloud: overlapping pairs counted once
    WRONG_INDEX: "wrong loop variable",  # Thinkin999: pairs holding a merged token never counted
    ADJACENT_CROSS: "twice, once from each, and subtract",  # KleistvonLiu: the adjacent loop with a 'greatest-text' tie
}


# the library's fault a trainer's loop is (one fault, two students' faithful loops)
LIBRARY_FAULT = {OVERLAP_STALE: "stale-overlap"}


@pytest.mark.parametrize("fault", SET_J_LOOPS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_loop_of_set_j_is_named_with_its_step(corpus, fault):
    # where another known loop makes as many of the run's merges (stale-neighbours, which makes every merge of the
    # overlapping stale update on the bytes corpus), that one may be named instead
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no run of one symbol, or no word holding the pair twice, in the handout
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("merge-loop", step), result.cause
    assert f"At step {step} we merge" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    own = replay(words, freqs, merges, FAULTS[LIBRARY_FAULT.get(fault, fault)], tie="greatest-bytes").reproduced
    assert own >= step
    if result.fault == LIBRARY_FAULT.get(fault, fault):
        assert SET_J_LOOPS[fault] in result.cause, result.cause
    else:
        assert replay(words, freqs, merges, FAULTS[result.fault], tie="greatest-bytes").reproduced >= own


# set K's students: the loop each trainer copies, and what the Check says of it
SET_K_LOOPS = {
    ONCE_PER_WORD: "counted once per word",  # chengkai-dai: the old Check said lines stripped (prose), a count is off
    LOST_LAST_COUNTED: "taken from the merged word, lose its last pair",  # she-is-automatic: overlap-subtract
    ACCUMULATED: "never reset",  # kanda-mashiro: a pair no word holds (bytes), merged tokens never counted (handout)
    LAZY_HEAP: "gets a new entry only for a pair whose count rose",  # DAMI211: a tie no rule breaks (prose)
    RIGHT_FIRST: "moves the left-hand pairs before the right-hand ones",  # pikaxinge: a pair no word holds (bytes)
    SUBSTRING_COUNTS: "counted as the occurrences of the joined bytes",  # Jingxu-Li: a tie no rule breaks (prose)
}


@pytest.mark.parametrize("fault", SET_K_LOOPS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_loop_of_set_k_is_named_with_its_step(corpus, fault):
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no pair twice in a word, no odd run of one symbol ending a word, no count that fell and won
        assert (corpus == "handout" or fault == LOST_LAST_COUNTED) and result.kind == "same", result.cause
        return
    if fault == LAZY_HEAP and train(text, n, "smallest-bytes")[1] == merges:  # no pair that fell was ever to be taken
        assert result.kind == "tie" and "The smallest-bytes tie rule" in result.cause, result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", fault, step), result.cause
    assert f"At step {step} we merge" in result.cause and SET_K_LOOPS[fault] in result.cause, result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS[fault], tie="greatest-bytes").reproduced == len(merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_stale_left_pair_with_a_guarded_right_one_is_named_where_it_parts_from_stale_neighbours(corpus):
    # tangguochuan's update makes the left pair with the old word's symbol and skips the right one where the merged
    # pair follows: on the prose the old Check said whitespace kept on words; where it makes the same merges as
    # stale-neighbours, that commoner one is named and this one told beside it
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, STALE_GUARDED, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("merge-loop", step), result.cause
    guarded = FAULTS["stale-guarded"].sentence
    assert result.fault == "stale-guarded" or result.fault == "stale-neighbours" and guarded in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["stale-guarded"], tie="greatest-bytes").reproduced == len(merges)
    if corpus == "prose":  # a run of spaces merged by (␣, ␣): only this loop never counts (␣␣, ␣) there
        assert result.fault == "stale-guarded", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_stale_neighbours_moved_at_overlapping_places_too_are_named_where_they_part_from_stale_neighbours(corpus):
    # MatthewZhang473's update moves the old word's neighbours at every place the pair occurs, overlapping ones too: in
    # a run of spaces merging (␣, ␣) it counts (␣␣, ␣) at each place; the old Check said only that a count is off
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, STALE_OVERLAP, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("merge-loop", step), result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["stale-overlap"], tie="greatest-bytes").reproduced == len(merges)
    stale = replay(words, freqs, merges, FAULTS["stale-neighbours"], tie="greatest-bytes").reproduced
    if stale == len(merges):  # no run of three of a merged pair's symbol: the commoner stale-neighbours is named
        assert result.fault in ("stale-neighbours", "stale-overlap"), result.cause
    else:
        assert result.fault == "stale-overlap", result.cause
        assert "overlapping ones too" in result.cause and "from the word before the merge" in result.cause
    if corpus == "prose":  # a run of spaces merged by (␣, ␣): only this loop counts (␣␣, ␣) at every place
        assert result.fault == "stale-overlap", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_tokens_kept_as_ints_and_added_are_named_from_merges_of_zero_bytes(corpus):
    # 1156230954's loop: tuple(word.encode()) holds ints, so a merge adds them (115 + 116) and the run, saved with
    # bytes(n), is runs of zero bytes; the old Check said the merges are not from this corpus
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, INT_SUM, n)
    ours = train(text, n)[1][0]
    x, y = len(merges[0][0]), len(merges[0][1])
    assert (x, y) == (ours[0][0], ours[1][0])  # the first pair is ours, as ints
    assert (result.kind, result.fault, result.step) == ("merge-loop", "int-sum", 1), result.cause
    assert f"and you ({x}, {y}): your tokens are ints" in result.cause
    assert f"your merge adds the two values ({x} + {y} = {x + y})" in result.cause
    assert f"our loop adding tokens so makes all {len(merges)} of your merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_merged_tokens_recorded_as_sums_of_ids_are_read_back_and_named_where_the_first_shows(corpus):
    # chenhr56's loop is right on token ids but records a merged token's bytes as the sum of its two ids, so its
    # merges of merged tokens hold ints (runs of zero bytes); the old Check said a pair our corpus never has
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, ID_SUM, n)
    meant = train(text, n, ID_SUM_MEANT)[1]
    first = next(k for k, pair in enumerate(merges, start=1) if any(len(t) > 1 and not t.strip(b"\0") for t in pair))
    assert meant[: first - 1] == merges[: first - 1] and meant[first - 1] != merges[first - 1]
    parts = first_difference(train(text, n)[1], meant)  # where the loop's own choices leave ours (its ties)
    assert result.step == min(first, parts or first), result.cause
    assert "each is recorded as the sum of its two token ids" in result.cause
    x, y = merges[first - 1]
    held = ", ".join(str(len(t)) for t in (x, y) if not t.strip(b"\0"))
    assert f"from step {first} your merges hold ints ({held.split(', ')[0]} for" in result.cause
    if parts is None or first <= parts:
        assert (result.kind, result.fault) == ("merge-loop", "id-sum"), result.cause
        assert f"where the merge read back is {show_pair(meant[first - 1])}" in result.cause
    else:  # the loop's ties to the smallest ids part first: that is said, then the ints
        assert (result.kind, result.rule) == ("tie", "smallest-id"), result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_ties_to_the_pair_met_first_are_told_by_the_first_rule_where_the_smallest_pair_makes_the_run_too(corpus):
    # OnlyHero5's ties go to the pair met first in the text; on the handout the smallest pair makes the same 12 merges,
    # and the old Check named that rule first, though ties to the pair seen first are the commoner in students' code
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, FIRST_POSITION, n)
    step = first_difference(train(text, n)[1], merges)
    assert (result.kind, result.rule, result.step) == ("tie", "first", step), result.cause
    assert result.cause.startswith(
        "Your run equals ours with gpt2 pre-tokenization and the first tie rule (the pair seen first wins)"
    ), result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_at_every_overlapping_place_that_collapses_a_run_is_named_with_its_step(corpus):
    # Verma001manik's merge sets every place the pair occurs (overlapping ones too) to the new token and pops the
    # symbol after each: '␣ȧȧȧȧ' becomes '␣ȧȧ'; the old Check said a count is off (bytes) or overlap-index (prose)
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, OVERLAP_COLLAPSE, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:  # no run of three of one symbol is merged
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "overlap-collapse", step), result.cause
    assert "overlapping ones too, then deletes the symbol after each place" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["overlap-collapse"], tie="greatest-bytes").reproduced == len(merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_tokens_kept_as_ints_and_added_over_the_text_not_cut_into_words_are_named_with_both(corpus):
    # yongce-liu's loop adds ints over the file's bytes whole, with no pre-tokenization: the old Check said the prose
    # run is not from this corpus, since a loop adding ints over words parts from it at once
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, f"none+{INT_SUM}", n)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "int-sum", 1), result.cause
    assert "your merge adds the two values" in result.cause
    assert "your text is not cut into words (no pre-tokenization" in result.cause
    assert f"so makes all {len(merges)} of your merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_left_pair_subtracted_before_it_is_counted_is_told_where_it_makes_the_run(corpus):
    # teddiw's update subtracts the left pair of the word as merged so far, so of two occurrences side by side the
    # second takes (ab, a) off other words' count; on the prose the old Check named only overlap-subtract, which makes
    # the same merges there
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, UNCOUNTED_LEFT, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus != "prose" and result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("merge-loop", step), result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["uncounted-left"], tie="greatest-bytes").reproduced == len(merges)
    assert result.fault == "uncounted-left" or FAULTS["uncounted-left"].sentence in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_places_recorded_once_and_never_shifted_by_a_merge_are_named_with_their_step(corpus):
    # antonfefilov's loop keeps each pair's (word, index) as first recorded: once (␣, t) is merged, (h, e) in '␣the'
    # fails the check of its place and is never merged; the old Check named skip-first-neighbour and stale-index
    text, n = CORPORA[corpus], {**MERGES, "prose": 190}[corpus]
    merges, result = check(text, RECORDED_POSITIONS, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert corpus == "handout" and result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "recorded-positions", step), result.cause
    assert "without moving their places" in result.cause and "is never merged, while its count stays" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["recorded-positions"], tie="greatest-bytes").reproduced == len(merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merged_pair_whose_count_is_never_removed_is_told_beside_a_merge_that_never_changes_a_word(corpus):
    # 735084170's loop merges the words but never removes the merged pair's count: the same run as a merge that never
    # changes a word, which the old Check named alone
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, KEPT_PAIR, n)
    assert merges == train(text, n, NEVER_MERGES)[1]
    assert (result.kind, result.fault, result.step) == ("merge-loop", "never-merges", 2), result.cause
    assert "your merge never changes a word" in result.cause
    assert "or the count of the merged pair is never removed after the merge" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["kept-pair"], tie="greatest-bytes").reproduced == n


def test_a_merged_pair_whose_count_is_never_removed_is_named_alone_where_a_new_pair_wins_the_tie():
    # (xa, b), made by merging (x, a), ties with the kept count of (x, a) and wins: a merge that never changes a word
    # would take (x, a) again
    text = "xab xab xab"
    merges, result = check(text, KEPT_PAIR, 4)
    assert merges[:3] == [(b"x", b"a"), (b"xa", b"b"), (b"xa", b"b")]
    assert (result.kind, result.fault, result.step) == ("merge-loop", "kept-pair", 3), result.cause
    assert FAULTS["kept-pair"].sentence in result.cause and "never changes a word" not in result.cause


@pytest.mark.parametrize("fault", HEAP_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_heap_that_never_sifts_up_is_named_with_its_step(corpus, fault):
    # Gianthard-cyh's loop: the heap's update is called once the count is raised, so it sees no rise and only
    # sifts down; with the pair on the left of a merge at position 1 skipped too, in the same loop
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None
    assert (result.kind, result.step) == ("merge-loop", step), result.cause
    same_merges = {f for f in (*HEAP_FAULTS, *LOOP_FAULTS) if train(text, n, f)[1][: step + 2] == merges[: step + 2]}
    assert result.fault in same_merges, result.cause
    assert f"At step {step} we merge" in result.cause and "your heap's update never moves a pair up" in result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])  # the replay follows the trainer to its end
    assert replay(words, freqs, merges, FAULTS[fault], tie="greatest-bytes").reproduced == len(merges)


def test_a_heap_that_never_sifts_up_says_which_pair_rose_in_place():
    text, n = CORPORA["handout"], MERGES["handout"]
    merges, result = check(text, "no-sift-up", n)
    ours, theirs = train(text, n)[1][1], merges[1]
    assert f"but the count of {show_pair(ours)} rose after it took its place in your heap" in result.cause
    assert f"so your heap offered {show_pair(theirs)} first" in result.cause


@pytest.mark.parametrize("fault", TIE_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_tie_rule_fault_is_named_with_a_rule_that_makes_the_same_merges(corpus, fault):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert result.kind == "same"
        return
    assert (result.kind, result.step) == ("tie", step), result.cause
    if result.rule in TIE_FAULTS:
        assert train(text, n, result.rule)[1] == merges
    else:  # one of our rules, with the settings the Check names
        named = result.settings or result.setup
        ours = Setup(result.rule, named.pre_tokenizer, named.byte_base)
        assert history_bytes(train_setup(text, ours, n, [EOT])) == merges
    assert f"'{result.rule}'" in result.cause or f"the {result.rule} tie rule" in result.cause


@pytest.mark.parametrize("fault", SETTING_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_setting_fault_is_named_before_any_tie_or_count(corpus, fault):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges[:n])
    if step is None:
        assert result.kind == "same"
        return
    assert result.kind in SETTING_KINDS[fault] and result.step == step, result.cause


def test_a_byte_run_on_ascii_text_is_never_said_to_start_from_characters():
    # leonwyang: no pre-tokenization and a smallest-id tie on the handout; the settings search ranks a character base
    # first, which on ASCII text is the same base, and the old Check said 'your run starts from characters'
    text = CORPORA["handout"]
    merges, result = check(text, "none+smallest-id", MERGES["handout"])
    assert result.step == first_difference(train(text, MERGES["handout"])[1], merges)
    assert result.kind == "pre-tokenizer" and "starts from characters" not in result.cause, result.cause
    assert "your run does not cut the text into words" in result.cause


def test_a_character_run_is_named_characters_not_a_tie():
    merges, result = check(CORPORA["bytes"], "chars", 40)
    assert result.kind == "byte-base" and result.settings.byte_base is False and result.equal
    assert result.cause.startswith("Your run equals ours with gpt2 pre-tokenization, the greatest-bytes tie rule and "
                                   "characters as the base")  # fmt: skip


def test_the_left_symbol_fault_names_the_words_where_the_counts_part():
    _, result = check(CORPORA["prose"], "left-symbol", 80)
    assert result.fault == "left-symbol" and result.step == 9
    # 'Here': merging (e, r) in H-e-r-e, the last e is not followed by r, yet (r, e) before it is subtracted
    assert result.cause.endswith(
        "your update for the merge (e, r) subtracts the pairs beside every e, also where r does not follow it: "
        "in 'Here' your count of (r, e) drops to 28 while it is 32."
    )


def test_a_decrement_at_an_overlapping_occurrence_is_named_with_the_pair_after_the_run():
    # merging (␣␣, ␣␣) in '↵ ␣␣ ␣␣ ␣␣ ␣': the second (␣␣, ␣␣) overlaps the merged first one and is not merged,
    # yet the student's decrement visits it and subtracts (␣␣, ␣) after it, which stays; a left pair subtracted before
    # the word's new pairs are counted (teddiw's loop) makes the same merges here, and is told after it
    _, result = check(CORPORA["prose"], "overlap-subtract", 80)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "overlap-subtract", 34), result.cause
    assert result.cause.endswith(
        "your update for the merge (␣␣, ␣␣) also subtracts the pairs beside an occurrence that overlaps a merged "
        "one (the second of three ␣␣ in a row), which is not merged, so the pair after the run is subtracted though "
        "it stays: in '↵␣␣␣␣␣␣␣' your count of (␣␣, ␣) drops to 8 while it is 20. Another known fault makes all your "
        f"merges here too, so it may be yours: {FAULTS['uncounted-left'].sentence}."
    )


def test_an_overlapping_decrement_is_blamed_on_the_merge_of_the_run_not_a_later_one_beside_the_pair():
    # (a, b) loses a count in ' aaab' at the merge (a, a); (b, c), merged after it, also has a symbol of (a, b)
    text = "bcabbb  bba    bb   a bc  a bc cba  cbab aaab aaab"
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    merges = faulty_merges(words, freqs, 4, FAULTS["overlap-subtract"])
    assert merges[1:3] == [(b"a", b"a"), (b"b", b"c")]
    result, _ = diagnose(text, StudentRun("CS336 pickle", tuple(merges), byte_level=True), CS336_SETUP, [EOT])
    assert (result.fault, result.step) == ("overlap-subtract", 4), result.cause
    assert "your update for the merge (a, a) also subtracts the pairs beside an occurrence" in result.cause
    assert "(the second of three a in a row)" in result.cause and "in '␣aaab' your count of (a, b)" in result.cause


def test_an_update_by_substring_of_the_word_is_named_where_a_symbol_is_inside_another_token():
    # merging (e, r): ' there' is split ' t', 'he', 'r', 'e', so no (e, r) is merged in it, yet 'ere' is in its
    # text, so the student's update moves its (r, e) to (er, e); the left-symbol fault would subtract 4, not 8
    _, result = check(CORPORA["prose"], "substring", 80)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "substring", 9), result.cause
    assert result.cause.endswith(
        "your update for the merge (e, r) moves the pairs beside e and r wherever their bytes appear in the word's "
        "text, without looking at its tokens: also where one of them is inside another token, so (e, r) does not "
        "happen there, and both ways between two merged tokens: in '␣there' and '␣here' your count of (r, e) drops "
        "to 24 while it is 32."
    )


@pytest.mark.parametrize(
    ("corpus", "step", "pair", "run"), [("prose", 9, "(␣␣, ␣)", "'↵␣␣␣␣␣␣␣'"), ("bytes", 7, "(π, \\xcf)", "'␣ππππ'")]
)
def test_neighbours_read_from_the_word_before_the_merge_are_named_with_the_pair_two_merged_tokens_never_make(
    corpus, step, pair, run
):
    # two occurrences side by side: the update moves (a, a) to (aa, a) and to (a, aa), never to (aa, aa); the
    # old Check called it 'overlap-twice' on prose and 'substring' on bytes, whose merges are not these
    merges, result = check(CORPORA[corpus], "stale-neighbours", MERGES[corpus])
    assert (result.kind, result.fault, result.step) == ("merge-loop", "stale-neighbours", step), result.cause
    assert "takes the neighbours of each" in result.cause and "from the word before the merge" in result.cause
    assert f"in {run}" in result.cause and f"your count of {pair} rises to" in result.cause
    for other in ("overlap-twice", "substring", "adjacent"):
        assert train(CORPORA[corpus], MERGES[corpus], other)[1] != merges


@pytest.mark.parametrize(("corpus", "step"), [("prose", 22), ("bytes", 7)])
def test_an_update_by_byte_positions_is_named_where_two_merged_tokens_side_by_side_make_no_pair(corpus, step):
    # after (␣, ␣) the position-index loop never makes (␣␣, ␣␣): the old Check said a count is off (prose) or
    # named the substring fault (bytes), whose merges are not these
    merges, result = check(CORPORA[corpus], "positions", MERGES[corpus])
    assert (result.kind, result.fault, result.step) == ("merge-loop", "positions", step), result.cause
    assert "moves the pairs by their byte positions, and never makes the pair of two" in result.cause
    for other in ("stale-neighbours", "substring", "overlap-subtract"):
        assert train(CORPORA[corpus], MERGES[corpus], other)[1] != merges


@pytest.mark.parametrize("fault", SELECTION_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_selection_that_lost_the_top_pair_is_named_as_the_selection_not_a_count(corpus, fault):
    # the student's counts are right and the heap never offers the pair of the highest count again: the old
    # Check said a count is off, or named a merge-loop fault that follows a few merges by chance
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    ours = train(text, n)[1][LOST_STEP - 1]
    assert (result.kind, result.fault, result.step) == ("merge-loop", "lost-pair", LOST_STEP), result.cause
    assert f"your selection never offered {show_pair(ours)}" in result.cause
    assert f"our loop makes your merges through step {len(merges)}" in result.cause


def test_a_run_a_lost_pair_follows_only_for_a_while_is_not_put_down_to_the_selection():
    # a count that is off can look like a lost pair for a few merges (a reading fault did so for 30 merges on a
    # real student's run): the selection is named only when leaving our pair out reproduces every later merge
    text, n = CORPORA["prose"], MERGES["prose"]
    merges = list(train(text, n, "lost-pair")[1])
    merges[LOST_STEP + 20] = merges[-1]
    student = StudentRun("CS336 pickle", tuple(merges[:-1]), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert result.step == LOST_STEP and result.fault != "lost-pair", result.cause
    assert "your selection never offered" not in result.cause


def test_a_smallest_pair_tie_bug_is_named_lexicographic():
    _, result = check(CORPORA["prose"], "smallest-bytes", 80)
    assert (result.kind, result.rule, result.step) == ("tie", "lexicographic", 6)
    assert "the lexicographic tie rule (the smallest pair wins)" in result.cause
    assert "'hf'" not in result.cause and "greatest" not in result.cause.split("With the settings")[0]


def test_a_smallest_pair_tie_that_the_first_seen_rule_also_makes_is_named_with_both_the_commoner_first():
    # HuizhiXu's heap of (-count, pair) pops the smallest pair; on the handout the first-seen rule makes all 12 merges
    # too, and an older Check named only that one, which sent the student to the order of a dict. Both are told; the
    # pair seen first, the commoner tie in students' code, leads (OnlyHero5's and sijitu666's ties are that one)
    text, n = CORPORA["handout"], MERGES["handout"]
    merges, result = check(text, "smallest-bytes", n)
    assert history_bytes(train_setup(text, Setup("first", "gpt2", True), n, [EOT])) == merges
    assert (result.kind, result.rule, result.step, result.equal) == ("tie", "first", 1, True), result.cause
    assert result.cause.startswith("Your run equals ours with gpt2 pre-tokenization and the first tie rule")
    assert (
        "The smallest-bytes tie rule (the smallest pair of bytes wins, as a heap of (-count, pair) pops it) makes "
        "them all too" in result.cause
    )


TIE_AND_LOOP = [("first-added", "assigned"), ("greatest-text-ignore", "adjacent")]


@pytest.mark.parametrize(("tie", "loop"), TIE_AND_LOOP)
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_tie_rule_and_a_loop_fault_at_the_same_step_are_both_named(corpus, tie, loop):
    # ameerfaour95's first-seen tie with counts assigned, Zane-Liao's tie on text decoded with errors='ignore'
    # with two merged tokens side by side counted twice: neither alone follows the run past the step
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, f"{tie}+{loop}", n)
    step = first_difference(train(text, n)[1], merges)
    if step is None:
        assert result.kind == "same"
        return
    assert result.step == step, result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    if result.rule in TIE_KEYS and result.fault is not None:  # both named: together they make every merge
        assert "two faults at once" in result.cause and f"'{result.rule}' rule" in result.cause
        assert replay(words, freqs, merges, FAULTS[result.fault], tie=result.rule).reproduced == len(merges)
    else:  # one of them alone makes every merge here
        assert (result.kind, result.fault or result.rule) in (("merge-loop", loop), ("tie", tie)), result.cause
        named = FAULTS[loop] if result.kind == "merge-loop" else CORRECT
        key = tie if result.kind == "tie" else "greatest-bytes"
        assert replay(words, freqs, merges, named, tie=key).reproduced == len(merges)


def test_a_tie_rule_with_a_loop_fault_says_where_each_acts():
    merges, result = check(CORPORA["handout"], "first-added+assigned", 12)
    assert (result.kind, result.rule, result.fault, result.step) == ("merge-loop", "first-added", "assigned", 1)
    assert result.cause.startswith("At step 1 we merge (s, t) (9) and you (e, s) (9): two faults at once.")
    assert "which makes this choice here, and from step 2 on, your update for the merge (e, s) sets the count" in (
        result.cause
    )
    assert f"together they make your merges through step {len(merges)}" in result.cause


def test_counts_assigned_not_added_are_named_with_the_count_of_the_last_word():
    # merging (h, e): (␣t, he) is set to the count of the last word that makes it, not added up over the words
    _, result = check(CORPORA["prose"], "assigned", 80)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "assigned", 5), result.cause
    assert "sets the count of each new pair with he to the count of the word that makes it" in result.cause
    assert "your count of (␣t, he) drops to 4 while it is 56" in result.cause


def test_a_word_index_that_never_gains_a_word_is_named_where_a_word_is_left_unmerged():
    # jasperjjian's loop: (e, s) is already indexed when ' newest' comes to hold it, so it is never merged there
    _, result = check(CORPORA["handout"], "stale-index", 12)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "stale-index", 3), result.cause
    assert "a set's union() returns a new set, which is thrown away" in result.cause
    assert "in '␣newest' your count of (w, e) rises to 8 while it is 2" in result.cause


def test_overlapping_starts_placed_by_index_arithmetic_are_named_with_the_pairs_of_the_run_they_lose():
    # zhenqilu2014-cell's update: in a run of spaces the new tokens' indexes collapse; its own update gives
    # (␣␣, ␣␣) 12 where it is 24 (the positions fault would give 0)
    merges, result = check(CORPORA["prose"], "overlap-index", 80)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "overlap-index", 22), result.cause
    assert "in '↵␣␣␣␣␣␣␣' your count of (␣␣, ␣␣) drops to 12 while it is 24" in result.cause
    for other in ("positions", "overlap-subtract", "stale-neighbours"):
        assert train(CORPORA["prose"], 80, other)[1] != merges


def test_settings_that_make_every_merge_keep_the_step_where_ours_part_when_the_vocabulary_differs():
    # luckunately: each document one sequence, the smallest pair winning ties, and no 256 bytes in the vocabulary;
    # the Check said "all 28 merges agree" with no step, as if the run were ours
    text = CORPORA["handout"]
    whole = Setup("lexicographic", "none", True)
    merges = history_bytes(train_setup(text, whole, 28, [EOT]))
    student = StudentRun("CS336 pickle", tuple(merges), vocab_size=40, byte_level=True, special_tokens=(EOT,))
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert (result.step, result.settings, result.equal) == (1, whole, True), result.cause
    assert result.cause.startswith("Your run equals ours with no pre-tokenization (each text one sequence) and the "
                                   "lexicographic tie rule (the smallest pair wins): all 28 merges agree.")  # fmt: skip
    assert "the runs part at step 1. Your vocabulary has 40 tokens and ours 285" in result.cause


def test_a_run_that_stops_short_of_the_vocabulary_size_is_flagged_with_its_step():
    text = CORPORA["handout"]
    vocab, merges = train(text, 6)
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    result = compare(text, student, CS336_SETUP, [EOT], vocab_size=500)
    assert (result.kind, result.step) == ("stops-early", 7)
    assert "ends after step 6 where a vocabulary of 500 asks for 243 merges" in result.cause
    assert "All 6 merges agree" not in result.cause


def test_a_run_with_no_merge_is_told_its_loop_never_ran():
    # set CA's yoonji57 trains on a list filled only by merges it does not have yet: no merge at all; the old Check
    # said where it stops and, on the prose, guessed a pair holding a space split back on ' '
    text = CORPORA["prose"]
    student = read_student_file(pickle.dumps(({i: bytes([i]) for i in range(256)}, [])), "run.pkl")
    result = compare(text, student, CS336_SETUP, [EOT], num_merges=150)
    assert (result.kind, result.step) == ("stops-early", 1), result.cause
    assert "Your run has no merges" in result.cause and "Your loop never made a merge" in result.cause, result.cause
    assert "holding a space" not in result.cause, result.cause


def test_a_run_that_goes_past_the_number_of_merges_is_flagged_where_it_should_end():
    text = CORPORA["handout"]
    student = read_student_file(pickle.dumps(train(text, 10)), "run.pkl")
    result = compare(text, student, CS336_SETUP, [EOT], num_merges=8)
    assert (result.kind, result.step, result.theirs) == ("goes-past", 9, student.merges[8])
    assert "makes 10 merges where a target of 8 merges asks for 8" in result.cause


def test_a_run_that_goes_past_the_target_and_past_our_last_pair_is_flagged_where_it_should_end():
    # Dhanvin's adapter hard-codes vocab_size=500: the handout's run goes on where ours has no pair left, and the old
    # Check said it stops short ("shorter" at step 16), not that it goes past step 12
    text = CORPORA["handout"]
    vocab, merges = train(text, 40)
    assert len(merges) < 40  # every word is one token before 40 merges
    more = [*merges, (merges[-1][0] + merges[-1][1], b" ")]  # a run on a bigger corpus makes more
    student = read_student_file(pickle.dumps((vocab, more)), "run.pkl")
    result = compare(text, student, CS336_SETUP, [EOT], vocab_size=257 + 12)
    assert (result.kind, result.step, result.theirs) == ("goes-past", 13, more[12]), result.cause
    assert f"makes {len(more)} merges where a vocabulary of 269 asks for 12" in result.cause


def test_tie_rules_that_follow_a_run_equally_far_are_led_by_the_commoner():
    # akash29's heap pops the smallest pair, and then its counts part (documents read as one sequence): 'first' and
    # 'lexicographic' follow the run equally far, and the one named is the commoner in the truths of sets E to J
    text = CORPORA["handout"]
    vocab, merges = train(text, 4, "smallest-bytes")
    more = [*merges, (b"w", b"i")]
    result = compare(text, read_student_file(pickle.dumps((vocab, more)), "run.pkl"), CS336_SETUP, [EOT])
    from bpe.check_ties import COMMON_TIES

    lead = min(("first", "lexicographic"), key=COMMON_TIES.index)  # ties to the pair seen first: 35 runs of 12 owners
    assert (result.kind, result.rule, result.step) == ("tie", lead, 1), result.cause
    assert f"a tie broken by the '{lead}' rule (" in result.cause


def test_a_pair_inside_a_special_token_is_not_blamed_on_specials_when_splitting_changes_nothing():
    text = f"the text{EOT}then ten texts tend to extend{EOT}" * 3 + "aaaa abab"
    merges, result = check(text, "banned", 40)
    assert merges[1] == (b"x", b"t")  # inside <|endoftext|>: the old Check said "special tokens not split out"
    assert (result.kind, result.fault, result.step) == ("merge-loop", "banned", 2)


def test_a_choice_no_fault_explains_gets_what_is_certain_about_the_counts():
    good = train(CORPORA["handout"], 12)[1]
    student = StudentRun("CS336 pickle", (*good[:2], (b"i", b"d"), *good[3:]), byte_level=True)
    result, _ = diagnose(CORPORA["handout"], student, CS336_SETUP, [EOT])
    assert (result.kind, result.step, result.fault) == ("count", 3, None)
    assert "your count of (i, d) must be at least 4 above its true 3 (words '␣widest')" in result.cause
    assert "or your count of (o, w) at least 4 below its true 7 (words '␣low', '␣lower', 'low')" in result.cause
    # neither pair is beside a merged one, so the counts part before any merge
    assert "so your counts of both are the first ones: they differ before any merge" in result.cause


def test_what_is_certain_names_the_count_that_is_off_when_the_other_is_untouched():
    # (o, w) taken at step 2 where (e, st) is 9: (o, w) is beside no merge so far, (e, st) holds the merged st
    good = train(CORPORA["handout"], 12)[1]
    student = StudentRun("CS336 pickle", (good[0], (b"o", b"w"), *good[1:3]), byte_level=True)
    result, _ = diagnose(CORPORA["handout"], student, CS336_SETUP, [EOT])
    assert result.step == 2 and result.kind == "count", result.cause
    assert "no merge before this one moves a pair beside (o, w)'s symbols" in result.cause
    assert "the count that is off is (e, st)'s: at least 2 too low" in result.cause


def test_what_is_certain_names_counts_squared_where_they_make_the_choice():
    # RinSer's index lists a word once per occurrence in the text, each time with its count: ' ab' (4 times) and
    # 'ab' weigh 16 + 1, above the six words holding (c, d) once each
    text = "ab ab ab ab ab cda cdb cde cdf cdg cdh"
    assert train(text, 1)[1] == [(b"c", b"d")]
    student = StudentRun("CS336 pickle", ((b"a", b"b"), (b"c", b"d"), (b" ", b"cd")), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert (result.step, result.kind) == (1, "count"), result.cause
    assert "with each word's count squared (a word listed once per occurrence in the text, each time with its count), " \
           "(a, b) would be 17, above (c, d) squared, which lets it win" in result.cause  # fmt: skip


def test_what_is_certain_names_a_count_once_per_word_that_makes_the_choice():
    # a pair counted once per word: 'aaaa' holds (a, a) three times but counts it once
    text = "aaaa aaaa aaaa bc bc bc bc bc"
    good = train(text, 3)[1]
    assert good[0] == (b"a", b"a")
    student = StudentRun("CS336 pickle", ((b"b", b"c"), *good[:1]), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert result.step == 1 and result.kind == "count", result.cause
    assert "counted once per word, not once per occurrence, (a, a) would be 3, which lets yours win" in result.cause


@st.composite
def corpora(draw):
    words = draw(st.lists(st.text("abcé ", min_size=1, max_size=7), min_size=3, max_size=25))
    return " ".join(words) + draw(st.sampled_from(["", "\n\n  aaaa", " ababab"]))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=corpora(), fault=st.sampled_from(sorted(FAULTS)), num_merges=st.integers(1, 25))
@example(text="a a    a", fault="overlap-twice", num_merges=4)  # a phantom pair after ours has none left
@example(text="aaab aaab ab", fault="overlap-subtract", num_merges=3)  # (a, b) after 'aa a' subtracted
@example(text="abab ba ab aba ab", fault="substring", num_merges=3)  # (b, a) in 'abab' moved both ways
@example(text="abab abab abab ba ab", fault="stale-neighbours", num_merges=4)  # no (ab, ab) in 'abab'
@example(text="aaaa aaaa aaab aaab ab", fault="positions", num_merges=4)  # no (aa, aa); (a, b) moved to (aa, b)
# lazy-heap's min-heap pops the smallest of tied pairs: where that is all it does, the tie rule makes its merges, and
# the Check named a reader cutting 6 chunks, or a lost pair, at the tie
@example(text="a bé  aéa ", fault="lazy-heap", num_merges=2)
@example(text="a bé aé", fault="lazy-heap", num_merges=2)
@example(text="a é a", fault="lazy-heap", num_merges=2)
@example(text="a é éa", fault="accumulated", num_merges=4)  # each merge listed once per word: named per-word
@example(text="a a aaaaaaa", fault="stale-left", num_merges=3)  # (aa, a) twice: stale-neighbours keeping its count
@example(text="a a   ", fault="accumulated", num_merges=2)  # the first tie rule makes both merges: it leads
@example(text=" aéé éaé a éaé a", fault="accumulated", num_merges=4)  # per-word, and 'banned' taken once each
# a merged pair's count never reset repeats merges as a per-word listing does, up to where the listing parts from it
@example(text=" aéé éaé a éaé a", fault="accumulated", num_merges=6)
@example(text=" é é aaé éé aaé éé", fault="accumulated", num_merges=7)
@example(text="a éaé aaéa", fault="accumulated", num_merges=5)
@example(text="a béé aabbé", fault="accumulated", num_merges=5)
@example(text="a bé abé", fault="accumulated", num_merges=6)
@example(text="a  a   b\n\n  aaaa", fault="accumulated", num_merges=2)  # (a, a) twice: not a vocabulary of one byte
@example(text="a é aaa", fault="lazy-heap", num_merges=3)  # named set-order, a replay outside FAULTS
@example(text="a a a aaa\n\n  aaaa", fault="even-pairs", num_merges=2)  # a reader's chunks make both merges
@example(text="a a aaa\n\n  aaaa", fault="even-pairs", num_merges=2)  # as does a lost (a, a): named beside it
@example(text="aa a    a", fault="overlap-once", num_merges=2)  # the text kept to a-z, its spaces collapsed, makes both
def test_the_diagnosis_names_the_injected_fault_or_one_making_the_same_merges(text, fault, num_merges):
    texts, words, freqs = student_words(text, CS336_SETUP, [EOT])
    merges = faulty_merges(words, freqs, num_merges, FAULTS[fault])
    if merges:
        _assert_the_verdict_makes_the_merges(text, words, freqs, merges)


def _assert_the_verdict_makes_the_merges(text, words, freqs, merges):
    """What the Check names for ``merges`` makes every one of them."""
    student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    step = first_difference(faulty_merges(words, freqs, len(merges), CORRECT), merges)
    if step is None or step > len(merges):
        assert result.kind == "same"
        return
    if result.settings is not None and result.equal:  # settings that make every merge lead the verdict
        assert history_bytes(train_setup(text, result.settings, len(merges), [EOT])) == list(merges)
    elif result.fault == PER_WORD:  # each merge listed once per word holding its pair (as 'accumulated' can list them)
        assert result.step == step
        once = [p for i, p in enumerate(merges) if i == 0 or merges[i - 1] != p]
        splits, listed = [list(w) for w in words], []
        for pair in once:
            listed += [pair] * sum(pair in zip(s, s[1:]) for s in splits)
            splits = [merge_all(s, pair)[0] for s in splits]
        assert listed == list(merges), result.cause
        _assert_the_verdict_makes_the_merges(text, words, freqs, once)  # and what it names for them, taken once each
    elif result.fault == "set-order":  # not a fault of the library: a replay of its own (bpe/check_set_order.py)
        assert result.step == step
        found = set_order(text, student, CS336_SETUP, [EOT], step)
        assert found is not None and found[0] == len(merges), result.cause
    elif result.fault in FAULTS:  # the named fault follows the student to the end
        assert result.step == step
        _assert_the_fault_makes_the_merges(words, freqs, merges, result, step)
    elif result.kind == "reading":  # on a tiny text, a reader's counts can make the same merges
        assert result.step == step
        assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause
    elif result.kind in ("letters", "cleaning"):  # the text cleaned as students clean it makes every merge (with a
        # tie rule or a loop fault of the student's own after it, where the cleaned text parts from the run)
        assert result.step == step
        found = cleaned_agreed(text, student, CS336_SETUP, [EOT])
        assert found is not None and found.best.far >= len(merges), result.cause
    elif result.kind == "tie" and result.settings is None:  # a tie rule that makes every merge (as a heap pops ties)
        assert result.step == step and result.rule in TIE_KEYS, result.cause
        assert replay(words, freqs, merges, CORRECT, tie=result.rule).reproduced == len(merges)
    else:  # settings that reproduce every merge
        assert result.settings is not None, result.cause
        assert history_bytes(train_setup(text, result.settings, len(merges), [EOT])) == list(merges)


def _assert_the_fault_makes_the_merges(words, freqs, merges, result, step):
    """The loop fault the Check names, with its tie rule (ours where it names none), makes every one of ``merges``
    (a lost pair is the one the selection should take at ``step``)."""
    key = result.rule if result.rule in TIE_KEYS else "greatest-bytes"
    # with a tie rule, the loop either deletes a merged pair's count or keeps what a faulty update left there
    named = [replay(words, freqs, merges, FAULTS[result.fault], tie=key, watch=step - 1, deletes=d) for d in (1, 0)]
    # a run that repeats a merge: a loop that drops the merged pair is also replayed keeping its count (a phantom)
    named.append(replay(words, freqs, merges, FAULTS[result.fault], tie=key, watch=step - 1, keeps=True))
    assert max(r.reproduced for r in named) == len(merges), result.cause


def _from_the_end_makes(words, freqs, merges):
    """Whether a correct loop whose merge works from each word's end takes each of ``merges`` at a top count."""
    splits = [list(w) for w in words]
    for pair in merges:
        counts = Counter()
        for split, freq in zip(splits, freqs):
            for p in zip(split, split[1:]):
                counts[p] += freq
        if pair not in counts or counts[pair] != max(counts.values()):
            return False
        splits = [merge_from_end(split, pair) for split in splits]
    return True


def _a_students_pairing(tie: str, fault: str) -> bool:
    """Whether a student writes a loop with both ``tie`` and ``fault``: not 'first-recounted' with counts never reset
    (such a dict keeps the order its pairs first entered it, the key 'first-added', not a fresh count's order), nor
    'last-recounted' with any loop fault (the Check reads that key as a whole loop's choice, >= over a fresh count of
    one whole text, never beside a loop fault: find_tie_and_fault and tie_key leave it out on a text of words)."""
    return tie != LAST_TIE and not (tie == RECOUNT_TIE and FAULTS[fault].accumulates)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=corpora(),
    fault=st.sampled_from(sorted(FAULTS)),
    tie=st.sampled_from(sorted(k for k in TIE_KEYS if k != LAST_TIE)),  # see _a_students_pairing
    num_merges=st.integers(1, 25),
)
@example(text="aaaa aaaa aaa abab ab", fault="assigned", tie="first-added", num_merges=6)
@example(text="aaaa aaaa aaa é é é ab", fault="adjacent", tie="greatest-text-ignore", num_merges=6)
@example(text="a a aaaaaaa", fault="stale-left", tie="first-added", num_merges=3)
@example(text="bbb a c aa cbb", fault="adjacent", tie="gpt2-id", num_merges=4)
@example(text="bbba bbbé a a a é é ba ababa", fault="left-symbol", tie="first-added", num_merges=3)
@example(text="bba bbbé a a a éa ba éa baba a", fault="left-symbol", tie="first-added", num_merges=5)
@example(text="aaa aé aéaéé aéaéé", fault="accumulated", tie="first-added", num_merges=5)  # not listed per word
@example(text="a a a  éé", fault="merged-sides", tie="first-id-sum", num_merges=2)  # a cleaning, then the fault
@example(text="a a a aé\n\n  aaaa", fault="adjacent", tie="smallest-bytes", num_merges=6)  # a set's order
# (the next four: pairs no student writes, see _a_students_pairing)
@example(text="aééébéa bé a", fault="left-symbol", tie="last-recounted", num_merges=6)
@example(text="bé éééabéa a", fault="lost-last-counted", tie="last-recounted", num_merges=10)
@example(text="a bé a", fault="accumulated", tie="first-recounted", num_merges=2)
@example(text="a a a\n\n  aaaa", fault="accumulated", tie="last-recounted", num_merges=7)
def test_a_fault_with_a_students_tie_rule_is_diagnosed_with_what_makes_the_same_merges(text, fault, tie, num_merges):
    # a loop fault and a tie rule together (each tie rule in the library with each fault): what the Check names,
    # a fault with a tie rule, a tie rule, settings or a reader, makes every merge of the run
    if not _a_students_pairing(tie, fault):
        return
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    merges = faulty_merges(words, freqs, num_merges, FAULTS[fault], tie=tie)
    if not merges:
        return  # a heap orders ties by its own key: it is never paired with another tie rule
    student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    step = first_difference(faulty_merges(words, freqs, num_merges, CORRECT), merges)
    if step is None or step > len(merges):
        assert result.kind == "same"
        return
    assert result.step == step, result.cause
    if result.settings is not None and result.equal:
        assert history_bytes(train_setup(text, result.settings, len(merges), [EOT])) == list(merges)
    elif result.fault == "right-to-left":  # a merge from each word's end that makes every merge (its ties free)
        assert _from_the_end_makes(words, freqs, merges), result.cause
    elif result.fault == "set-order":  # a replay of its own (bpe/check_set_order.py): a set's order of positions
        found = set_order(text, student, CS336_SETUP, [EOT], step)
        assert found is not None and found[0] == len(merges), result.cause
    elif result.kind in ("letters", "cleaning"):  # the text cleaned as students clean it makes the choice at the step
        found = cleaned_agreed(text, student, CS336_SETUP, [EOT])
        assert found is not None and found.best.agreed >= step, result.cause
        if result.fault in FAULTS:  # and on the text cleaned so, the loop fault named after it makes every merge
            _, clean_words, clean_freqs = student_words(found.best.text, CS336_SETUP, [EOT])
            _assert_the_fault_makes_the_merges(clean_words, clean_freqs, merges, result, result.later_step)
    elif result.fault in FAULTS:
        _assert_the_fault_makes_the_merges(words, freqs, merges, result, step)
    elif result.kind == "reading":  # on a tiny text, a reader's counts can make the same merges
        assert f"With those counts our run makes all {len(merges)} of your merges." in result.cause
    else:
        assert result.kind == "tie", result.cause
        if result.rule is None:  # ties by no rule (a container's order): every merge has the greatest count
            assert "no rule we know" in result.cause, result.cause
            assert replay(words, freqs, merges, CORRECT).reproduced == len(merges), result.cause
        elif result.rule in TIE_KEYS:  # a rule told from the parting step on is replayed from the merges before it
            trusted = step - 1 if "from this step on it makes your choices" in result.cause else 0
            assert replay(words, freqs, merges, CORRECT, tie=result.rule, trusted=trusted).reproduced == len(merges)
        else:
            ours = Setup(result.rule, CS336_SETUP.pre_tokenizer, CS336_SETUP.byte_base)
            assert history_bytes(train_setup(text, ours, len(merges), [EOT])) == list(merges)


# overlap-once changes the counts from the first merge on, so no setting can be seen before it
BOTH = [("bytes", "chars", f) for f in LOOP_FAULTS if f != "overlap-once"] + [
    ("prose", "whitespace", f) for f in ("half", "left-symbol", "stale")
]


@pytest.mark.parametrize(("corpus", "setting", "loop"), BOTH)
def test_a_setting_and_a_merge_loop_fault_together_are_both_named_with_their_steps(corpus, setting, loop):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, f"{setting}+{loop}", n)
    setting_step = first_difference(train(text, n)[1], merges)
    loop_step = first_difference(train(text, n, setting)[1], merges)
    assert result.kind in SETTING_KINDS[setting] and result.step == setting_step, result.cause
    if loop_step is None:  # the loop fault changes nothing under this setting: the setting alone is named
        assert (result.later_kind, result.later_step, result.fault) == (None, None, None), result.cause
        return
    assert setting_step < loop_step
    same_merges = {f for f in LOOP_FAULTS if train(text, n, f"{setting}+{f}")[1] == merges}
    assert (result.later_kind, result.later_step) == ("merge-loop", loop_step), result.cause
    assert result.fault in same_merges, result.cause
    assert f"With those settings, at step {loop_step} we merge" in result.cause and "your count" in result.cause


def test_a_character_run_with_a_half_merging_loop_names_the_base_then_the_loop():
    _, result = check(CORPORA["bytes"], "chars+half", 80)
    settings_part, loop_part = result.cause.split(" With those settings, ")
    assert (
        "your run starts from characters, not bytes" in settings_part and "follows yours for 12 merges" in settings_part
    )
    assert loop_part.startswith("at step 13 we merge") and "a word holding it twice is left half-merged" in loop_part
    assert (result.kind, result.step, result.fault, result.later_step) == ("byte-base", 1, "half", 13)


def test_counts_cut_at_a_chunk_boundary_are_named_as_the_reading_not_a_tie_rule_that_follows_by_chance():
    # the last ' newest' counted as ' newes' and 't': (s, t) 8 and (e, s) 9 in the student's counts, while
    # the 'first' tie rule makes the student's first two merges and then parts
    text = CORPORA["handout"]
    merges, result = check(text, "cut-last", 12)
    assert first_difference(train(text, 12)[1], merges) == 1
    assert (result.kind, result.step, result.rule, result.fault) == ("reading", 1, None, "cut-last"), result.cause
    assert "your corpus's last character is counted as a word of its own" in result.cause
    assert "'␣newest' becomes '␣newes' and 't'" in result.cause
    assert "your count of (s, t) drops to 8 while it is 9" in result.cause
    assert "With those counts our run makes all 12 of your merges." in result.cause


def test_pieces_of_a_special_token_left_by_an_unescaped_split_are_named_as_special_tokens():
    # '<|endoftext|>' as a pattern splits at '<', 'endoftext' and '>': '||' stays between the documents
    text = CORPORA["prose"]
    merges, result = check(text, "unescaped", 190)
    step = first_difference(train(text, 190)[1], merges)
    assert (result.kind, result.step, result.theirs) == ("specials", step, (b"|", b"|")), result.cause
    assert "made of characters of the special token <|endoftext|>" in result.cause
    assert "unescaped regular expression" in result.cause


def test_a_pair_with_a_lone_byte_beside_a_merged_character_is_not_called_a_character_base():
    # a faulty neighbour update between two merged 'π' tokens can make (π, \xcf): a lone byte cannot come from a
    # run on characters, and both are tokens of ours at that step, only never side by side
    text = CORPORA["bytes"]
    good = train(text, 80)[1]
    k = good.index((b"\xcf", b"\x80")) + 1
    student = StudentRun("CS336 pickle", (*good[:k], ("π".encode(), b"\xcf"), *good[k + 1 :]), byte_level=True)
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert (result.kind, result.step) == ("missing", k + 1), result.cause
    assert "a pair no word of our corpus holds at this step, though both are tokens of ours" in result.cause
    assert "character" not in result.cause.split("merged token")[0]


@pytest.mark.parametrize("corpus", ["handout", "bytes"])
def test_a_run_without_pre_tokenization_is_named_no_pre_tokenization_with_the_first_seen_tie(corpus):
    # minbpe's way: the whole text one sequence, ties to the pair seen first; no pre-tokenizer we had made it
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, "none", n)
    assert result.settings == Setup("first", "none", True) and result.equal, result.cause
    assert result.cause.startswith("Your run equals ours with no pre-tokenization (each text one sequence) and the "
                                   f"first tie rule (the pair seen first wins): all {n} merges agree.")  # fmt: skip
    assert result.step == first_difference(train(text, n)[1], merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_run_without_word_boundaries_is_named_no_pre_tokenization_with_cs336_ties(corpus):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, "one-sequence", n)
    assert (result.kind, result.step) == ("pre-tokenizer", first_difference(train(text, n)[1], merges)), result.cause
    assert result.settings == Setup("greatest-bytes", "none", True) and result.fault is None
    assert "no pre-tokenization (each text one sequence)" in result.cause


def test_a_run_without_pre_tokenization_or_special_tokens_split_out_names_both():
    text, n = CORPORA["prose"], MERGES["prose"]
    merges, result = check(text, "none", n)
    assert (result.kind, result.step, result.settings.pre_tokenizer) == ("pre-tokenizer", 1, "none"), result.cause
    assert "your run does not cut the text into words" in result.cause
    assert result.later_kind == "specials" and "did not split special tokens out" in result.cause


def test_a_faulty_run_one_merge_longer_than_its_target_is_told_so():
    # Gianthard-cyh's loop also runs `while len(vocab) <= vocab_size`: one merge past the target, which the
    # verdict on the first divergent merge would otherwise leave unsaid
    text, n = CORPORA["handout"], MERGES["handout"]
    vocab, merges = train(text, n + 1, "no-sift-up-skip-first")
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    size = len(vocab) - 1  # the special token, the 256 bytes and n merges
    result, _ = diagnose(text, student, CS336_SETUP, [EOT], vocab_size=size)
    assert (result.kind, result.step) == ("merge-loop", first_difference(train(text, n)[1], merges)), result.cause
    assert f"Your run also makes {n + 1} merges where a vocabulary of {size} asks for {n}: one too many" in result.cause
    exact, _ = diagnose(text, student, CS336_SETUP, [EOT], vocab_size=size + 1)
    assert exact.step == result.step and "one too many" not in exact.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_settings_that_make_a_run_up_to_its_target_are_named_with_the_step_where_it_leaves_ours(corpus):
    # ikontaev's run: no word boundaries, and one merge past the vocabulary size; the step is where it
    # leaves CS336's run, not where it passes its target
    text, n = CORPORA[corpus], MERGES[corpus]
    vocab, merges = train(text, n + 1, "one-sequence")
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    result, _ = diagnose(text, student, CS336_SETUP, [EOT], vocab_size=len(vocab) - 1)
    assert (result.kind, result.step) == ("pre-tokenizer", first_difference(train(text, n)[1], merges)), result.cause
    assert result.settings == Setup("greatest-bytes", "none", True)
    assert result.cause.startswith("Your run equals ours with no pre-tokenization")
    assert f"makes {n + 1} merges where a vocabulary of {len(vocab) - 1} asks for {n}: one too many" in result.cause


def test_neighbours_read_from_the_old_word_are_named_before_substring_when_both_follow_as_far():
    # serenya's loop has the stale-neighbours update and parts from it one merge later (a word's count
    # overwritten): substring and positions follow it exactly as far, and the commoner bug is named
    text, n = CORPORA["bytes"], MERGES["bytes"]
    stale = train(text, n, "stale-neighbours")[1]
    step = first_difference(train(text, n)[1], stale)
    merges = [*stale[:step], stale[step + 1]]  # one more merge of its own, then a merge no fault makes there
    vocab = {i: bytes([i]) for i in range(256)} | {256 + i: a + b for i, (a, b) in enumerate(merges)}
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    texts, words, freqs = student_words(text, CS336_SETUP, [EOT])
    reach = {f: replay(words, freqs, merges, FAULTS[f], tie="greatest-bytes").reproduced for f in FAULTS}
    assert reach["substring"] == reach["stale-neighbours"] == step
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    assert (result.kind, result.step, result.fault) == ("merge-loop", step, "stale-neighbours"), result.cause


@pytest.mark.parametrize(
    ("corpus", "loop"), [("handout", "left-symbol"), ("prose", "stale-neighbours"), ("prose", "frozen")]
)
def test_no_word_boundaries_with_a_loop_fault_is_named_before_another_cut_or_a_reading_that_follows_as_far(
    corpus, loop
):
    # a run without word boundaries parts from 'none' at the loop fault; space-suffix words or positions
    # counted per chunk follow it as far by chance
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, f"one-sequence+{loop}", n)
    assert (result.kind, result.step) == ("pre-tokenizer", first_difference(train(text, n)[1], merges)), result.cause
    assert result.settings.pre_tokenizer == "none" and (result.later_kind, result.fault) == ("merge-loop", loop)
    assert "your run does not cut the text into words" in result.cause


@pytest.mark.parametrize("loop", ["half", "adjacent", "stale-neighbours", "frozen"])
def test_positions_counted_per_chunk_are_not_put_down_to_no_word_boundaries_that_follow_as_far(loop):
    # manoogim's reader: 'none' follows its run exactly as far, but no merged token crosses a word boundary
    text, n = CORPORA["prose"], MERGES["prose"]
    merges, result = check(text, f"chunk-positions+{loop}", n)
    assert (result.kind, result.fault, result.step) == ("reading", "chunk-positions", 1), result.cause


def test_a_tie_on_the_printed_pair_is_named_where_a_quote_beats_a_space():
    # Christine8888's key: max over (count, str((a, b))); "(b' ', b'count')" beats "(b'  ', b' ')" because the quote
    # closing b' ' sorts above the second space, though the pair of bytes (␣␣, ␣) is the greater
    text, n = CORPORA["prose"], MERGES["prose"]
    merges, result = check(text, "greatest-repr", n)
    step = first_difference(train(text, n)[1], merges)
    assert (result.kind, result.rule, result.step) == ("tie", "greatest-repr", step), result.cause
    assert "the text str((a, b)) of the pair of bytes objects is compared, not the bytes" in result.cause
    assert str(merges[step - 1]) > str(train(text, n)[1][step - 1])


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_left_pair_subtracted_from_the_old_word_is_named_with_the_pair_that_stays(corpus):
    # lightartw's update: at the second of two merged tokens side by side it subtracts (b, a) as read from the old
    # word, where the word being built holds (ab, a), which the first one added and nothing removes
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, "stale-left", n)
    step = first_difference(train(text, n)[1], merges)
    # where reading both neighbours off the old word, in a loop that keeps the merged pair's count, makes the same
    # merges, that commoner bug is named first and this one told beside it
    same = {"stale-left"} | ({"stale-neighbours"} if train(text, n, STALE_KEPT)[1] == merges else set())
    assert (result.kind, result.step) == ("merge-loop", step) and result.fault in same, result.cause
    assert "subtracts the left neighbour pair of each" in result.cause and "as read from the word before the merge" in (
        result.cause
    )
    for other in ("stale-neighbours", "adjacent", "overlap-subtract"):
        assert train(text, n, other)[1] != merges
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["stale-left"], tie="greatest-bytes").reproduced == len(merges)


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_trainer_that_never_reads_its_input_is_told_its_merges_are_not_from_this_corpus(corpus):
    # anyakonovalenko's trainer: the open(input_path) commented out, a sample text trained on instead; the old Check
    # said "a different byte base or pre-tokenizer"
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, IGNORES_INPUT, n)
    assert merges[0][0] + merges[0][1] not in text.encode()
    assert (result.kind, result.step) == ("missing", 1), result.cause
    assert f"you {show_pair(merges[0])}: your merges are not from this corpus" in result.cause
    assert "your trainer read another text than the file it was given" in result.cause
    assert "byte base or pre-tokenizer" not in result.cause.split("so no byte base")[0]


def test_a_first_pair_absent_from_word_counts_is_not_called_another_corpus():
    # word counts carry no text: a pair across two words may be the student's, so the plain sentence is not said
    merges = train(SAMPLE, 3)[1]
    student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
    result, _ = diagnose({"low": 5, "lower": 2}, student, CS336_SETUP, [EOT])
    assert result.step == 1 and "not from this corpus" not in result.cause


def test_a_first_merge_far_below_the_top_says_the_merges_may_not_be_from_this_corpus():
    # a trainer that read another text: its first pair occurs in our corpus, but once, where ours counts 9
    text = CORPORA["handout"] + " the"
    merges = train("the then there these those " * 5, 6)[1]
    assert merges[0][0] + merges[0][1] in text.encode()
    result, _ = diagnose(text, StudentRun("CS336 pickle", tuple(merges), byte_level=True), CS336_SETUP, [EOT])
    assert (result.kind, result.step) == ("count", 1), result.cause
    assert "that far from the top, your merges may not be from this corpus" in result.cause
    near, _ = diagnose(CORPORA["handout"], StudentRun("CS336 pickle", ((b"e", b"s"),), byte_level=True), CS336_SETUP)
    assert "not be from this corpus" not in near.cause


def test_a_run_merged_out_of_order_is_hinted_at_where_a_pair_holds_a_piece_of_the_run(monkeypatch):
    # RetroDnix-CodeLLM's loop merges a word's occurrences in a set's order, here from the word's end: where no replay
    # of an order follows the run (here: the replay from the end left out), the count that is off is told with the
    # run of one symbol that the order splits otherwise
    monkeypatch.setattr(check_cause, "right_to_left", lambda *args: None)
    monkeypatch.setattr(check_cause, "right_to_left_read", lambda *args, **options: None)
    text, n = CORPORA["bytes"], MERGES["bytes"]
    merges, result = check(text, RIGHT_TO_LEFT, n)
    step = first_difference(train(text, n)[1], merges)
    assert (result.kind, result.step) == ("count", step), result.cause
    assert "a loop that merges a word's occurrences in another order than left to right" in result.cause
    assert "(😀 😀😀 where ours makes 😀😀 😀)" in result.cause


def test_neighbours_read_from_the_old_word_in_a_loop_that_keeps_the_merged_count_are_named_to_the_run_s_end():
    # giovanni-vaccarino's loop only subtracts each merged occurrence, so the phantom (π, \xcf) is merged again and
    # again: replayed deleting the merged pair, stale-neighbours parted from the run after 7 of its 80 merges
    text, n = CORPORA["bytes"], MERGES["bytes"]
    merges, result = check(text, STALE_KEPT, n)
    assert len(set(merges)) < len(merges)
    step = first_difference(train(text, n)[1], merges)
    assert (result.kind, result.fault, result.step) == ("merge-loop", "stale-neighbours", step), result.cause
    _, words, freqs = student_words(text, CS336_SETUP, [EOT])
    assert replay(words, freqs, merges, FAULTS["stale-neighbours"], tie="greatest-bytes", keeps=True).reproduced == n


def test_two_faults_that_make_every_merge_are_both_named():
    # on the prose, reading both neighbours off the old word and reading only the left pair off it make the same
    # merges once the loop keeps the merged pair's count: the run cannot tell them apart, so both are said
    text, n = CORPORA["prose"], MERGES["prose"]
    merges, result = check(text, STALE_KEPT, n)
    assert train(text, n, "stale-left")[1] == merges
    # reading both neighbours off the old word is the commoner bug in students' code: it is named, the other told too
    assert (result.kind, result.fault) == ("merge-loop", "stale-neighbours"), result.cause
    assert result.cause.endswith(
        f"Another known fault makes all your merges here too, so it may be yours: {FAULTS['stale-left'].sentence}."
    )


def test_a_short_run_whose_merges_agree_only_under_another_tie_rule_is_told_the_rule_and_where_it_stops():
    # Vialov: a heap's tie and a loop that ends after one merge; the Check said "stops short ... the 1 merges you
    # made agree with ours" at step 2, while CS336's run takes (s, t) where the student took (e, s) at step 1
    text = CORPORA["handout"]
    smallest = Setup("lexicographic", CS336_SETUP.pre_tokenizer, True)
    merges = history_bytes(train_setup(text, smallest, 1, [EOT]))
    assert merges != history_bytes(train_setup(text, CS336_SETUP, 1, [EOT]))
    student = StudentRun("CS336 pickle", tuple(merges), vocab_size=269, byte_level=True, special_tokens=(EOT,))
    result, _ = diagnose(text, student, CS336_SETUP, [EOT], vocab_size=269)
    # the pair seen first makes this one merge too, and ties so are the commoner in students' code: it leads
    assert (result.kind, result.step, result.rule) == ("tie", 1, "first"), result.cause
    assert "The lexicographic tie rule (the smallest pair wins) makes them all too" in result.cause
    assert "stops short: it ends after step 1 where a vocabulary of 269 asks for 12 merges" in result.cause
    assert "the runs part at step 1" in result.cause
