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
