"""bridge_race's SVG, built as strings (a template loop over a hundred items cost several milliseconds).

The static bridge (cells, water, guardrails, zones, symbols) is drawn once per layout and language:
it never changes during a match. The layers drawn from a board model (objects, money piles, cars,
clickable targets) are drawn per match state."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.safestring import SafeString

from games.boards.bridge_race.geometry import BOTTOM, CELL, LANES, ROWS, START_ROWS, TOP, WATER, WIDTH, cell_x, cell_y
from games.boards.common import escape_text
from games.engines.bridge_race.board import GUARDRAILS, START_CELLS, ZONES
from games.push.speaking import current_language, gettext


def _star(cx: float, cy: float, r1: float, r2: float, points: int, turn: float = 0.0) -> str:
    import math

    out = []
    for i in range(points * 2):
        r = r1 if i % 2 == 0 else r2
        a = math.pi * i / points - math.pi / 2 + turn
        out.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(out)


def _symbols() -> str:
    """<symbol>s in a 40×40 box: board objects, the car and the dice faces."""
    jack = "".join(
        f'<polygon points="{_star(x, y, 6.5, 1.8, 4, t)}"/>'
        for x, y, t in ((12, 13, 0.3), (28, 12, 0.0), (20, 28, 0.5), (9, 29, 0.1), (31, 27, 0.7))
    )
    spikes = "".join(
        f'<line x1="20" y1="20" x2="{20 + 13 * c:.1f}" y2="{20 + 13 * s:.1f}"/>'
        for c, s in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))
    )
    ribs = "".join(f'<line x1="{x}" y1="7" x2="{x}" y2="33"/>' for x in range(8, 34, 5))
    return (
        '<pattern id="br-p-water" width="16" height="10" patternUnits="userSpaceOnUse">'
        '<rect width="16" height="10" fill="#173a5c"/>'
        '<path d="M0 6 q4 -4 8 0 t8 0" fill="none" stroke="#3f7fb0" stroke-width="1.2" opacity=".7"/></pattern>'
        '<pattern id="br-p-stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#f3f1ea"/><rect width="4" height="8" fill="#d23a2f"/></pattern>'
        '<pattern id="br-p-hazard" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="10" height="10" fill="#f0b429"/><rect width="5" height="10" fill="#1d1d1d"/></pattern>'
        '<pattern id="br-p-checker" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<rect width="12" height="12" fill="#f4f4f4"/><rect width="6" height="6" fill="#111"/>'
        '<rect x="6" y="6" width="6" height="6" fill="#111"/></pattern>'
        '<pattern id="br-p-forced" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="3" height="12" fill="#e09b2d" opacity=".28"/></pattern>'
        '<pattern id="br-p-arrest" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">'
        '<rect width="4" height="12" fill="#d9463e" opacity=".3"/></pattern>'
        # board objects
        f'<symbol id="br-s-caltrops" viewBox="0 0 40 40"><g fill="#cfd4dc" stroke="#2b2e35" '
        f'stroke-width=".8">{jack}</g></symbol>'
        '<symbol id="br-s-roadblock" viewBox="0 0 40 40"><rect x="6" y="24" width="3" height="10" fill="#555"/>'
        '<rect x="31" y="24" width="3" height="10" fill="#555"/>'
        '<rect x="3" y="12" width="34" height="13" rx="2" fill="url(#br-p-stripes)" stroke="#5a1410" '
        'stroke-width="1.2"/><circle cx="7" cy="9" r="3" fill="#ffb020"/><circle cx="33" cy="9" r="3" '
        'fill="#ffb020"/></symbol>'
        '<symbol id="br-s-police" viewBox="0 0 40 40"><path d="M20 3 L34 9 V20 C34 29 27 35 20 37 C13 35 6 29 '
        f'6 20 V9 Z" fill="#1f4fa6" stroke="#cfe0ff" stroke-width="1.5"/><polygon points="{_star(20, 20, 9, 3.8, 5)}" '
        'fill="#ffd54a"/></symbol>'
        '<symbol id="br-s-speed" viewBox="0 0 40 40"><circle cx="20" cy="20" r="15.5" fill="#fff" stroke="#d2261c" '
        'stroke-width="4.5"/><text x="20" y="24.5" text-anchor="middle" font-size="13" font-weight="700" '
        'font-family="system-ui,sans-serif" fill="#111">30</text></symbol>'
        '<symbol id="br-s-container" viewBox="0 0 40 40"><rect x="3" y="4" width="34" height="32" rx="1.5" '
        f'fill="#b4532a" stroke="#4f200c" stroke-width="1.5"/><g stroke="#7b3416" stroke-width="1.6">{ribs}</g>'
        '<rect x="3" y="4" width="34" height="4" fill="#8c3d1c"/></symbol>'
        '<symbol id="br-s-wall" viewBox="0 0 40 40"><rect x="2" y="3" width="36" height="34" fill="#6e737c" '
        'stroke="#2b2e35" stroke-width="1.5"/><rect x="2" y="16" width="36" height="8" fill="url(#br-p-hazard)"/>'
        "</symbol>"
        '<symbol id="br-s-fortified" viewBox="0 0 40 40"><rect x="2" y="3" width="36" height="34" fill="#6e737c" '
        'stroke="#2b2e35" stroke-width="1.5"/><path d="M20 7 L31 12 V20 C31 27 26 31 20 33 C14 31 9 27 9 20 '
        f'V12 Z" fill="#1f4fa6" stroke="#cfe0ff" stroke-width="1.2"/><polygon points="{_star(20, 20, 7, 3, 5)}" '
        'fill="#ffd54a"/></symbol>'
        '<symbol id="br-s-ramp" viewBox="0 0 40 40"><path d="M5 37 L35 37 L31 4 L9 4 Z" fill="#8d939d" '
        'stroke="#30343b" stroke-width="1.5"/><path d="M12 27 L20 19 L28 27 M12 18 L20 10 L28 18" fill="none" '
        'stroke="#ffd54a" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></symbol>'
        f'<symbol id="br-s-mine" viewBox="0 0 40 40"><g stroke="#1a1a1a" stroke-width="3">{spikes}</g>'
        '<circle cx="20" cy="20" r="9" fill="#2f3136" stroke="#111" stroke-width="1"/>'
        '<circle cx="20" cy="20" r="3.2" fill="#ff3b30"/></symbol>'
        '<symbol id="br-s-oil" viewBox="0 0 40 40"><path d="M8 20 C4 10 16 4 22 8 C30 4 38 12 33 20 C38 28 30 37 '
        '21 33 C13 38 3 30 8 20 Z" fill="#0c0c0f" opacity=".92"/><path d="M13 17 C17 11 25 12 28 17" fill="none" '
        'stroke="#7a5cff" stroke-width="2" opacity=".8"/><path d="M15 24 C19 27 24 27 27 23" fill="none" '
        'stroke="#35c2ff" stroke-width="1.6" opacity=".7"/></symbol>'
        '<symbol id="br-s-acid" viewBox="0 0 40 40"><path d="M8 20 C4 10 16 4 22 8 C30 4 38 12 33 20 C38 28 30 37 '
        '21 33 C13 38 3 30 8 20 Z" fill="#6fd63a" stroke="#2c6d0f" stroke-width="1.2" opacity=".9"/>'
        '<circle cx="15" cy="16" r="3" fill="#c9ff9a"/><circle cx="25" cy="24" r="2.2" fill="#c9ff9a"/>'
        '<circle cx="22" cy="13" r="1.6" fill="#c9ff9a"/></symbol>'
        # the car: an arrow-shaped body pointing to the finish; fill comes from <use>
        '<symbol id="br-s-car" viewBox="0 0 40 40"><path d="M20 1.5 L32 12 L32 35 Q32 38.5 28.5 38.5 L11.5 38.5 '
        'Q8 38.5 8 35 L8 12 Z"/><path d="M12 14 L20 8 L28 14 L28 18 L12 18 Z" fill="#000" opacity=".38"/>'
        '<rect x="11" y="31" width="18" height="4" rx="1.5" fill="#000" opacity=".3"/></symbol>'
        # dice faces (monochrome, coloured by CSS currentColor)
        '<symbol id="br-f-POINTER" viewBox="0 0 40 40"><path d="M7 29 A14.5 14.5 0 1 1 33 29" fill="none" '
        'stroke="currentColor" stroke-width="3.5" stroke-linecap="round"/><path d="M20 27 L29 12" '
        'stroke="currentColor" stroke-width="3.5" stroke-linecap="round"/><circle cx="20" cy="27" r="3.5" '
        'fill="currentColor"/><path d="M20 9 v3 M10 14 l2 2 M30 14 l-2 2" stroke="currentColor" stroke-width="2"/>'
        "</symbol>"
        '<symbol id="br-f-STEER" viewBox="0 0 40 40"><circle cx="20" cy="20" r="14" fill="none" stroke="currentColor" '
        'stroke-width="4"/><circle cx="20" cy="21" r="4" fill="currentColor"/><path d="M6.5 19 H16 M24 19 H33.5 '
        'M20 25 V34" stroke="currentColor" stroke-width="4"/></symbol>'
        '<symbol id="br-f-SHOOT" viewBox="0 0 40 40"><path d="M4 10 H35 V18 H19 L17 21 H14 L12 33 H5 L8 21 H6 '
        'L4 18 Z" fill="currentColor"/><path d="M14 21 q2 5 6 4" fill="none" stroke="currentColor" '
        'stroke-width="2"/><rect x="31" y="7" width="3" height="3" fill="currentColor"/></symbol>'
        '<symbol id="br-f-REPAIR" viewBox="0 0 40 40"><g transform="rotate(45 20 20)"><rect x="16.5" y="15" '
        'width="7" height="23" rx="2.5" fill="currentColor"/><path d="M12 3 A10 10 0 0 0 28 3 L28 3 L28 11 '
        'L23 14 L17 14 L12 11 Z" fill="currentColor"/><path d="M17 1 H23 V8 H17 Z" fill="#000" opacity=".0"/>'
        "</g></symbol>"
        f'<symbol id="br-f-DAMAGE" viewBox="0 0 40 40"><polygon points="{_star(20, 20, 18, 8, 10, 0.15)}" '
        f'fill="currentColor"/><polygon points="{_star(20, 20, 9, 4, 8)}" fill="#fff5b0"/></symbol>'
    )


def _open_segments(side: int) -> list[tuple[int, int]]:
    guarded: set[int] = set()
    for _name, _kind, s, lo, hi in GUARDRAILS:
        if s == side:
            guarded.update(range(lo, hi + 1))
    segments: list[tuple[int, int]] = []
    start = None
    for row in range(ROWS + 1):
        is_open = row < ROWS and row not in guarded
        if is_open and start is None:
            start = row
        if not is_open and start is not None:
            segments.append((start, row - 1))
            start = None
    return segments


@lru_cache(maxsize=64)
def _backdrop(mode: str, players: int, forced: int | None, wall: int | None, language: str) -> str:
    del language  # only part of the cache key: the text below is translated
    parts: list[str] = [f"<defs>{_symbols()}</defs>"]
    add = parts.append
    road_top, road_bottom = cell_y(ROWS - 1), cell_y(0) + CELL
    # river on both sides, the road, the bands at both ends
    add(
        f'<rect class="br-water" x="0" y="{road_top}" width="{WATER}" height="{road_bottom - road_top}" '
        'fill="url(#br-p-water)"/>'
    )
    add(
        f'<rect class="br-water" x="{WIDTH - WATER}" y="{road_top}" width="{WATER}" height="{road_bottom - road_top}" '
        'fill="url(#br-p-water)"/>'
    )
    closed = mode == "closed_border"
    if closed:
        # (gettext outside the f-strings: makemessages does not look inside them)
        sealed, exit_text = escape_text(gettext("SEALED END · ARREST")), escape_text(gettext("↓ EXIT ↓"))
        add(
            f'<rect x="0" y="0" width="{WIDTH}" height="{TOP}" fill="url(#br-p-arrest)"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{TOP / 2 + 5}" text-anchor="middle">'
            f"{sealed}</text>"
        )
        add(
            f'<rect x="{WATER}" y="{road_bottom}" width="{LANES * CELL}" height="{BOTTOM}" fill="#27402c"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{road_bottom + 19}" text-anchor="middle">'
            f"{exit_text}</text>"
        )
    else:
        add(
            f'<rect x="{WATER}" y="4" width="{LANES * CELL}" height="{TOP - 8}" fill="url(#br-p-checker)" '
            'opacity=".9"/>'
        )
        finish, closed_end = escape_text(gettext("FINISH")), escape_text(gettext("closed end"))
        add(
            f'<rect x="{WIDTH / 2 - 38}" y="{TOP / 2 - 9}" width="76" height="18" rx="4" fill="#14161a"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{TOP / 2 + 5}" text-anchor="middle">'
            f"{finish}</text>"
        )
        add(
            f'<rect x="{WATER}" y="{road_bottom}" width="{LANES * CELL}" height="{BOTTOM - 6}" fill="#3b3f47"/>'
            f'<text class="br-band-text small" x="{WIDTH / 2}" y="{road_bottom + 15}" text-anchor="middle">'
            f"{closed_end}</text>"
        )
    # the 5 × 33 cells
    cells = []
    for row in range(ROWS):
        for lane in range(LANES):
            css = "br-cell start" if row in START_ROWS else "br-cell"
            cells.append(
                f'<rect class="{css}" id="br-cell-{lane}-{row}" data-cell="{lane},{row}" '
                f'x="{cell_x(lane)}" y="{cell_y(row)}" width="{CELL}" height="{CELL}"/>'
            )
    add(f'<g class="br-cells">{"".join(cells)}</g>')
    # zones (shaded in closed-border mode, R-13, R-84, R-85)
    if closed:
        for z, (lo, hi) in ZONES.items():
            y1, y2 = cell_y(hi), cell_y(lo) + CELL
            fill = "url(#br-p-forced)" if z == forced else ("#ffffff" if z % 2 else "#000000")
            opacity = "1" if z == forced else ".05"
            if wall is not None and lo > wall:
                fill, opacity = "url(#br-p-arrest)", "1"
            label = gettext("Zone %(n)s") % {"n": z}
            if z == forced:
                label = gettext("Zone %(n)s · U-turn zone") % {"n": z}
            add(
                f'<g class="br-zone"><title>{escape_text(label)}</title>'
                f'<rect x="{WATER}" y="{y1}" width="{LANES * CELL}" '
                f'height="{y2 - y1}" fill="{fill}" opacity="{opacity}"/></g>'
            )
            add(
                f'<text class="br-zone-label" transform="translate({WIDTH - 8} {(y1 + y2) / 2}) rotate(90)" '
                f'text-anchor="middle">{escape_text(label)}</text>'
            )
        if wall is not None and wall < ROWS - 1:
            y1, y2 = cell_y(ROWS - 1), cell_y(wall + 1) + CELL
            arrest = escape_text(gettext("Arrest area"))
            add(
                f'<g class="br-zone arrest"><title>{arrest}</title>'
                f'<rect x="{WATER}" y="{y1}" width="{LANES * CELL}" height="{y2 - y1}" fill="url(#br-p-arrest)"/></g>'
            )
    # lane dividers, start-area line, row numbers
    lines = []
    for lane in range(1, LANES):
        x = cell_x(lane)
        lines.append(f'<line x1="{x}" y1="{road_top}" x2="{x}" y2="{road_bottom}"/>')
    add(f'<g class="br-lanes">{"".join(lines)}</g>')
    y_start = cell_y(2)
    add(f'<line class="br-startline" x1="{WATER}" y1="{y_start}" x2="{WIDTH - WATER}" y2="{y_start}"/>')
    labels = []
    for row in range(ROWS):
        labels.append(f'<text x="9.5" y="{cell_y(row) + CELL / 2 + 3.5}" text-anchor="middle">{row}</text>')
    add(f'<g class="br-rownums" aria-hidden="true">{"".join(labels)}</g>')
    lane_labels = "".join(
        f'<text x="{cell_x(lane) + CELL / 2}" y="{road_bottom - 3}" text-anchor="middle">{lane}</text>'
        for lane in range(LANES)
    )
    add(f'<g class="br-lanenums" aria-hidden="true">{lane_labels}</g>')
    # start cells
    starts = []
    money_of = {"S1": 600, "S2": 700, "S3": 800, "S4": 900, "S5": 1000}
    for sid, ((lane, row), _amount) in START_CELLS.items():
        x, y = cell_x(lane), cell_y(row)
        starts.append(
            f'<text x="{x + CELL / 2}" y="{y + 16}" text-anchor="middle">{sid}</text>'
            f'<text x="{x + CELL / 2}" y="{y + 29}" text-anchor="middle" class="amt">${money_of[sid]}</text>'
        )
    add(f'<g class="br-starts" aria-hidden="true">{"".join(starts)}</g>')
    # open edges (water) and guardrails
    for side in (-1, 1):
        x = WATER if side < 0 else WIDTH - WATER
        for lo, hi in _open_segments(side):
            y1, y2 = cell_y(hi), cell_y(lo) + CELL
            what = (
                gettext("Open edge: the river (west, rows %(lo)s–%(hi)s)")
                if side < 0
                else gettext("Open edge: the river (east, rows %(lo)s–%(hi)s)")
            )
            add(
                f'<g class="br-open"><title>{escape_text(what % {"lo": lo, "hi": hi})}</title>'
                f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"/></g>'
            )
    for name, kind, side, lo, hi in GUARDRAILS:
        y1, y2 = cell_y(hi) + 2, cell_y(lo) + CELL - 2
        w = 9 if kind == "large" else 6
        x = WATER - w + 1 if side < 0 else WIDTH - WATER - 1
        if kind == "large":
            what = gettext("%(name)s: large guardrail (%(side)s, rows %(lo)s–%(hi)s), cannot be flown over")
        else:
            what = gettext("%(name)s: small guardrail (%(side)s, rows %(lo)s–%(hi)s)")
        what = what % {"name": name, "side": gettext("west") if side < 0 else gettext("east"), "lo": lo, "hi": hi}
        posts = "".join(
            f'<rect x="{x + 1}" y="{cell_y(r) + CELL / 2 - 2}" width="{w - 2}" height="4" class="post"/>'
            for r in range(lo, hi + 1)
        )
        add(
            f'<g class="br-rail {kind}"><title>{escape_text(what)}</title>'
            f'<rect x="{x}" y="{y1}" width="{w}" height="{y2 - y1}" rx="2"/>{posts}</g>'
        )
    return "".join(parts)


def bridge_symbols() -> SafeString:
    """The board's symbols on their own, for pages that draw single pieces (How to play)."""
    return SafeString(  # built from constants only
        f'<svg class="sprite" width="0" height="0" aria-hidden="true" focusable="false"><defs>{_symbols()}</defs></svg>'
    )


def bridge_backdrop(view: dict[str, Any]) -> SafeString:
    board = view.get("board") or {}
    return SafeString(
        _backdrop(
            str(view.get("mode", "standard")),
            int(view.get("players", 0)),
            board.get("forced_zone"),
            board.get("wall_row"),
            current_language() or "",
        )
    )


def objects_svg(objects: list[dict[str, Any]]) -> str:
    out = []
    for o in objects:
        owner = ""
        if o["owner_fill"]:
            owner = f'<rect x="2" y="2" width="36" height="36" rx="5" class="br-owner" stroke="{o["owner_fill"]}"/>'
        flip = ' transform="rotate(180 20 20)"' if o["flip"] else ""
        badge = ""
        if o["badge"]:
            badge = (
                '<g class="br-badge"><rect x="24" y="0.5" width="15.5" height="12" rx="3"/>'
                f'<text x="31.8" y="9.7" text-anchor="middle">{o["badge"]}</text></g>'
            )
        if o["owner"]:
            badge += (
                '<g class="br-badge owner"><rect x="0.5" y="27.5" width="12" height="12" rx="3"/>'
                f'<text x="6.5" y="36.8" text-anchor="middle">{o["owner"]}</text></g>'
            )
        out.append(
            f'<g class="br-obj br-obj-{o["symbol"]}" transform="translate({o["x"]} {o["y"]})" '
            f'data-cell="{o["lane"]},{o["row"]}"><title>{escape_text(o["title"])}</title>{owner}'
            f'<use href="#br-s-{o["symbol"]}" width="40" height="40"{flip}/>{badge}</g>'
        )
    return "".join(out)


def _car_inner(car: dict[str, Any], small: bool = False) -> str:
    up = car["facing"] > 0
    flip = "" if up else ' transform="rotate(180 20 20)"'
    speed = (
        ""
        if small
        else (
            '<g class="br-speed"><rect x="23" y="27" width="17" height="12" rx="3"/>'
            f'<text x="31.5" y="36.3" text-anchor="middle">{int(car["speed"])}</text></g>'
        )
    )
    return (
        f'<g class="br-car-body"{flip}><use href="#br-s-car" width="40" height="40" fill="{car["fill"]}" '
        f'stroke="{car["outline"]}" stroke-width="1.4"/></g><text class="br-car-num" x="20" y="{27 if up else 24}" '
        f'text-anchor="middle" fill="{car["ink"]}">{int(car["label"])}</text>{speed}'
    )


def car_svg(c: dict[str, Any]) -> str:
    """A car on the bridge, the same for every viewer: bridge_race.css marks the viewer's own from
    the board's ``data-seat`` and the car's ``id``."""
    css = "br-car-anim" + (" is-active" if c["active"] else "")
    ring = '<rect class="br-active-ring" x="1.5" y="1.5" width="37" height="37" rx="7"/>' if c["active"] else ""
    return (
        f'<g class="{css}" id="br-car-{c["seat"]}" data-seat="{c["seat"]}" data-x="{c["x"]}" data-y="{c["y"]}" '
        f'data-facing="{c["facing"]}" data-fill="{c["fill"]}"><g transform="translate({c["x"]} {c["y"]})">'
        f"<title>{escape_text(c['title'])}</title>{ring}{_car_inner(c)}</g></g>"
    )


def off_car_svg(c: dict[str, Any]) -> str:
    """A car off the bridge (finished, arrested, in the river), drawn small beside it."""
    return (
        f'<g class="br-car-off br-off-{c["status"]}" transform="translate({c["x"]} {c["y"]}) scale(.62)">'
        f"<title>{escape_text(c['title'])}</title>{_car_inner(c, small=True)}</g>"
    )


def piles_svg(piles: list[dict[str, Any]]) -> str:
    return "".join(
        f'<g class="br-pile" transform="translate({m["x"]} {m["y"]})"><title>{escape_text(m["title"])}</title>'
        '<rect x="0.5" y="0.5" width="25" height="11.5" rx="3"/>'
        f'<text x="13" y="9.6" text-anchor="middle">{escape_text(m["text"])}</text></g>'
        for m in piles
    )


def click_target(
    lane: int,
    row: int,
    form: str,
    kind: str,
    label: str,
    *,
    field: str = "",
    value: str = "",
    tiles: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """A cell of the drawing that acts for form ``form`` when clicked (drawn by :func:`targets_svg`);
    ``field`` and ``value``: what it sets in the form first; ``extra``: ``arrow``, ``place``, ``off``."""
    target = {"x": cell_x(lane), "y": cell_y(row), "lane": lane, "row": row, "form": form, "kind": kind}
    return {**target, "field": field, "value": value, "tiles": tiles, "label": label, **extra}


def targets_svg(targets: list[dict[str, Any]]) -> str:
    # Many targets (placing a tile: up to 150 cells) stay out of the Tab order: the form's <select>
    # next to them is the keyboard way to pick a cell. Placement targets are counted apart, so
    # that a mine's 150 cells do not take the STEP targets out of the Tab order.
    placing = sum(1 for t in targets if t.get("place"))
    tabs = {True: "0" if placing <= 12 else "-1", False: "0" if len(targets) - placing <= 12 else "-1"}
    out = []
    esc = escape_text  # this loop may run 150 times per render
    for t in targets:
        label = esc(t["label"])
        attrs = f' data-form="{esc(t["form"])}"'
        if t.get("place"):  # the field is the one the (armed) form names in its data-place
            attrs += f' data-place data-value="{esc(t["value"])}"'
        elif t["field"]:
            attrs += f' data-field="{esc(t["field"])}" data-value="{esc(t["value"])}"'
        if t["tiles"]:
            attrs += f' data-tiles="{esc(t["tiles"])}"'
        arrow = ""
        if t.get("arrow"):
            arrow = f'<text x="9" y="14" text-anchor="middle" class="br-target-arrow">{t["arrow"]}</text>'
        off = " br-off" if t.get("off") else ""
        out.append(
            f'<g class="br-target br-target-{t["kind"]}{off}" tabindex="{tabs[bool(t.get("place"))]}" role="button" '
            f'aria-label="{label}"{attrs} data-cell="{t["lane"]},{t["row"]}" '
            f'transform="translate({t["x"]} {t["y"]})"><title>{label}</title>'
            f'<rect x="3" y="3" width="34" height="34" rx="6"/>{arrow}</g>'
        )
    return "".join(out)
