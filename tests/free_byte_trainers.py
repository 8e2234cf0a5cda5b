"""The original BPE compression as students write it, written for the tests independently of ``bpe/``: the text's
UTF-8 bytes one sequence, each merged pair replaced by the next byte value the text does not use (0, 1, 2, ...).

Each step counts the adjacent pairs of byte values in a table indexed ``first * 256 + second`` and takes the first
index of the greatest count, so a tie goes to the pair of the smallest byte values, where a merged token's value is
its replacement byte (below the text's own characters, the earliest merged first). The merge replaces the pair left
to right, without overlap (``bytes.replace``). The merges are written as their bytes in GPT-2's byte characters,
each token expanded back to the text's bytes it stands for.
"""

from __future__ import annotations

from w_trainers import _gpt2_chars  # each byte as GPT-2 writes it, shared with set W's trainers


def free_byte_train(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The first ``num_merges`` merges (fewer when no pair or no free byte value is left), as GPT-2 byte strings."""
    data = text.encode("utf-8")
    free = [v for v in range(256) if v not in set(data)]
    stands_for = {v: bytes([v]) for v in set(data)}
    shown = _gpt2_chars()
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges and free and len(data) > 1:
        table = [0] * 65536
        for a, b in zip(data, data[1:]):
            table[a * 256 + b] += 1
        best = max(range(65536), key=table.__getitem__)  # the first index of the greatest count
        a, b = divmod(best, 256)
        new = free.pop(0)
        stands_for[new] = stands_for[a] + stands_for[b]
        merges.append(tuple("".join(shown[x] for x in stands_for[t]) for t in (a, b)))  # type: ignore[arg-type]
        data = data.replace(bytes([a, b]), bytes([new]))
    return merges
