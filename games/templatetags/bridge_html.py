"""The tags that draw bridge_race's busiest panels (tiny: :mod:`games.boards.bridge_race.panels` builds them)."""

from django import template

from games.boards.bridge_race import panels

register = template.Library()

register.simple_tag(panels.status_line, takes_context=True)
register.simple_tag(panels.dashboard)
register.simple_tag(panels.action_panel, takes_context=True)
register.simple_tag(panels.shop_panel, takes_context=True)
