"""The pair chart's Vega-Lite spec (the Train page's pair counts as bars), built with Altair once per kind.

Each step sends only its rows (``ui/panels.py`` _pair_chart_data); the spec is the same for every step.
Chosen and tied bars differ by colour and by outline (solid, dashed), so a projector or a grey print tells
them apart; in presenter mode each count is written on its bar instead of a count axis.
"""

from __future__ import annotations

from functools import cache

import altair as alt

from bpe import display

PRESENT_BARS = 8  # pairs in presenter mode's chart, each with its count written on its bar
PRESENT_BAR_PX = 25  # px per bar in presenter mode: the step box and the chart fit a 1280x720 projector
OUTLINE_PX = 2.5  # the outline of the chosen and tied bars
TIED_DASH = [6, 3]  # tied bars' outline is dashed, the chosen bar's solid
ROLES = ("chosen", "tied", "other")  # a pair's part in its step, in the chart's legend order
ROLE_LABELS = (
    "datum.label == 'chosen' ? 'chosen (solid outline)' : datum.label == 'tied' ? 'tied (dashed outline)' : datum.label"
)


@cache  # a handful of kinds: not st.cache_resource, which hashes its arguments again on every click
def pair_chart_spec(wordpiece: bool = False, present: bool = False, roles: tuple[str, ...] = ROLES) -> dict:
    """The bar chart, built with Altair once; each step only sends its data (Altair's
    to_dict costs ~30 ms, too much to pay on every click). The bars are the counts, or for
    WordPiece the scores (``value`` holds either). The legend names only the ``roles`` the data holds
    (none when every bar is "other")."""
    colors = alt.Scale(domain=list(ROLES), range=[display.HIGHLIGHT, "#8ecae6", "#c9ccd1"])
    legend = (
        alt.Legend(orient="bottom" if present else "top", title=None, values=list(roles), labelExpr=ROLE_LABELS)
        if roles != ("other",)
        else None
    )
    chart = (
        alt.Chart(alt.NamedData(name="pairs"))  # the data comes with each step
        .mark_bar()
        .encode(
            # Counts are whole numbers: integer ticks (no 2.5); WordPiece scores are fractions.
            # Presenter mode writes each count on its bar instead of a count axis, to keep a projector's height.
            x=alt.X(
                "value:Q",
                title="score" if wordpiece else "count",
                axis=None if present else alt.Axis() if wordpiece else alt.Axis(format="d", tickMinStep=1),
            ),
            # Sorted by the table's row order, not sort=None: the chart is reused from step to step with
            # new data, and with sort=None Vega kept the first step's order for pairs it had seen.
            y=alt.Y(
                "pair:N",
                sort=alt.EncodingSortField(field="rank", op="min", order="ascending"),
                title=None,
                axis=alt.Axis(labelLimit=160),
            ),
            color=alt.Color("role:N", scale=colors, legend=legend),
            # Told apart without colour too (a projector, a grey print, colour blindness): the chosen bar has a
            # solid outline, tied bars a dashed one, the others none; the legend says so.
            stroke=alt.value("#111"),
            strokeWidth=alt.condition(alt.datum.role == "other", alt.value(0), alt.value(OUTLINE_PX)),
            strokeDash=alt.condition(alt.datum.role == "tied", alt.value(TIED_DASH), alt.value([1, 0])),
            tooltip=[
                "pair:N",
                alt.Tooltip("stored:N", title="as stored"),
                *(["score:N"] if wordpiece else []),
                "count:Q",
                "role:N",
                alt.Tooltip("from:N", title="from"),
            ],
        )
    )
    if present:
        # Presenter mode: the top PRESENT_BARS pairs, each with its count (or score) written on its bar (there
        # is no count axis), so the numbers are read on a projector.
        chart = chart.transform_filter(alt.datum.rank < PRESENT_BARS)
        # At the bar's start (x = 0), so a label never runs past the plot's right edge.
        labels = chart.mark_text(align="left", baseline="middle", dx=4, fontSize=17).encode(
            x=alt.datum(0),
            text=alt.Text("score:N" if wordpiece else "count:Q"),
            color=alt.value("#111"),
            strokeWidth=alt.value(0),
        )
        chart = (
            alt.layer(chart, labels)
            .properties(height=alt.Step(PRESENT_BAR_PX))
            .configure_axis(labelFontSize=17, titleFontSize=17)
            .configure_legend(labelFontSize=16)
        )
    else:
        chart = chart.properties(height=alt.Step(24))  # px per bar: the plot grows with the number of pairs
    spec = chart.to_dict()
    spec.pop("data", None)
    spec.pop("datasets", None)
    return spec
