"""Pure display helpers for the pages: token colours, visible whitespace, escaped HTML chips.

The pages only draw; what colour a token gets and how its text is escaped is
decided here, where it can be tested without Streamlit. Every string that
reaches HTML passes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import bisect
import functools
import html
import itertools
from collections.abc import Iterable, Sequence

import regex

# Eight pastel backgrounds readable on a projector, dark text on each.
PALETTE = ("#fde2e4", "#d7f0dd", "#dbe7fb", "#fff1c1", "#eadcf8", "#d4f1f4", "#ffe0c7", "#e6e6e6")
HIGHLIGHT = "#ffb703"
VISIBLE = {" ": "·", "\n": "↵", "\t": "→", "Ġ": "·", "Ċ": "↵", "ĉ": "→"}


def color_indices(tokens: Sequence[str]) -> list[int]:
    """A palette index per token such that neighbours never share a colour.

    Tokens with the same string keep the same colour where possible (a hash of the
    string), and step to the next colour only when that would match the left neighbour.
    """
    out: list[int] = []
    for token in tokens:
        index = sum(token.encode("utf-8")) % len(PALETTE)
        if out and index == out[-1]:
            index = (index + 1) % len(PALETTE)
        out.append(index)
    return out


def visible(token: str, show_whitespace: bool = True) -> str:
    """Make whitespace visible: ``Ġ``/space -> ``·``, ``Ċ``/newline -> ``↵`` (not escaped)."""
    if not show_whitespace:
        return token
    return "".join(VISIBLE.get(c, c) for c in token)


def mark_whitespace(token: str) -> str:
    """Make only real whitespace visible (space -> ``·``, newline -> ``↵``, tab -> ``→``, any
    other whitespace -> ``␣``), leaving GPT-2's stored ``Ġ``/``Ċ`` as they are: the training page
    shows tokens as the tokenizer stores them, but a space inside a token must not vanish.

    >>> mark_whitespace("aa ") , mark_whitespace("Ġis")
    ('aa·', 'Ġis')
    """
    if not any(c.isspace() for c in token):
        return token
    return "".join(_REAL_WHITESPACE.get(c, "␣") if c.isspace() else c for c in token)


_REAL_WHITESPACE = {" ": "·", "\n": "↵", "\t": "→"}
_TEXT_WHITESPACE = {" ": "␣", "\n": "↵", "\t": "→"}


@functools.lru_cache(maxsize=1 << 15)  # pure, and the pages show the same tokens on every step
def byte_text(token: str) -> str:
    """A byte-level token (GPT-2's byte symbols) as the text its bytes spell, for reading non-ASCII
    corpora: ``ĠStraÃŁe`` -> ``␣Straße``, ``ä¸ĸçķĮ`` -> ``世界``. A space shows as ``␣``, a newline
    as ``↵``, a tab as ``→``, another control character as its byte symbol; a token that cuts a UTF-8
    character shows its whole characters as text and only the cut character's bytes in hex, then
    ``�`` (``ĠðŁĺ`` -> ``␣ F0 9F 98�``). A string outside the byte map (a special token) is kept.

    >>> byte_text("ĠStraÃŁe"), byte_text("ä¸ĸçķĮ"), byte_text("ðŁĺĢ"), byte_text("Ġis")
    ('␣Straße', '世界', '😀', '␣is')
    """
    from .pre_tokenizers import symbols_to_bytes

    try:
        text = symbols_to_bytes(token).decode("utf-8", errors="surrogateescape")
    except ValueError:
        return mark_whitespace(token)
    parts: list[str] = []
    for cut, run in itertools.groupby(text, key=lambda c: "\udc80" <= c <= "\udcff"):
        run = "".join(run)
        if cut:
            parts.append(hex_bytes(bytes(ord(c) - 0xDC00 for c in run)) + "�")
        else:
            parts.append("".join(_TEXT_WHITESPACE.get(c) or (c if c.isprintable() else token_symbol(c)) for c in run))
    return "\u202f".join(parts)  # a narrow gap, so "a" + "F0" does not read as the hex AF0


def byte_title(token: str) -> str:
    """The tooltip of a token shown by :func:`byte_text`: its stored form and bytes in hex."""
    from .pre_tokenizers import symbols_to_bytes

    try:
        return f"stored as {token} · bytes {hex_bytes(symbols_to_bytes(token))}"
    except ValueError:
        return token


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 merge``, ``7 merges``, ``1,000 merges``: a count with its noun in the right number.

    >>> plural(1, "merge"), plural(7, "merge"), plural(2, "pair"), plural(0, "entry", "entries")
    ('1 merge', '7 merges', '2 pairs', '0 entries')
    """
    return f"{n:,} {word if n == 1 else many or word + 's'}"


LONG_TOKEN = 32  # characters: a longer token is shown cut (see shorten), whole in its tooltip


def shorten(text: str, limit: int = LONG_TOKEN) -> str:
    """A long token cut in the middle, so no chip or table cell is wider than its column (tokens
    never wrap): its start, ``…`` and its last 8 characters. The whole token goes in a tooltip.

    >>> shorten("hug"), shorten("https://docs.python.org/3/library/functions.html#func-open", 30)
    ('hug', 'https://docs.python.o…unc-open')
    """
    return text if len(text) <= limit else text[: limit - 9] + "…" + text[-8:]


def chip(
    text: str, background: str | None = None, *, title: str = "", css_class: str = "tok", bold: bool = False
) -> str:
    """One token as an escaped HTML span. Its box (padding, font, ...) comes from the ``.tok``
    rule of :data:`TOKEN_CSS`; a colour is either a class there (``c0``..``c7``, ``hl``) or
    ``background``, inline. The tooltip is left out when ``title`` is empty. A token longer than
    :data:`LONG_TOKEN` characters is cut (:func:`shorten`) and shown whole in the tooltip."""
    short = shorten(text)
    if short != text:
        title = f"{text} · {title}" if title and title != text else text
        text, css_class = short, css_class + " long"
    style = f"background:{background}" + (";font-weight:700" if bold else "") if background else ""
    return (
        f'<span class="{css_class}"'
        + (f' title="{html.escape(title, quote=True)}"' if title else "")
        + (f' style="{style}"' if style else "")
        + f">{html.escape(text)}</span>"
    )


def chips_html(
    tokens: Sequence[str],
    *,
    highlight: Iterable[str] = (),
    show_whitespace: bool = False,
    titles: Sequence[str] | None = None,
    as_text: bool = False,
) -> str:
    """Tokens as adjacent coloured chips; tokens in ``highlight`` get the highlight colour.

    Lean markup, because the training page draws hundreds of these on every step: colours are
    classes of :data:`TOKEN_CSS` (``c0``..``c7``, ``hl``), and a chip has a tooltip only when
    ``titles`` gives one or its text differs from the token (whitespace made visible).
    ``show_whitespace`` marks spaces and GPT-2's ``Ġ`` alike; without it only real whitespace
    is marked (:func:`mark_whitespace`), so a space inside a token never vanishes. ``as_text``
    (byte-level tokens) shows each token as the text it stands for (:func:`byte_text`), with its
    stored form and bytes in the tooltip."""
    marked = set(highlight)
    colors = color_indices(tokens)
    parts = []
    for i, (token, c) in enumerate(zip(tokens, colors)):
        if as_text:
            text = byte_text(token)
            title = titles[i] if titles else (byte_title(token) if text != token else "")
        else:
            text = visible(token) if show_whitespace else mark_whitespace(token)
            title = titles[i] if titles else (token if text != token else "")
        parts.append(chip(text, title=title, css_class=f"tok {'hl' if token in marked else f'c{c}'}"))
    return "".join(parts)


# -- the encode page: tokens of a text, their tooltips, bytes, and where two tokenizers disagree -----
UNK_COLORS = ("#ffb3c1", "#ff8fa3")  # alternate so two neighbouring [UNK]s still differ
SPECIAL_COLORS = ("#c9d6df", "#aebfcc")
TOKEN_CSS = (
    "<style>"
    ".tok{padding:1px 4px;margin:1px;border-radius:4px;font-family:monospace;white-space:pre;"
    "display:inline-block;color:#111}"
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
    "</style>"
)
_SHOWN_AS_STORED = {c: s for c, s in ((" ", "Ġ"), ("\n", "Ċ"), ("\t", "ĉ"), ("\r", "č"))}


def hex_bytes(data: bytes) -> str:
    """``b"hug"`` -> ``"68 75 67"``."""
    return data.hex(" ").upper()


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
    A token that cuts a UTF-8 character in the middle shows the bytes of the cut character in
    hex and ``�``; its whole characters show as above, a narrow gap apart (`` 🙂``'s first three
    bytes: ``Ġ F0 9F�``).
    """
    if not tokenizer.byte_level or token_kind(tokenizer, token) != "normal":
        return visible(token, show_whitespace)
    # Bytes that are not whole characters decode to lone surrogates U+DC80..U+DCFF ("surrogateescape").
    text = tokenizer.token_bytes(token).decode("utf-8", errors="surrogateescape")
    parts: list[str] = []
    for cut, run in itertools.groupby(text, key=lambda c: "\udc80" <= c <= "\udcff"):
        run = "".join(run)
        if cut:
            parts.append(hex_bytes(bytes(ord(c) - 0xDC00 for c in run)) + "�")
        elif show_whitespace == "text":  # as the Train page's "Bytes as text": ␣ for a space
            parts.append("".join(_TEXT_WHITESPACE.get(c) or (c if c.isprintable() else token_symbol(c)) for c in run))
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


def token_symbol(char: str) -> str:
    """GPT-2's byte symbols for one character (``" "`` -> ``"Ġ"``)."""
    from .pre_tokenizers import bytes_to_symbols

    return bytes_to_symbols(char.encode("utf-8"))


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
    elif rank is None:
        made = "base symbol (no merge)"
    else:
        made = f"merge {rank + 1}"
    return f"id {token_id} · {token!r} · bytes {hex_bytes(tokenizer.token_bytes(token))} · {made}"


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
) -> str:
    """Coloured, escaped chips for the first ``limit`` tokens of an encoding.

    Neighbours never share a colour; ``[UNK]`` and special tokens get their own colours
    and the classes ``unk``/``special``; tokens overlapping a ``marked`` span get ``diff``.
    Byte-level chips show the text their bytes spell (:func:`token_label`), or with ``as_text``
    off the token as stored (``ĠStraÃŁe``). Every chip has a tooltip (see :func:`token_title`). Each pre-tokenized word after the first
    starts after an empty ``bpe-gap`` element (a visible space), and a token holding newlines is followed by
    as many line breaks, so the chips keep the text's words and lines (as tiktokenizer shows them).
    """
    n = len(encoding.tokens) if limit is None else min(limit, len(encoding.tokens))
    tokens = encoding.tokens[:n]
    colors = color_indices(tokens)
    parts, prev_kind, alt, ends = [], None, 0, [b for _, b in marked]
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
        parts.append(chip(label, background, title=title, css_class=css, bold=kind == "special"))
        # Lines break where the text has newlines; the newline's own token stays visible before the break.
        parts.append("<br>" * source.count("\n"))
    return f'{TOKEN_CSS}<div class="bpe-tokens">{"".join(parts)}</div>'


TOKEN_COLUMNS = ("#", "id", "token", "text", "bytes", "made by")  # the keys of token_rows, also for no tokens


def made_by(tokenizer, token: str) -> str:
    """Which merge made a token, numbered from 1 like the Train page's steps ("merge 3"), or what
    else it is ("base symbol", "special token", "unknown"): never a bare None."""
    kind = token_kind(tokenizer, token)
    if kind != "normal":
        return {"special": "special token", "unk": "unknown"}[kind]
    rank = tokenizer.token_rank(token)
    return "base symbol" if rank is None else f"merge {rank + 1}"


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


def _tree_label(tokenizer, tree) -> str:
    """The token a merge tree stands for (its leaves joined; WordPiece drops the ``##``)."""
    if isinstance(tree, str):
        return tree
    return _tree_labels(tokenizer, tree)[id(tree)]


def _tree_labels(tokenizer, tree) -> dict[int, str]:
    """The label of every node of a merge tree, by ``id(node)``, built without recursion."""
    labels: dict[int, str] = {}
    stack = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if isinstance(node, str) or id(node) in labels:
            continue
        left, right = node
        if not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in (right, left) if not isinstance(child, str))
            continue
        a = left if isinstance(left, str) else labels[id(left)]
        b = right if isinstance(right, str) else labels[id(right)]
        if tokenizer.algorithm == "wordpiece" and b.startswith("##"):
            b = b[2:]
        elif getattr(tokenizer, "continuing_subword_prefix", None) and b.startswith(
            tokenizer.continuing_subword_prefix
        ):
            b = b[len(tokenizer.continuing_subword_prefix) :]
        labels[id(node)] = a + b
    return labels


MAX_TREE_NODES = 300  # merge tree nodes drawn; a token built by thousands of merges is cut


def merge_tree_html(tokenizer, tree, show_whitespace: bool = False, limit: int | None = None) -> str:
    """A merge tree (:meth:`Tokenizer.merge_tree`) as nested, escaped HTML lists:
    ``hug = h + ug``, under it ``ug = u + g``. Built without recursion; with ``limit``, at most that
    many merges are opened (the rest show as their token and ``…``): see :func:`merge_tree_size`."""
    labels = _tree_labels(tokenizer, tree)

    def label(t) -> str:
        text = t if isinstance(t, str) else labels[id(t)]
        shown = token_label(tokenizer, text, show_whitespace)
        if len(shown) > 48:  # a long token is named by its ends, so a deep tree stays small
            shown = f"{shown[:24]}…{shown[-12:]} ({len(text):,} characters)"
        return html.escape(shown)

    out: list[str] = []
    opened = 0
    stack: list = [tree]
    while stack:
        t = stack.pop()
        if t is None:
            out.append("</ul></li>")
            continue
        if isinstance(t, str):
            out.append(f"<li><code>{label(t)}</code></li>")
            continue
        if limit is not None and opened >= limit:
            out.append(f"<li><code>{label(t)}</code> …</li>")
            continue
        opened += 1
        a, b = t
        out.append(f"<li><code>{label(t)}</code> = <code>{label(a)}</code> + <code>{label(b)}</code><ul>")
        stack.extend((None, b, a))
    return f'{TOKEN_CSS}<ul class="bpe-tree">{"".join(out)}</ul>'


def merge_tree_size(tree, cap: int = 1_000_000) -> int:
    """How many merges a merge tree holds (its tuple nodes, a shared part once per place it appears),
    counted without recursion and up to ``cap``."""
    n, stack = 0, [tree]
    while stack and n < cap:
        t = stack.pop()
        if not isinstance(t, str):
            n += 1
            stack.extend(t)
    return n


def byte_table_rows() -> list[dict]:
    """GPT-2's 256 bytes and the printable character each one is stored as."""
    from .pre_tokenizers import bytes_to_unicode

    rows = []
    for b, symbol in bytes_to_unicode().items():
        char = chr(b)
        rows.append(
            {
                "byte": b,
                "hex": f"{b:02X}",
                "character": char if char.isprintable() and b != 32 else repr(char),
                "stored as": symbol,
                "code point": f"U+{ord(symbol):04X}",
                "shifted": symbol != char,
            }
        )
    return sorted(rows, key=lambda r: r["byte"])


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


def trace_html(tokenizer, trace, show_whitespace: bool = False) -> str:
    """A word's merge replay (:meth:`Tokenizer.trace`): its start, then the split after each merge."""

    def row(head: str, tokens, new=()) -> str:
        return (
            f'<tr><td style="padding:2px 10px 2px 0;white-space:nowrap">{head}</td>'
            f"<td>{token_chips(tokenizer, tokens, show_whitespace=show_whitespace, highlight=new)}</td></tr>"
        )

    def lab(t: str) -> str:
        return html.escape(token_label(tokenizer, t, show_whitespace))

    rows = [row("start", trace.initial)]
    for _n, step in enumerate(trace.steps, 1):
        a, b = step.pair
        merged = _tree_label(tokenizer, step.pair)
        rows.append(row(f"merge {step.rank + 1}: <code>{lab(a)}</code> + <code>{lab(b)}</code>", step.split, (merged,)))
    return f'<table class="bpe-replay" style="border:none">{"".join(rows)}</table>'


# Every ASCII punctuation character (CommonMark lets each be backslash-escaped): links, images, autolinks
# (``http\://``), emphasis, headings (``=`` under a line), HTML, LaTeX and Streamlit's ``:red[...]`` all need one.
_AUTOLINK = regex.compile(r"(?i)(?<=www)(?=\.)|(?=://)|(?<=\w)(?=@\w)")
_MARKDOWN_SPECIALS = str.maketrans({c: "\\" + c for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"})


def md_escape(text: object) -> str:
    """Text safe inside Streamlit markdown (captions, errors, labels): every character that
    markdown, LaTeX (``$``) or Streamlit's ``:color[...]``/``:emoji:`` syntax would read is
    backslash-escaped, so a file name or a token from an uploaded file shows as typed.

    >>> md_escape("[x](y) *b* $1$")
    '\\\\[x\\\\]\\\\(y\\\\) \\\\*b\\\\* \\\\$1\\\\$'

    Backslashes do not stop Streamlit's Markdown from turning ``www.x``, ``http://x`` or ``a@b.c``
    into links (tried in chromium: all three became links after escaping). A word joiner (U+2060,
    invisible) before the ``.`` after ``www``, before ``://`` and before an ``@`` between letters keeps them
    plain text.
    """
    return _AUTOLINK.sub("\u2060", str(text)).translate(_MARKDOWN_SPECIALS)


def byte_level_explanation() -> str:
    """Why a space is ``Ġ``, in markdown, with the numbers read from GPT-2's byte map itself."""
    from .pre_tokenizers import bytes_to_unicode

    table = bytes_to_unicode()
    shifted = [b for b in range(256) if table[b] != chr(b)]
    space, newline = shifted.index(0x20) + 1, shifted.index(0x0A) + 1
    return (
        f"Byte-level BPE starts from the 256 possible bytes, so no text is ever unknown. GPT-2 stores each byte "
        f"as a printable character: the {256 - len(shifted)} printable bytes (`!`…`~`, `¡`…`¬`, `®`…`ÿ`) stand "
        f"for themselves, and the other {len(shifted)} (controls, space, DEL, …) are shifted, in byte order, to "
        f"U+0100 and up. Space (0x20) is the {space}rd of them, so it becomes U+0100 + {space - 1} = "
        f"U+{ord(table[0x20]):04X} **{table[0x20]}**; newline (0x0A, the {newline}th) becomes "
        f"U+{ord(table[0x0A]):04X} **{table[0x0A]}**. A token can end inside a multi-byte UTF-8 character: "
        "it is shown as its bytes in hex followed by �."
    )


_SPARK_PAD = 4  # pixels between a sparkline and its image's edges


def _spark_x(i: int, n: int, width: int) -> float:
    """Where the i-th of n values sits across a sparkline ``width`` pixels wide."""
    return _SPARK_PAD + (width - 2 * _SPARK_PAD) * (i / max(n - 1, 1))


def sparkline_svg(
    values: Sequence[float],
    marker: int | None = None,
    *,
    title: str = "",
    width: int = 360,
    height: int = 70,
    max_points: int = 300,
) -> str:
    """A small line chart as an inline SVG image, with a red vertical marker at index ``marker``.
    Values are down-sampled to ``max_points``. The marker is drawn over the image, not in it,
    so a page that moves the marker step by step can reuse the image (see :func:`sparkline_image`)."""
    return sparkline_marker(
        sparkline_image(values, title=title, width=width, height=height, max_points=max_points),
        len(values),
        marker,
        width=width,
        height=height,
    )


def sparkline_image(
    values: Sequence[float], *, title: str = "", width: int = 360, height: int = 70, max_points: int = 300
) -> str:
    """The line of :func:`sparkline_svg` without a marker: an ``<img>`` with an SVG data URI
    (st.html's sanitiser drops inline ``<svg>`` elements) and its caption."""
    n = len(values)
    if n == 0:
        return ""
    every = max(1, -(-n // max_points))
    idx = list(range(0, n, every))
    if idx[-1] != n - 1:
        idx.append(n - 1)
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1
    pad = _SPARK_PAD
    points = " ".join(
        f"{_spark_x(i, n, width):.1f},{pad + (height - 2 * pad) * (1 - (values[i] - lo) / span):.1f}" for i in idx
    )
    label = html.escape(title)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f'<rect width="100%" height="100%" fill="#fafafa"/>'
        f'<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{points}"/></svg>'
    )
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (
        f'<figcaption style="font-size:0.85rem">{label} '
        f'<span style="color:#666">({html.escape(f"{lo:,}")} to {html.escape(f"{hi:,}")})</span></figcaption>'
        f'<img alt="{label}" src="data:image/svg+xml;base64,{data}" style="width:100%;height:{height}px;display:block">'
    )


def sparkline_marker(image: str, n: int, marker: int | None, *, width: int = 360, height: int = 70) -> str:
    """Wrap a :func:`sparkline_image` in a figure with a red line at index ``marker`` of ``n`` values,
    placed in percent of the width (the image stretches to the column)."""
    if not image:
        return ""
    mark = ""
    if marker is not None and 0 <= marker < n:
        mark = (
            f'<div class="spark-mark" style="position:absolute;left:{100 * _spark_x(marker, n, width) / width:.2f}%;bottom:0;'
            f'height:{height}px;width:2px;background:#d62828"></div>'
        )
    return f'<figure style="margin:0 0 8px 0;position:relative">{image}{mark}</figure>'
