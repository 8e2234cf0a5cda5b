"""Check a student's BPE run against ours: the first merge where the runs part, and the likely cause.

Students who write their own BPE (the Hugging Face course's loop, minbpe, Stanford CS336's assignment
1) get merges that differ somewhere from the expected ones. :func:`diagnose` first searches our
settings (:func:`best_settings`); :func:`compare` trains our run on the same corpus, compares merge by
merge as byte pairs (so a run on characters and a run on bytes compare alike), and at the first
difference reads both pairs' counts in our run at that step. The cause is told in one sentence:

1. other settings (``alternative``) reproduce every merge: the byte base, the pre-tokenizer or the
   tie rule, said first ("Your run equals ours with ..."), then the step where the compared ones part;
2. our run stops first: the student's corpus is bigger;
3. else every explanation is tried and the one that reproduces the student's run longest is named,
   settings before the loop before the reading before a lost pair before the tie rule when two go as far
   (a selection that lost a pair explains any run it follows, so it is the last loop fault named): another base or
   pre-tokenizer that goes further (then, under those settings, the cause where the run leaves them is named
   too, with its step: a run can hold a setting and a loop fault at once); the text lowercased; special tokens
   not split out (only when splitting them changes the choice); a known faulty merge loop
   (:mod:`bpe.merge_faults`, found by :mod:`bpe.check_loop`), overlapping pairs counted once among them; a
   known fault in reading the corpus in chunks (:mod:`bpe.count_faults`: the last character cut off, words
   cut at chunk boundaries, positions counted per chunk), which changes a few words' counts before any merge,
   and after it, where our run on those counts parts from the student's, the cause found there; where the
   two counts tie, another tie rule (ours, or a student's rule by bytes, token ids, decoded text or the
   concatenated bytes) that follows the run :data:`FOLLOW` merges past the step; a run that is its first merge
   over and over, as a loop whose merge never changes a word makes;
4. where none does: a pair our corpus never has (whitespace kept on words, special tokens, the byte
   base), or what is certain: which count must be off, by how much at least, and the words holding it.

When every merge agrees, the run's length is checked against the target size (``num_merges`` or
``vocab_size``, :mod:`bpe.check_ends`), then the vocabulary sizes.

Left out: our settings and the search over them (:mod:`bpe.check_setup`), the result's fields
(:mod:`bpe.check_result`), reading the student's files (:mod:`bpe.formats.student_runs`) and drawing
the result.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from .check_cuts import cut_words
from .check_ends import goes_past, same_merges, target_merges
from .check_ids import id_merges
from .check_ints import int_reach, int_sentence, summed
from .check_loop import (
    BEYOND,
    LOOP_SECONDS,
    Words,
    certain_sentence,
    fault_sentence,
    find_fault,
    find_tie_and_fault,
    passed_over,
    tie_key,
)
from .check_notation import LEGEND, show_bytes, show_pair, show_word
from .check_per_word import PerWord, per_word
from .check_result import Comparison, pair_words, to_ours, words_that_differ
from .check_setup import (
    CS336_SETUP,
    CS336_SPECIALS,
    MAX_SEARCH_CHARS,
    SEARCH_SECONDS,
    Setup,
    agreed,
    best_settings,
    history_bytes,
    raw_word_counts,
    setup_agreed,
    student_words,
    train_setup,
)
from .check_special_ban import special_ban
from .config import TIE_RULES
from .count_faults import Reading, count_sentence, file_text, find_count_fault
from .fault_replay import replay
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .merge_faults import TIE_KEYS
from .pre_tokenizers import Corpus
from .set_order import set_order_reach, tuple_set_order_reach
from .state import stop_sentence

__all__ = [
    "CS336_SETUP", "CS336_SPECIALS", "LEGEND", "MAX_SEARCH_CHARS", "SEARCH_SECONDS", "Comparison", "Setup",
    "agreed", "best_settings", "compare", "diagnose", "history_bytes", "raw_word_counts", "show_bytes", "show_pair",
    "train_setup",
]  # fmt: skip

# Another tie rule explains a choice only if it also follows the student's run this many merges past it
# (or to its end): one that makes the same choice by chance parts from the run soon after,
# as where the student's counts are off (a corpus cut at a chunk boundary, a loop bug no fault models).
FOLLOW = 3
COUNT_SECONDS = 2.0  # the time for trying the known faulty readers of a corpus (:mod:`bpe.count_faults`)
FAR = 4  # a first merge counted at most 1/FAR of ours is far from the top: the run may not be from this corpus
SET_SECONDS = 2.0  # the time for replaying a loop that merges a pair's occurrences in a set's order
BOTH_SECONDS = 3.0  # the time for trying each students' tie rule with each loop fault, where nothing else fits
_TIE_KEY = {"greatest-bytes": "greatest-bytes"}  # our rules a replay can follow exactly, as its tie key
TIE_SENTENCES = {
    "first": "the pair seen first wins",
    "hf": "the pair of smallest token ids wins, as in the tokenizers library",
    "lexicographic": "the smallest pair wins",
    "greatest-bytes": "the greatest pair of bytes wins",
    "greatest": "the greatest pair as shown in GPT-2's byte characters wins",
    **{name: sentence for name, (sentence, _) in TIE_KEYS.items()},
}


def _tie_rule(corpus, student, setup, specials, step) -> tuple[str | None, int, tuple[str, ...]]:
    """Of our other tie rules, the one that reproduces the most of the student's merges, at least the
    first ``step``, and how many; with every rule that reproduces as many (which the run cannot tell apart)."""
    best, best_n, same = None, step - 1, ()
    for rule in TIE_RULES:
        if rule == setup.tie_break:
            continue
        other = Setup(rule, setup.pre_tokenizer, setup.byte_base)
        n = setup_agreed(corpus, other, student.merges, specials, student.end_of_word)
        if n > best_n:
            best, best_n, same = rule, n, (rule,)
        elif n == best_n and best is not None:
            same += (rule,)
    return best, best_n, same


def _rules_told(rules: tuple[str, ...]) -> str:
    """The tie rules named with what each does: "the 'first' rule (...)", several joined with "and"."""
    told = [f"'{rule}' ({TIE_SENTENCES[rule]})" for rule in rules]
    return f"the {told[0]} rule" if len(told) == 1 else f"the rules {', '.join(told[:-1])} and {told[-1]}"


def _tie_sentence(setup: Setup, near: tuple[tuple[str, ...], int] | None, total: int) -> str:
    """The tie at a step where the counts tie but no tie rule follows the run past it: the rules that make the
    student's choice and where they stop following, or that none of ours makes it; the sentence ends where the
    count that may be off is told instead."""
    ours = f"ours breaks it by the '{setup.tie_break}' rule ({TIE_SENTENCES[setup.tie_break]})"
    if setup.tie_break == "greatest-bytes":
        ours += ", as CS336 asks"
    if near is None:
        return (
            f"a tie, and {ours}. None of the tie rules we know (ours or students') makes your choice, so either your "
            "ties follow an order that is no rule at all (the order a heap whose entries compare only the counts "
            "leaves them in, or the order the pairs were stored in: compare the whole pair when the counts tie), or"
        )
    rules, n = near
    many = len(rules) > 1
    stop = f"through step {n}, then {'part' if many else 'parts'} from it" if n < total else "to its end"
    return (
        f"a tie, and {ours}. {_rules_told(rules)[0].upper()}{_rules_told(rules)[1:]} "
        f"{'make' if many else 'makes'} your choice here and {'follow' if many else 'follows'} your run {stop}: "
        f"your ties are likely broken so, and where {'they part' if many else 'it parts'} something else differs "
        "too. Else"
    )


def diagnose(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    special_tokens: Sequence[str] = (),
    *,
    num_merges: int | None = None,
    vocab_size: int | None = None,
    seconds: float = SEARCH_SECONDS,
) -> tuple[Comparison, list[tuple[Setup, int]]]:
    """The settings search first, then the comparison: ``setup`` (and CS336's for a CS336 upload) tried
    first, and the settings that reproduce the most of the run said first. A CS336 upload is compared
    with CS336's settings (``result.setup`` says which were used). Returns the comparison and the
    ranking of our settings."""
    ranked = best_settings(corpus, student, special_tokens, seconds, prefer=(setup,))
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
    seconds: float = LOOP_SECONDS,
) -> Comparison:
    """Compare ``student`` with our run on ``corpus`` with ``setup``. ``alternative``: settings that
    reproduce more of the student's run (from :func:`best_settings`): said first when they reproduce
    all of it, else weighed with the other causes. ``num_merges``/``vocab_size``: the student's target size (a run that stops
    short of it or goes past it is flagged, and a run that parts from ours and is one merge longer than the
    target is told so too). ``seconds`` bounds the replay of known faulty loops."""
    once = per_word(corpus, setup, tuple(special_tokens), student.merges, student.end_of_word)
    if once is not None:  # each merge listed once per word holding its pair: the merges taken once each are compared
        options = dict(num_merges=num_merges, vocab_size=vocab_size, seconds=seconds)
        return _per_word(corpus, student, setup, tuple(special_tokens), alternative, once, options)
    ids = id_merges(student.merges)
    if ids is not None:  # the merges saved as token ids: what they stand for is compared
        options = dict(num_merges=num_merges, vocab_size=vocab_size, seconds=seconds)
        return _as_ids(corpus, student, setup, tuple(special_tokens), alternative, ids, options)
    result = _compare(
        corpus,
        student,
        setup,
        special_tokens,
        alternative,
        num_merges=num_merges,
        vocab_size=vocab_size,
        seconds=seconds,
    )
    if result.step is None or result.kind in ("goes-past", "stops-early"):
        return result
    named = result.settings or result.setup
    target, target_words = target_merges(corpus, named, tuple(special_tokens), num_merges, vocab_size)
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


def _per_word(corpus, student, setup, specials, alternative, once: PerWord, options) -> Comparison:
    """The verdict on a run that lists each merge once per word holding its pair: that first, then what the merges
    taken once each get."""
    inner = compare(corpus, replace(student, merges=once.merges), setup, specials, alternative, **options)
    target, target_words = target_merges(corpus, inner.settings or setup, specials, **{
        k: options[k] for k in ("num_merges", "vocab_size")
    })  # fmt: skip
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
    seconds: float = LOOP_SECONDS,
) -> Comparison:
    """:func:`compare` but for a faulty run's length: the settings that reproduce more of the run weighed first."""
    specials = tuple(special_tokens)
    options = dict(num_merges=num_merges, vocab_size=vocab_size, seconds=seconds)
    if alternative is not None and alternative != setup:
        n = setup_agreed(corpus, setup, student.merges, specials, student.end_of_word)
        n_alt = setup_agreed(corpus, alternative, student.merges, specials, student.end_of_word)
        if n_alt > n:
            history = train_setup(corpus, setup, n + 1, specials, student.end_of_word)
            alt = train_setup(corpus, alternative, n + 1, specials, student.end_of_word)
            return _with_settings(corpus, student, setup, alternative, specials, n, n_alt, history, alt, options)
    return _compare_one(corpus, student, setup, specials, **options)


def _ascii(corpus: Corpus) -> bool:
    """True if every character is ASCII: bytes and characters are then the same base."""
    texts = corpus.keys() if isinstance(corpus, Mapping) else [corpus] if isinstance(corpus, str) else corpus
    return all(text.isascii() for text in texts)


def _settings_kind(setup: Setup, other: Setup) -> str:
    if setup.byte_base != other.byte_base:
        return "byte-base"
    return "pre-tokenizer" if setup.pre_tokenizer != other.pre_tokenizer else "tie"


def _with_settings(corpus, student, setup, alternative, specials, n, n_alt, history, alt, options) -> Comparison:
    """Other settings reproduce more of the run. When they reproduce all of it, the verdict is theirs
    and the step shown is where the chosen settings part; else another base or pre-tokenizer competes
    with the other causes at the step where the chosen settings part."""
    total = len(student.merges)
    same_base = alternative.byte_base == setup.byte_base or _ascii(corpus)  # on ASCII text the base changes nothing
    kind = _settings_kind(setup, replace(alternative, byte_base=setup.byte_base) if same_base else alternative)
    theirs = student.merges[n]
    their_pair = to_ours(theirs, history)
    words = words_that_differ(pair_words(history, n, their_pair), pair_words(alt, n, to_ours(theirs, alt)))
    if n_alt == total:
        inner = _compare_one(corpus, student, alternative, specials, **options)
        # past its target, a run those settings make up to it still parts from the compared ones well before
        past = inner.kind == "goes-past" and inner.step is not None and n + 1 < inner.step
        # the target size: the settings are not the story; a vocabulary that differs is told after them, since the
        # runs part under the compared settings all the same
        # a run that stops short under those settings parted from the compared ones first: told after them
        short = inner.kind == "stops-early"
        if inner.kind not in ("same", "vocab-size") and not past and not short:
            return replace(inner, settings=alternative)
        ours = _compare_one(corpus, student, setup, specials, seconds=0.0)
        lead = _commoner_tie(corpus, student, alternative, specials) if kind == "tie" and not past else None
        stop = f" {inner.cause.split('. ', 1)[0]}." if short else ""  # "Your run stops short: it ends after ..."
        if lead is not None:  # a commoner tie rule makes every merge too: it is named, the one found told beside it
            two = _two_tie_rules(student, setup, alternative, lead, n, ours, words)
            return replace(two, cause=two.cause + stop)
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
        return _compare_one(corpus, student, setup, specials, **options)  # our tie rules are tried there
    return _compare_one(corpus, student, setup, specials, other=(alternative, n_alt, words), **options)


# Tie rules as common in students' code, commonest first: a heap of (-count, pair) pops the smallest pair, max over a
# dict of counts keeps the pair seen first, CS336's max over (count, pair) takes the greatest; rules by token ids or
# text are rarer. Where two rules make every merge of a run, the commoner is named first.
COMMON_TIES = (
    "lexicographic", "smallest-bytes", "first", "first-added", "first-recounted", "greatest-bytes", "greatest", "hf",
    "smallest-id", "greatest-id", "greatest-text", "greatest-text-ignore", "greatest-concat", "gpt2-id", "greatest-repr",
)  # fmt: skip


def _commoner_tie(corpus, student, alternative: Setup, specials) -> str | None:
    """A tie rule commoner than ``alternative``'s (of ours or of :data:`bpe.merge_faults.TIE_KEYS`, replayed) that also
    makes every one of the student's merges with its pre-tokenizer and base, or None."""
    if alternative.tie_break not in COMMON_TIES:
        return None
    total = len(student.merges)
    words = None
    for rule in COMMON_TIES[: COMMON_TIES.index(alternative.tie_break)]:
        if rule in TIE_RULES:
            other = Setup(rule, alternative.pre_tokenizer, alternative.byte_base)
            if setup_agreed(corpus, other, student.merges, specials, student.end_of_word) == total:
                return rule
            continue
        if words is None:
            words = Words(*student_words(corpus, alternative, specials, student.end_of_word))
        if replay(words.words, words.freqs, student.merges, tie=rule).reproduced == total:
            return rule
    return None


def _two_tie_rules(student, setup, alternative, lead, n, ours, words) -> Comparison:
    """Two tie rules make every merge: the commoner ``lead`` said first, the one the settings search found beside it."""
    total = len(student.merges)
    settings = Setup(lead, alternative.pre_tokenizer, alternative.byte_base) if lead in TIE_RULES else alternative
    cause = (
        f"Your run equals ours with {alternative.cut_sentence()} and the {lead} tie rule ({TIE_SENTENCES[lead]}): all "
        f"{total} merges agree. The {alternative.tie_break} tie rule ({TIE_SENTENCES[alternative.tie_break]}) makes "
        f"them all too, so your run cannot tell the two apart; the {lead} rule is the commoner in students' code. With the "
        f"settings compared here ({setup.sentence()}) the runs part at step {n + 1}."
    )
    return replace(ours, kind="tie", cause=cause, rule=lead, settings=settings, equal=True, words=words or ours.words)


def _compare_one(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    specials: tuple[str, ...],
    num_merges: int | None = None,
    vocab_size: int | None = None,
    seconds: float = LOOP_SECONDS,
    other: tuple[Setup, int, tuple] | None = None,
) -> Comparison:
    """The comparison under one setup, causes tried in the module's order. ``other``: another base or
    pre-tokenizer, how many merges it reproduces, and the words that count differently under it."""
    target, target_words = target_merges(corpus, setup, specials, num_merges, vocab_size)
    length = max(len(student.merges), target or 0)
    history = train_setup(corpus, setup, length, specials, student.end_of_word)
    ours = history_bytes(history)
    n = agreed(ours, student.merges)
    base = dict(history=history, setup=setup, agreed=n, our_merges=tuple(ours))
    if n == len(student.merges):
        return same_merges(history, student, base, specials, target, target_words)
    step = n + 1
    theirs = student.merges[n]
    if n == len(ours):
        words = Words(*student_words(corpus, setup, specials, student.end_of_word))
        tie = _TIE_KEY.get(setup.tie_break)
        found = find_fault(words, student.merges, step, (theirs,), tie, seconds) if seconds > 0 else None
        if found is not None:  # a faulty loop can find a pair where none is left
            cause = (
                f"At step {step} our run has no pair left to merge and you merge {show_pair(theirs)}: "
                f"{fault_sentence(found, words, (theirs,), student.merges[:n])}."
            )
            return Comparison(
                step=step, ours=None, theirs=theirs, our_count=0, their_count=0, kind="merge-loop", cause=cause,
                fault=found.fault.name, **base,
            )  # fmt: skip
        return Comparison(
            step=step, ours=None, theirs=theirs, our_count=0, their_count=0, kind="shorter",
            cause=f"Our run stops after {n} merges ({stop_sentence(history) or 'no pair left'}) while yours "
            f"goes on with {show_pair(theirs)}: your corpus is bigger or cut into other words.",
            **base,
        )  # fmt: skip
    if target is not None and len(student.merges) > target and n >= target:
        return goes_past(student, target, target_words, base)
    counts = history.pair_counts_after(n)
    our_pair = history.pair_str(history.merges[n][:2])
    their_pair = to_ours(theirs, history)
    our_count = counts.get(our_pair, 0)
    their_count = counts.get(their_pair, 0) if their_pair is not None else 0
    head = f"At step {step} we merge {show_pair(ours[n])} ({our_count}) and you {show_pair(theirs)}"
    fields = dict(step=step, ours=ours[n], theirs=theirs, our_count=our_count, their_count=their_count, **base)
    texts, word_symbols, freqs = student_words(corpus, setup, specials, student.end_of_word)
    words = Words(texts, word_symbols, freqs)
    # Every explanation is tried and the one that reproduces the student's run longest is named; on
    # equal length the earlier kind wins: settings decide every count, then the loop, then the reading
    # (tried with many numbers of chunks, so one of them matching a run by chance is likelier than a loop
    # fault doing so, and students' loops are wrong far more often than their readers), then the tie rule.
    found = None
    candidates: list[tuple[int, int, str]] = []
    if other is not None:  # no pre-tokenization changes every word: a fault that goes as far is likelier
        reach = other[1]
        if other[0].pre_tokenizer == "none" and specials:  # as minbpe, the special tokens left in the text too
            reach = max(reach, setup_agreed(corpus, other[0], student.merges, (), student.end_of_word))
        # ... and before a reading fault only when a merged token crosses a word boundary (``s␣``), which the
        # pre-token pattern of every reader fault forbids: otherwise words counted per chunk and no word
        # boundaries follow a run equally far, and the reader is the likelier bug
        none = 2.9 if _crosses_words(student.merges) else 3.5
        candidates.append((reach, -1 if other[0].pre_tokenizer != "none" else none, "settings"))
    if their_count < our_count or their_count == 0:
        candidates.append((_lowercased_agreed(corpus, student, setup, specials), 0, "case"))
    special = _inside_special(theirs[0] + theirs[1], specials, student, corpus)
    if special:
        candidates.append((_unsplit_agreed(corpus, student, setup, specials), 1, "specials"))
    ints = int_reach(words.words, words.freqs, student.merges) if summed(student.merges) else None
    if ints is not None:  # tokens kept as ints and added: every merge is a run of zero bytes
        candidates.append((ints[1], 0.5, "int-sum"))
    repeats = _repeats(student.merges)
    if n > 0 and repeats == len(student.merges):  # a loop whose merge never changes a word takes only its first pair
        candidates.append((repeats, 2.1, "never-merges"))
    if seconds > 0:
        found = find_fault(words, student.merges, step, (ours[n], theirs), _TIE_KEY.get(setup.tie_break), seconds)
        if found is not None:  # a lost pair explains any run it follows, so any more telling cause goes first
            candidates.append((found.reproduced, 3.2 if found.fault.loses else 2, "merge-loop"))
    counted = None
    text = file_text(corpus)  # only a text can be read in chunks
    if seconds > 0 and text is not None:
        eow = student.end_of_word
        parting = (ours[n], our_count, theirs, their_count)
        counted = find_count_fault(
            text, setup, student.merges, step, specials, eow, min(seconds, COUNT_SECONDS), parting
        )
        if counted is not None:
            candidates.append((counted.reproduced, 3, "reading"))
    ordered = _set_order(corpus, student, setup, specials, step, min(seconds, SET_SECONDS)) if seconds > 0 else None
    if ordered is not None:  # a pair's occurrences merged in the order of a set of their positions
        candidates.append((ordered[0], 2.05, "set-order"))
    banned = (
        special_ban(
            words, student.merges, step, ours[n], specials, _TIE_KEY.get(setup.tie_break), min(seconds, SET_SECONDS)
        )
        if seconds > 0
        else None
    )
    if banned is not None:  # pairs whose bytes are part of a special token left out of the selection
        candidates.append((banned[0], 2.07, "special-ban"))
    rule = near = None
    if their_count == our_count:  # another tie rule changes the choice only where the counts tie
        rule, rule_n, same = _tie_rule(corpus, student, setup, specials, step)
        if seconds > 0:
            key, key_n = tie_key(words, student.merges, step, _TIE_KEY.get(setup.tie_break), seconds)
            if key is not None and key_n > rule_n:
                rule, rule_n, same = key, key_n, (key,)
        near = (same, rule_n) if rule is not None and rule_n >= step else None  # makes this choice, maybe no more
        if rule_n < min(len(student.merges), step + FOLLOW):
            rule = None  # it makes this one choice but not the next ones: chance, not the cause
        elif rule is not None:
            candidates.append((rule_n, 4 if rule in TIE_RULES else 5, "tie"))
    cap = step + BEYOND  # the replays follow the student no further, so no cause counts beyond it
    both = None
    reach = max((min(c[0], cap) for c in candidates), default=0)
    if seconds > 0 and reach < min(
        len(student.merges), cap
    ):  # no cause follows the whole run: a tie rule and a loop fault together?
        need = max(reach + 1, min(len(student.merges), step + FOLLOW))
        pairs = (ours[n], theirs)
        skip = _TIE_KEY.get(setup.tie_break)
        both = find_tie_and_fault(words, student.merges, step, pairs, need, skip, min(seconds, BOTH_SECONDS))
        if both is not None:
            candidates.append((both.found.reproduced, 6, "tie-and-loop"))
    best = max((c for c in candidates if c[0] > n), key=lambda c: (min(c[0], cap), -c[1]), default=None)
    kind = best[2] if best else None
    repeated = {"never-merges", "kept-pair"}
    if kind == "merge-loop" and found is not None and found.fault.name in repeated and repeats == len(student.merges):
        kind = "never-merges"  # the run is its first merge over and over: both loops make it, both are told
    if kind == "settings" and other is not None:
        alt, n_alt, words_differ = other
        if alt.byte_base != setup.byte_base and _ascii(corpus):  # on ASCII text the base changes nothing
            alt = replace(alt, byte_base=setup.byte_base)
        what = (
            f"starts from {'bytes' if alt.byte_base else 'characters'}, not {'bytes' if setup.byte_base else 'characters'}"
            if alt.byte_base != setup.byte_base
            else "does not cut the text into words"
            if alt.pre_tokenizer == "none"
            else f"cuts its words as the {alt.pre_tokenizer} pre-tokenizer does"
        )
        cause = (
            f"{head} ({their_count}): your run {what}: with {alt.sentence()} our run follows yours for {n_alt} merges."
        )
        later = _later(corpus, student, alt, specials, num_merges, vocab_size, seconds)
        if later is not None:  # the settings explain the start; what parts the runs under them is named too
            cause += f" With those settings, {later.cause[0].lower()}{later.cause[1:]}"
            fields |= dict(fault=later.fault, rule=later.rule, later_kind=later.kind, later_step=later.step)
        return Comparison(
            kind=_settings_kind(setup, alt), cause=cause, settings=alt, **{**fields, "words": words_differ}
        )
    if kind == "case":
        cause = (
            f"{head} ({their_count} here): a count that differs, from case. Your run lowercases the text "
            "first: on the lowercased corpus our run makes this merge too, since words that differ only in case "
            "count together."
        )
        return Comparison(kind="case", cause=cause, **fields)
    if kind == "specials":
        cause = (
            f"{head} ({their_count} here): a count that differs. The pair also occurs inside the special token "
            f"{special}, which we split out of the text before counting: your run did not split special "
            "tokens out (without splitting them, our run makes your merge too)."
        )
        return Comparison(kind="specials", cause=cause, **fields)
    if kind == "set-order" and ordered is not None:
        reach, (x, at, word) = ordered
        follows = (
            f"our loop merging in that order makes all {len(student.merges)} of your merges"
            if reach >= len(student.merges)
            else f"our loop merging in that order follows yours for {reach} merges"
        )
        cause = (
            f"{head} ({their_count}): your loop merges a pair's occurrences in the order of the set of their positions "
            f"(a loop over the set, as list(pos[pair]) or for p in pos[pair]), not left to right, so a run of one symbol "
            f"is split otherwise: after the merge "
            f"{show_pair((x, x))} at step {at}, a run of three {show_bytes(x)} as in {show_word(word)} can become "
            f"{show_bytes(x)} {show_bytes(x + x)} where ours makes {show_bytes(x + x)} {show_bytes(x)}, and the counts "
            f"of the pairs beside it follow; {follows}. Merge the positions in order (sorted(pos[pair]))."
        )
        return Comparison(kind="merge-loop", cause=cause, fault="set-order", **fields)
    if kind == "special-ban" and banned is not None:
        reach, token = banned
        follows = (
            f"our loop leaving those pairs out makes all {len(student.merges)} of your merges"
            if reach >= len(student.merges)
            else f"our loop leaving those pairs out follows yours for {reach} merges"
        )
        cause = (
            f"{head} ({their_count}): your selection never takes a pair whose merged bytes are part of the special "
            f"token {token}, as {show_bytes(ours[n][0] + ours[n][1])} is, so {show_pair(ours[n])} is passed over "
            f"though no other pair counts more; {follows}. Pairs like it occur in ordinary words too: splitting the "
            "special tokens out of the text before counting is what keeps them whole, so no pair needs leaving out."
        )
        return Comparison(kind="merge-loop", cause=cause, fault="special-ban", **fields)
    if kind == "int-sum" and ints is not None:
        shown = f"({len(theirs[0])}, {len(theirs[1])})"  # the ints the student's run holds, not their zero bytes
        cause = (
            f"At step {step} we merge {show_pair(ours[n])} ({our_count}) and you {shown}: "
            f"{int_sentence(ours[n], theirs, ints[1], len(student.merges))}."
        )
        return Comparison(kind="merge-loop", cause=cause, fault="int-sum", **fields)
    if kind == "never-merges":
        cause = f"{head} ({their_count}): your run merges {show_pair(theirs)} again, as at step 1, and keeps taking it "
        kept = found is not None and "kept-pair" in {found.fault.name, *(f.name for f in found.same)}
        if not kept:
            cause += (
                f"({repeats} merges in a row): your merge never changes a word, so no count changes and the first pair "
                "wins every time. Check the test that finds the pair in a word: a pair built as a list, [a, b], "
                "never equals the tuple (a, b)."
            )
        else:  # a merge that changes nothing and a count never removed make the same run: both are said
            first = history.pair_counts_after(0).get(to_ours(theirs, history), 0)
            cause += (
                f"({repeats} merges in a row): its count never goes down, so the first pair wins every time. Either "
                "your merge never changes a word (check the test that finds the pair in a word: a pair built as a "
                f"list, [a, b], never equals the tuple (a, b)), or the count of the merged pair is never removed after "
                "the merge (the words are merged and the pairs beside it move, but no 'del counts[pair]' follows, so "
                f"{show_pair(theirs)} keeps its count of {first})."
            )
        return Comparison(kind="merge-loop", cause=cause, fault="never-merges", **fields)
    if kind == "merge-loop" and found is not None:
        if found.fault.name == "overlap-once" and our_pair[0] == our_pair[1]:
            rows = words_that_differ(pair_words(history, n, our_pair), pair_words(history, n, our_pair, False))
            once = our_count - sum(r[1] - r[2] for r in rows)
            cause = (
                f"{head} ({their_count}): a count that differs, from overlapping pairs. In words like "
                f"'{rows[0][0]}' the pair {show_pair(ours[n])} occurs overlapping; we count every adjacent pair "
                f"({our_count}), your count ({once} without overlaps) lets your pair win."
            )
            return Comparison(kind="overlap", cause=cause, fault=found.fault.name, **{**fields, "words": rows})
        cause = f"{head} ({their_count}): {fault_sentence(found, words, (ours[n], theirs), student.merges[:n])}."
        for other in found.same[:1]:  # the run cannot tell them apart: both are said, the likelier first
            cause += f" Another known fault makes all your merges here too, so it may be yours: {other.sentence}."
        return Comparison(kind="merge-loop", cause=cause, fault=found.fault.name, **fields)
    if kind == "tie-and-loop" and both is not None:
        key, found = both.key, both.found
        loop = fault_sentence(found, words, both.pairs, student.merges[: both.step - 1])
        when = f"from step {both.step} on, " if both.step > step else ""
        made = "this choice" if both.step > step else "your choice"
        cause = (
            f"{head} ({their_count}): two faults at once. Your ties are broken by the '{key}' rule "
            f"({TIE_SENTENCES[key]}), which makes {made} here, and {when}{loop}; together they make your merges "
            f"through step {min(found.reproduced, len(student.merges))}."
        )
        return Comparison(kind="merge-loop", cause=cause, fault=found.fault.name, rule=key, **fields)
    if kind == "reading" and counted is not None:
        options = dict(num_merges=num_merges, vocab_size=vocab_size, seconds=seconds)
        return _reading(student, setup, counted, head, their_count, (ours[n], theirs), fields, options)
    if kind == "tie":
        cause = (
            f"{head}, both counted {their_count}: a tie broken by the '{rule}' rule ({TIE_SENTENCES[rule]}), "
            f"where ours is '{setup.tie_break}'."
        )
        return Comparison(kind="tie", cause=cause, rule=rule, **fields)
    if their_count == 0:
        kind, cause = _missing(head, theirs, student, setup, specials, corpus, history, n)
        return Comparison(kind=kind, cause=cause, **fields)
    if their_count == our_count:  # no tie rule follows the run past this choice: a count is off, or the selection
        certain = certain_sentence(words, step, ours[n], theirs, student.merges)
        over = passed_over(words, student.merges, step) if seconds > 0 else None
        if over is not None:
            at, taken, taken_n, top, top_n = over
            tied = (
                f"a tie {_rules_told(near[0])} {'break' if len(near[0]) > 1 else 'breaks'} as you do, though "
                f"{'they follow' if len(near[0]) > 1 else 'it follows'} your run only through step {near[1]}"
                if near is not None
                else "and no tie rule (ours or a student's) follows your run past this step"
            )
            cause = (
                f"{head}, both counted {their_count} in our run, {tied}. With the counts right along your own merges, every merge of yours through step "
                f"{at - 1} takes a pair of the highest count, and at step {at} you take {show_pair(taken)} ({taken_n}) "
                f"while {show_pair(top)} has {top_n}: your counts may well be right, and your selection does not always "
                "take the pair with the highest count, as a hand-written heap that goes out of order does (a removal "
                "that moves the last entry into the hole and sifts it only down, never up, or an update that moves a "
                f"pair the wrong way); else a count is off: {certain}."
            )
            return Comparison(kind="count", cause=cause, **fields)
        cause = f"{head}, both counted {their_count} in our run: {_tie_sentence(setup, near, len(student.merges))}"
        return Comparison(kind="count", cause=f"{cause} a count is off: {certain}.", **fields)
    certain = certain_sentence(words, step, ours[n], theirs, student.merges)
    cause = f"{head} ({their_count} here): a count that differs; {certain}."
    if n == 0 and their_count * FAR <= our_count:  # no reader, setting or loop makes a first pair this far down
        cause += (
            f" Your very first merge counts {their_count} in our corpus where ours counts {our_count}: that far from "
            "the top, your merges may not be from this corpus (a trainer that reads another text than the file it "
            "was given, such as a sample text written into the code)."
        )
    return Comparison(kind="count", cause=cause, **fields)


def _set_order(corpus, student, setup, specials, step, seconds) -> tuple[int, tuple[bytes, int, str]] | None:
    """How far a loop that merges a pair's occurrences in a set's order follows the run (:mod:`bpe.set_order`), with
    the merge of a run of one symbol that the order splits otherwise (its symbol, its step, a word holding three), or
    None: only on a text, where a merge ``(x, x)`` up to the step has a word holding ``xxx`` (else the order changes
    nothing) and the loop follows the run past the step."""
    text = file_text(corpus)
    if text is None or student.end_of_word:
        return None
    runs = [(x, k) for k, (x, y) in enumerate(student.merges[:step], start=1) if x == y]
    theirs = student.merges[step - 1]
    runs.sort(key=lambda run: not any(run[0] in symbol for symbol in theirs))  # a run of a symbol the pair holds first
    if not runs:
        return None
    reading = Reading(text, setup.pre_tokenizer, specials)
    typed = [reading.text[a:b] for a, b in zip(reading.starts, reading.ends)]
    distinct = list(dict.fromkeys(typed))
    found = next(((x, at, w) for x, at in runs for w in distinct if x * 3 in w.encode("utf-8")), None)
    if found is None:
        return None
    if setup.byte_base:
        sequence = [tuple(bytes([b]) for b in w.encode("utf-8")) for w in typed]
    else:
        sequence = [tuple(c.encode("utf-8") for c in w) for w in typed]
    deadline = time.monotonic() + seconds
    reach = set_order_reach(sequence, student.merges[: step + BEYOND], deadline)
    if reach < min(len(student.merges), step + BEYOND):  # the loop over sets of (word, offset) tuples
        _, words, freqs = student_words(corpus, setup, specials)
        reach = max(reach, tuple_set_order_reach(words, freqs, student.merges[: step + BEYOND], deadline))
    return (reach, found) if reach >= min(len(student.merges), step + FOLLOW) else None


def _crosses_words(merges: Sequence[BytePair]) -> bool:
    """True if a merged token holds a non-space byte followed by whitespace, which no GPT-2 pre-token holds."""
    return any(re.search(rb"\S\s", a + b) for a, b in merges)


def _repeats(merges: Sequence[BytePair]) -> int:
    """How many merges from the first are the first merge again: a loop that never merges repeats it."""
    n = 0
    while n < len(merges) and merges[n] == merges[0]:
        n += 1
    return n


LATER_KINDS = ("specials", "case", "merge-loop", "overlap", "tie", "count")  # causes named after the settings


def _reading(student, setup, counted, head, their_count, pairs, fields, options) -> Comparison:
    """The student's reader counts the words wrongly (:mod:`bpe.count_faults`): named with a word it miscounts,
    and, where our run on its counts parts from the student's later, the cause found there too."""
    total, n = len(student.merges), counted.reproduced
    sentence = count_sentence(counted, setup, fields["step"], pairs, student.end_of_word)
    cause = f"{head} ({their_count}): {sentence}. With those counts our run "
    extra = {}
    inner = _compare_one(counted.counts, student, setup, (), **options) if n < total else None
    if inner is not None and inner.step is not None and inner.kind in LATER_KINDS:
        cause += f"follows yours for {n} merges; then, {inner.cause[0].lower()}{inner.cause[1:]}"
        extra = dict(rule=inner.rule, later_kind=inner.kind, later_step=inner.step)
    else:
        cause += f"makes all {total} of your merges." if n == total else f"follows yours for {n} merges."
    true, faulty = counted.true, counted.counts
    changed = sorted({*true, *faulty} - {w for w in true if true[w] == faulty.get(w)})
    rows = sorted(changed, key=lambda w: -abs(faulty.get(w, 0) - true.get(w, 0)))[:10]
    words = tuple((w, true.get(w, 0), faulty.get(w, 0)) for w in rows)
    return Comparison(kind="reading", cause=cause, fault=counted.fault.name, **{**fields, **extra, "words": words})


def _later(corpus, student, alt, specials, num_merges, vocab_size, seconds) -> Comparison | None:
    """Where the run leaves ours under the settings that follow it longest, when a cause after the settings
    (special tokens, case, the merge loop, the tie rule, a count) explains it: the student's run can hold
    both a setting and a loop fault."""
    inner = _compare_one(corpus, student, alt, specials, num_merges, vocab_size, seconds)
    return inner if inner.step is not None and inner.kind in LATER_KINDS else None


def _unsplit_agreed(corpus, student, setup, specials) -> int:
    """How many of the student's merges our run makes with the special tokens left in the text."""
    return setup_agreed(corpus, setup, student.merges, (), student.end_of_word)


def _lowercased_agreed(corpus, student, setup, specials) -> int:
    """How many of the student's merges our run on the lowercased corpus makes (0 if case changes nothing)."""
    if isinstance(corpus, Mapping):
        lowered: Corpus = {}
        for word, count in corpus.items():
            lowered[word.lower()] = lowered.get(word.lower(), 0) + count  # type: ignore[index, union-attr]
    elif isinstance(corpus, str):
        lowered = corpus.lower()
    else:
        lowered = [text.lower() for text in corpus]
    if lowered == corpus:
        return 0
    return setup_agreed(lowered, setup, student.merges, specials, student.end_of_word)


def _inside_special(joined: bytes, specials, student, corpus) -> str | None:
    """The special token of the text that holds ``joined``, if any."""
    text = corpus if isinstance(corpus, str) else " ".join(corpus) if not isinstance(corpus, Mapping) else ""
    for special in (*specials, *student.special_tokens):
        if joined.decode("utf-8", "replace") in special and special in text:
            return special
    return None


def _special_leftover(joined: bytes, specials, student, corpus) -> str | None:
    """The special token whose characters make up ``joined`` when the text holds none of them outside it."""
    if not isinstance(corpus, str) or not _is_utf8(joined):
        return None
    chars = set(joined.decode("utf-8"))
    for special in (*specials, *student.special_tokens):
        outside = corpus.replace(special, "")
        if special in corpus and chars <= set(special) and not any(c in outside for c in chars):
            return special
    return None


def _missing(head, theirs, student, setup, specials, corpus, history=None, n=0) -> tuple[str, str]:
    """Why our corpus never has the student's pair at this step (``history``: our run, whose words after ``n``
    merges tell whether both of the pair's tokens are there)."""
    joined = theirs[0] + theirs[1]
    if n == 0 and _nowhere_in_text(joined, corpus, student.end_of_word):
        return "missing", (
            f"{head}: your merges are not from this corpus. Your very first merge joins bytes that stand side by side "
            "nowhere in our corpus's text, so no byte base, pre-tokenizer or special token can make it: your trainer "
            "read another text than the file it was given (a sample text written into the code, or another file)."
        )
    if any(c in joined for c in b" \t\n\r"):
        return "whitespace", (
            f"{head}, a pair our corpus never has: it holds whitespace, which our '{setup.pre_tokenizer}' "
            "pre-tokenizer never keeps on a word like that. Your words keep their whitespace "
            "(another pre-tokenizer, or none)."
        )
    special = _inside_special(joined, specials, student, corpus)
    if special:
        return "specials", (
            f"{head}, a pair our corpus never has: it is part of the special token {special}, which we split "
            "out of the text before counting. Your run did not split special tokens out."
        )
    leftover = _special_leftover(joined, specials, student, corpus)
    if leftover:
        return "specials", (
            f"{head}, a pair our corpus never has: it is made of characters of the special token {leftover}, which "
            "the text holds nowhere else, so your run leaves pieces of the token in the text (a split on it as an "
            "unescaped regular expression, where '|' means 'or', cuts around its parts instead of at the token)."
        )
    if _END_MARK in joined and not student.end_of_word:
        return "end-of-word", (
            f"{head}, a pair our corpus never has: your words end with {_END_MARK.decode()}, a symbol of its own added "
            "after each word's last character (as BPE for translation does), so its pairs with the word's last "
            "symbol take merges. Byte-level BPE as GPT-2's and CS336's adds no such symbol: the space that starts "
            "the next word marks where one ends."
        )
    chars = [p.decode("utf-8", "strict") if _is_utf8(p) else None for p in theirs]
    whole = all(c is not None for c in chars)  # a lone byte of a character: the run cannot be on characters
    if setup.byte_base and whole and any(len(c) < len(p) for c, p in zip(chars, theirs)):
        return "byte-base", (
            f"{head}, a pair our corpus never has: your run treats a character of several bytes as one "
            "symbol, so it starts from characters, not from the 256 bytes as ours does."
        )
    if not setup.byte_base and any(c is None for c in chars):
        return "byte-base", (
            f"{head}, a pair our corpus never has: your pair cuts a character's bytes apart, so your run "
            "starts from the 256 bytes and ours from characters."
        )
    if student.byte_level != setup.byte_base:
        theirs_base = "bytes (a 256-byte base)" if student.byte_level else "characters, not bytes"
        return "byte-base", (
            f"{head}, a pair our corpus never has: your run starts from {theirs_base}, ours from "
            f"{'bytes' if setup.byte_base else 'characters'}, so a character of several bytes is one symbol on "
            "one side and several on the other."
        )
    cut = (
        None
        if student.end_of_word or any(m in joined for m in _MARKS)
        else cut_words(joined, corpus, setup.pre_tokenizer)
    )
    if cut:
        return "pre-tokenizer", f"{head}, a pair our words never hold: {cut}"
    pair = to_ours(theirs, history) if history is not None else None
    if pair is not None and student.byte_level == setup.byte_base:
        symbols = {symbol for step in (0, n) for split in history.splits_at(step).values() for symbol in split}
        if pair[0] in symbols and pair[1] in symbols:
            return "missing", (
                f"{head}, a pair no word of our corpus holds at this step, though both are tokens of ours (a base "
                "symbol or a merge made before): your merge loop puts them side by side where they are not (an update that makes the pairs beside a "
                "merged token wrongly, as between two merged tokens)."
            )
    return "missing", (f"{head}, a pair our corpus never has at this step: a different byte base or pre-tokenizer.")


_END_MARK = b"</w>"  # the end-of-word symbol of BPE for translation (subword-nmt)
_MARKS = tuple(m.encode("utf-8") for m in ("</w>", "▁", "Ġ", "Ċ"))  # word-boundary marks a run may write into tokens


def _nowhere_in_text(joined: bytes, corpus: Corpus, end_of_word: bool) -> bool:
    """True if the corpus is text and its bytes hold ``joined`` nowhere, in any case (word counts: unknown, False;
    a token holding a mark of a word boundary, as subword-nmt's ``</w>`` or sentencepiece's ``▁``: unknown, False)."""
    if isinstance(corpus, Mapping) or not corpus or end_of_word or any(m in joined for m in _MARKS):
        return False
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts):
        return False
    lower = joined.lower()
    return not any(joined in t.encode("utf-8") or lower in t.lower().encode("utf-8") for t in texts)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
