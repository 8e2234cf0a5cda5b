"""Pure display helpers for the pages: token colours, visible whitespace, escaped HTML chips, merge
trees and sparklines, one module per idea; every public name is re-exported here (``display.chips_html``).

The pages only draw; what colour a token gets and how its text is escaped is decided here, where it
can be tested without Streamlit. Every string that reaches HTML passes through :func:`html.escape`.

- :mod:`~bpe.display.text`: colours, visible whitespace, bytes, plurals, Markdown escaping;
- :mod:`~bpe.display.tokens`: chips, an encoded text as chips, the token table;
- :mod:`~bpe.display.merges`: a merge tree and a merge replay as HTML;
- :mod:`~bpe.display.sparklines`: small SVG charts over the steps.

Left out: Streamlit itself, and any layout beyond one block of HTML (the pages decide where it goes).
"""

from __future__ import annotations

from .merges import (
    MAX_TREE_NODES,
    merge_tree_html,
    merge_tree_size,
    trace_html,
)
from .sparklines import (
    sparkline_image,
    sparkline_marker,
    sparkline_svg,
)
from .text import (
    HIGHLIGHT,
    LONG_TOKEN,
    PALETTE,
    TEXT_WHITESPACE,
    VISIBLE,
    byte_level_explanation,
    byte_table_rows,
    byte_text,
    byte_title,
    color_indices,
    hex_bytes,
    mark_whitespace,
    md_escape,
    plural,
    shorten,
    token_symbol,
    visible,
)
from .tokens import (
    SPECIAL_COLORS,
    TOKEN_COLUMNS,
    TOKEN_CSS,
    UNK_COLORS,
    by_rank_only,
    chip,
    chips_html,
    cuts_character,
    disagreement_spans,
    encoding_html,
    made_by,
    overlaps,
    source_html,
    token_chips,
    token_kind,
    token_label,
    token_rows,
    token_title,
    utf16_offsets,
    word_spans,
)

__all__ = [
    "HIGHLIGHT",
    "LONG_TOKEN",
    "MAX_TREE_NODES",
    "PALETTE",
    "SPECIAL_COLORS",
    "TEXT_WHITESPACE",
    "TOKEN_COLUMNS",
    "TOKEN_CSS",
    "UNK_COLORS",
    "VISIBLE",
    "byte_level_explanation",
    "byte_table_rows",
    "byte_text",
    "byte_title",
    "chip",
    "chips_html",
    "color_indices",
    "cuts_character",
    "disagreement_spans",
    "encoding_html",
    "source_html",
    "utf16_offsets",
    "hex_bytes",
    "made_by",
    "mark_whitespace",
    "md_escape",
    "merge_tree_html",
    "merge_tree_size",
    "overlaps",
    "plural",
    "shorten",
    "sparkline_image",
    "sparkline_marker",
    "sparkline_svg",
    "token_chips",
    "token_kind",
    "token_label",
    "token_rows",
    "token_symbol",
    "token_title",
    "by_rank_only",
    "trace_html",
    "visible",
    "word_spans",
]
