"""The Train page's vocabulary panel for one step (drawn by ``panels.step_panels``): the specials, the base
alphabet and the learned tokens as chips. A large alphabet (byte-level runs) and presenter mode put the
learned tokens first, newest first, and fold the alphabet behind its count. Presenter mode also draws
:func:`newest_strip_html`, the newest tokens on one line above the splits: on a 1280x720 projector the
vocabulary panel itself sits below the fold.
"""

from __future__ import annotations

import bpe
from bpe import display
from bpe.run_cache import CacheView
from ui.alerts import esc
from ui.settings import Settings

VOCAB_CHIPS = 120  # newest learned tokens drawn as chips
ALPHABET_CHIPS = 40  # a larger base alphabet is drawn as one line of text, and folded
NEWEST_CHIPS = 6  # presenter mode's strip: the newest learned tokens, newest first
STRIP_FROM = 24  # ...shown once the vocabulary has more tokens than this (a smaller panel fits the screen whole)


def chip_cache(history: bpe.History) -> CacheView:
    """The run's chips, by token and colour (``display.chips_html``'s ``cache``), kept in the run's cache: the
    newest tokens shift by one from step to step, and escaping 120 chips again was most of the vocabulary's
    time on a large run. Each entry is written whole, so sessions may share it."""
    return CacheView(history.cache, "chip")


def vocabulary_html(s: bpe.TrainState, settings: Settings, text: bool = False, present: bool = False) -> str:
    """The vocabulary at this step. With a small alphabet (the course's examples), as the course lists it:
    specials, base symbols, learned tokens in merge order. With a large one (a byte-level run's 256 bytes,
    a real paragraph's letters and signs) or in presenter mode, what the class is looking at comes first:
    the learned tokens, newest first, then the specials, and the base alphabet folded behind its count
    (a ``<details>`` the reader opens), since the alphabet alone filled the box."""
    h = s.history
    target = settings.limit_value if settings.limit == "vocab_size" else None
    vocab = s.vocab
    specials = len(settings.special_tokens)
    alphabet = vocab[specials : h.num_base]
    learned = vocab[h.num_base :]
    newest = learned[-VOCAB_CHIPS:]
    head = (
        f'<h3 class="bpe-h">Vocabulary: {s.vocab_size}' + (f" of {target}" if target else "") + "</h3>"
        f'<p class="bpe-note">{specials} special, {len(alphabet)} base symbols, {len(learned)} learned'
        + (f" (the last {len(newest)} shown)" if len(newest) < len(learned) else "")
    )
    highlight = [s.new_token] if s.step else []
    special_chips = display.chips_html(list(vocab[:specials]), titles=["special"] * specials)
    if not (present or len(alphabet) > ALPHABET_CHIPS):
        return (
            head
            + '</p><div class="bpe-scroll">'
            + special_chips
            + _alphabet_html(alphabet, text)
            + "<br>"
            + display.chips_html(list(newest), highlight=highlight, as_text=text, cache=chip_cache(h))
            + "</div>"
        )
    return (
        head
        + "; newest first</p>"
        + '<div class="bpe-scroll" data-vocab="learned-first">'
        + (
            display.chips_html(list(reversed(newest)), highlight=highlight, as_text=text, cache=chip_cache(h))
            if newest
            else '<span class="bpe-note">No token learned yet.</span>'
        )
        + (f"<br>{special_chips}" if specials else "")
        + f'<details class="bpe-base"><summary>+ {len(alphabet):,} base symbols</summary>'
        + _alphabet_html(alphabet, text)
        + "</details></div>"
    )


def newest_strip_html(s: bpe.TrainState, text: bool = False) -> str:
    """Presenter mode's strip above the splits: the vocabulary's size and its newest learned tokens, newest
    first (the one this step added highlighted), so the class sees the vocabulary grow at every step without
    scrolling to the panel below. It stays short: NEWEST_CHIPS chips, each cut to the strip's width. A
    vocabulary of STRIP_FROM tokens or fewer (the hug example's) gets none: its whole panel is on screen."""
    if s.vocab_size <= STRIP_FROM:
        return ""
    learned = s.vocab[s.history.num_base :]
    newest = list(reversed(learned[-NEWEST_CHIPS:]))
    chips = (
        display.chips_html(newest, highlight=[s.new_token] if s.step else [], as_text=text)
        if newest
        else '<span class="bpe-note">no token learned yet</span>'
    )
    return (
        f'<div class="bpe-newest" data-vocab="newest"><span class="bpe-newest-head">Vocabulary: {s.vocab_size:,}'
        f"; newest first</span> {chips}</div>"
    )


def _alphabet_html(symbols, text: bool = False) -> str:
    """The base symbols as chips, or past ALPHABET_CHIPS of them (a byte-level alphabet) as one
    line of text: every element is redrawn on every step, and 256 chips are a lot of them."""
    if len(symbols) <= ALPHABET_CHIPS:
        return display.chips_html(list(symbols), as_text=text)
    return f'<span class="bpe-alphabet">{esc(" ".join(map(display.byte_text if text else display.mark_whitespace, symbols)))}</span>'
