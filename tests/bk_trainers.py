"""A BPE trainer whose words start with a tag of its own, of set BK's class, written for the tests independently of
``bpe/``: each whitespace-split word as ``'<w>'``, its characters and ``'</w>'`` (``'<w> ' + ' '.join(word) + '
</w>'`` split on spaces), on the plain loop of :func:`line_trainers.train_sequences`. :func:`bk_specials`: no start tag, but special tokens
written as tags added first as words, each one symbol and ``'</w>'``, with a count above any word's."""

from __future__ import annotations

from line_trainers import train_sequences


def bk_train(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings."""
    return train_sequences([["<w>", *word, "</w>"] for word in text.split()], num_merges)


def bk_specials(text: str, num_merges: int) -> list[tuple[str, str]]:
    """Words of characters and ``'</w>'``, after ``'<s>'``, ``'</s>'``, ``'<unk>'`` and ``'<pad>'`` as words of one
    symbol each, counted 1,000 times."""
    specials = [[tag, "</w>"] for tag in ("<s>", "</s>", "<unk>", "<pad>") for _ in range(1000)]
    return train_sequences([*specials, *([*word, "</w>"] for word in text.split())], num_merges)
