"""Tokens as HTML chips: one coloured, escaped chip per token, an encoded text as a row of chips,
and the rows of the token table.

Every string that reaches HTML passes through :func:`html.escape`; each chip has a tooltip
(:func:`token_title`). Left out: colours and text (:mod:`bpe.display.text`), merge trees
(:mod:`bpe.display.merges`) and charts (:mod:`bpe.display.sparklines`).
"""

from __future__ import annotations

import bisect
import html
import itertools
from collections.abc import Iterable, Sequence

from .text import (
    HIGHLIGHT,
    PALETTE,
    TEXT_WHITESPACE,
    byte_marks,
    byte_text,
    byte_title,
    color_indices,
    hex_bytes,
    mark_whitespace,
    shorten,
    token_symbol,
    visible,
)


def chip(
    text: str,
    background: str | None = None,
    *,
    title: str = "",
    css_class: str = "tok",
    bold: bool = False,
    span: tuple[int, int] | None = None,
) -> str:
    """One token as an escaped HTML span. Its box (padding, font, ...) comes from the ``.tok``
    rule of :data:`TOKEN_CSS`; a colour is either a class there (``c0``..``c7``, ``hl``) or
    ``background``, inline. The tooltip is left out when ``title`` is empty. A token longer than
    :data:`LONG_TOKEN` characters is cut (:func:`shorten`) and shown whole in the tooltip. ``span``, the
    characters it stands for (start, end in UTF-16 units, as the browser counts), becomes ``data-s`` and
    ``data-e``: hovering the chip marks them in the text (``ui/hover.js``)."""
    short = shorten(text)
    if short != text:
        title = f"{text} · {title}" if title and title != text else text
        text, css_class = short, css_class + " long"
    style = f"background:{background}" + (";font-weight:700" if bold else "") if background else ""
    return (
        f'<span class="{css_class}"'
        + (f' title="{html.escape(title, quote=True)}"' if title else "")
        + (f' style="{style}"' if style else "")
        + (f' data-s="{int(span[0])}" data-e="{int(span[1])}"' if span is not None else "")
        + f">{html.escape(text)}</span>"
    )


CHIP_CHARS_KEPT = 400  # see chips_html's cache: a chip of a token of up to LONG_TOKEN characters, its tooltip included


def chips_html(
    tokens: Sequence[str],
    *,
    highlight: Iterable[str] = (),
    show_whitespace: bool = False,
    titles: Sequence[str] | None = None,
    as_text: bool = False,
    cache: dict | None = None,
) -> str:
    """Tokens as adjacent coloured chips; tokens in ``highlight`` get the highlight colour.

    Lean markup, because the training page draws hundreds of these on every step: colours are
    classes of :data:`TOKEN_CSS` (``c0``..``c7``, ``hl``), and a chip has a tooltip only when
    ``titles`` gives one or its text differs from the token (whitespace made visible).
    ``show_whitespace`` marks spaces and GPT-2's ``Ġ`` alike; without it only real whitespace
    is marked (:func:`mark_whitespace`), so a space inside a token never vanishes. ``as_text``
    (byte-level tokens) shows each token as the text it stands for (:func:`byte_text`), with its
    stored form and bytes in the tooltip. ``cache``, a dict the caller keeps (the training page keeps one
    per run), holds each chip's HTML by token and colour, so chips seen before are not escaped again; a chip
    longer than CHIP_CHARS_KEPT (a long token, whole in its tooltip) is made again each time instead, so
    what a cache of n chips holds stays near n short chips."""
    marked = set(highlight)
    colors = color_indices(tokens)
    parts = []
    if titles:
        cache = None  # a chip's title then comes from the caller, not from its token alone
    for i, (token, c) in enumerate(zip(tokens, colors)):
        css_class = f"tok {'hl' if token in marked else f'c{c}'}"
        if cache is not None:
            key = (token, css_class, as_text, show_whitespace)
            if (done := cache.get(key)) is not None:
                parts.append(done)
                continue
        if as_text:
            text = byte_text(token)
            title = titles[i] if titles else (byte_title(token) if text != token else "")
        else:
            text = visible(token) if show_whitespace else mark_whitespace(token)
            title = titles[i] if titles else (token if text != token else "")
        parts.append(chip(text, title=title, css_class=css_class))
        if cache is not None and len(parts[-1]) <= CHIP_CHARS_KEPT:
            cache[key] = parts[-1]
    return "".join(parts)


# -- the encode page: tokens of a text, their tooltips, bytes, and where two tokenizers disagree -----
UNK_COLORS = ("#ffb3c1", "#ff8fa3")  # alternate so two neighbouring [UNK]s still differ


SPECIAL_COLORS = ("#c9d6df", "#aebfcc")


TOKEN_CSS = (
    "<style>"
    # A thin edge on every chip: where one token ends and the next starts shows without its colour (WCAG 1.4.1).
    ".tok{padding:1px 4px;margin:1px;border-radius:4px;font-family:monospace;white-space:pre;"
    "display:inline-block;color:#111;border:1px solid rgba(17,17,17,.25)}"
    + "".join(f".tok.c{i}{{background:{color}}}" for i, color in enumerate(PALETTE))
    + f".tok.hl{{background:{HIGHLIGHT};font-weight:700}}"
    ".tok.long{white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}"
    ".bpe-tokens{line-height:2.1}"
    ".bpe-tokens .tok.unk{outline:2px solid #c1121f;outline-offset:-2px}"
    ".bpe-tokens .tok.special{border:1px dashed #1d3557}"
    ".bpe-tokens .tok.diff{box-shadow:0 3px 0 #d62828}"
    ".bpe-tokens .bpe-gap{display:inline-block;width:0.75em}"
    ".bpe-tree,.bpe-tree ul{list-style:none;margin:0;padding-left:1.4em;font-family:monospace}"
    ".bpe-tree li{margin:2px 0}"
    ".bpe-tokens .tok[data-s]:hover{outline:2px solid #1d3557;outline-offset:-1px}"
    ".bpe-source{margin-top:6px;font-size:0.85rem;color:#5f6368}"
    ".bpe-source-text{white-space:pre-wrap;overflow-wrap:anywhere;font-family:monospace;color:#111;"
    "border:1px solid #e6e8eb;border-radius:6px;padding:4px 8px;max-height:12em;overflow:auto}"
    ".bpe-source-text mark.bpe-hl{background:#ffd166;color:#111;outline:1px solid #b08900}"
    # Side by side: each column's own copy of the text, kept at the bottom of the window while its chips
    # scroll past, so the characters a hovered chip stands for are in view beside it.
    ".bpe-source.bpe-source-col{position:sticky;bottom:0;background:#fff;padding:4px 0;z-index:1}"
    ".bpe-source-col .bpe-source-text{max-height:6em}"
    "</style>"
)


_SHOWN_AS_STORED = {c: s for c, s in ((" ", "Ġ"), ("\n", "Ċ"), ("\t", "ĉ"), ("\r", "č"))}


def token_kind(tokenizer, token: str) -> str:
    """``"special"``, ``"unk"`` or ``"normal"``: which style a token gets."""
    if token in tokenizer.special_tokens:
        return "special"
    if tokenizer.unk_token is not None and token == tokenizer.unk_token:
        return "unk"
    return "normal"


def token_label(tokenizer, token: str, show_whitespace: bool = False) -> str:
    """What a chip shows (not escaped).

    Byte-level tokens show the text their bytes spell (``ðŁĻĤ`` -> ``🙂``); whitespace
    appears as stored (``Ġ``, ``Ċ``) or, with ``show_whitespace``, as ``·`` and ``↵`` (with
    ``show_whitespace="text"``, as :func:`byte_text` shows it: ``␣`` and ``↵``).
    A token that cuts a UTF-8 character in the middle shows the bytes of the cut character as bytes,
    ``<F0><9F>`` (never as U+FFFD, which reads as a decoding bug); its whole characters show as above, a
    narrow gap apart (`` 🙂``'s first three bytes: ``Ġ <F0><9F>``). The tooltip names the character.
    """
    if not tokenizer.byte_level or token_kind(tokenizer, token) != "normal":
        return visible(token, show_whitespace)
    # Bytes that are not whole characters decode to lone surrogates U+DC80..U+DCFF ("surrogateescape").
    text = tokenizer.token_bytes(token).decode("utf-8", errors="surrogateescape")
    parts: list[str] = []
    for cut, run in itertools.groupby(text, key=lambda c: "\udc80" <= c <= "\udcff"):
        run = "".join(run)
        if cut:
            parts.append(byte_marks(bytes(ord(c) - 0xDC00 for c in run)))  # never U+FFFD
        elif show_whitespace == "text":  # as the Train page's "Bytes as text": ␣ for a space
            parts.append("".join(TEXT_WHITESPACE.get(c) or (c if c.isprintable() else token_symbol(c)) for c in run))
        elif show_whitespace:
            parts.append(visible(run, True))
        else:
            parts.append(
                "".join(
                    _SHOWN_AS_STORED.get(c, c) if c.isprintable() or c in _SHOWN_AS_STORED else token_symbol(c)
                    for c in run
                )
            )
    return "\u202f".join(parts)  # a narrow gap, so "a" + "F0" does not read as the hex AF0


def cuts_character(tokenizer, token: str) -> bool:
    """True for a byte-level token whose bytes are not whole UTF-8 characters."""
    if not tokenizer.byte_level or token_kind(tokenizer, token) != "normal":
        return False
    try:
        tokenizer.token_bytes(token).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def token_title(tokenizer, token: str, token_id: int, source: str = "") -> str:
    """The tooltip of one token: id, string, bytes in hex and which merge made it (not escaped).
    Merges are numbered from 1 everywhere, as the Train page's steps are (merge 1 is step 1)."""
    kind = token_kind(tokenizer, token)
    rank = tokenizer.token_rank(token)
    if kind == "special":
        made = "special token (never split or merged)"
    elif kind == "unk":
        # The bytes of the text it stands for: those of the string "[UNK]" would tell nothing.
        made = f"unknown: {source!r} is not in the vocabulary" if source else "unknown symbol"
        data = f"bytes of the text {hex_bytes(source.encode('utf-8'))}" if source else "no bytes"
        return f"id {token_id} · {token!r} · {data} · {made}"
    elif rank is None and by_rank_only(tokenizer, token):
        made = BY_RANK
    elif rank is None:
        made = "base symbol (no merge)"
    else:
        made = f"merge {rank + 1}"
    part = f" · part of the character(s) {source!r}" if source and cuts_character(tokenizer, token) else ""
    return f"id {token_id} · {token!r} · bytes {hex_bytes(tokenizer.token_bytes(token))}{part} · {made}"


def overlaps(span: tuple[int, int], spans: Sequence[tuple[int, int]], ends: Sequence[int] | None = None) -> bool:
    """True if ``span`` shares a character with one of ``spans`` (sorted, non-overlapping;
    pass ``ends``, their end positions, to avoid rebuilding it on every call)."""
    s, e = span
    ends = [b for _, b in spans] if ends is None else ends
    i = bisect.bisect_right(ends, s)  # the first span that ends after s
    return i < len(spans) and spans[i][0] < max(e, s + 1)


def encoding_html(
    tokenizer,
    encoding,
    text: str = "",
    *,
    show_whitespace: bool = False,
    limit: int | None = 2000,
    marked: Sequence[tuple[int, int]] = (),
    as_text: bool = True,
    hover: bool = False,
) -> str:
    """Coloured, escaped chips for the first ``limit`` tokens of an encoding.

    Neighbours never share a colour; ``[UNK]`` and special tokens get their own colours
    and the classes ``unk``/``special``; tokens overlapping a ``marked`` span get ``diff``.
    Byte-level chips show the text their bytes spell (:func:`token_label`), or with ``as_text``
    off the token as stored (``ĠStraÃŁe``). Every chip has a tooltip (see :func:`token_title`). Each pre-tokenized word after the first
    starts after an empty ``bpe-gap`` element (a visible space), and a token holding newlines is followed by
    as many line breaks, so the chips keep the text's words and lines (as tiktokenizer shows them).
    With ``hover`` each chip carries its characters' span in ``text`` (:func:`chip`), for :func:`source_html`.
    """
    n = len(encoding.tokens) if limit is None else min(limit, len(encoding.tokens))
    tokens = encoding.tokens[:n]
    colors = color_indices(tokens)
    parts, prev_kind, alt, ends = [], None, 0, [b for _, b in marked]
    # Only as far as the last chip drawn reaches: the first 2,000 chips of a 100 KB text need a few KB of it.
    units = utf16_offsets(text[: max((e for _, e in encoding.offsets[:n]), default=0)]) if hover else None
    for i, token in enumerate(tokens):
        kind = token_kind(tokenizer, token)
        span = encoding.offsets[i]
        alt = alt + 1 if kind == prev_kind else 0
        prev_kind = kind
        background = {"unk": UNK_COLORS[alt % 2], "special": SPECIAL_COLORS[alt % 2]}.get(kind, PALETTE[colors[i]])
        css = (
            "tok"
            + ("" if kind == "normal" else f" {kind}")
            + (" diff" if marked and overlaps(span, marked, ends) else "")
        )
        source = text[span[0] : span[1]]
        title = token_title(tokenizer, token, encoding.ids[i], source)
        if i and encoding.word_ids[i] != encoding.word_ids[i - 1]:
            parts.append('<i class="bpe-gap"></i>')  # a new pre-tokenized word: a visible gap before it
        label = token_label(tokenizer, token, show_whitespace) if as_text else visible(token, show_whitespace is True)
        parts.append(
            chip(
                label,
                background,
                title=title,
                css_class=css,
                bold=kind == "special",
                span=None if units is None else (units(span[0]), units(span[1])),
            )
        )
        # Lines break where the text has newlines; the newline's own token stays visible before the break.
        parts.append("<br>" * source.count("\n"))
    return f'{TOKEN_CSS}<div class="bpe-tokens">{"".join(parts)}</div>'


def utf16_offsets(text: str):
    """A function from a character offset in ``text`` to the same place in UTF-16 units (JavaScript's
    string positions): characters past U+FFFF count two.

    >>> f = utf16_offsets("a🙂b")
    >>> [f(i) for i in range(4)]
    [0, 1, 3, 4]
    """
    if text.isascii() or all(ord(c) <= 0xFFFF for c in text):
        return int
    prefix = [0, *itertools.accumulate(2 if ord(c) > 0xFFFF else 1 for c in text)]
    return prefix.__getitem__


def source_html(
    text: str, label: str = "Hover a token to see its characters in the text:", *, column: bool = False
) -> str:
    """``text``, escaped, in the block where hovering a chip marks the token's characters (the chips of the
    same block mark it; ``column``: a side-by-side column's compact copy, kept in view). A carriage
    return is written as a character reference: the HTML parser would turn a literal ``\\r\\n`` into one
    ``\\n`` and every later offset would be one off."""
    escaped = html.escape(text).replace("\r", "&#13;")
    css = "bpe-source bpe-source-col" if column else "bpe-source"
    return f'<div class="{css}">{html.escape(label)}<div class="bpe-source-text">{escaped}</div></div>'


TOKEN_COLUMNS = ("#", "id", "token", "text", "bytes", "made by")  # the keys of token_rows, also for no tokens


def made_by(tokenizer, token: str) -> str:
    """Which merge made a token, numbered from 1 like the Train page's steps ("merge 3"), or what
    else it is ("base symbol", "special token", "unknown", a rank file's token made by rank): never a bare None."""
    kind = token_kind(tokenizer, token)
    if kind != "normal":
        return {"special": "special token", "unk": "unknown"}[kind]
    rank = tokenizer.token_rank(token)
    if rank is None and by_rank_only(tokenizer, token):
        return BY_RANK
    return "base symbol" if rank is None else f"merge {rank + 1}"


BY_RANK = "made by rank (no merge builds it)"


def by_rank_only(tokenizer, token: str) -> bool:
    """Whether ``token`` is a rank file's token no merge of lower ranks builds (``Tokenizer.unreachable``):
    tiktoken makes it by its rank all the same."""
    return tokenizer.unreachable(token)


def token_rows(tokenizer, encoding, text: str = "") -> list[dict]:
    """One row per token for a table: position, id, token, its text, bytes, the merge that made it."""

    def token_hex(token: str, source: str) -> str:  # an unknown token: the bytes of the text it replaced
        return hex_bytes(
            source.encode("utf-8") if token_kind(tokenizer, token) == "unk" else tokenizer.token_bytes(token)
        )

    return [
        {
            "#": i,
            "id": tid,
            "token": token,
            "text": text[s:e],
            "bytes": token_hex(token, text[s:e]),
            "made by": made_by(tokenizer, token),
        }
        for i, (tid, token, (s, e)) in enumerate(zip(encoding.ids, encoding.tokens, encoding.offsets))
    ]


def disagreement_spans(
    offsets_a: Sequence[tuple[int, int]], offsets_b: Sequence[tuple[int, int]], length: int | None = None
) -> list[tuple[int, int]]:
    """Character spans where two tokenizations draw different token boundaries.

    A boundary is any token start or end. Between two boundaries both sides share,
    a span is a disagreement if either side has a boundary inside it that the other
    lacks. ``"hugs"`` as ``hugs`` vs ``hug|s`` -> ``[(0, 4)]``.
    """
    a = {x for span in offsets_a for x in span}
    b = {x for span in offsets_b for x in span}
    end = max(a | b, default=0) if length is None else length
    common = sorted((a & b) | {0, end})
    differ = sorted(a ^ b)
    out, j = [], 0
    for lo, hi in zip(common, common[1:]):
        while j < len(differ) and differ[j] <= lo:
            j += 1
        if j < len(differ) and differ[j] < hi:
            out.append((lo, hi))
    return out


def word_spans(encoding) -> list[tuple[int, int]]:
    """The character span of each pre-tokenized word in an encoding (specials left out)."""
    spans: dict[int, tuple[int, int]] = {}
    for word, (s, e) in zip(encoding.word_ids, encoding.offsets):
        if word is not None:
            lo, hi = spans.get(word, (s, e))
            spans[word] = (min(lo, s), max(hi, e))
    return list(spans.values())


def token_chips(
    tokenizer, tokens: Sequence[str], *, show_whitespace: bool = False, highlight: Iterable[str] = ()
) -> str:
    """Tokens as chips labelled like :func:`token_label` (for splits; no tooltips beyond the token)."""
    marked, colors = set(highlight), color_indices(tokens)
    return "".join(
        chip(
            token_label(tokenizer, t, show_whitespace),
            HIGHLIGHT if t in marked else PALETTE[c],
            title=repr(t),
            bold=t in marked,
        )
        for t, c in zip(tokens, colors)
    )
