"""A BPE trainer whose words start with a tag of its own, of set BK's class, written for the tests independently of
``bpe/``: each whitespace-split word as ``'<w>'``, its characters and ``'</w>'`` (``'<w> ' + ' '.join(word) + '
</w>'`` split on spaces), on the plain loop of :func:`line_trainers.train_sequences`."""

from __future__ import annotations

from line_trainers import train_sequences


def bk_train(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings."""
    return train_sequences([["<w>", *word, "</w>"] for word in text.split()], num_merges)
