"""Small HTML pieces of bridge_race's panels: a die, a speed gauge, durability pips, the turn order."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from games.boards.common import escape_text
from games.push.speaking import gettext


def _lit(on: Any, current: Any = False) -> str:
    """The class of a lit step of a strip ("on", "cur"), as the templates wrote it."""
    return ("on" if on else "") + (" cur" if current else "")


def speed_bar(steps: list[dict[str, Any]]) -> SafeString:
    """A dashboard's speed gauge: a mark per speed above 0, lit up to the car's speed."""
    return SafeString("".join(f'<i class="{_lit(s["on"], s["cur"])}"></i>' for s in steps if s["v"]))


def pips(lit: list[bool]) -> SafeString:
    """A dashboard's durability: a pip per point, lit for those the car has left."""
    return SafeString("".join(f'<i class="{_lit(on)}"></i>' for on in lit))


def order_items(order: list[dict[str, Any]]) -> SafeString:
    """The round's turn order: a line per car, the current one and those done marked."""
    return SafeString(
        "".join(
            f'<li class="{"current" if o["current"] else "done" if o["done"] else ""}">'
            f'<span class="br-dot" style="background:{escape_text(o["fill"])}"></span>'
            f"#{escape_text(o['number'])} {escape_text(o['name'])}</li>"
            for o in order
        )
    )


def die(d: dict[str, Any]) -> SafeString:
    """One die of a tray, a reroll or a sale: its face, its state and what it does (``d``: a die of
    the board model, with its number, name, hint and state's name).

    Written here, not as an ``{% include %}`` per die: five dice to a tray, rendered for the acting
    seat after most of its moves, cost an include each (about 0.1 ms).
    """
    face = escape_text(d.get("face", ""))
    state = d.get("state", "")
    classes = "".join(f" {flag}" for flag in ("kept", "rerolled", "double") if d.get(flag))
    name = escape_text(d.get("name", ""))
    note = ""
    if d.get("kept"):
        note = " · " + escape_text(gettext("set aside"))
    elif d.get("rerolled"):
        note = " · " + escape_text(gettext("rerolled"))
    if state != "unused":
        note += " · " + escape_text(d.get("state_name", ""))
    return SafeString(
        f'<span class="br-die face-{face} state-{escape_text(state)}{classes}"'
        f' data-index="{escape_text(d.get("index", ""))}" data-face="{face}"'
        f' title="{name}: {escape_text(d.get("hint", ""))}">\n'
        f'<svg class="br-face" viewBox="0 0 40 40" aria-hidden="true">'
        f'<use href="#br-f-{face}" width="40" height="40"/></svg>\n'
        f'<span class="br-die-name">{name}{" ×2" if d.get("double") else ""}</span>\n'
        f'<span class="br-die-flags">#{escape_text(d.get("number", ""))}{note}</span>\n</span>'
    )
