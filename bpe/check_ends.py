"""Where a student's run ends: against the target size (merges or vocabulary size), and, when every merge
agrees, the vocabulary sizes.

A run that stops short of its target is flagged at the first merge it did not make (a run of one merge as a merge
that never changes a word), one that goes past at the first merge too many; a run of the right length whose vocabulary size differs from ours is told
why (special tokens left out or counted, a smaller base alphabet).

Left out: the merges that differ (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

import re

from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import Setup, raw_word_counts
from .formats.student_runs import StudentRun

GLUED_SAID = (
    " Your '</w>' is glued to each word's last character from the start ('t</w>' one symbol, as subword-nmt's "
    "learn_bpe writes its codes), where {ours}: read so, the merges are the same."
)


def target_merges(corpus, setup: Setup, specials, num_merges, vocab_size, byte_level=False) -> tuple[int | None, str]:
    """The number of merges the student's target asks for, and the target in words: a vocabulary holds
    the base (256 bytes, or the corpus's characters), the special tokens, and one token per merge. ``byte_level``:
    the student's run starts from bytes, so its vocabulary holds the 256 whatever base ``setup`` names (on ASCII text
    settings with characters make the same merges)."""
    if num_merges is not None:
        return num_merges, f"a target of {num_merges} merges"
    if vocab_size is not None:
        if setup.byte_base or byte_level:
            base = 256
        else:
            base = len({c for w in raw_word_counts(corpus, setup.pre_tokenizer, specials) for c in w})
        return max(0, vocab_size - base - len(specials)), f"a vocabulary of {vocab_size}"
    return None, ""


def ends_clause(n: int, target: int, target_words: str) -> str:
    """Where a run that stops short ends, against its target: said by the verdict and after other settings'."""
    return f"it ends after step {n} where {target_words} asks for {target} merges"


def round_size(n: int) -> bool:
    """A vocabulary size people ask for: a power of two from 512, or a multiple of 100 from 300."""
    return n >= 300 and n % 100 == 0 or n >= 512 and n & (n - 1) == 0


def near_round(size: int) -> str:
    """A vocabulary one token short of (or past) a size people ask for is most likely a loop that counts its merges
    one off (``range(vocab_size - 257)``): said as a question, since the run may be right. For a run whose target
    is unknown or was taken from the run itself (a minbpe ``.model`` holds no vocab_size)."""
    if round_size(size):
        return ""
    for asked, how in ((size + 1, "short of"), (size - 1, "past")):
        if round_size(asked):
            word = "early" if asked > size else "late"
            return (
                f" Your vocabulary comes to {size:,} tokens, one {how} {asked:,}: if you asked for {asked:,}, your "
                f"loop stops one merge {word} (set the target to the size you asked for to check)."
            )
    return ""


def _joins_words(pair) -> bool:
    """True if a merge's text holds an ASCII letter or digit, whitespace, and another: it joins two words (as a
    student's check ``[a-zA-Z0-9]+\\s[a-zA-Z0-9]+`` sees it)."""
    return re.search(rb"[A-Za-z0-9]\s+[A-Za-z0-9]", pair[0] + pair[1]) is not None


def holds_space(pair) -> bool:
    """Whether a token of the pair is or holds a space."""
    return any(b" " in token for token in pair)


# how a pair key joined with a space ends or repeats a run (JavaScript's `${a} ${b}` split back with key.split(' '))
# a loop that merges its words but counts the words as first read takes its first pair again at every step
FIRST_READ = "each step counts the text as first read instead of the merged words (the original ids or words)"
SPACE_KEY = (
    "if your loop keeps a pair as one string, a + ' ' + b, and splits it back on ' ' (key.split(' ')), such a pair "
    "cannot be read back: its parts come back empty, so the merge changes nothing"
)


def goes_past(student: StudentRun, target: int, target_words: str, base: dict) -> Comparison:
    extra = student.merges[target]
    cause = (
        f"Your run goes past the target: it makes {len(student.merges)} merges where {target_words} asks for "
        f"{target}; your first {target} agree with ours, and step {target + 1}, {show_pair(extra)}, is one too many."
    )
    return Comparison(
        kind="goes-past", cause=cause, step=target + 1, ours=None, theirs=extra, our_count=0, their_count=0, **base
    )


def same_merges(history, student, base, specials, target=None, target_words="") -> Comparison:
    """Every merge agrees: the run's length against the target, then the vocabulary sizes."""
    n = len(student.merges)
    ours_all = base["our_merges"]
    if target is not None and n > target:
        return goes_past(student, target, target_words, base)
    if target is not None and n < min(target, len(ours_all)):
        nxt = ours_all[n]
        ends = ends_clause(n, target, target_words)
        cause = (
            f"Your run stops short: {ends}. The {n} merges you made agree with ours; at step {n + 1} ours goes on "
            f"with {show_pair(nxt)}."
        )
        if _joins_words(nxt) and not any(_joins_words(m) for m in student.merges):
            cause += (
                f" It is our first merge across a space between two words ('{(nxt[0] + nxt[1]).decode('utf-8', 'replace')}'"
                "): your run stops exactly where a merge would join two words, as a loop does that breaks (or is "
                "stopped by a check) at the first merge whose text holds a space between letters or digits."
            )
        if n == 1:  # one pair, kept once: every step took the same pair again
            cause = (
                f"Your run makes one merge, {show_pair(student.merges[0])}, and no more because your merge never "
                "changes a word (the pair written back as ' '.join(pair), or a pair built as a list never equal to "
                f"the tuple), or because {FIRST_READ}: no count changes, so the same pair wins every step and "
                f"merges kept in a dict or set record it once; {ends}, and at step 2 ours goes on with {show_pair(nxt)}."
            )
        if n == 0:  # no merge at all: nothing about the pairs can say why
            cause = (
                f"Your run has no merges: {ends}, and at step 1 ours makes {show_pair(nxt)}. Your loop never made a "
                "merge: its condition was false from the start (the sequence it trains on is empty, as a list filled "
                "only by merges you do not have yet, or the number of merges it computes from the vocabulary size is "
                "0), or the merges were never stored where your output reads them."
            )
        spaced = student.merges[0] if n == 1 else nxt
        if n and holds_space(spaced) and not any(holds_space(m) for m in student.merges[: n - 1 if n == 1 else n]):
            cause += (
                f" Your run ends at the first pair holding a space, {show_pair(spaced)}: {SPACE_KEY}, or its token "
            )
            cause += "is one you already hold and the loop stops."
        return Comparison(
            kind="stops-early", cause=cause, step=n + 1, ours=nxt, theirs=None,
            our_count=history.pair_counts_after(n).get(history.pair_str(history.merges[n][:2]), 0), their_count=0,
            **base,
        )  # fmt: skip
    new = {a + b for a, b in ours_all[:n]}
    alphabet = 256 if student.byte_level else history.num_base - len(specials)
    ours = alphabet + len(specials) + len(new)
    fields = dict(step=None, ours=None, theirs=None, our_count=0, their_count=0, **base)
    if student.vocab_size is None or student.vocab_size == ours:
        cause = f"Your run equals ours with {base['setup'].sentence()}: all {n} merges agree.{near_round(ours)}"
        if student.end_of_word:
            sennrich = base["setup"].pre_tokenizer == "sennrich"
            cause += GLUED_SAID.format(ours="ours is a symbol of its own" if sennrich else "our words carry no '</w>'")
        return Comparison(kind="same", cause=cause, **fields)
    diff = student.vocab_size - ours
    if diff == -len(specials):
        why = f"your vocabulary leaves out the {len(specials)} special token{'s' if len(specials) > 1 else ''}"
    elif diff == len(specials) or diff > 0 and diff <= len(student.special_tokens):
        why = "your vocabulary counts special tokens that ours does not"
    elif student.byte_level and student.vocab_size - len(new) < 256:
        why = "your base alphabet is smaller than the 256 bytes"
    else:
        why = "special tokens or the base alphabet are counted differently"
    return Comparison(
        kind="vocab-size",
        cause=f"All {n} merges agree, but your vocabulary has {student.vocab_size} tokens and ours "
        f"{ours} ({alphabet} base + {len(specials)} special + {len(new)} merged): {why}.",
        **fields,
    )
