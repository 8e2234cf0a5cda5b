"""Small SVG line charts over a run's steps, sent as images so that stepping moves only their marker.

Left out: the pair-count bar chart (Altair, in the pages).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence

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
    # "from 113 to 36" in the run's order when the line only falls or only rises, else its lowest and highest.
    steady = all(a >= b for a, b in zip(values, values[1:])) or all(a <= b for a, b in zip(values, values[1:]))
    extent = f"from {values[0]:,} to {values[-1]:,}" if steady else f"between {lo:,} and {hi:,}"
    return (
        f'<figcaption style="font-size:0.85rem">{label}: '
        f'<span style="color:#595959">{html.escape(extent)}</span></figcaption>'
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
