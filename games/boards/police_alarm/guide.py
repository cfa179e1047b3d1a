"""police_alarm's How to play pictures: the city map as the board draws it, with the car, a
face-down, a green and a thief crime scene, and a safe being cracked."""

from __future__ import annotations

from typing import Any

from games.boards.police_alarm import context as board


def guide_context() -> dict[str, Any]:
    city = board.city_map()
    shown = {"E": "green", "H": "thief"}  # an example: E was empty, a thief hid at H
    return {
        "map": city,
        "circles": [{**c, "state": shown.get(c["id"], "down")} for c in city["circles"]],
        "car": {"x": 7 * board.CELL, "y": 11 * board.CELL},  # the car has just reached H
        "card": {"code": [2, 4, 4], "filled": [True, False, True]},
        "dice": [4],
    }
