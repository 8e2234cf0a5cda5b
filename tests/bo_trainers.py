"""Trainers of sets BO's, BP's, BQ's, BS's and BU's classes, written for the tests independently of ``bpe/``: each whitespace-split word
as a list of its characters on the plain loop of :func:`line_trainers.train_sequences`, marked otherwise than ours.
:func:`bo_eow_first`: ``'</w>'`` put before the word's first character (``'</w> ' + ' '.join(word)`` split on spaces)
and no symbol after it; :func:`bp_dash_end`: a ``'-'`` symbol after the word's last character; :func:`bs_g_words`: the
words of ``re.findall(r' ?\\S+', text)``, each leading space written ``'Ġ'`` as GPT-2 shows it; :func:`bq_strip_ascii`:
each word stripped of ASCII punctuation at its ends (``word.strip(string.punctuation)``), no mark; :func:`bu_kept_marks`:
the text lowercased with every run of characters outside a-z and ``!?.,'`` made one space, ``'_'`` ending each word;
:func:`bw_marks_alone`: runs of letters (digits after them) and every other character but whitespace a word alone;
:func:`bz_az_bounded`: the lowercased text's runs of a-z that are whole words (``\\b[a-z]+\\b``), ``'</w>'`` after each;
:func:`cb_spaces_led`: a space before every whitespace-split word, the text's first too; :func:`cc_marks_underscored`: each
lowercased word's marks but ``'-'`` written ``'_'``, ``'</w>'`` after it."""

from __future__ import annotations

import re
import string

from line_trainers import train_sequences


def bo_eow_first(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, with ``'</w>'`` starting each word."""
    return train_sequences([["</w>", *word] for word in text.split()], num_merges)


def bp_dash_end(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, with ``'-'`` ending each word."""
    return train_sequences([[*word, "-"] for word in text.split()], num_merges)


def bs_g_words(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, a space written ``'Ġ'``."""
    return train_sequences([list(w.replace(" ", "\u0120")) for w in re.findall(r" ?\S+", text)], num_merges)


def bq_strip_ascii(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, each word stripped of ASCII punctuation at its ends."""
    return train_sequences([list(w.strip(string.punctuation)) for w in text.split()], num_merges)


def bu_kept_marks(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, a-z and a few marks kept, ``'_'`` ending each word."""
    kept = re.sub(r"[^a-z!?.,']+", " ", text.lower())
    return train_sequences([[*word, "_"] for word in kept.split()], num_merges)


def bw_marks_alone(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, each mark a word of its own (``\\p{L}+\\d*|[^\\p{L}\\s]``)."""
    import regex

    return train_sequences([list(w) for w in regex.findall(r"\p{L}+\d*|[^\p{L}\s]", text)], num_merges)


def bz_az_bounded(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, on the whole-word runs of a-z of the lowercased text."""
    return train_sequences([[*w, "</w>"] for w in re.findall(r"\b[a-z]+\b", text.lower())], num_merges)


def cb_spaces_led(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, each word led by a space (``'Ġ' + word`` for every word)."""
    return train_sequences([[" ", *w] for w in text.split()], num_merges)


def cc_marks_underscored(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, every mark but ``'-'`` written ``'_'`` in the lowercased words."""
    words = [re.sub(r"[^\w\s-]", "_", w.lower()) for w in text.split()]
    return train_sequences([[*w, "</w>"] for w in words], num_merges)
