"""bridge_race's How to play pictures: the dice faces, the characters and the bonus tiles,
with the board's own symbols, names and colours."""

from __future__ import annotations

from typing import Any

from games.boards.bridge_race.words import (
    BONUS_EFFECTS,
    BONUS_NAMES,
    CHARACTER_ABILITIES,
    CHARACTER_NAMES,
    CHARACTER_PAINT,
    FACE_HINTS,
    FACE_NAMES,
    TILE_COLOUR_HINTS,
    TILE_COLOUR_NAMES,
)
from games.engines.bridge_race.state import BONUS, FACE_IDS, SHOP_PRICES

COLOURS = ("gold", "blue", "metal", "grey")


def guide_context() -> dict[str, Any]:
    faces = [{"id": f, "name": FACE_NAMES[f], "hint": FACE_HINTS[f]} for f in FACE_IDS]
    characters = []
    for char in sorted(CHARACTER_NAMES):
        fill, ink, outline = CHARACTER_PAINT[char]
        characters.append(
            {
                "name": CHARACTER_NAMES[char],
                "ability": CHARACTER_ABILITIES[char],
                "fill": fill,
                "ink": ink,
                "outline": outline,
            }
        )
    tiles = []
    for colour in COLOURS:
        ids = [t for t in sorted(BONUS) if BONUS[t][1] == colour]
        seen: set[str] = set()
        kinds = []
        for t in ids:  # the two Mines read alike: show one
            name = str(BONUS_NAMES[t])
            if name not in seen:
                seen.add(name)
                kinds.append({"name": BONUS_NAMES[t], "effect": BONUS_EFFECTS[t]})
        tiles.append(
            {"colour": colour, "name": TILE_COLOUR_NAMES[colour], "hint": TILE_COLOUR_HINTS[colour], "tiles": kinds}
        )
    return {
        "faces": faces,
        "characters": characters,
        "tile_colours": tiles,
        "shop_prices": SHOP_PRICES,
    }
