"""Sets CD's and CG's classes (tests/cd_trainers.py), pasted as the Check page reads them: a linked list merged at a copy
of the pair's places, whose absorbed nodes pass the check again in a run of one symbol, picked by a lazy heap; counts
moved only on the left of each new token; a byte-level run whose words start with a symbol of the student's own."""

from __future__ import annotations

import pytest
from cd_trainers import (
    by_repeated_passes,
    cd_dead_nodes_heap,
    cf_start_marked_bytes,
    cg_right_never,
    ch_positions_chr,
    ci_short_range,
    cl_decomposed,
    cm_printable_padded,
    cm_tied_passes,
    co_first_ids,
    cp_newline_skipped,
    cq_unspaced_pattern,
    cr_greedy_cut,
    ct_key_right_id,
)
from check_support import check_pasted
from faulty_trainers import CORPORA
from line_trainers import train_sequences

from bpe.check import Setup, diagnose
from bpe.check_loop import Words, find_fault
from bpe.check_rounds import Rounds, _needed
from bpe.check_setup import student_words
from bpe.check_work import Work
from bpe.fault_replay import replay
from bpe.formats.student_runs import read_student_text
from bpe.merge_faults import CORRECT
from bpe.text_cleanings import covers
from bpe.tie_keys import OUR_FIRST
from server.jobs import corpus_of

WHOLE_TEXT = Setup("first", "none", False)
WHOLE_BYTES = Setup("first", "none", True)


def _checked(text: str, pasted_text: str, setup: Setup, merges: int):
    """A run pasted as ``pasted_text``, checked on ``text``: (the student's run, the verdict)."""
    student = read_student_text(pasted_text, "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup, (), num_merges=merges)
    return student, result


@pytest.mark.parametrize(("corpus", "step"), [("prose", 3), ("bytes", 4)])
def test_absorbed_nodes_merged_again_under_a_lazy_heap_are_told_with_the_heap(corpus, step):
    # the old Check told two merged tokens side by side counted twice (prose), or a merge that makes a token at every
    # start of the pair with ties by token ids (bytes), neither the student's loop (set CD's Halva773)
    student, result = check_pasted(corpus, cd_dead_nodes_heap, WHOLE_TEXT)
    assert (result.step, result.kind, result.fault) == (step, "merge-loop", "lazy-heap-dead-node"), result.cause
    assert "a node an earlier place absorbed is never marked" in result.cause, result.cause
    assert "your heap of (-count, id, id) gets a new entry only for a pair whose count rose" in result.cause


def test_the_count_the_absorbed_nodes_add_is_told_not_a_lost_heap_entry():
    # the heap's sentence for a lost entry ("your count of (h, e) is right, but it fell") was said where the count
    # of the student's own pair was off: four spaces merged twice over make (␣␣, ␣␣) 87 where it is 44
    _, result = check_pasted("prose", cd_dead_nodes_heap, WHOLE_TEXT)
    assert "your count of (␣␣, ␣␣) rises to 87 while it is 44" in result.cause, result.cause
    assert "is right, but it fell" not in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_counts_moved_only_on_the_left_of_each_new_token_are_told(corpus):
    # the old Check told the right pair added instead of subtracted (handout), or a pair no word holds put side by
    # side by some faulty update (bytes), where the student's update never touches the right side (set CG's toxypiks)
    student, result = check_pasted(corpus, cg_right_never, Setup("first", "none", True))
    assert (result.kind, result.fault) == ("merge-loop", "right-never"), result.cause
    assert "never moves the pair on the right of each" in result.cause, result.cause


@pytest.mark.parametrize(("corpus", "merges"), [("handout", 10), ("prose", 40)])
def test_a_byte_level_run_whose_words_start_with_a_mark_is_told_the_mark(corpus, merges):
    # the old Check never looked for word marks in a run pasted as bytes, and told a pair our corpus never has, or
    # merges from another text (set CF's kishanku56)
    text = CORPORA[corpus]
    student, result = _checked(text, cf_start_marked_bytes(text, merges), Setup("first", "whitespace", True), merges)
    assert student.byte_level
    assert result.kind == "word-marks", result.cause
    assert "your words start with the symbol '_'" in result.cause, result.cause


def test_an_end_symbol_never_merged_names_a_count_one_pair_short():
    # the sentence named a loop that never counts a pair holding '</w>', not the commoner slip that makes it: a
    # range one pair short never reaches a word's last pair (set CI's shreeya-sengupta)
    _, result = check_pasted("handout", ci_short_range, Setup("first", "sennrich", False))
    assert "Your run's '</w>' never merges with anything" in result.cause, result.cause
    assert "range(len(word) - 2), one pair short" in result.cause, result.cause


def test_bytes_pasted_as_latin_1_characters_are_told_at_the_first_merge_whatever_follows():
    # the old Check read the labels as Latin-1 only where half the first merges then stood in the text, and told
    # merges from another text where a loop of the student's own wrecked every merge after the first (set CH's
    # elahehaghaarabi: the first merge (c3, a9) pasted as ('Ã', '©'))
    text = CORPORA["bytes"]
    _, result = _checked(text, ch_positions_chr(text, 60), Setup("first", "none", True), 60)
    assert (result.step, result.kind, result.fault) == (1, "vocabulary", "latin1"), result.cause
    assert "your merge 1 (Ã, ©) is our (\\xc3, \\xa9)" in result.cause, result.cause


def test_a_linked_lazy_heap_is_not_named_where_its_ids_tie_rule_alone_follows_as_far():
    # its heap pops the pair of smallest ids among equal counts: where the smallest-id rule alone makes as many
    # merges, the rule is the simpler cause; the linked heap was held to the smallest-bytes rule, and named over the
    # rule (set AN's Defalt-Meh, whose truth is the rule)
    text = CORPORA["bytes"]
    words = Words(*student_words(corpus_of("text", "", text, ""), Setup("first", "gpt2", True), (), None))
    theirs = replay(words.words, words.freqs, [], CORRECT, tie="smallest-id", choose=12).chosen
    ours = replay(words.words, words.freqs, [], CORRECT, tie=OUR_FIRST, choose=12).chosen
    step = next(k for k, (a, b) in enumerate(zip(theirs, ours, strict=True)) if a != b) + 1
    merges = [*theirs, (b"\x01", b"\x02")]  # then a pair neither makes
    found = find_fault(words, merges, step, (ours[step - 1], theirs[step - 1]), OUR_FIRST)
    assert found is None or found.fault.name != "lazy-heap-dead-node", found


def test_a_text_in_nfd_form_is_told_as_a_cleaning():
    # the old Check told merges from another text: (e, U+0301) stands nowhere in the text as written (set CL's
    # AnimaVR, whose C# trainer normalizes each word to NFD)
    _, result = check_pasted("bytes", cl_decomposed, Setup("first", "sennrich", False))
    assert (result.step, result.kind) == (1, "cleaning"), result.cause
    assert "decomposes each accented character into its letter and a combining mark" in result.cause, result.cause


def test_a_replacement_character_in_a_run_does_not_rule_a_cleaning_out():
    # a C# trainer splits an emoji into two UTF-16 halves, each printed as U+FFFD: the text holds no U+FFFD, and
    # every cleaning was ruled out as dropping a character the student merges
    assert covers("café 😀", ["e\u0301".encode(), "\ufffd".encode()], "") is False  # no 'e' + U+0301 as written
    assert covers("cafe\u0301 😀", ["e\u0301".encode(), "\ufffd".encode()], "")


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_loop_merging_every_repeated_pair_in_one_walk_is_told(corpus):
    # the old Check told a count that differs, a reader of the first chunk, or ties with a loop fault: the run's first
    # merge is the text's first repeated pair (set BY's rajdeep-biswas)
    _, result = check_pasted(corpus, by_repeated_passes, Setup("first", "none", True))
    assert (result.step, result.kind, result.fault) == (1, "merge-loop", "rounds-repeated"), result.cause
    assert "merges every pair counted more than once" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_loop_merging_every_tied_pair_in_one_walk_is_told(corpus):
    # the old Check told a tie broken by the greatest-bytes rule or a set's order, or a count that is off: both tied
    # pairs are merged in one walk and listed in the container's order (set CM's p-dekker)
    _, result = check_pasted(corpus, cm_tied_passes, Setup("first", "none", True))
    assert (result.kind, result.fault) == ("merge-loop", "rounds-tied"), result.cause
    assert "merges every pair tied at the greatest count in one walk" in result.cause, result.cause


def test_a_pass_of_tied_pairs_a_one_pair_loop_makes_one_by_one_is_not_told_as_several_per_pass():
    # set CK's rafaelgdgs (Rust: ties in a HashMap's random order, with counts never subtracted) was told as a loop
    # merging every tied pair in one pass: its step 2 lists (π's bytes) and (Ā's bytes), tied at 42 and apart from
    # each other, which a one-pair loop merges alike one by one
    text = CORPORA["bytes"]
    _, words, freqs = student_words(corpus_of("text", "", text, ""), WHOLE_BYTES, ())
    merges = replay(words, freqs, [], CORRECT, tie="greatest-bytes", choose=12).chosen
    assert merges[1:3] == [(b"\xcf", b"\x80"), (b"\xc4", b"\x80")]
    apart = Rounds("tied", 6, tuple(merges[1:3]), 2)
    assert not _needed(words, freqs, merges, apart, Work("rounds"))
    # where merging one pair takes the other's symbols, the pass is needed: (s, t) after (e, s) on the handout
    _, words, freqs = student_words(corpus_of("text", "", CORPORA["handout"], ""), WHOLE_BYTES, ())
    taken = [(b"s", b"t"), (b"e", b"s")]
    assert _needed(words, freqs, taken, Rounds("tied", 2, tuple(taken), 1), Work("rounds"))


def test_zeros_left_by_a_reader_of_printable_bytes_are_told_as_the_bytes_it_dropped():
    # the old Check said the trainer took the file's bytes for its characters (486 places), where a C reader kept only
    # the printable ASCII bytes in a buffer as long as the file: 852 places are never written (set CM's osamasrour)
    text = CORPORA["bytes"]
    _, result = _checked(text, cm_printable_padded(text, 60), Setup("first", "none", True), 60)
    assert result.step == 1, result.cause
    assert "it keeps only the printable ASCII bytes (isprint, and the newline), dropping the 852 others" in result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_ties_to_the_smallest_ids_numbered_as_the_text_first_holds_them_are_told(corpus):
    # the old Check told ties in a container's order, by no rule (set CO's ndbre, whose Rust trainer numbers the
    # characters as it meets them)
    _, result = check_pasted(corpus, co_first_ids, WHOLE_TEXT)
    assert (result.kind, result.rule) == ("tie", "first-id"), result.cause


def test_a_selection_that_never_merges_a_line_break_is_told():
    # the old Check told the text read line by line with each line's break kept, which still counts pairs such as
    # (')', '\\n') (set CP's hosseinkh79: a pair with '\\n' on either side is skipped, spaces merge)
    _, result = check_pasted("prose", cp_newline_skipped, WHOLE_TEXT)
    assert (result.kind, result.fault) == ("merge-loop", "space-ban"), result.cause
    assert "never takes a pair that holds a line break" in result.cause, result.cause
    # set AO's badou-jinzhenxiao reads the text line by line and drops the breaks, which makes the same merges
    assert "a text cut into lines with the line breaks dropped" in result.cause, result.cause


def test_gpt2s_pattern_without_its_optional_spaces_is_told_as_a_cut_of_the_students_own():
    # the old Check told runs of whitespace as words (\\S+|\\s+) for six merges, then a loop fault the student did
    # not have (set CQ's TQCB)
    _, result = check_pasted("prose", cq_unspaced_pattern, Setup("first", "gpt2", False))
    assert (result.step, result.kind) == (1, "cleaning"), result.cause
    assert "GPT-2's pattern written without its optional spaces" in result.cause, result.cause


def test_a_loop_that_cuts_the_text_anew_by_its_longest_tokens_is_told():
    # the old Check told a count that is off by no known fault (set CR's cvcore, set BI's BFavier): once ' the ' is
    # learned, ' the text' is cut ' the ', 't', ..., taking back the space merge 2 had joined into ' t'
    _, result = check_pasted("prose", cr_greedy_cut, WHOLE_TEXT)
    assert (result.kind, result.fault) == ("merge-loop", "greedy-cut"), result.cause
    assert "cuts the text again by the longest token it has learned" in result.cause, result.cause


def test_bytes_written_as_sentencepieces_byte_fallback_are_read_as_bytes():
    # set CT's hongyuxu0 prints each byte outside printable ASCII as '<0x0A>': the old Check read the text '<0xC3>'
    # and told merges from another text, where every merge read back as bytes is ours
    student = read_student_text("[('<0xC3>', '<0xA9>'), ('.', ' '), ('<0x0A>', 'a'), ('<0xC3><0xA9>', 'x')]", "x")
    assert student.byte_level
    assert student.merges == ((b"\xc3", b"\xa9"), (b".", b" "), (b"\n", b"a"), (b"\xc3\xa9", b"x"))
    _, result = check_pasted("bytes", _fallback_written_trainer, WHOLE_BYTES)
    assert result.kind == "same", result.cause


def _fallback_written_trainer(text: str, num_merges: int) -> list[tuple[str, str]]:
    """Our run on ``text``'s bytes, each byte outside printable ASCII written '<0xHH>'."""
    _, words, freqs = student_words(corpus_of("text", "", text, ""), WHOLE_BYTES, ())
    merges = replay(words, freqs, [], CORRECT, tie=OUR_FIRST, choose=num_merges).chosen

    def shown(token: bytes) -> str:
        return "".join(chr(b) if 0x20 <= b < 0x7F else f"<0x{b:02X}>" for b in token)

    return [(shown(a), shown(b)) for a, b in merges]


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_an_end_tag_with_its_closing_bracket_left_off_is_told_as_an_end_mark(corpus):
    # set CT's Biswaraj21 writes " </w" after each word's characters: told as a pair our corpus never has, or merges
    # from another text
    def trainer(text: str, num_merges: int) -> list[tuple[str, str]]:
        return train_sequences([[*w, "</w"] for w in text.split()], num_merges)

    _, result = check_pasted(corpus, trainer, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "your words end in the symbol '</w'" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_pair_taken_by_its_right_id_not_its_count_is_told(corpus):
    # the old Check told counts that differ before any merge, or merges from another text (set CT's AnubhavGupta3377)
    _, result = check_pasted(corpus, ct_key_right_id, WHOLE_BYTES)
    assert (result.step, result.kind, result.fault) == (1, "merge-loop", "key-right-id"), result.cause
    assert "reads the pair's right token id, not its count" in result.cause, result.cause


def test_a_byte_level_run_whose_words_end_in_a_space_is_still_told_the_mark():
    # a run of bytes is looked at for a start mark and a space ending words only (set CS's ReinforcedKnowledge writes
    # 'Ġ' after each word but a line's last): that space mark was lost when ends were left out for runs of bytes
    def trainer(text: str, num_merges: int) -> list[tuple[str, str]]:
        words = [[*w, "\u0120"] for line in text.splitlines() for w in line.split()[:-1]]
        words += [list(line.split()[-1]) for line in text.splitlines() if line.split()]
        return train_sequences(words, num_merges)

    student, result = check_pasted("prose", trainer, Setup("first", "sennrich", False))
    assert student.byte_level
    assert result.kind == "word-marks", result.cause
    assert "your words end in a space character" in result.cause, result.cause
