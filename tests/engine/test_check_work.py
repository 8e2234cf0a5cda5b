"""The Check's searches bounded by counted work (bpe.check_work): the same run gets the same verdict on a fast or a
slow machine, and where the whole check's safety net stops a search, the verdict says so.

A slow machine is played by a clock that jumps forward at every replay of a loop (each replay "takes" a fixed
time), so no test waits or times anything."""

from __future__ import annotations

import time

import pytest
from check_support import check
from faulty_trainers import CORPORA

import bpe.check_loop
import bpe.check_setup
from bpe import check_work
from bpe.check_loop import Words, find_fault
from bpe.check_setup import CS336_SETUP, student_words
from bpe.check_work import MergeCost
from bpe.fault_replay import faulty_merges
from bpe.merge_faults import FAULTS


class SlowMachine:
    """A clock that runs ``per_replay`` seconds ahead at every replay of a loop the Check makes."""

    def __init__(self, monkeypatch, per_replay: float) -> None:
        self.ahead, self.per_replay = 0.0, per_replay
        real_clock, real_replay = time.monotonic, bpe.check_loop.replay

        def replay(*args, **options):
            self.ahead += self.per_replay
            return real_replay(*args, **options)

        monkeypatch.setattr(time, "monotonic", lambda: real_clock() + self.ahead)
        monkeypatch.setattr(bpe.check_loop, "replay", replay)


def _verdict(result) -> tuple:
    return result.step, result.kind, result.fault, result.rule, result.cause


@pytest.mark.parametrize("per_replay", [0.1, 0.5])
def test_a_verdict_is_the_same_on_a_slow_machine(monkeypatch, per_replay):
    # a tie rule and a loop fault at the same step: the search that finds them both comes last, and a time limit
    # that ran out before it named another cause (special tokens) on a busy server
    _, fast = check(CORPORA["prose"], "first-added+assigned", 80)
    monkeypatch.setattr(check_work, "BACKSTOP_SECONDS", 1e9)  # the slow machine stays inside the safety net
    slow = SlowMachine(monkeypatch, per_replay)
    _, slowed = check(CORPORA["prose"], "first-added+assigned", 80)
    assert slow.ahead > 6  # slower than the former time limits allowed for the searches
    assert (fast.kind, fast.fault, fast.rule) == ("merge-loop", "assigned", "first-added")
    assert _verdict(slowed) == _verdict(fast)
    assert "stopped after" not in fast.cause


def test_the_safety_net_says_which_search_it_cut_short(monkeypatch):
    monkeypatch.setattr(check_work, "BACKSTOP_SECONDS", 5.0)
    SlowMachine(monkeypatch, 1.0)  # the loop faults' replays pass the net after five of them
    _, result = check(CORPORA["prose"], "first-added+assigned", 80)
    assert result.step == 5
    assert "The search for a merge-loop fault" in result.cause
    assert "stopped after 5 seconds, the most a check may take, before trying every candidate" in result.cause
    assert result.cause.count("stopped after") == 1  # said once, after the verdict


def test_merge_cost_counts_the_symbols_of_the_words_each_merge_rewrites():
    words = [(b"a", b"b", b"c"), (b"a", b"b"), (b"x", b"y")]
    cost = MergeCost(words, [(b"a", b"b"), (b"ab", b"c"), (b"q", b"r")])
    assert cost(0) == 7  # the symbols counted
    assert cost(1) == 7 + 3 + 2  # (a, b) rewrites the first two words
    assert cost(2) == 12 + 2  # (ab, c) rewrites the first, now (ab, c)
    assert cost(3) == cost(9) == 14  # a pair no word holds rewrites nothing; past the run's end nothing more
    assert cost.replayed(0) == cost(1)  # a replay that made no merge still tried the first


def test_an_allowance_decides_how_many_faults_are_tried_whatever_the_clock(monkeypatch):
    text = CORPORA["prose"]
    _, words, freqs = student_words(text, CS336_SETUP, ["<|endoftext|>"])
    corpus = Words([""] * len(words), words, freqs)
    merges = faulty_merges(words, freqs, 80, FAULTS["substring-counts"])  # one of the last faults tried
    ours = faulty_merges(words, freqs, 80)
    step = next(k for k, (a, b) in enumerate(zip(ours, merges), start=1) if a != b)
    whole = find_fault(corpus, merges, step, (ours[step - 1], merges[step - 1]), "greatest-bytes")
    first = find_fault(corpus, merges, step, (ours[step - 1], merges[step - 1]), "greatest-bytes", units=1)
    SlowMachine(monkeypatch, 100.0)  # far slower than any time limit, inside the safety net of a lone search
    monkeypatch.setattr(check_work, "BACKSTOP_SECONDS", 1e9)
    again = find_fault(corpus, merges, step, (ours[step - 1], merges[step - 1]), "greatest-bytes")
    assert whole is not None and again is not None
    assert (whole.fault.name, whole.reproduced) == ("substring-counts", len(merges))
    assert (again.fault.name, again.reproduced) == (whole.fault.name, whole.reproduced)
    assert first is None  # the allowance spent by the first fault tried: the one that fits never is, on any clock


def test_a_check_cuts_its_text_into_words_once_per_setting(monkeypatch):
    # every setting tried, the comparison and each search asked for the same words again: on 200,000 characters
    # each cut took a tenth of a second, a hundred times in a check
    cuts: list[tuple] = []
    real = bpe.check_setup.pt.count_words

    def count_words(texts, cut, *args, **options):
        cuts.append((tuple(texts), cut))
        return real(texts, cut, *args, **options)

    monkeypatch.setattr(bpe.check_setup.pt, "count_words", count_words)
    _, result = check(CORPORA["prose"], "first-added+assigned", 80)
    assert result.kind == "merge-loop"
    assert len(cuts) > 3  # several settings tried
    assert len(set(cuts)) == len(cuts)


def test_a_loop_that_rewrites_every_word_is_tried_only_where_the_most_it_can_rewrite_fits():
    from bpe.check_loop import _replay

    words = [tuple(bytes([c]) for c in b"abcabcab"), (b"a", b"b", b"c"), (b"x", b"y")]
    freqs = [1, 3, 2]
    fault = FAULTS["tail-lost-every"]
    merges = faulty_merges(words, freqs, 3, fault, tie="first")
    most = sum(len(w) * (len(w) + 1) // 2 for w in words)  # 36 + 6 + 3: each rewrite shortens a word
    short = check_work.Work("loop", units=most - 1)
    assert _replay(short, MergeCost(words, merges), words, freqs, merges, fault).reproduced == 0
    assert short.used == 0  # not tried: nothing spent
    enough = check_work.Work("loop", units=most)
    assert _replay(enough, MergeCost(words, merges), words, freqs, merges, fault).reproduced == len(merges) == 3
    assert enough.used > MergeCost(words, merges).replayed(3)  # the words without the pair are counted too
