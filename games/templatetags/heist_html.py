"""heist's panels written in Python (:mod:`games.boards.heist`), for its board template."""

from __future__ import annotations

from django import template

from games.boards import heist

register = template.Library()
register.simple_tag(heist.seat_panel, takes_context=True)
register.simple_tag(heist.action_panel, takes_context=True)
