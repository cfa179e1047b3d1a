"""bridge_race's template library (``{% load bridge_race %}``, registered in ``TEMPLATES``'
``libraries``): tiny, its panels and drawings are built in Python.

``{% bridge_backdrop view %}`` is the static part of the bridge (cells, water, guardrails, zones,
symbols), drawn once per layout and language (:mod:`.drawing`); ``{% bridge_symbols %}`` the
symbols it uses, for the "How to play" page. ``{% status_line %}``, ``{% dashboard entry %}``,
``{% action_panel %}`` and ``{% shop_panel %}`` are its busiest panels (:mod:`.panels`).
"""

from django import template

from games.boards.bridge_race import drawing, panels

register = template.Library()

register.simple_tag(drawing.bridge_symbols, name="bridge_symbols")
register.simple_tag(drawing.bridge_backdrop, name="bridge_backdrop")
register.simple_tag(panels.status_line, takes_context=True)
register.simple_tag(panels.dashboard)
register.simple_tag(panels.action_panel, takes_context=True)
register.simple_tag(panels.shop_panel, takes_context=True)
