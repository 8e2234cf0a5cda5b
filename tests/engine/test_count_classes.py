"""Classes of wrong word counts (bpe.count_classes): set L's readers and counters in tests/faulty_trainers.py (each
distinct word counted once, only the last chunk's words kept, the special token replaced by a space or kept as text)
named with their step on the handout, the prose and the byte corpus, uploaded as CS336 pickles."""

from __future__ import annotations

from collections import Counter

import pytest
from check_support import check, first_difference
from faulty_trainers import (
    CORPORA,
    COUNT_CLASS_FAULTS,
    EACH_WORD_ONCE,
    EOT,
    LAST_CHUNK,
    SPECIAL_AS_SPACE,
    SPECIAL_AS_WORDS,
    SPECIAL_ONE_WORD,
    train,
    word_counts,
)

from bpe import check_work
from bpe.count_classes import members
from bpe.count_faults import Reading

MERGES = {"handout": 12, "prose": 80, "bytes": 80}
LAST_SMALLEST = f"{LAST_CHUNK}+smallest-bytes"  # xieweibbz's trainer: its heap of (-count, pair) pops the smallest
ONE_WORD_IDS = f"{SPECIAL_ONE_WORD}+greatest-id"  # golonzovsky's trainer: ties to the greatest pair of token ids
NAMED = {  # the members that name each fault (with ties to the greatest pair, the reader fault of one document too)
    EACH_WORD_ONCE: ({"each-word-once"}, "your pair counts add 1 for each distinct word, not the word's frequency"),
    LAST_CHUNK: ({"only-last-document", "last-document"}, "last document (the text after the last special token)"),
    LAST_SMALLEST: ({"only-last-document"}, "only the last document (the text after the last special token) is"),
    SPECIAL_AS_SPACE: ({"special-as-space"}, "your special token <|endoftext|> is replaced by a space (' ')"),
    SPECIAL_AS_WORDS: ({"special-as-words"}, "your special token <|endoftext|> is kept in your text and cut into"),
    SPECIAL_ONE_WORD: ({"special-one-word"}, "your special token <|endoftext|> is counted as one word of your corpus"),
    ONE_WORD_IDS: ({"special-one-word"}, "your special token <|endoftext|> is counted as one word of your corpus"),
}


def as_text(counts: Counter) -> Counter:
    return Counter({b"".join(word).decode("utf-8"): n for word, n in counts.items()})


@pytest.mark.parametrize("fault", [*COUNT_CLASS_FAULTS, LAST_SMALLEST, ONE_WORD_IDS])
@pytest.mark.parametrize("corpus", CORPORA)
def test_a_class_of_wrong_counts_is_named_with_its_step(corpus, fault):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, fault, n)
    step = first_difference(train(text, n)[1], merges)
    if EOT not in text and fault != EACH_WORD_ONCE:  # no special token, one chunk: at most the tie rule differs
        rules = ("smallest-bytes", "first", "greatest-id")  # on the handout the first two both make every merge
        ties = (("tie", step, rule) for rule in rules)
        assert (result.kind, result.step, result.rule) in (("same", None, None), *ties)
        return
    names, sentence = NAMED[fault]
    if fault == SPECIAL_AS_WORDS and result.kind == "specials":  # the token cut as text: not split out, or kept
        assert result.step == step and "your run did not split special tokens out" in result.cause
        return
    assert (result.kind, result.step) == ("reading", step) and result.fault in names, result.cause
    assert f"At step {step} we merge" in result.cause and sentence in result.cause
    if result.fault != "last-document":  # the class's evidence: the words whose counts part
        assert " counts " in result.cause and " where our count is " in result.cause


@pytest.mark.parametrize("fault", COUNT_CLASS_FAULTS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_each_class_member_counts_the_words_as_the_faulty_trainer_does(corpus, fault):
    text = CORPORA[corpus]
    expected = as_text(word_counts(text, fault))
    made = [m.counts for m in members(Reading(text, "gpt2", [EOT]), [EOT])]
    assert expected == as_text(word_counts(text)) or expected in made


def test_the_classes_of_counts_spend_the_readers_allowance(monkeypatch):
    # each member's counts were read, replayed and trained on with no allowance, after the safety net too
    text, n = CORPORA["prose"], MERGES["prose"]
    _, named = check(text, EACH_WORD_ONCE, n)
    assert (named.kind, named.fault) == ("reading", "each-word-once")
    monkeypatch.setitem(check_work.ALLOWANCES, "count", 0)
    _, unread = check(text, EACH_WORD_ONCE, n)
    assert unread.fault != "each-word-once"
