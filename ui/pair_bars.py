"""The pair chart as HTML bars, for a phone following a live class: the rows, colours and outlines of the Vega-Lite
chart (``ui/pair_chart.py``) in a few lines of HTML the step's block carries.

Every phone of a class runs its step view at each of the teacher's steps, all at once; a chart element is marshalled
again on each run (its spec to JSON and back, its rows to Arrow), while this is made once per step and kept in the
run's cache (``ui/panels.py``) for every phone. Each bar is as long as its count (or WordPiece score) relative to the
largest, with the number written after it; the chosen bar has a solid outline, tied bars a dashed one, as in the
chart, and the legend says so. What it leaves out: the chart's count axis (each bar carries its number) and its
hover card (a bar's tooltip gives the pair as stored and where its count comes from).
"""

from __future__ import annotations

from collections.abc import Sequence

from ui.alerts import esc
from ui.pair_chart import ROLES

LEGEND = {"chosen": "chosen (solid outline)", "tied": "tied (dashed outline)"}
BAR_SHARE = 85  # % of its track the longest bar takes: the number written after it fits beside it


def bars_html(rows: Sequence[dict], wordpiece: bool = False) -> str:
    """The bars of ``rows`` (``ui/panels.py`` ``_pair_view``'s rows, in rank order); "" for none."""
    if not rows:
        return ""
    top = max(row["value"] for row in rows) or 1.0
    roles = [r for r in ROLES if r in LEGEND and any(row["role"] == r for row in rows)]
    legend = "".join(f'<span class="bpe-bar-key {r}"></span>{LEGEND[r]} ' for r in roles)
    lines = []
    for row in rows:
        number = row["score"] if wordpiece else f"{row['count']:,}"
        tip = f"as stored: {row['stored']}" + (f"; from {row['from']}" if row["from"] else "")
        lines.append(
            f'<div class="bpe-bar-row" title="{esc(tip)}"><span class="bpe-bar-pair">{esc(row["pair"])}</span>'
            f'<span class="bpe-bar-track"><span class="bpe-bar {row["role"]}" '
            f'style="width:{BAR_SHARE * row["value"] / top:.1f}%"></span><span class="bpe-bar-n">{esc(number)}</span>'
            "</span></div>"
        )
    what = "score" if wordpiece else "count"
    return (
        f'<div class="bpe-bars" role="figure" aria-label="Pair {what}s, highest first">'
        + (f'<p class="bpe-bars-legend">{legend}</p>' if legend else "")
        + "".join(lines)
        + "</div>"
    )
