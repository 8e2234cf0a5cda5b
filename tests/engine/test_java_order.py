"""The Java HashMap order the Check emulates (bpe/java_order.py) is a real java.util.HashMap's, filled with put and
with merge, as its table grows and its buckets fill."""

from __future__ import annotations

import random

import pytest
from java_support import java_classes, run_java  # noqa: F401 (a fixture)

from bpe.java_order import HashMapKeys, copy_capacity, string_hash

ALPHABET = "abcdefgh </w>éπ東"


def _keys(seed: int, distinct: int, calls: int) -> list[str]:
    """``calls`` keys drawn from ``distinct`` random ones, each drawn at least once."""
    rng = random.Random(seed)
    pool = list(dict.fromkeys("".join(rng.choices(ALPHABET, k=rng.randint(1, 6))) for _ in range(distinct * 3)))
    pool = pool[:distinct]
    drawn = pool + rng.choices(pool, k=max(calls - len(pool), 0))
    rng.shuffle(drawn)
    return drawn


@pytest.mark.parametrize("mode", ["put", "merge"])
@pytest.mark.parametrize(("seed", "distinct", "calls"), [(1, 5, 5), (2, 12, 12), (3, 13, 13), (4, 13, 40),
                                                         (5, 49, 49), (6, 100, 400), (7, 700, 2000)])  # fmt: skip
def test_the_order_is_a_real_hashmaps(java_classes, mode, seed, distinct, calls):  # noqa: F811
    keys = _keys(seed, distinct, calls)
    javas = run_java(java_classes, "KeyOrder", mode, stdin="".join(k + "\n" for k in keys)).splitlines()
    ours = HashMapKeys(merge=mode == "merge")
    for key in keys:
        ours.add(key, string_hash(key))
    assert list(ours) == javas


@pytest.mark.parametrize(("seed", "distinct"), [(11, 10), (12, 12), (13, 24), (14, 60), (15, 200), (16, 1000)])
def test_removals_and_a_hashset_copy_keep_a_real_hashmaps_order(java_classes, seed, distinct):  # noqa: F811
    # the order bpe.java_order.JavaWordsReached follows: a word put under its new string, then its old one removed,
    # while a HashSet copy of the keys is walked
    rng = random.Random(seed)
    keys = list(dict.fromkeys(_keys(seed, distinct, distinct)))
    lines = list(keys)
    live = list(keys)
    for _ in range(distinct):
        old = rng.choice(live)
        new = old + rng.choice(ALPHABET)
        if new not in live:
            lines += [new, "-" + old]
            live[live.index(old)] = new
    stdin = "".join(k + "\n" for k in lines)
    ours = HashMapKeys(merge=False)
    for line in lines:
        if line.startswith("-"):
            ours.remove(line[1:], string_hash(line[1:]))
        else:
            ours.add(line, string_hash(line))
    assert list(ours) == run_java(java_classes, "KeyOrder", "put", stdin=stdin).splitlines()
    copy = HashMapKeys(merge=False, capacity=copy_capacity(ours.size))
    for key in ours:
        copy.add(key, string_hash(key))
    assert list(copy) == run_java(java_classes, "KeyOrder", "put", "copy", stdin=stdin).splitlines()
