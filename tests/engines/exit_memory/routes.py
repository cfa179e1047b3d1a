"""Routes drawn as text for the resolution walk (R-25..R-37), each with its expected transcript.

The routes live in ``routes.txt``, one block a route, blocks apart by a blank line; ``#`` starts a
comment line. A block holds ``key: value`` lines, or a key alone followed by its lines indented:

* ``name``: the rule the route checks and what happens on it.
* ``tiles``, ``floors``: the pile's tiles in order and the floor cards face up.
* ``picture``: the laid-out route, north up, one character per cell: ``S`` the start tile, ``|``/``-``
  a straight lying north-south/east-west, ``L``/``R`` a left/right turn, ``D``/``d`` a double
  left/right, ``+`` a crossing, ``O`` a roundabout, ``.`` nothing.
* ``steps``: one line per walk step: kind, tile, cell, entry>exit heading, turn, k.
* ``outcome``: ``ESCAPED`` or ``LOST <L> <reasons>`` followed, for an edge or blocked stop, by
  ``at <x>,<y> <side>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Route:
    name: str
    tiles: str
    floors: str
    picture: str
    steps: str
    outcome: str


def parse_routes(text: str) -> tuple[Route, ...]:
    """The routes of ``text`` in the format of the module docstring."""
    routes = []
    for block in text.split("\n\n"):
        values: dict[str, list[str]] = {}
        key = ""
        for line in block.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith(" "):
                values[key].append(line)
            else:
                key, _, value = line.partition(":")
                values[key] = [value.strip()] if value.strip() else []
        if values:
            routes.append(Route(**{k: "\n".join(lines) for k, lines in values.items()}))
    return tuple(routes)


ROUTES: tuple[Route, ...] = parse_routes(Path(__file__).with_name("routes.txt").read_text(encoding="utf-8"))
