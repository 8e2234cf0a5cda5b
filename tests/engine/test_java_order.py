"""The Java HashMap order the Check emulates (bpe/java_order.py) is a real java.util.HashMap's, filled with put and
with merge, as its table grows and its buckets fill."""

from __future__ import annotations

import random

import pytest
from java_support import java_classes, run_java  # noqa: F401 (a fixture)

from bpe.java_order import HashMapKeys, string_hash

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
