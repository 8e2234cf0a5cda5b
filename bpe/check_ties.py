"""The tie rules a student's run may follow: each told in words, the one reproducing most of the run found.

Where the two pairs' counts tie at the step where the runs part, another tie rule may make the student's choice:
:func:`tie_rule` finds the one of ours that reproduces the most of the run (with every rule that goes as far, which
the run cannot tell apart); :data:`TIE_SENTENCES` says what each rule does, :func:`rules_told` names several, and
:func:`tie_sentence` tells a tie that no rule follows past the step. Where two rules make every merge of a run, the
commoner in students' code (:data:`COMMON_TIES`) is named first (:func:`commoner_tie`, :func:`two_tie_rules`).

Left out: the students' tie keys replayed (:data:`bpe.tie_keys.TIE_KEYS`, :func:`bpe.check_loop.tie_key`) and
the order in which the Check weighs a tie against other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from dataclasses import replace

from .check_loop import Words
from .check_result import Comparison
from .check_setup import Setup, setup_agreed, student_words
from .config import TIE_RULES
from .fault_replay import replay
from .tie_keys import JAVA_MERGE_TIE, JAVA_TIE, JAVA_WORDS_TIE, RECOUNT_TIE, TIE_KEYS

# Another tie rule explains a choice only if it also follows the student's run this many merges past it
# (or to its end): one that makes the same choice by chance parts from the run soon after,
# as where the student's counts are off (a corpus cut at a chunk boundary, a loop bug no fault models).
FOLLOW = 3

TIE_SENTENCES = {
    "first": "the pair seen first wins",
    "hf": "the pair of smallest token ids wins, as in the tokenizers library",
    "lexicographic": "the smallest pair wins",
    "greatest-bytes": "the greatest pair of bytes wins",
    "greatest": "the greatest pair as shown in GPT-2's byte characters wins",
    **{name: sentence for name, (sentence, _) in TIE_KEYS.items()},
}


def tie_rule(corpus, student, setup, specials, step) -> tuple[str | None, int, tuple[str, ...]]:
    """Of our other tie rules, the one that reproduces the most of the student's merges, at least the
    first ``step``, and how many; with every rule that reproduces as many (which the run cannot tell apart), of which
    the one named is the commoner in students' code (:data:`COMMON_TIES`)."""
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
    if len(same) > 1:  # the run cannot tell them apart: the commoner in students' code is named
        best = min(same, key=lambda r: COMMON_TIES.index(r) if r in COMMON_TIES else len(COMMON_TIES))
    return best, best_n, same


def rules_told(rules: tuple[str, ...]) -> str:
    """The tie rules named with what each does: "the 'first' rule (...)", several joined with "and"."""
    told = [f"'{rule}' ({TIE_SENTENCES[rule]})" for rule in rules]
    return f"the {told[0]} rule" if len(told) == 1 else f"the rules {', '.join(told[:-1])} and {told[-1]}"


def tie_sentence(setup: Setup, near: tuple[tuple[str, ...], int] | None, total: int) -> str:
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
            "leaves them in, the order the pairs were stored in, or the hash order of a set or an unordered map: "
            "compare the whole pair when the counts tie), or"
        )
    rules, n = near
    many = len(rules) > 1
    stop = f"through step {n}, then {'part' if many else 'parts'} from it" if n < total else "to its end"
    return (
        f"a tie, and {ours}. {rules_told(rules)[0].upper()}{rules_told(rules)[1:]} "
        f"{'make' if many else 'makes'} your choice here and {'follow' if many else 'follows'} your run {stop}: "
        f"your ties are likely broken so, and where {'they part' if many else 'it parts'} something else differs "
        "too, or your ties follow no rule at all (the hash order of a set or an unordered map, which a rule matches "
        "only for a few steps by chance). Else"
    )


# Tie rules as common in students' code, commonest first: max over a dict of counts keeps the pair seen first, a heap
# of (-count, pair) pops the smallest pair, CS336's max over (count, pair) takes the greatest; rules by token ids or
# text are rarer. Where two rules make every merge of a run, the commoner is named first.
COMMON_TIES = (
    "first", "lexicographic", "smallest-bytes", "first-added", "first-recounted", "greatest-bytes", "greatest", "hf",
    "smallest-id", "greatest-id", "greatest-text", "greatest-text-ignore", "greatest-concat", "gpt2-id", "greatest-repr",
)  # fmt: skip


def commoner_tie(corpus, student, alternative: Setup, specials) -> str | None:
    """A tie rule commoner than ``alternative``'s (of ours or of :data:`bpe.tie_keys.TIE_KEYS`, replayed) that also
    makes every one of the student's merges with its pre-tokenizer and base, or None."""
    if alternative.tie_break not in COMMON_TIES:
        return None
    return _making_all(corpus, student, alternative, specials, COMMON_TIES[: COMMON_TIES.index(alternative.tie_break)])


RARER = 2  # where the commonest rule makes a run, this many rarer rules after it are tried for one making it too


def rarer_tie(corpus, student, alternative: Setup, specials) -> str | None:
    """A tie rule rarer than ``alternative``'s, of the next :data:`RARER` in :data:`COMMON_TIES`, that also makes
    every one of the student's merges with its pre-tokenizer and base, or None: told beside the commoner one, since
    the run cannot tell them apart."""
    if alternative.tie_break not in COMMON_TIES:
        return None
    at = COMMON_TIES.index(alternative.tie_break)
    return _making_all(corpus, student, alternative, specials, COMMON_TIES[at + 1 : at + 1 + RARER])


def students_tie(corpus, student, setup: Setup, alternative: Setup, specials) -> str | None:
    """A students' tie rule (:data:`bpe.tie_keys.TIE_KEYS`, not one of ours) that makes every one of the student's
    merges with ``alternative``'s pre-tokenizer and base, where ``alternative``'s tie rule makes them and the student
    compared another that is not the first-seen one (they said their ties go otherwise), or None."""
    if setup.tie_break in ("first", alternative.tie_break):
        return None
    akin = ("first-added", RECOUNT_TIE)  # first-seen rules over a dict's order: not another kind of rule
    keys = sorted(
        (k for k in TIE_KEYS if k not in TIE_RULES and k not in akin),
        key=lambda k: COMMON_TIES.index(k) if k in COMMON_TIES else len(COMMON_TIES),
    )
    return _making_all(corpus, student, alternative, specials, keys)


CONTAINER_TIES = (
    JAVA_TIE,
    JAVA_MERGE_TIE,
    JAVA_WORDS_TIE,
)  # orders of a language's containers: no student chooses them, so never on the page


def container_tie(corpus, student, alternative: Setup, specials) -> str:
    """A sentence naming the containers' orders (:data:`CONTAINER_TIES`) that make every one of the student's merges
    with ``alternative``'s pre-tokenizer and base, or "": a student who never chose a tie rule has the order of the
    map their counts are kept in, and where a short run cannot tell it from ours, both are said."""
    rules = [r for r in CONTAINER_TIES if _making_all(corpus, student, alternative, specials, (r,)) is not None]
    if not rules:
        return ""
    said = " or ".join(f"the '{rule}' order ({TIE_SENTENCES[rule]})" for rule in rules)
    return f" Or your ties follow {said}, which makes every merge too."


def _making_all(corpus, student, alternative: Setup, specials, rules) -> str | None:
    """The first of ``rules`` that makes every one of the student's merges with ``alternative``'s pre-tokenizer and
    base (ours trained, a student's rule replayed), or None."""
    total = len(student.merges)
    words = None
    for rule in rules:
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


def two_tie_rules(student, setup, alternative, lead, n, ours, words) -> Comparison:
    """Two tie rules make every merge: the commoner ``lead`` said first, ``alternative``'s rule beside it."""
    total = len(student.merges)
    settings = Setup(lead, alternative.pre_tokenizer, alternative.byte_base) if lead in TIE_RULES else alternative
    cause = (
        f"Your run equals ours with {alternative.cut_sentence()} and the {lead} tie rule ({TIE_SENTENCES[lead]}): all "
        f"{total} merges agree. The {alternative.tie_break} tie rule ({TIE_SENTENCES[alternative.tie_break]}) makes "
        f"them all too, so your run cannot tell the two apart; the {lead} rule is the commoner in students' code. With the "
        f"settings compared here ({setup.sentence()}) the runs part at step {n + 1}."
    )
    return replace(ours, kind="tie", cause=cause, rule=lead, settings=settings, equal=True, words=words or ours.words)
