"""The end-of-game chart's markup, drawn from :func:`games.boards.charts.line_chart`'s dict: the SVG
for the eye, a legend, and the same numbers as a table for a screen reader or a careful look.

Drawn by Python rather than a template (decision 0019): the chart is drawn on the move that ends a
match, the dearest move of a game, and its template's loops over a few hundred numbers were about a
fifth of that move's Python work. Every text that comes from a player or a translation is escaped.
A number is written as Python writes it, as the board's fragments write theirs (neither of the site's
languages groups thousands or writes another decimal point).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext

_SWATCH = '<svg class="chart-swatch" viewBox="0 0 24 8" aria-hidden="true" focusable="false">'


def draw(chart: Mapping[str, Any]) -> SafeString:
    """The ``<figure>`` of ``chart``, whose every seat's line is drawn in class ``chart-seat-n``."""
    title = conditional_escape(chart["title"])
    axis = conditional_escape(chart["axis"])
    table_name = conditional_escape(gettext("The chart's numbers as a table"))
    return SafeString(
        '<figure class="chart" aria-labelledby="chart-title">\n'
        f'<figcaption id="chart-title" class="chart-title">{title}</figcaption>\n'
        f'<svg class="chart-svg" viewBox="0 0 {chart["width"]} {chart["height"]}" role="img"'
        ' aria-labelledby="chart-title" focusable="false">\n'
        f"{_plot(chart, axis)}</svg>\n"
        f'<ul class="chart-legend">\n{_legend(chart)}</ul>\n'
        '<details class="chart-data">\n'
        f"<summary>{table_name}</summary>\n"
        '<div class="table-wrap chart-table" tabindex="0" role="region" aria-labelledby="chart-table-caption">\n'
        f"<table>\n{_table(chart, title, axis)}</table>\n</div>\n</details>\n</figure>\n"
    )


def _plot(chart: Mapping[str, Any], axis: str) -> str:
    plot = chart["plot"]
    left, right, top, bottom = plot["left"], plot["right"], plot["top"], plot["bottom"]
    out = [
        f'<line class="chart-grid" x1="{left}" x2="{right}" y1="{t["y"]}" y2="{t["y"]}"/>'
        f'<text class="chart-tick" x="{left - 4}" y="{t["y"]}" text-anchor="end" dominant-baseline="middle">'
        f"{conditional_escape(t['label'])}</text>"
        for t in chart["y_ticks"]
    ]
    out.append("\n")
    for b in chart["bars"]:
        out.append(f'<rect class="chart-bar" x="{b["x"]}" y="{b["y"]}" width="{b["w"]}" height="{b["h"]}"/>')
        if b["value"] != "":
            # The bar's number stands 2 above its top, on a whole coordinate.
            out.append(
                f'<text class="chart-tick chart-bar-value" x="{b["cx"]}" y="{int(b["y"]) - 2}"'
                f' text-anchor="middle">{conditional_escape(b["value"])}</text>'
            )
    out.append(
        f'\n<line class="chart-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>\n'
        f'<line class="chart-axis" x1="{left}" x2="{left}" y1="{top}" y2="{bottom}"/>\n'
    )
    out.extend(
        f'<text class="chart-tick" x="{t["x"]}" y="{bottom + 14}" text-anchor="middle">'
        f"{conditional_escape(t['label'])}</text>"
        for t in chart["x_ticks"]
    )
    out.append(
        f'\n<text class="chart-tick" x="{chart["axis_x"]}" y="{chart["axis_y"]}" text-anchor="middle">{axis}</text>\n'
    )
    for line in chart["lines"]:
        dots = "".join(f'<circle class="chart-dot" cx="{x}" cy="{y}" r="2.5"/>' for x, y in line["dots"])
        out.append(
            f'<g class="chart-seat-{line["seat"]}"><polyline class="chart-line" points="{line["points"]}"/>{dots}</g>'
        )
    out.append("\n")
    return "".join(out)


def _legend(chart: Mapping[str, Any]) -> str:
    out = [
        f'<li>{_SWATCH}<line class="chart-line chart-seat-{line["seat"]}" x1="0" y1="4" x2="24" y2="4"/></svg> '
        f"{conditional_escape(line['name'])}: {conditional_escape(line['last'])}</li>"
        for line in chart["lines"]
    ]
    out.append("\n")
    if chart["bar_name"]:
        out.append(
            f'<li>{_SWATCH}<rect class="chart-bar" x="6" y="0" width="12" height="8"/></svg> '
            f"{conditional_escape(chart['bar_name'])}</li>\n"
        )
    return "".join(out)


def _table(chart: Mapping[str, Any], title: str, axis: str) -> str:
    head = "".join(f'<th scope="col">{conditional_escape(c)}</th>' for c in chart["columns"])
    body = "".join(
        f'<tr><th scope="row">{conditional_escape(r["label"])}</th>'
        + "".join(f"<td>{conditional_escape(v)}</td>" for v in r["cells"])
        + "</tr>"
        for r in chart["rows"]
    )
    value_name = conditional_escape(chart["value_name"])
    return (
        f'<caption id="chart-table-caption">{title} ({value_name})</caption>\n'
        f'<thead><tr><th scope="col">{axis}</th>{head}</tr></thead>\n'
        f"<tbody>{body}</tbody>\n"
    )
