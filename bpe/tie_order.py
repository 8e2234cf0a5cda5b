"""How the "greatest" tie rules order tokens: the greatest first, as shown or as bytes.

Stanford CS336's assignment 1 breaks a tie with ``max`` over ``(count, (left bytes, right bytes))``:
the lexicographically greatest pair of byte strings wins. :func:`greatest_key` gives each token a
sort key that puts the greatest first, so the trainer can sort ties ascending as for every rule.

For character-level tokens comparing UTF-8 bytes is the same as comparing the strings (UTF-8 keeps
code-point order); byte-level tokens are GPT-2's byte characters, whose order is not their bytes'
(``Ġ``, U+0120, stands for the space, byte 0x20), so ``"greatest-bytes"`` maps them back first.

Left out: choosing among the tied pairs (the trainer's).

>>> greatest_key("Ġ", "greatest-bytes", "gpt2") < greatest_key("a", "greatest-bytes", "gpt2")
False
>>> greatest_key("Ġ", "greatest", "gpt2") < greatest_key("a", "greatest", "gpt2")
True
"""

from __future__ import annotations

from functools import lru_cache

from .config import descending
from .pre_tokenizers import is_byte_level, symbols_to_bytes


def token_bytes(token: str, pre_tokenizer: str) -> bytes:
    """The bytes a token stands for: byte-level characters mapped back, anything else as UTF-8."""
    if is_byte_level(pre_tokenizer):
        try:
            return symbols_to_bytes(token)
        except ValueError:  # a special token need not be made of byte characters
            pass
    return token.encode("utf-8")


@lru_cache(maxsize=1 << 16)
def greatest_key(token: str, rule: str, pre_tokenizer: str) -> tuple[int, ...]:
    """A sort key putting the greatest token first: its bytes for ``"greatest-bytes"``, else its string."""
    return descending(token_bytes(token, pre_tokenizer) if rule == "greatest-bytes" else token)
