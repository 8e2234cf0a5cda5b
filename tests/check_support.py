"""A faulty trainer's run checked as the Check page checks a CS336 pickle, and where two runs of merges part."""

from __future__ import annotations

import pickle

from faulty_trainers import EOT, train

from bpe.check import CS336_SETUP, diagnose
from bpe.formats.student_runs import read_student_file


def check(text: str, fault: str | None, num_merges: int):
    """The faulty trainer's merges on ``text`` and the Check's verdict on them."""
    vocab, merges = train(text, num_merges, fault)
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    result, _ = diagnose(text, student, CS336_SETUP, [EOT])
    return merges, result


def first_difference(one, other) -> int | None:
    """The first step (1-based) where two runs' merges differ, or None when they are the same."""
    for k, (a, b) in enumerate(zip(one, other), start=1):
        if a != b:
            return k
    return None if len(one) == len(other) else min(len(one), len(other)) + 1


SNIPPET_MERGES = {"handout": 10, "prose": 150, "bytes": 60}  # below what each corpus can make


def check_snippet(text: str, fault: str | None, num_merges: int, setup=None):
    """Sennrich et al.'s snippet's merges on ``text`` (with ``fault``), pasted as the Check page reads them, and
    the Check's verdict with the settings a student of the snippet picks (``sennrich``, the first tie rule)."""
    from snippet_trainers import pasted, snippet_train

    from bpe.check import Setup
    from bpe.formats.student_runs import read_student_text
    from server.jobs import corpus_of

    merges = snippet_train(text, num_merges, fault)
    student = read_student_text(pasted(merges), "The pasted text")
    corpus = corpus_of("text", "", text, "")
    result, _ = diagnose(corpus, student, setup or Setup("first", "sennrich", False), (), num_merges=num_merges)
    return merges, result


def check_pasted(corpus: str, train_merges, setup):
    """A trainer's merges (``train_merges(text, n)``) on the corpus named ``corpus`` of faulty_trainers.CORPORA,
    pasted as the Check page reads them, checked with ``setup``: (the student's run, the verdict)."""
    from faulty_trainers import CORPORA
    from snippet_trainers import pasted

    from bpe.formats.student_runs import read_student_text
    from server.jobs import corpus_of

    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    student = read_student_text(pasted(train_merges(text, n)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup, (), num_merges=n)
    return student, result


def pasted_first_difference(corpus: str, student, setup) -> int | None:
    """The first step where the student's pasted run parts from ours on the corpus named ``corpus`` with ``setup``."""
    from faulty_trainers import CORPORA

    from bpe.check_setup import history_bytes, train_setup
    from server.jobs import corpus_of

    text = CORPORA[corpus]
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), setup, len(student.merges) + 1))
    return next((k for k, (a, b) in enumerate(zip(ours, student.merges), start=1) if a != b), None)


class PastedSet:
    """One set's trainers written for the tests (``train(text, n, kind)``), pasted as the Check page reads them: each
    kind checked with the setup of its plain kind (``base``: a faulty kind's plain kind; ``setups``: the plain kinds'
    settings), and where its run parts from ours."""

    def __init__(self, train, setups: dict, base: dict[str, str]):
        self.train, self.setups, self.base = train, setups, base

    def setup_of(self, kind: str):
        return self.setups[self.base.get(kind, kind)]

    def check(self, corpus: str, kind: str):
        """(the student's run, the verdict) of ``kind`` on the corpus named ``corpus``."""
        return check_pasted(corpus, lambda text, n: self.train(text, n, kind), self.setup_of(kind))

    def first_difference(self, corpus: str, student, kind: str) -> int | None:
        return pasted_first_difference(corpus, student, self.setup_of(kind))
