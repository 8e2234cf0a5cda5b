"""The reference trainer the fast one is tested against (it lives in :mod:`bpe.reference`), and a
deliberately plain version of tiktoken's merge scan."""

from __future__ import annotations

from bpe.reference import reference_train as naive_train

__all__ = ["naive_train", "naive_rank_split"]


def naive_rank_split(ranks: dict[bytes, int], token: bytes, max_rank: int) -> tuple[bytes, bytes] | None:
    """tiktoken's BPE on ``token`` with the ranks below ``max_rank``, as plainly as possible: merge the
    adjacent pair whose joined bytes rank lowest (the leftmost of equals) until two parts are left."""
    parts = [token[i : i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best, best_rank = None, None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < max_rank and (best_rank is None or r < best_rank):
                best, best_rank = i, r
        if best is None:
            return None
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    return (parts[0], parts[1]) if len(parts) == 2 else None
