"""Text the pages show: token colours, visible whitespace, bytes, plurals, Markdown escaping.

Every decision about how a token's text reads (``·`` for a space, ``↵`` for a newline, the bytes of
a byte-level symbol, a long token cut with an ellipsis) is made here, where it can be tested without
Streamlit. Left out: HTML chips and tables (:mod:`bpe.display.tokens`) and charts.

>>> visible("Ġhug")
'·hug'
>>> plural(2, "merge")
'2 merges'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

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


TEXT_WHITESPACE = {" ": "␣", "\n": "↵", "\t": "→"}


@functools.lru_cache(maxsize=1 << 15)  # pure, and the pages show the same tokens on every step
def byte_text(token: str) -> str:
    """A byte-level token (GPT-2's byte symbols) as the text its bytes spell, for reading non-ASCII
    corpora: ``ĠStraÃŁe`` -> ``␣Straße``, ``ä¸ĸçķĮ`` -> ``世界``. A space shows as ``␣``, a newline
    as ``↵``, a tab as ``→``, another control character as its byte symbol; a token that cuts a UTF-8
    character shows its whole characters as text and only the cut character's bytes, each in angle brackets
    (``ĠðŁĺ`` -> ``␣ <F0><9F><98>``), never U+FFFD. A string outside the byte map (a special token) is kept.

    >>> byte_text("ĠStraÃŁe"), byte_text("ä¸ĸçķĮ"), byte_text("ðŁĺĢ"), byte_text("Ġis")
    ('␣Straße', '世界', '😀', '␣is')
    """
    from ..pre_tokenizers import symbols_to_bytes

    try:
        text = symbols_to_bytes(token).decode("utf-8", errors="surrogateescape")
    except ValueError:
        return mark_whitespace(token)
    parts: list[str] = []
    for cut, run in itertools.groupby(text, key=lambda c: "\udc80" <= c <= "\udcff"):
        run = "".join(run)
        if cut:
            parts.append(byte_marks(bytes(ord(c) - 0xDC00 for c in run)))
        else:
            parts.append("".join(TEXT_WHITESPACE.get(c) or (c if c.isprintable() else token_symbol(c)) for c in run))
    return "\u202f".join(parts)  # a narrow gap, so "a" + "F0" does not read as the hex AF0


def byte_title(token: str) -> str:
    """The tooltip of a token shown by :func:`byte_text`: its stored form and bytes in hex."""
    from ..pre_tokenizers import symbols_to_bytes

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


def byte_marks(data: bytes) -> str:
    """Bytes that are not a whole character, each in angle brackets.

    >>> byte_marks(b"\\xf0\\x9f")
    '<F0><9F>'
    """
    return "".join(f"<{b:02X}>" for b in data)


def hex_bytes(data: bytes) -> str:
    """``b"hug"`` -> ``"68 75 67"``."""
    return data.hex(" ").upper()


def byte_table_rows() -> list[dict]:
    """GPT-2's 256 bytes and the printable character each one is stored as."""
    from ..pre_tokenizers import bytes_to_unicode

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
    into links (chromium links all three even after escaping). A word joiner (U+2060,
    invisible) before the ``.`` after ``www``, before ``://`` and before an ``@`` between letters keeps them
    plain text.
    """
    return _AUTOLINK.sub("\u2060", str(text)).translate(_MARKDOWN_SPECIALS)


def byte_level_explanation() -> str:
    """Why a space is ``Ġ``, in markdown, with the numbers read from GPT-2's byte map itself."""
    from ..pre_tokenizers import bytes_to_unicode

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
        "it is shown as its bytes, each in angle brackets (`<F0><9F>`: the first two bytes of 🙂)."
    )


def token_symbol(char: str) -> str:
    """GPT-2's byte symbols for one character (``" "`` -> ``"Ġ"``)."""
    from ..pre_tokenizers import bytes_to_symbols

    return bytes_to_symbols(char.encode("utf-8"))
