"""The cause where a student's run parts from ours under one setup: every explanation tried, the longest named.

Under one setup our run is compared merge by merge with the student's, and at the first difference both pairs'
counts are read in our run at that step. The cause is told in one sentence:

1. our run stops first: the student's corpus is bigger (or a faulty loop finds a pair where none is left);
2. else every explanation is tried and the one that reproduces the student's run longest is named,
   settings before the loop before the reading before a lost pair before the tie rule when two go as far
   (a selection that lost a pair explains any run it follows, so it is the last loop fault named; but where the counts
   tie, a tie rule that makes the whole run goes before the reading and a lost pair): another base or
   pre-tokenizer that goes further (then, under those settings, the cause where the run leaves them is named
   too, with its step: a run can hold a setting and a loop fault at once); the text lowercased; special tokens
   not split out (only when splitting them changes the choice); a known faulty merge loop
   (:mod:`bpe.merge_faults`, found by :mod:`bpe.check_loop`), overlapping pairs counted once among them; a
   known fault in reading the corpus in chunks (:mod:`bpe.count_faults`, found by :mod:`bpe.check_reading`: the
   last character cut off, words cut at chunk boundaries, positions counted per chunk), which changes a few words'
   counts before any merge, and after it, where our run on those counts parts from the student's, the cause found
   there; a class of wrong counts (:mod:`bpe.count_classes`: each word weighted alike, one part of the corpus, the
   special token read another way), tried where the student's pair cannot win on our counts and told as a reader is;
   a merge that works from each word's end (:mod:`bpe.occurrence_order`); where the two counts tie, another tie
   rule (ours, or a student's rule by bytes, token ids, decoded text or the concatenated bytes,
   :mod:`bpe.check_ties`) that follows the run :data:`~bpe.check_ties.FOLLOW` merges past the step; a run that is its first merge over and over, as a loop whose merge never changes a word makes;
3. where none does: a pair our corpus never has (:mod:`bpe.check_missing`: whitespace kept on words, special
   tokens, the byte base), or what is certain: which count must be off, by how much at least, and the words
   holding it.

When every merge agrees, the run's length is checked against the target size (``num_merges`` or
``vocab_size``, :mod:`bpe.check_ends`), then the vocabulary sizes.

Left out: the settings search and the verdict when other settings make every merge (:mod:`bpe.check`), the
sentences of the loop and count causes (:mod:`bpe.check_told`), and the replays that test each explanation (their
own modules, named above).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from .check_cleaned import (
    also_told,
    cleaned_agreed,
    digits_told,
    lowercased_agreed,
    lowercased_corpus,
    taken_over,
    unfiltered_told,
)
from .check_container import container_cause
from .check_ends import goes_past, same_merges, target_merges
from .check_first_missing import first_missing, first_missing_told
from .check_indexed import indexed_candidate, indexed_told
from .check_ints import int_reach, summed
from .check_loop import (
    BEYOND,
    Words,
    fault_sentence,
    find_fault,
    find_tie_and_fault,
    idle_fault,
    tie_key,
)
from .check_lowered import lowered_reading
from .check_missing import inside_special, missing_pair
from .check_notation import show_pair
from .check_own_loops import own_loop, own_loop_told
from .check_reading import count_sentence, find_count_fault
from .check_result import Comparison, pair_words, to_ours, words_that_differ
from .check_set_order import set_order
from .check_setup import (
    CS336_SPECIALS,
    Setup,
    agreed,
    history_bytes,
    setup_agreed,
    student_words,
    text_order,
    train_setup,
)
from .check_space_ban import space_ban, space_ban_told
from .check_special_ban import special_ban
from .check_special_words import special_words, special_words_told
from .check_ties import FOLLOW, TIE_SENTENCES, tie_rule
from .check_told import (
    Parting,
    count_told,
    int_sum_told,
    loop_told,
    never_merges_told,
    set_order_told,
    special_ban_told,
    tie_and_loop_told,
)
from .check_utf16 import utf16_reach, utf16_told
from .check_work import ALLOWANCES
from .config import TIE_RULES
from .count_classes import find_count_class
from .count_faults import file_text
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .occurrence_order import right_to_left, right_to_left_read, right_to_left_told
from .pre_tokenizers import Corpus
from .state import stop_sentence
from .text_cleanings import UNSPACED_GPT2, unspaced_gpt2
from .text_filters import FILTERS
from .tie_from_here import tie_from_here, tie_here_sentence
from .tie_keys import REACHED_TIES, TIE_KEY

SPACE_LED = ("gpt2", "gpt4")  # pre-tokenizers whose words keep the space before them


def ascii_text(corpus: Corpus) -> bool:
    """True if every character is ASCII: bytes and characters are then the same base."""
    texts = corpus.keys() if isinstance(corpus, Mapping) else [corpus] if isinstance(corpus, str) else corpus
    return all(text.isascii() for text in texts)


def settings_kind(setup: Setup, other: Setup) -> str:
    if setup.byte_base != other.byte_base:
        return "byte-base"
    return "pre-tokenizer" if setup.pre_tokenizer != other.pre_tokenizer else "tie"


def compare_one(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    specials: tuple[str, ...],
    num_merges: int | None = None,
    vocab_size: int | None = None,
    search: bool = True,
    other: tuple[Setup, int, tuple] | None = None,
) -> Comparison:
    """The comparison under one setup, causes tried in the module's order. ``other``: another base or
    pre-tokenizer, how many merges it reproduces, and the words that count differently under it. ``search``:
    whether the causes found by a search (loop faults, readers, tie keys) are tried, each within its allowance of
    work (:mod:`bpe.check_work`)."""
    target, target_words = target_merges(corpus, setup, specials, num_merges, vocab_size, student.byte_level)
    length = max(len(student.merges), target or 0)
    history = train_setup(corpus, setup, length, specials, student.end_of_word)
    ours = history_bytes(history)
    n = agreed(ours, student.merges)
    base = dict(history=history, setup=setup, agreed=n, our_merges=tuple(ours))
    if n == len(student.merges):
        return same_merges(history, student, base, specials, target, target_words)
    missing = first_missing(ours, student.merges) if n == 0 else None
    if missing is not None:  # the list starts at our second merge: compared with the first put back
        restored = replace(student, merges=(missing, *student.merges))
        sizes = dict(num_merges=num_merges and num_merges + 1, vocab_size=vocab_size and vocab_size + 1)
        inner = compare_one(corpus, restored, setup, specials, **sizes, search=search)
        return first_missing_told(missing, student.merges, inner)
    k = special_words(student.merges) if n == 0 else 0
    if k:  # special tokens added as words: the rest of the run compared with ours
        rest = replace(student, merges=student.merges[k:])
        sizes = dict(num_merges=num_merges and num_merges - k, vocab_size=vocab_size and vocab_size - k)
        inner = compare_one(corpus, rest, setup, specials, **sizes, search=search)
        return special_words_told(k, student.merges, inner)
    step = n + 1
    theirs = student.merges[n]
    if target is not None and len(student.merges) > target and n >= target:  # also where our run has no pair left
        return goes_past(student, target, target_words, base)
    if n == len(ours):
        return _stops_first(corpus, student, setup, specials, history, n, base, search)
    counts = history.pair_counts_after(n)
    our_pair = history.pair_str(history.merges[n][:2])
    their_pair = to_ours(theirs, history)
    our_count = counts.get(our_pair, 0)
    their_count = counts.get(their_pair, 0) if their_pair is not None else 0
    head = f"At step {step} we merge {show_pair(ours[n])} ({our_count}) and you {show_pair(theirs)}"
    fields = dict(step=step, ours=ours[n], theirs=theirs, our_count=our_count, their_count=their_count, **base)
    texts, word_symbols, freqs = student_words(corpus, setup, specials, student.end_of_word)
    order = functools.cache(lambda: text_order(corpus, setup, specials, texts))  # sorted once, if a key asks
    words = Words(texts, word_symbols, freqs, order, student.byte_level)
    p = Parting(corpus, student, setup, specials, history, ours, n, step, theirs, our_pair, our_count, their_count,
                 head, fields, words)  # fmt: skip
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
        if search and other[0].pre_tokenizer != setup.pre_tokenizer and reach < len(student.merges):
            # a pre-tokenizer with the student's own tie rule reaches as far as both do (the tie told after it)
            other, reach = _cut_with_tie(p, other, reach)
        # ... and before a reading fault only when a merged token crosses a word boundary (``s␣``), which the
        # pre-token pattern of every reader fault forbids: otherwise words counted per chunk and no word
        # boundaries follow a run equally far, and the reader is the likelier bug
        none = 2.9 if _crosses_words(student.merges) else 3.5
        # GPT-2's words with their leading space lost, told with words cut at whitespace, make as many as they do
        reach = max(reach, unspaced_reach(corpus, student, setup, other[0], specials))
        candidates.append((reach, -1 if other[0].pre_tokenizer != "none" else none, "settings"))
    lowered = None  # how far our run on the lowercased text follows the run
    cleaned = None
    tied = their_count == our_count
    if their_count < our_count or their_count == 0:
        lowered = lowercased_agreed(corpus, student, setup, specials)
        candidates.append((lowered, 0, "case"))
        cleaned = cleaned_agreed(corpus, student, setup, specials)
    elif tied:  # at a tie a cleaning moves a count by chance: it must make this choice and follow the run further,
        # or take our pair out of the tie and leave the choice to a tie rule of the student's own (``taken_over``)
        cleaned = cleaned_agreed(corpus, student, setup, specials)
        if cleaned is not None and cleaned.best.agreed < n:
            cleaned = None
    if cleaned is not None:  # the text kept to its letters: after plain lowercasing, the simpler cause; the other
        # cleanings (bpe.text_cleanings) after a faulty reader or a class of wrong counts, commoner in CS336 trainers
        candidates.append((cleaned.best.far, 0.1 if cleaned.best.names[0] in FILTERS else 3.15, "letters"))
    split_out = _split_out(corpus, specials)
    if split_out:  # a special token in the text, kept in by the settings compared, split out by the student
        # a setting: it must make the whole run (at a tie any cause that moves a count makes one choice by chance)
        split_n = setup_agreed(corpus, setup, student.merges, split_out, student.end_of_word)
        if split_n >= min(len(student.merges), step + BEYOND):
            candidates.append((split_n, 1.1, "split-specials"))
    special = inside_special(theirs[0] + theirs[1], specials, student, corpus)
    if special:
        candidates.append((_unsplit_agreed(corpus, student, setup, specials), 1, "specials"))
    ints = int_reach(words.words, words.freqs, student.merges) if summed(student.merges) else None
    uncut = False  # the ints loop follows the run further on the text not cut into words
    if ints is not None and ints[1] < len(student.merges):  # such a loop often iterates over the file's bytes whole
        for kept in (specials, ()):
            _, whole, whole_freqs = student_words(corpus, replace(setup, pre_tokenizer="none"), kept)
            other = int_reach(whole, whole_freqs, student.merges)
            if other[1] > ints[1]:
                ints, uncut = other, True
    if ints is not None:  # tokens kept as ints and added: every merge is a run of zero bytes
        candidates.append((ints[1], 0.5, "int-sum"))
    repeats = _repeats(student.merges)
    if n > 0 and repeats == len(student.merges):  # a loop whose merge never changes a word takes only its first pair
        candidates.append((repeats, 2.1, "never-merges"))
    if search:
        found = find_fault(words, student.merges, step, (ours[n], theirs), TIE_KEY.get(setup.tie_break))
        if found is not None:  # a lost pair explains any run it follows, so any more telling cause goes first
            candidates.append((found.reproduced, 3.2 if found.fault.loses else found.fault.weight, "merge-loop"))
    counted = classed = None
    text = file_text(corpus)  # only a text can be read in chunks
    if search and text is not None:
        eow = student.end_of_word
        parting = (ours[n], our_count, theirs, their_count)
        counted = find_count_fault(text, setup, student.merges, step, specials, eow, parting=parting, cost=words.cost)
        if lowered is not None and lowered <= n and (counted is None or counted.reproduced < len(student.merges)):
            low = lowered_reading(text, setup, student.merges, step, specials, eow, cost=words.cost)  # both at once
            counted = low if low is not None and (counted is None or low.reproduced > counted.reproduced) else counted
        if counted is not None:  # a cut near the end moves a count by one, as a tie rule does: named after those
            tail = counted.fault.name == "cut-before-end"
            candidates.append((counted.reproduced, 5.1 if tail else 3, "reading"))
        if their_count <= our_count:  # the student's counts cannot be ours (or tie): which class of counts makes them?
            found_class = find_count_class(
                text, setup, student.merges, step, specials, eow, parting, tied, counted, cost=words.cost
            )
            if found_class is not None:  # with a tie rule of the student's own too: after a tie rule alone
                classed, second = found_class
                candidates.append((classed.reproduced, 5.5 if second and tied else 3.1, "count-class"))
    ordered = set_order(corpus, student, setup, specials, step, words) if search else None
    if ordered is not None:  # a pair's occurrences merged in the order of a set of their positions
        candidates.append((ordered[0], 2.05, "set-order"))
    own = own_loop(p) if search else None
    if own is not None:  # another algorithm than BPE's loop: several pairs per pass, a greedy cut, a wrong key
        candidates.append((own.reach, 2.06, "own-loop"))
    our_key = TIE_KEY.get(setup.tie_break)
    upto = student.merges[: step + BEYOND]
    reversed_ = right_to_left(words.words, words.freqs, words.texts, upto, step, ours[n], our_key)
    if search and (reversed_ is None or reversed_[0] < min(len(student.merges), step + BEYOND)):
        read = right_to_left_read(file_text(corpus), setup, specials, upto, step, ours[n], our_key, cost=words.cost)
        reversed_ = read if read is not None and (reversed_ is None or read[0] > reversed_[0]) else reversed_
    if reversed_ is not None:  # ... or from each word's end
        candidates.append((reversed_[0], 2.06, "right-to-left"))
    banned = (
        special_ban(words, student.merges, step, ours[n], specials, TIE_KEY.get(setup.tie_break)) if search else None
    )
    if banned is not None:  # pairs whose bytes are part of a special token left out of the selection
        candidates.append((banned[0], 2.07, "special-ban"))
    spaced = (
        space_ban(words, student.merges, step, ours[n], TIE_KEY.get(setup.tie_break))
        if search and setup.pre_tokenizer == "none"  # words cut otherwise hold no whitespace between characters
        else None
    )
    if spaced is not None:  # pairs whose token would hold whitespace inside it left out of the selection: after a
        # reader making as many merges (a text read line by line never pairs a line break either)
        candidates.append((spaced.reach, 3.02, "space-ban"))
    rule = near = None
    if their_count == our_count:  # another tie rule changes the choice only where the counts tie
        rule, rule_n, same = tie_rule(corpus, student, setup, specials, step)
        if search:
            key, key_n = tie_key(words, student.merges, step, TIE_KEY.get(setup.tie_break))
            if key is not None and key_n > rule_n:
                rule, rule_n, same = key, key_n, (key,)
        near = (same, rule_n) if rule is not None and rule_n >= step else None  # makes this choice, maybe no more
        if rule_n < min(len(student.merges), step + FOLLOW):
            rule = None  # it makes this one choice but not the next ones: chance, not the cause
        elif rule is not None:
            # a rule that makes the whole run on counts that tie here is simpler than a reader or a lost pair that
            # makes it too: both fit a tie by chance (a reader tried with many numbers of chunks, a lost pair anywhere)
            whole = rule_n >= min(len(student.merges), step + BEYOND)
            # ... but a count a reader lost at the text's end makes the pair there lose its ties as a best pair kept
            # while counting does (its last occurrence comes late): the reader, a commoner slip, is named first
            weight = (3.05 if rule in REACHED_TIES else 2.95) if whole else 4 if rule in TIE_RULES else 5
            candidates.append((rule_n, weight, "tie"))
            if whole and idle_fault(found):  # a loop fault that counts both pairs as we do only passes the tie on
                candidates = [(c[0], 3.3, c[2]) if c[2] == "merge-loop" else c for c in candidates]
    here = None
    if search and their_count == our_count and rule is None:  # a tie rule from this step, not from the start
        here = tie_from_here(words, student.merges, step, TIE_KEY.get(setup.tie_break))
        if here is not None:
            candidates.append((here.reproduced, 5.2, "tie-here"))
    candidates, indexed = indexed_candidate(p, candidates, found) if search else (candidates, None)
    cap = step + BEYOND  # the replays follow the student no further, so no cause counts beyond it
    if search and (lowered is not None or cleaned is not None):  # a student's tie rule after case or a cleaning?
        candidates, cleaned = taken_over(p, candidates, lowered, cleaned, min(len(student.merges), cap))
    if tied and cleaned is not None and cleaned.best.far < min(len(student.merges), step + FOLLOW):
        candidates, cleaned = [c for c in candidates if c[2] != "letters"], None
    units = utf16_reach(corpus, student.merges, setup.pre_tokenizer, cap)
    if units is not None and units.reach >= min(len(student.merges), step + FOLLOW):  # UTF-16 code units
        candidates.append((units.reach, 1.5, "utf16"))
    both = None
    reach = max((min(c[0], cap) for c in candidates), default=0)
    if search and reach < min(
        len(student.merges), cap
    ):  # no cause follows the whole run: a tie rule and a loop fault together?
        need = max(reach + 1, min(len(student.merges), step + FOLLOW))
        pairs = (ours[n], theirs)
        skip = TIE_KEY.get(setup.tie_break)
        prefer = found.fault if found is not None else None
        if prefer is None:  # no fault made the step under our tie rule: one may where any tied pair can win, and
            # is tried with each rule first (a stale count a faulty update left ties with ours, a dict's order wins)
            loose = find_fault(words, student.merges, step, pairs, None, ALLOWANCES["same"])
            prefer = loose.fault if loose is not None else None
        if not tied and found is not None and found.reproduced >= step:  # where no count ties, a rule that adds a
            # choice or two to the loop fault that alone makes this one is chance
            need = max(need, min(len(student.merges), found.reproduced + FOLLOW))
        both = find_tie_and_fault(words, student.merges, step, pairs, need, skip, prefer=prefer)
        if both is not None:
            candidates.append((both.found.reproduced, 6, "tie-and-loop"))
    best = max((c for c in candidates if c[0] > n), key=lambda c: (min(c[0], cap), -c[1]), default=None)
    kind = best[2] if best else None
    if search:  # where no cause makes the whole run: ties in a container's order, or a lazy heap's choices
        container = container_cause(p, best, both, near, here, cap, found)
        if container is not None:
            return container
    repeated = {"never-merges", "kept-pair"}
    if kind == "merge-loop" and found is not None and found.fault.name in repeated and repeats == len(student.merges):
        kind = "never-merges"  # the run is its first merge over and over: both loops make it, both are told
    if kind == "settings" and other is not None:
        return _settings_told(p, other, num_merges, vocab_size, search)
    if kind == "case":
        cause = (
            f"{head} ({their_count} here): a count that differs, from case. Your run lowercases the text "
            "first: on the lowercased corpus our run makes this merge too, since words that differ only in case "
            "count together."
        )
        if search and lowered is not None and lowered < len(student.merges):  # a second cause, told after case
            later = compare_one(lowercased_corpus(corpus), student, setup, specials, num_merges, vocab_size, search)
            if later.step is not None and later.kind != "same":
                cause += f" On the lowercased text, {later.cause[0].lower()}{later.cause[1:]}"
                fields |= dict(fault=later.fault, rule=later.rule, later_kind=later.kind, later_step=later.step)
        return Comparison(kind="case", cause=cause, **fields)
    if kind == "letters" and cleaned is not None:
        counted = (
            f", both counted {our_count} here: a tie, decided by how the text is cleaned"
            if tied
            else f" ({their_count} here): a count that differs, from how the text is cleaned"
        )
        cause = f"{head}{counted}. Your run {cleaned.best.told()}: on the text cleaned so our run makes this merge too"
        if cleaned.best.agreed == n:  # the cleaning took our pair out of the tie, a rule of the student's chose theirs
            cause = (
                f"{head}{counted}. Your run {cleaned.best.told()}: on the text cleaned so our run no longer makes our "
                "merge here, and the tie left is broken by a rule of yours, told below."
            )
        elif cleaned.best.names[0] not in FILTERS:  # how far the cleaning explains the run
            total = len(student.merges)
            cause += (
                (f", and all {total} of yours." if total > 1 else ", your only merge.")
                if cleaned.best.agreed >= total
                else f", and follows yours for {cleaned.best.agreed} merge{'s' if cleaned.best.agreed != 1 else ''}."
            )
            cause += also_told(cleaned, total)
        else:
            cause += "." + digits_told(cleaned) + unfiltered_told(cleaned, len(student.merges))
        if search and cleaned.best.far > cleaned.best.agreed:  # a second cause, told after the cleaning
            later = compare_one(cleaned.best.text, student, setup, specials, num_merges, vocab_size, search)
            if later.step is not None and later.kind != "same":
                cause += f" On the text cleaned so, {later.cause[0].lower()}{later.cause[1:]}"
                fields |= dict(fault=later.fault, rule=later.rule, later_kind=later.kind, later_step=later.step)
        return Comparison(kind="letters" if cleaned.best.names[0] in FILTERS else "cleaning", cause=cause, **fields)
    if kind == "specials":
        cause = (
            f"{head} ({their_count} here): a count that differs. The pair also occurs inside the special token "
            f"{special}, which we split out of the text before counting: your run did not split special "
            "tokens out (without splitting them, our run makes your merge too)."
        )
        return Comparison(kind="specials", cause=cause, **fields)
    if kind == "split-specials":
        shown = ", ".join(split_out)
        cause = (
            f"{head} ({their_count} here): a count that differs. You split the special token {shown} out of the "
            "text before counting and never trained on it, where the settings compared here keep it in the text as "
            "ordinary characters (as minbpe's train() does: its special tokens are registered after training, for "
            "encoding only); with it split out, our run makes your merges too."
        )
        return Comparison(kind="split-specials", cause=cause, **fields)
    if kind == "indexed" and indexed is not None:
        return indexed_told(p, indexed)
    if kind == "set-order" and ordered is not None:
        return set_order_told(p, ordered)
    if kind == "own-loop" and own is not None:
        return own_loop_told(p, own)
    if kind == "right-to-left" and reversed_ is not None:
        return right_to_left_told(head, their_count, len(student.merges), reversed_, fields)
    if kind == "special-ban" and banned is not None:
        return special_ban_told(p, banned)
    if kind == "space-ban" and spaced is not None:
        return space_ban_told(p, spaced)
    if kind == "int-sum" and ints is not None:
        return int_sum_told(p, ints, uncut)
    if kind == "never-merges":
        return never_merges_told(p, found, repeats)
    if kind == "merge-loop" and found is not None:
        told = loop_told(p, found)
        if rule is not None and rule_n >= min(len(student.merges), cap) and found.reproduced >= len(student.merges):
            # at a tie a rule of ours or a student's makes the whole run too, on counts that are right: the run cannot
            # tell the two apart, so both are said, the loop fault first (on a short run a rule may follow by chance)
            told = replace(told, cause=told.cause + (
                f" Your ties broken by the '{rule}' rule ({TIE_SENTENCES[rule]}) make all your merges here too, with "
                "no count off, so that may be your bug instead."
            ))  # fmt: skip
        return told
    if kind == "utf16" and units is not None:
        return Comparison(
            kind="byte-base",
            cause=utf16_told(head, units, setup.tie_break, student.merges, step),
            rule=units.rule,
            **fields,
        )
    if kind == "tie-and-loop" and both is not None:
        return tie_and_loop_told(p, both, found)
    if kind == "reading" and counted is not None:
        options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
        return _reading(student, setup, counted, head, their_count, (ours[n], theirs), fields, options)
    if kind == "count-class" and classed is not None:  # told as a reader that counts the words that way
        options = dict(num_merges=num_merges, vocab_size=vocab_size, search=search)
        return _reading(student, setup, classed, head, their_count, (ours[n], theirs), fields, options)
    if kind == "tie":
        cause = (
            f"{head}, both counted {their_count}: a tie broken by the '{rule}' rule ({TIE_SENTENCES[rule]}), "
            f"where ours is '{setup.tie_break}'."
        )
        if rule_n < min(len(student.merges), step + BEYOND):  # where the rule parts, something else differs
            cause += f" It follows your run through step {rule_n}, then parts from it: there something else differs too"
            cause += (
                ", or your ties follow no rule at all (the hash order of a set or an unordered map, which a rule "
                "matches only for a few steps by chance)."
                if rule_n < step + 2 * FOLLOW  # a rule that follows only a few steps may have matched by chance
                else "."
            )
        if idle_fault(found) and found.reproduced >= len(student.merges):
            cause += (
                f" The '{found.fault.name}' loop fault makes all your merges too, but it counts these two pairs as we "
                "do, so the tie, not that fault, decides here."
            )
        return Comparison(kind="tie", cause=cause, rule=rule, **fields)
    if kind == "tie-here" and here is not None:
        cause = tie_here_sentence(head, their_count, here, setup.tie_break, student.merges)
        return Comparison(kind="tie", cause=cause, rule=here.rule, **fields)
    if their_count == 0:
        kind, cause = missing_pair(head, theirs, student, setup, specials, corpus, history, n)
        return Comparison(kind=kind, cause=cause, **fields)
    return count_told(p, near, search)


def _stops_first(corpus, student, setup, specials, history, n, base, search) -> Comparison:
    """Our run has no pair left where the student's goes on: a faulty loop that finds a pair where none is left, or
    a bigger corpus."""
    step, theirs = n + 1, student.merges[n]
    words = Words(*student_words(corpus, setup, specials, student.end_of_word))
    tie = TIE_KEY.get(setup.tie_break)
    found = find_fault(words, student.merges, step, (theirs,), tie) if search else None
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


def _settings_told(p: Parting, other, num_merges, vocab_size, search) -> Comparison:
    """Another base or pre-tokenizer follows the run furthest: named, and the cause where the run leaves those
    settings too."""
    corpus, student, setup, specials = p.corpus, p.student, p.setup, p.specials
    head, their_count, fields = p.head, p.their_count, dict(p.fields)
    alt, n_alt, words_differ = other
    if alt.byte_base != setup.byte_base and ascii_text(corpus):  # on ASCII text the base changes nothing
        alt = replace(alt, byte_base=setup.byte_base)
    what = (
        f"starts from {'bytes' if alt.byte_base else 'characters'}, not {'bytes' if setup.byte_base else 'characters'}"
        if alt.byte_base != setup.byte_base
        else "does not cut the text into words"
        if alt.pre_tokenizer == "none"
        else f"cuts its words as the {alt.pre_tokenizer} pre-tokenizer does"
    )
    if alt.pre_tokenizer in SPACE_LED and setup.pre_tokenizer not in SPACE_LED:
        what += " (each word keeps the space before it)"
    if unspaced_reach(corpus, student, setup, alt, specials) >= n_alt:
        what += f", {UNSPACED_GPT2}"
    cause = f"{head} ({their_count}): your run {what}: with {alt.sentence()} our run follows yours for {n_alt} merges."
    later = _later(corpus, student, alt, specials, num_merges, vocab_size, search)
    if later is not None:  # the settings explain the start; what parts the runs under them is named too
        cause += f" With those settings, {later.cause[0].lower()}{later.cause[1:]}"
        fields |= dict(fault=later.fault, rule=later.rule, later_kind=later.kind, later_step=later.step)
    return Comparison(kind=settings_kind(setup, alt), cause=cause, settings=alt, **{**fields, "words": words_differ})


def unspaced_reach(corpus, student, setup: Setup, alt: Setup, specials) -> int:
    """How many of the run's merges our run makes on GPT-2's words with their leading space lost, where the settings
    compared cut with GPT-2's pattern and words cut at whitespace follow the run further (0 elsewhere): such a
    student cut with GPT-2's pattern, then lost each word's space."""
    if setup.pre_tokenizer != "gpt2" or alt.pre_tokenizer != "whitespace":
        return 0
    if any(b" " in t for pair in student.merges for t in pair):  # a space merged: not lost
        return 0
    text = unspaced_gpt2(corpus)
    if text is None:
        return 0
    return setup_agreed(text, alt, student.merges, specials, student.end_of_word)


def _cut_with_tie(p: Parting, other, reach: int):
    """The other settings, and how far they reach, once a students' tie rule (:func:`bpe.check_loop.tie_key`) may
    take over where they part from the run: of the settings found and GPT-4's and GPT-2's pre-tokenizers (with our
    tie rule), the one that reaches furthest with such a rule (where the rule follows the run past ``FOLLOW``)."""
    corpus, student, specials, eow = p.corpus, p.student, p.specials, p.student.end_of_word
    alt = other[0]
    best = (reach, alt, other[1])
    for cut in dict.fromkeys((alt.pre_tokenizer, "gpt4", "gpt2")):
        if cut == p.setup.pre_tokenizer:
            continue
        tried = replace(alt, pre_tokenizer=cut, tie_break=p.setup.tie_break) if cut != alt.pre_tokenizer else alt
        n_cut = other[1] if tried == alt else setup_agreed(corpus, tried, student.merges, specials, eow)
        if n_cut <= p.n:  # it parts from the run where ours does: not what cuts the words
            continue
        words = Words(*student_words(corpus, tried, specials, eow))
        _, key_n = tie_key(words, student.merges, n_cut + 1, TIE_KEY.get(tried.tie_break))
        far = key_n if key_n >= min(len(student.merges), n_cut + 1 + FOLLOW) else n_cut
        if far > best[0]:
            best = (far, tried, n_cut)
    far, tried, n_cut = best
    if tried == alt:
        return other, far
    history = train_setup(corpus, tried, n_cut + 1, specials, eow)
    differ = words_that_differ(
        pair_words(p.history, p.n, to_ours(p.theirs, p.history)), pair_words(history, p.n, to_ours(p.theirs, history))
    )
    return (tried, n_cut, differ), far


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
    step = fields["step"]
    sentence = count_sentence(counted, setup, step, pairs, student.end_of_word, student.merges[: step - 1])
    cause = f"{head} ({their_count}): {sentence}. With those counts our run "
    extra = {}
    inner = compare_one(counted.counts, student, setup, (), **options) if n < total else None
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


def _later(corpus, student, alt, specials, num_merges, vocab_size, search) -> Comparison | None:
    """Where the run leaves ours under the settings that follow it longest, when a cause after the settings
    (special tokens, case, the merge loop, the tie rule, a count) explains it: the student's run can hold
    both a setting and a loop fault."""
    inner = compare_one(corpus, student, alt, specials, num_merges, vocab_size, search)
    return inner if inner.step is not None and inner.kind in LATER_KINDS else None


def _split_out(corpus, specials) -> tuple[str, ...]:
    """CS336's special tokens the text holds, where the settings compared split none out (as minbpe trains)."""
    if specials:
        return ()
    text = file_text(corpus)
    return tuple(s for s in CS336_SPECIALS if text is not None and s in text)


def _unsplit_agreed(corpus, student, setup, specials) -> int:
    """How many of the student's merges our run makes with the special tokens left in the text."""
    return setup_agreed(corpus, setup, student.merges, (), student.end_of_word)
