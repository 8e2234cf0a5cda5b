"""A printable worksheet for merges k..k+n of a run, as one block of escaped HTML.

For each step: the words before it (count and current symbols: every word, or for a large corpus the
WORDS_PER_STEP most frequent, and then the key counts only those) and an empty pair-count table to fill
in, with a line for the merge. The sheet names the run's tie rule with one example. Then the answer key,
which starts on a new printed page (the ``bpe-ws-key`` class: CSS ``break-before: page``): for each step
the highest pair counts and the merge chosen, with its ties. A student can solve every step from the
sheet. The page adds the print styles
(``ui/worksheet.css``). Tokens are shown as the run stores them, real whitespace made visible;
every string is escaped here.

Left out: the layout of the rest of the page, and reading the run's settings (the page does both).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from .text import mark_whitespace

MAX_STEPS = 10  # steps on one worksheet
WORDS_PER_STEP = 40  # words shown for a step: all of them up to this, else the most frequent
BLANK_ROWS = 8  # empty rows of the pair-count table
KEY_PAIRS = 8  # pair counts given in the answer key


@dataclass(frozen=True)
class WorksheetStep:
    """One step of a worksheet: merge ``step``, the words before it (word, count, symbols; most
    frequent first), how many words the corpus has in all, and the answer: the top pair counts
    before the merge, the pair chosen, its new token, the pairs tied with it and whether it was forced.
    When the sheet shows only some of the words, ``top`` counts the pairs in those words
    (:func:`count_pairs`) and ``count`` is the merged pair's count over all of them."""

    step: int
    words: tuple[tuple[str, int, tuple[str, ...]], ...]
    total_words: int
    top: tuple[tuple[tuple[str, str], int], ...]
    pair: tuple[str, str]
    new_token: str
    tied: tuple[tuple[str, str], ...]
    forced: bool = False
    count: int = 0

    @property
    def cut(self) -> bool:
        return self.total_words > len(self.words)


def count_pairs(words: Iterable[tuple[str, int, tuple[str, ...]]]) -> list[tuple[tuple[str, str], int]]:
    """The adjacent pairs of the words' symbols with their counts (weighted by each word's count), highest
    first, pairs of equal count in the order they are first met (words in the order given, left to right).

    >>> count_pairs([("hug", 10, ("h", "u", "g")), ("pug", 5, ("p", "u", "g"))])
    [(('u', 'g'), 15), (('h', 'u'), 10), (('p', 'u'), 5)]
    """
    counts: dict[tuple[str, str], int] = {}
    for _word, count, symbols in words:
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + count
    return sorted(counts.items(), key=lambda item: -item[1])  # stable: first met first among equals


def _tok(token: str) -> str:
    return f"<code>{escape(mark_whitespace(token))}</code>"


def _pair(pair: tuple[str, str]) -> str:
    return f"{_tok(pair[0])} + {_tok(pair[1])}"


def _exercise(s: WorksheetStep) -> str:
    rows = "".join(
        f"<tr><td>{escape(mark_whitespace(word))}</td><td>{count:,}</td><td>{' '.join(_tok(t) for t in symbols)}</td></tr>"
        for word, count, symbols in s.words
    )
    cut = ""
    if s.cut:
        cut = (
            f'<p class="bpe-ws-note">The {len(s.words)} most frequent of {s.total_words:,} words: count the pairs '
            "in these words only (the answer key does too).</p>"
        )
    blanks = "<tr><td>&nbsp;</td><td></td></tr>" * BLANK_ROWS
    return (
        f'<section class="bpe-ws-step" data-step="{s.step}"><h3>Step {s.step}</h3>'
        '<table class="bpe-ws-words"><colgroup><col style="width:30%"><col style="width:12%"><col></colgroup>'
        f"<thead><tr><th>word</th><th>count</th><th>symbols before this step</th></tr></thead><tbody>{rows}</tbody>"
        f"</table>{cut}"
        '<table class="bpe-ws-blank"><colgroup><col style="width:65%"><col></colgroup>'
        f"<thead><tr><th>pair</th><th>count</th></tr></thead><tbody>{blanks}</tbody></table>"
        '<p class="bpe-ws-merge">Merge: ________ + ________ → ____________</p></section>'
    )


def _answer(s: WorksheetStep) -> str:
    rows = "".join(f"<tr><td>{_pair(p)}</td><td>{c:,}</td></tr>" for p, c in s.top)
    how = " (a forced what-if merge)" if s.forced else ""
    ties = ""
    if len(s.tied) > 1 and not s.cut:
        others = ", ".join(_pair(p) for p in s.tied if p != s.pair)
        ties = f'<p class="bpe-ws-note">Tied with it: {others}; the tie rule chose this one.</p>'
    if s.cut:
        ties = (
            f'<p class="bpe-ws-note">These counts are over the {len(s.words)} printed words. Over all '
            f"{s.total_words:,} words the run merged {_pair(s.pair)} (count {s.count:,}).</p>"
        )
    return (
        f'<section class="bpe-ws-answer" data-step="{s.step}"><h3>Step {s.step}</h3>'
        '<table class="bpe-ws-counts"><colgroup><col style="width:65%"><col></colgroup>'
        f"<thead><tr><th>pair</th><th>count</th></tr></thead><tbody>{rows}</tbody></table>"
        f'<p class="bpe-ws-merge">Merge: {_pair(s.pair)} → {_tok(s.new_token)}{how}</p>{ties}</section>'
    )


def worksheet_html(title: str, steps: list[WorksheetStep], tie_rule: str = "", tie_example: str = "") -> str:
    """The exercises for ``steps``, then the answer key on a new page. ``title``, ``tie_rule`` (the rule's
    sentence) and ``tie_example`` (one tie of the run and how the rule settles it) are plain text.

    >>> s = WorksheetStep(1, (("hug", 10, ("h", "u", "g")),), 3, ((("u", "g"), 20),), ("u", "g"), "ug", (("u", "g"),))
    >>> html = worksheet_html("<hug>", [s])
    >>> "&lt;hug&gt;" in html, html.index("bpe-ws-key") > html.index("Merge: ____")
    (True, True)
    """
    exercises = "".join(_exercise(s) for s in steps)
    ties = ""
    if tie_rule:
        ties = f'<p class="bpe-ws-ties"><b>Ties</b>: when pairs share the highest count, {escape(tie_rule)}.'
        ties += f" Example: {escape(tie_example)}</p>" if tie_example else "</p>"
    answers = "".join(_answer(s) for s in steps)
    return (
        f'<div class="bpe-ws"><h2>{escape(title)}</h2>'
        '<p class="bpe-ws-howto">For each step: count every adjacent pair of symbols in the words, weighted by '
        "each word's count; fill in the table; the most frequent pair is merged. The next step's words show the "
        f"result.</p>{ties}{exercises}"
        f'<div class="bpe-ws-key"><h2>Answer key</h2>{answers}</div></div>'
    )
