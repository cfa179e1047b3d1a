"""The tags that draw bridge_race's bridge (tiny: :mod:`games.boards.bridge_race.drawing` draws it).

``{% bridge_backdrop view %}`` is the static part of the bridge (cells, water, guardrails, zones,
symbols), drawn once per layout and language; ``{% bridge_symbols %}`` the symbols it uses, for the
"How to play" page.
"""

from django import template

from games.boards.bridge_race import drawing

register = template.Library()

register.simple_tag(drawing.bridge_symbols, name="bridge_symbols")
register.simple_tag(drawing.bridge_backdrop, name="bridge_backdrop")
