"""Escaped HTML tables for the step view: a DataFrame or plain rows under their columns, each cell with its
column's name as a class, and long tokens cut with the whole of them in the tooltip."""

from __future__ import annotations

import re

import pandas as pd

from bpe import display
from ui.alerts import esc

CELL_TOKEN = 24  # characters of a token (or pair) shown in a table cell; longer ones are cut, whole in the tooltip

_NOT_CLASS = re.compile(r"[^a-z0-9]+")


def html_table(frame: pd.DataFrame, name: str, titles: dict[str, list[str]] | None = None) -> str:
    """A DataFrame as an escaped HTML table (``data-table`` names it for tests and styling);
    ``titles`` gives some columns a tooltip per row (a token's stored form)."""
    return html_rows(list(frame.columns), frame.itertuples(index=False, name=None), name, titles)


def html_rows(columns, rows, name: str, titles: dict[str, list[str]] | None = None) -> str:
    """Rows of values under ``columns`` as an escaped HTML table, as :func:`html_table` draws a DataFrame."""
    # Each cell carries its column's name as a class, for styling (the "from" column is small print).
    classes = [_NOT_CLASS.sub("-", str(c).lower()) for c in columns]
    head = "".join(f'<th class="{k}">{esc(c)}</th>' for k, c in zip(classes, columns))
    tips = [titles.get(c) if titles else None for c in columns]
    body = "".join(
        "<tr>" + "".join(cell(k, v, tip[i] if tip else "") for k, v, tip in zip(classes, row, tips)) + "</tr>"
        for i, row in enumerate(rows)
    )
    return f'<table class="bpe-table" data-table="{name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def cell(css_class: str, value, title: str = "") -> str:
    """A table cell; a long token (or pair) is cut with the whole of it in the tooltip, since
    tokens do not wrap and a long one would push the table out of its column."""
    text = str(value)
    short = display.shorten(text, CELL_TOKEN) if css_class in ("pair", "new-token", "word") else text
    if short != text:
        title = f"{text} · {title}" if title else text
        css_class += " long"
    tip = f' title="{esc(title)}"' if title else ""
    return f'<td class="{css_class}"{tip}>{esc(short)}</td>'
