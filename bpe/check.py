"""Check a student's BPE run against ours: the first merge where the runs part, and the likely cause.

Students who write their own BPE (the Hugging Face course's loop, minbpe, Stanford CS336's assignment
1) get merges that differ somewhere from the expected ones. :func:`diagnose` first searches our
settings (:func:`best_settings`); :func:`compare` trains our run on the same corpus, compares merge by
merge as byte pairs (so a run on characters and a run on bytes compare alike), and at the first
difference reads both pairs' counts in our run at that step. The cause is told in one sentence:

1. other settings (``alternative``) reproduce every merge: the byte base, the pre-tokenizer or the
   tie rule, said first ("Your run equals ours with ..."), then the step where the compared ones part
   (where two tie rules make every merge, the commoner first: :mod:`bpe.check_ties`);
2. else the causes are tried in order under the compared settings (:mod:`bpe.check_cause`), other settings
   that go further among them.

A run saved as token ids (:mod:`bpe.check_ids`), whose merged tokens are recorded as the sums of their ids
(:mod:`bpe.check_ints`), or that lists each merge once per word holding its pair (:mod:`bpe.check_per_word`), is told
so first, then compared as the merges it stands for; a run that parts from
ours and makes one merge more than its target is told so after the cause.

Left out: the causes under one setup (:mod:`bpe.check_cause`), our settings and the search over them
(:mod:`bpe.check_setup`), the result's fields (:mod:`bpe.check_result`), reading the student's files
(:mod:`bpe.formats.student_runs`) and drawing the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .check_cause import SPACE_LED, ascii_text, compare_one, settings_kind, unspaced_reach
from .check_ends import ends_clause, target_merges
from .check_glued import glued_mark, glued_told, read_as_ours
from .check_ids import id_merges
from .check_ints import sum_merges, sums_told
from .check_lossy import holds_replaced, lossy_read, lossy_told
from .check_marks import find_marks, marks_told
from .check_notation import LEGEND, show_bytes, show_pair, show_word
from .check_per_word import PerWord, per_word
from .check_relabel import as_characters, relabel_told, relabelled
from .check_renumbered import read_back, renumbered, renumbered_told
from .check_result import Comparison, pair_words, to_ours, words_that_differ
from .check_setup import (
    CS336_SETUP,
    CS336_SPECIALS,
    MAX_SEARCH_CHARS,
    Setup,
    agreed,
    best_settings,
    history_bytes,
    raw_word_counts,
    setup_agreed,
    student_words,
    train_setup,
)
from .check_stream import find_stream, stream_told
from .check_ties import TIE_SENTENCES, commoner_tie, container_tie, rarer_tie, students_tie, two_tie_rules
from .check_work import MergeCost, Work, cut_sentence, watching
from .fault_replay import replay
from .formats.student_runs import StudentRun
from .merge_faults import FAULTS
from .pre_tokenizers import Corpus
from .text_cleanings import UNSPACED_GPT2
from .tie_keys import TIE_KEYS

__all__ = [
    "CS336_SETUP", "CS336_SPECIALS", "LEGEND", "MAX_SEARCH_CHARS", "Comparison", "Setup",
    "agreed", "best_settings", "compare", "diagnose", "history_bytes", "raw_word_counts", "show_bytes", "show_pair",
    "train_setup",
]  # fmt: skip


def diagnose(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    special_tokens: Sequence[str] = (),
    *,
    num_merges: int | None = None,
    vocab_size: int | None = None,
) -> tuple[Comparison, list[tuple[Setup, int]]]:
    """The settings search first, then the comparison: ``setup`` (and CS336's for a CS336 upload) tried
    first, and the settings that reproduce the most of the run said first. A CS336 upload is compared
    with CS336's settings (``result.setup`` says which were used). Returns the comparison and the
    ranking of our settings. Every search within is bounded by counted work (:mod:`bpe.check_work`), so the
    verdict is the same however busy the machine; where the check's safety net stops a search, the cause says so."""
    renumber = renumbered(corpus, student)
    if renumber is not None:  # a .model whose ids number the corpus's own bytes: read back through that numbering
        read = read_back(student, renumber)
        inner, ranked = diagnose(corpus, read, setup, special_tokens, num_merges=num_merges, vocab_size=vocab_size)
        return renumbered_told(renumber, student.merges, inner), ranked
    student = as_characters(corpus, student)  # characters our reader took for GPT-2's bytes: read as characters
    if holds_replaced(student):  # tokens printed through decode('utf-8', 'replace'): read as ours where they fit
        ours = history_bytes(train_setup(corpus, setup, len(student.merges), special_tokens, student.end_of_word))
        lossy = lossy_read(student, ours)
        if lossy is not None:
            options = dict(num_merges=num_merges, vocab_size=vocab_size)
            inner, ranked = diagnose(corpus, lossy.run, setup, special_tokens, **options)
            return lossy_told(lossy, inner), ranked
    relabel = relabelled(corpus, student.merges, student.byte_level)
    if relabel is not None and relabel.merges is not None:  # a vocabulary that labels the bytes wrongly: read back
        read = replace(student, merges=relabel.merges)
        inner, ranked = diagnose(corpus, read, setup, special_tokens, num_merges=num_merges, vocab_size=vocab_size)
        return relabel_told(relabel, student.merges, inner), ranked
    with watching() as check:
        glued = glued_mark(corpus, student)
        if glued is not None:  # a mark glued to each word's last character: read as our '</w>', then checked
            options = dict(num_merges=num_merges, vocab_size=vocab_size)
            inner, ranked = _diagnosed(corpus, read_as_ours(student, glued), setup, special_tokens, **options)
            return _told_cut(glued_told(corpus, student, setup, special_tokens, glued, inner), check), ranked
        marks = find_marks(corpus, student, setup, special_tokens)
        if marks is not None:  # words marked otherwise ('_' for '</w>', a space before each): compared marked so
            options = dict(num_merges=num_merges, vocab_size=vocab_size)
            inner, ranked = _diagnosed(marks.counts, marks.run or student, marks.setup, (), **options)
            return _told_cut(marks_told(corpus, student, setup, special_tokens, marks, inner), check), ranked
        stream = find_stream(corpus, student, setup, special_tokens)
        if stream is not None:  # each word followed by a separator the text never holds, perhaps all in one stream
            ranked = best_settings(corpus, student, special_tokens, prefer=(setup,))
            return _told_cut(stream_told(corpus, student, setup, special_tokens, stream), check), ranked
        result, ranked = _diagnosed(
            corpus, student, setup, special_tokens, num_merges=num_merges, vocab_size=vocab_size
        )
        return _told_cut(result, check), ranked


def _diagnosed(corpus, student, setup, special_tokens, *, num_merges, vocab_size):
    """:func:`diagnose`'s settings search and comparison, inside its scope of work."""
    ranked = best_settings(corpus, student, special_tokens, prefer=(setup,))
    reached = dict(ranked)
    if student.format.startswith("CS336") and reached.get(CS336_SETUP, -1) > reached.get(setup, 0):
        setup = CS336_SETUP  # a CS336 upload is compared with CS336's settings when they go further
    closest = ranked[0][0] if ranked and ranked[0][0] != setup else None
    result = compare(corpus, student, setup, special_tokens, closest, num_merges=num_merges, vocab_size=vocab_size)
    return result, ranked


def compare(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    special_tokens: Sequence[str] = (),
    alternative: Setup | None = None,
    *,
    num_merges: int | None = None,
    vocab_size: int | None = None,
    search: bool = True,
) -> Comparison:
    """Compare ``student`` with our run on ``corpus`` with ``setup``. ``alternative``: settings that
    reproduce more of the student's run (from :func:`best_settings`): said first when they reproduce
    all of it, else weighed with the other causes. ``num_merges``/``vocab_size``: the student's target size (a run that stops
    short of it or goes past it is flagged, and a run that parts from ours and is one merge longer than the
    target is told so too). ``search``: whether causes found by a search (known faulty loops, readers, tie
    keys) are tried, each within its allowance of work (:mod:`bpe.check_work`)."""
    with watching() as check:
        result = _compared(corpus, student, setup, special_tokens, alternative, num_merges, vocab_size, search)
        return _told_cut(result, check)


def _told_cut(result: Comparison, check) -> Comparison:
    """The result, with the sentence saying which searches the check's safety net cut short, if any."""
    cut = cut_sentence(check)
    return replace(result, cause=f"{result.cause} {cut}") if cut else result


def _compared(corpus, student, setup, special_tokens, alternative, num_merges, vocab_size, search) -> Comparison:
    """:func:`compare` inside the check's scope of work."""
    once = per_word(corpus, setup, tuple(special_tokens), student.merges, student.end_of_word)
    if once is not None and _one_loop_makes(corpus, student, setup, tuple(special_tokens), search):
        once = None  # a loop that keeps a merged pair's count repeats merges too: one bug, not a listing and another
    if once is not None:  # each merge listed once per word holding its pair: the merges taken once each are compared
        options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
        return _per_word(corpus, student, setup, tuple(special_tokens), alternative, once, options)
    ids = id_merges(student.merges)
    if ids is not None:  # the merges saved as token ids: what they stand for is compared
        options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
        return _as_ids(corpus, student, setup, tuple(special_tokens), alternative, ids, options)
    student = as_characters(corpus, student)  # characters our reader took for GPT-2's bytes: read as characters
    relabel = relabelled(corpus, student.merges, student.byte_level)
    if relabel is not None:  # a vocabulary that labels the bytes wrongly: the merges read back, where they can be
        read = replace(student, merges=relabel.merges or student.merges)
        options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
        inner = compare(corpus, read, setup, special_tokens, alternative, **options) if relabel.merges else None
        if inner is None:
            inner = _compare(corpus, student, setup, special_tokens, alternative, **options)
        return relabel_told(relabel, student.merges, inner, inner.our_merges)
    sums = sum_merges(student.merges)
    if sums is not None:  # merged tokens recorded as the sums of their ids: the run read back is compared
        read, first = sums
        whole = dict(num_merges=num_merges, vocab_size=vocab_size) if len(read) == len(student.merges) else {}
        inner = compare(corpus, replace(student, merges=tuple(read)), setup, special_tokens, alternative, **whole)
        return sums_told(student.merges, read, first, inner)
    result = _compare(
        corpus,
        student,
        setup,
        special_tokens,
        alternative,
        num_merges=num_merges,
        vocab_size=vocab_size,
        search=search,
    )
    if result.step is None or result.kind in ("goes-past", "stops-early"):
        return result
    named = result.settings or result.setup
    target, target_words = target_merges(
        corpus, named, tuple(special_tokens), num_merges, vocab_size, student.byte_level
    )
    if target is None or len(student.merges) != target + 1:
        return result
    return replace(
        result,
        cause=f"{result.cause} Your run also makes {target + 1} merges where {target_words} asks for {target}: one "
        "too many, as a loop that runs while the vocabulary is at most its size (not below it) makes.",
    )


def _as_ids(corpus, student, setup, specials, alternative, ids: tuple[list, int], options) -> Comparison:
    """The verdict on a run saved as token ids: that first, at step 1, then what the tokens they stand for get."""
    merges, offset = ids
    inner = compare(corpus, replace(student, merges=tuple(merges)), setup, specials, alternative, **options)
    first = student.merges[0]
    shown = f"({len(first[0])}, {len(first[1])})"
    cause = (
        f"Your merges are token ids, not pairs of bytes: the first is {shown}, and the ids above 255 count up by one "
        f"per merge from {offset}, as the dict {{(id, id): new id}} a loop keeps does. Read back with bytes(id), each "
        "is a run of zero bytes; return the pairs of bytes instead (vocab[a], vocab[b]). Read as the tokens they "
        f"stand for, {inner.cause[0].lower()}{inner.cause[1:]}"
    )
    ours = inner.our_merges[0] if inner.our_merges else None
    return Comparison(
        agreed=0, step=1, ours=ours, theirs=first, our_count=0, their_count=0, kind="merges-as-ids", cause=cause,
        history=inner.history, setup=inner.setup, rule=inner.rule, our_merges=inner.our_merges, fault=None,
        settings=inner.settings, later_kind=inner.kind if inner.step else None, later_step=inner.step,
    )  # fmt: skip


def _one_loop_makes(corpus, student, setup, specials, search: bool) -> bool:
    """Whether one known faulty loop makes the whole list, repeats and all, with our tie rule or a student's (tried
    within the loop faults' allowance of counted work, :mod:`bpe.check_work`): one fault with a tie rule is a
    simpler story than merges listed per word and a second cause for what is left."""
    if setup.tie_break != "greatest-bytes" or not search:
        return False
    _, words, freqs = student_words(corpus, setup, specials, student.end_of_word)
    work, cost, total = Work("loop"), MergeCost(words, student.merges), len(student.merges)
    for tie in ("greatest-bytes", *TIE_KEYS):
        for fault in FAULTS.values():
            if work.spent():
                return False
            run = replay(words, freqs, student.merges, fault, tie=tie, deadline=work.deadline)
            work.spend(cost.replayed(run.reproduced))
            if not run.finished:
                work.cut()
            if run.reproduced == total:
                return True
    return False


def _per_word(corpus, student, setup, specials, alternative, once: PerWord, options) -> Comparison:
    """The verdict on a run that lists each merge once per word holding its pair: that first, then what the merges
    taken once each get."""
    inner = compare(corpus, replace(student, merges=once.merges), setup, specials, alternative, **options)
    target, target_words = target_merges(corpus, inner.settings or setup, specials, **{
        k: options[k] for k in ("num_merges", "vocab_size")
    }, byte_level=student.byte_level)  # fmt: skip
    times = sum(1 for p in student.merges if p == once.pair)
    listed = f"{len(student.merges)} merges, {len(set(once.merges))} different"
    if target is not None:
        listed += f", where {target_words} asks for {target}"
    shown = ", ".join(show_word(w) for w in once.words[:3]) + (" ..." if len(once.words) > 3 else "")
    cause = (
        f"At step {once.step} you list {show_pair(once.pair)} again: your run records each merge once for every word "
        f"holding its pair (merges.append inside the loop over the words, not after it), so {show_pair(once.pair)} "
        f"is listed {times} times, for {shown}; your list holds {listed}. Taken once each, "
        f"{inner.cause[0].lower()}{inner.cause[1:]}"
    )
    n = once.step - 1
    ours = inner.our_merges[n] if n < len(inner.our_merges) else None
    return Comparison(
        agreed=n, step=once.step, ours=ours, theirs=once.pair, our_count=0, their_count=0, kind="merge-loop",
        cause=cause, history=inner.history, setup=inner.setup, rule=inner.rule, our_merges=inner.our_merges,
        fault="per-word", settings=inner.settings, later_kind=inner.kind if inner.step else None,
        later_step=inner.step,
    )  # fmt: skip


def _compare(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    special_tokens: Sequence[str] = (),
    alternative: Setup | None = None,
    *,
    num_merges: int | None = None,
    vocab_size: int | None = None,
    search: bool = True,
) -> Comparison:
    """:func:`compare` but for a faulty run's length: the settings that reproduce more of the run weighed first."""
    specials = tuple(special_tokens)
    options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
    if alternative is not None and alternative != setup:
        n = setup_agreed(corpus, setup, student.merges, specials, student.end_of_word)
        n_alt = setup_agreed(corpus, alternative, student.merges, specials, student.end_of_word)
        if n_alt > n:
            history = train_setup(corpus, setup, n + 1, specials, student.end_of_word)
            alt = train_setup(corpus, alternative, n + 1, specials, student.end_of_word)
            return _with_settings(corpus, student, setup, alternative, specials, n, n_alt, history, alt, options)
    return compare_one(corpus, student, setup, specials, **options)


def _with_settings(corpus, student, setup, alternative, specials, n, n_alt, history, alt, options) -> Comparison:
    """Other settings reproduce more of the run. When they reproduce all of it, the verdict is theirs
    and the step shown is where the chosen settings part; else another base or pre-tokenizer competes
    with the other causes at the step where the chosen settings part."""
    total = len(student.merges)
    same_base = alternative.byte_base == setup.byte_base or ascii_text(corpus)  # on ASCII text the base changes nothing
    kind = settings_kind(setup, replace(alternative, byte_base=setup.byte_base) if same_base else alternative)
    theirs = student.merges[n]
    their_pair = to_ours(theirs, history)
    words = words_that_differ(pair_words(history, n, their_pair), pair_words(alt, n, to_ours(theirs, alt)))
    if n_alt == total:
        inner = compare_one(corpus, student, alternative, specials, **options)
        # past its target, a run those settings make up to it still parts from the compared ones well before
        past = inner.kind == "goes-past" and inner.step is not None and n + 1 < inner.step
        # the target size: the settings are not the story; a vocabulary that differs is told after them, since the
        # runs part under the compared settings all the same
        # a run that stops short under those settings parted from the compared ones first: told after them
        short = inner.kind == "stops-early"
        if inner.kind not in ("same", "vocab-size") and not past and not short:
            return replace(inner, settings=alternative)
        ours = compare_one(corpus, student, setup, specials, search=False)
        lead = commoner_tie(corpus, student, alternative, specials) if kind == "tie" and not past else None
        stop = ""
        if short:  # said again after the settings: the target as those settings count it
            target, target_words = target_merges(corpus, alternative, specials, **{
                k: options[k] for k in ("num_merges", "vocab_size")
            }, byte_level=student.byte_level)  # fmt: skip
            stop = f" Your run stops short: {ends_clause(total, target, target_words)}."
        held = container_tie(corpus, student, alternative, specials) if kind == "tie" and not past else ""
        if lead is not None:  # a commoner tie rule makes every merge too: it is named, the one found told beside it
            two = two_tie_rules(student, setup, alternative, lead, n, ours, words)
            return replace(two, cause=two.cause + held + stop)
        rarer = rarer_tie(corpus, student, alternative, specials) if kind == "tie" and not past else None
        if rarer is not None:  # a rarer tie rule makes every merge too: told beside the one found, which leads
            other = replace(alternative, tie_break=rarer)
            two = two_tie_rules(student, setup, other, alternative.tie_break, n, ours, words)
            return replace(two, cause=two.cause + held + stop)
        rule = f" ({TIE_SENTENCES.get(alternative.tie_break, '')})" if alternative.tie_break != setup.tie_break else ""
        # one merge past is told after the verdict (:func:`compare`), more here
        agree = (
            f": all {total} merges agree."
            if not past
            else f" up to its target. {inner.cause}"
            if total > inner.step
            else " up to its target."
        )
        cause = (
            f"Your run equals ours with {alternative.sentence(base=not same_base)}{rule}{agree} With the "
            f"settings compared here ({setup.sentence()}) the runs part at step {n + 1}.{stop}"
        )
        if setup.pre_tokenizer == "none" and alternative.pre_tokenizer == "whitespace":  # no cut chosen, yet one made
            cause += (
                " Your run never merges a space with anything: your words are split at whitespace, or your loop "
                "skips every pair that holds the space symbol (as if 'Ġ' were never a candidate)."
            )
        if alternative.pre_tokenizer in SPACE_LED and setup.pre_tokenizer not in SPACE_LED:
            cause += f" Each of your words keeps the space before it, as the {alternative.pre_tokenizer} pattern's do."
        if setup.pre_tokenizer == "sennrich" and alternative.pre_tokenizer == "whitespace":  # '</w>' never merged
            cause += (
                " Your run's '</w>' never merges with anything: your words carry no end-of-word symbol, or your loop "
                "never counts a pair that holds '</w>' (a count over range(len(word) - 2), one pair short, never "
                "reaches a word's last pair, the one ending in '</w>')."
            )
        if unspaced_reach(corpus, student, setup, alternative, specials) >= total:  # GPT-2's words, spaces lost
            cause += f" Your run cuts its words at whitespace, {UNSPACED_GPT2}."
        theirs_too = students_tie(corpus, student, setup, alternative, specials) if kind == "tie" and not past else None
        if theirs_too is not None:  # the student's own kind of rule (not first-seen) makes the run too: told beside
            cause += (
                f" The students' tie rule '{theirs_too}' ({TIE_SENTENCES[theirs_too]}) makes every merge too, so your "
                f"run cannot tell it from the {alternative.tie_break} rule."
            )
        elif held:
            cause += held
        if inner.kind == "vocab-size":  # "All n merges agree, but your vocabulary ...": the merges are said above
            cause += f" Your vocabulary{inner.cause.split(', but your vocabulary', 1)[-1]}"
        return replace(
            ours,
            kind=kind,
            cause=cause,
            rule=alternative.tie_break,
            settings=alternative,
            equal=True,
            words=words or ours.words,
        )
    if kind == "tie":
        return compare_one(corpus, student, setup, specials, **options)  # our tie rules are tried there
    return compare_one(corpus, student, setup, specials, other=(alternative, n_alt, words), **options)
