"""A pair the student's words hold where our pre-tokenizer cuts the text: which characters their words keep together.

A run that merges two symbols standing side by side in the raw text, but never inside one of our pre-tokens, cut
its words elsewhere than our pattern does. The characters on either side of our cut tell which class of characters
their pattern treats differently (``\\w`` keeps '_' and digits with letters; an ASCII letter class leaves other
letters with punctuation), whatever else their pattern holds.

Left out: a pattern that cuts where ours does not (their pairs are then ours too, with other counts: the readers of
:mod:`bpe.count_faults` replay such patterns), a text given as word counts (no raw text to look at), and weighing
the cut against the other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .pre_tokenizers import Corpus, pre_tokenize_with_offsets

MAX_LOOKS = 200  # occurrences of the pair's text looked at: enough to find one our words hold, if any


def _kind(ch: str) -> str:
    """The class a pre-token pattern would put ``ch`` in, in words."""
    if ch == "_":
        return "'_'"
    if ch.isalpha():
        return "ASCII letters" if ch.isascii() else "letters outside ASCII"
    if ch.isdigit():
        return "digits"
    return f"punctuation ('{ch}')"


def _hint(left: str, right: str) -> str:
    """The pattern that makes such words, from the classes of the two characters our pattern parts."""
    kinds = {_kind(left), _kind(right)}
    letters = {"ASCII letters", "letters outside ASCII"}
    if "'_'" in kinds and kinds - {"'_'"} <= letters | {"digits"}:
        return "a pattern with \\w, which counts '_' and digits as letters, where GPT-2's has \\p{L} and \\p{N}"
    if "digits" in kinds and kinds - {"digits"} <= letters:
        return "a letter class that holds digits too (as \\w does), where GPT-2's keeps \\p{L} and \\p{N} apart"
    if "letters outside ASCII" in kinds and not kinds & {"ASCII letters", "digits"}:
        return "a letter class of ASCII letters only (as [a-zA-Z]), so other letters fall in with punctuation"
    return "a pattern whose character classes differ from GPT-2's"


def _word_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of non-whitespace around ``text[start:end]``, with one whitespace character before it."""
    a = start
    while a > 0 and not text[a - 1].isspace():
        a -= 1
    b = end
    while b < len(text) and not text[b].isspace():
        b += 1
    return max(a - 1, 0), b


def _chain(text: str, spans: list, cut: int, kinds: set) -> list:
    """Our words on either side of ``cut`` made only of characters of ``kinds``: the word the student's keeps whole
    (a leading space allowed on the first)."""
    at = next(i for i, (s, _) in enumerate(spans) if s == cut)

    def holds(i: int) -> bool:
        s, e = spans[i]
        return all(_kind(c) in kinds for c in text[s:e].lstrip(" ")) and text[s:e].strip() != ""

    first = at - 1
    while first > 0 and holds(first - 1) and not text[spans[first][0]].isspace():
        first -= 1
    last = at
    while last + 1 < len(spans) and holds(last + 1) and not text[spans[last + 1][0]].isspace():
        last += 1
    return spans[first : last + 1]


def cut_words(joined: bytes, corpus: Corpus, pre_tokenizer: str) -> str | None:
    """What the student's pre-tokenizer keeps in one word where ours cuts, when the text holds ``joined`` only
    across a cut of ours; None when it is inside one of our words somewhere (or never in the text)."""
    if isinstance(corpus, Mapping) or not corpus or pre_tokenizer == "none":
        return None
    try:
        piece = joined.decode("utf-8")
    except UnicodeDecodeError:
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not piece.strip() or piece != piece.strip() or not all(isinstance(t, str) for t in texts):
        return None
    found = None
    looks = 0
    for text in texts:
        at = text.find(piece)
        while at >= 0 and looks < MAX_LOOKS:
            looks += 1
            a, b = _word_around(text, at, at + len(piece))
            spans = [(s + a, e + a) for _, (s, e) in pre_tokenize_with_offsets(text[a:b], pre_tokenizer)]
            if any(s <= at and at + len(piece) <= e for s, e in spans):
                return None  # one of our words holds it: not a matter of where the words are cut
            cut = next((s for s, _ in spans if at < s < at + len(piece)), None)
            if found is None and cut is not None:
                found = (text, a, b, cut, spans)
            at = text.find(piece, at + 1)
    if found is None:
        return None
    text, a, b, cut, spans = found
    left, right = text[cut - 1], text[cut]
    chain = _chain(text, spans, cut, {_kind(left), _kind(right)})
    word = text[chain[0][0] : chain[-1][1]].strip()
    pieces = ", ".join(f"'{text[s:e].strip()}'" for s, e in chain)
    return (
        f"your pre-tokenizer keeps {_kind(left)} and {_kind(right)} in one word where ours ('{pre_tokenizer}') "
        f"cuts between them: '{word}' is one word for you, and ours cuts it into {pieces} ({_hint(left, right)})."
    )
