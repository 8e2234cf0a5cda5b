"""Pure display helpers for the pages: token colours, visible whitespace, escaped HTML chips.

The pages only draw; what colour a token gets and how its text is escaped is
decided here, where it can be tested without Streamlit. Every string that
reaches HTML passes through :func:`html.escape`.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

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


def chip(text: str, background: str, *, title: str = "", css_class: str = "tok", bold: bool = False) -> str:
    """One token as an escaped HTML span."""
    weight = "font-weight:700;" if bold else ""
    return (
        f'<span class="{css_class}" title="{html.escape(title, quote=True)}" '
        f'style="background:{background};{weight}padding:1px 4px;margin:1px;border-radius:4px;'
        f'font-family:monospace;white-space:pre;display:inline-block;color:#111">{html.escape(text)}</span>'
    )


def chips_html(tokens: Sequence[str], *, highlight: Iterable[str] = (), show_whitespace: bool = False,
               titles: Sequence[str] | None = None) -> str:
    """Tokens as adjacent coloured chips; tokens in ``highlight`` get the highlight colour."""
    marked = set(highlight)
    colors = color_indices(tokens)
    parts = []
    for i, (token, c) in enumerate(zip(tokens, colors)):
        is_new = token in marked
        parts.append(chip(visible(token, show_whitespace), HIGHLIGHT if is_new else PALETTE[c],
                          title=titles[i] if titles else token, bold=is_new))
    return "".join(parts)
