"""The end-of-game chart every board shares: a series per seat over the rounds (or heists), drawn
on the server as SVG by ``templates/games/includes/chart.html``, with a table of the same numbers.

:func:`line_chart` takes the numbers and the already translated words and returns the dict the
template draws: the lines in the SVG's own coordinates, the axis ticks, a legend and the table
(:func:`numbered_chart` names its points by their numbers).
Nothing here reads an engine's state: each board turns its view's series into the rows, so a chart
holds only what that view holds. Seat ``n`` is drawn in the colour and dash of ``chart-seat-n``
(``static/css/site.css``), the same on every board, so a line is told apart without its colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 40
MAX_X_TICKS = 10  # more points than this get a tick every few points, so the labels never overlap
MAX_DOTS = 24  # beyond this many points, the lines carry no dot per point
BAR_SHARE = 0.3  # the bars (police_alarm's safes cracked) use the lowest third of the plot
INSET = 10  # the first and last points stand this far inside the axes, so no dot or bar is cut


def _nice_step(span: float, ticks: int = 5) -> int:
    """A step of 1, 2 or 5 times a power of ten giving about ``ticks`` intervals over ``span``."""
    raw = max(span / ticks, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def _x_positions(count: int) -> list[float]:
    width = WIDTH - LEFT - RIGHT - 2 * INSET
    if count == 1:
        return [LEFT + INSET + width / 2]
    return [LEFT + INSET + width * i / (count - 1) for i in range(count)]


def line_chart(
    *,
    title: str,
    axis: str,
    value_name: str,
    labels: Sequence[str],
    ticks: Sequence[str],
    rows: Sequence[Sequence[int]],
    names: Mapping[int, str],
    lower_is_better: bool = False,
    bars: tuple[str, Sequence[int]] | None = None,
) -> dict[str, Any] | None:
    """The chart of ``rows`` (one per point, one value per seat), or ``None`` without a point.

    ``labels`` name each point in full for the table ("Round 3"), ``ticks`` briefly under the x
    axis ("3"); ``axis`` names the x axis ("Round") and ``value_name`` what is drawn ("Money").
    ``lower_is_better`` puts the lowest value at the top (places: 1st at the top). ``bars`` is a
    further series, one value per point (its name and values), drawn as bars at the foot of the
    plot and given its own column in the table.
    """
    if not rows or not rows[0]:
        return None
    if len(labels) != len(rows) or len(ticks) != len(rows):
        raise ValueError("one label and one tick per point")
    seats = len(rows[0])
    values = [v for row in rows for v in row]
    if lower_is_better:
        low, high, step = min(values), max(values), 1
    else:
        low, high = min(0, min(values)), max(1, max(values))
        step = _nice_step(high - low)
        low, high = step * math.floor(low / step), step * math.ceil(high / step)
    top, bottom = TOP, HEIGHT - BOTTOM
    span = max(high - low, 1)

    def y_of(value: float) -> float:
        share = (value - low) / span
        return top + (bottom - top) * share if lower_is_better else bottom - (bottom - top) * share

    xs = _x_positions(len(rows))
    lines = []
    for seat in range(seats):
        coords = [(round(x, 1), round(y_of(row[seat]), 1)) for x, row in zip(xs, rows, strict=True)]
        lines.append(
            {
                "seat": seat,
                "name": names.get(seat, str(seat + 1)),
                "points": " ".join(f"{x},{y}" for x, y in coords),
                "dots": coords if len(rows) <= MAX_DOTS else [],
                "last": rows[-1][seat],
            }
        )
    every = max(1, math.ceil(len(rows) / MAX_X_TICKS))
    shown = [i for i in range(len(rows)) if i % every == 0 or i == len(rows) - 1]
    if len(shown) > 1 and shown[-1] - shown[-2] < every:
        shown.pop(-2)  # the last point's tick is kept; the one crowding it goes
    x_ticks = [{"x": round(xs[i], 1), "label": ticks[i]} for i in shown]
    y_ticks = [{"y": round(y_of(v), 1), "label": str(v)} for v in range(low, high + 1, step)]
    bar_marks: list[dict[str, Any]] = []
    if bars is not None:
        bar_top = max(1, max(bars[1]))
        gap = (xs[1] - xs[0]) if len(xs) > 1 else (WIDTH - LEFT - RIGHT) / 2
        bar_w = round(min(gap * 0.6, 2.0 * INSET - 2), 1)
        for x, value in zip(xs, bars[1], strict=True):
            h = (bottom - top) * BAR_SHARE * value / bar_top
            bar_marks.append(
                {
                    "x": round(x - bar_w / 2, 1),
                    "y": round(bottom - h, 1),
                    "w": bar_w,
                    "h": round(h, 1),
                    "cx": round(x, 1),
                    "value": value if len(rows) <= MAX_DOTS else "",  # written on the bar, while they are few
                }
            )
    columns = [names.get(seat, str(seat + 1)) for seat in range(seats)]
    table_rows = [
        {"label": label, "cells": [*row, *([bars[1][i]] if bars is not None else [])]}
        for i, (label, row) in enumerate(zip(labels, rows, strict=True))
    ]
    return {
        "title": title,
        "axis": axis,
        "value_name": value_name,
        "width": WIDTH,
        "height": HEIGHT,
        "plot": {"left": LEFT, "right": WIDTH - RIGHT, "top": top, "bottom": bottom},
        "axis_x": round((LEFT + WIDTH - RIGHT) / 2, 1),
        "axis_y": HEIGHT - 6,
        "lines": lines,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "bars": bar_marks,
        "bar_name": bars[0] if bars is not None else "",
        "columns": [*columns, *([bars[0]] if bars is not None else [])],
        "rows": table_rows,
    }


def numbered_chart(
    *,
    title: str,
    axis: str,
    value_name: str,
    point: str,
    numbers: Sequence[int],
    rows: Sequence[Sequence[int]],
    names: Mapping[int, str],
    start: tuple[str, str] | None = None,
    lower_is_better: bool = False,
    bars: tuple[str, Sequence[int]] | None = None,
) -> dict[str, Any] | None:
    """:func:`line_chart` of points numbered ``numbers`` (rounds, heists), one per row: each named
    ``point`` with its number in the table (``"Round %(n)s"``), and its number alone under the x
    axis. ``start`` names the point numbered 0 when the series starts before the first one: its
    name in the table and its tick (heist's balances before the first heist)."""
    return line_chart(
        title=title,
        axis=axis,
        value_name=value_name,
        labels=[start[0] if start and not n else point % {"n": n} for n in numbers],
        ticks=[start[1] if start and not n else str(n) for n in numbers],
        rows=rows,
        names=names,
        lower_is_better=lower_is_better,
        bars=bars,
    )


def numbered_from_end(count: int, last: int) -> list[int]:
    """The numbers of ``count`` points whose last is round (or heist) ``last``: a series begun
    before a snapshot kept it (an older match) lacks its first points, so it is counted back from
    its end, whose number the view always has."""
    return list(range(last - count + 1, last + 1))
