"""The pair chart tells chosen and tied bars apart without colour: on a projector the yellow and
light-blue bars are nearly the same grey. Read from the Vega-Lite spec the page sends."""

from __future__ import annotations

import pytest

from ui.pair_chart import pair_chart_spec

# Vega-Lite's condition test for each role, as Altair writes alt.datum.role == "..."
ROLES = ("chosen", "tied", "other")


def _bar_encoding(spec: dict) -> dict:
    layers = spec.get("layer", [spec])
    return next(layer["encoding"] for layer in layers if layer["mark"]["type"] == "bar")


def _resolve(channel: dict, role: str):
    """The value a conditional channel takes for a bar of ``role``."""
    condition = channel.get("condition")
    if condition and condition["test"] == f"(datum.role === '{role}')":
        return condition["value"]
    return channel["value"]


@pytest.mark.parametrize("present", [False, True])
@pytest.mark.parametrize("wordpiece", [False, True])
def test_chosen_and_tied_bars_differ_by_outline_and_the_legend_says_so(present, wordpiece):
    spec = pair_chart_spec(wordpiece, present)
    enc = _bar_encoding(spec)
    looks = {role: (_resolve(enc["strokeWidth"], role), tuple(_resolve(enc["strokeDash"], role))) for role in ROLES}
    assert looks["chosen"][0] > 0 and looks["tied"][0] > 0 and looks["other"][0] == 0
    assert looks["chosen"] != looks["tied"]  # solid and dashed: not colour alone
    assert enc["stroke"]["value"] not in enc["color"]["scale"]["range"]
    labels = enc["color"]["legend"]["labelExpr"]
    assert "solid outline" in labels and "dashed outline" in labels
    if present:  # its counts written on the bars, no count axis
        assert enc["x"]["axis"] is None
        text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
        assert text["encoding"]["strokeWidth"] == {"value": 0}
