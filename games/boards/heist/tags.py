"""heist's template library (``{% load heist %}``, registered in ``TEMPLATES``' ``libraries``): its
cards and Python-written panels as tags, its words as filters."""

from __future__ import annotations

from typing import Any

from django import template

from games.boards.heist import cards, panels
from games.boards.heist.words import PHASE_NAMES, ROLE_HELP, ROLE_NAMES, STATUS_NAMES, loot_names
from games.boards.lookups import named

register = template.Library()


@register.filter
def hands_of(hands: Any, seat: int) -> list[dict[str, Any]]:
    return [h for h in hands or () if h.get("seat") == seat]


@register.filter
def for_offer(legal: Any, offer_id: int) -> list[dict[str, Any]]:
    """This seat's legal actions on one offer (accept, decline or cancel)."""
    return [a for a in legal or () if a.get("offer") == offer_id]


register.filter("role_name", named(ROLE_NAMES))
register.filter("role_help", named(ROLE_HELP))
register.filter("phase_name", named(PHASE_NAMES))
register.filter("status_name", named(STATUS_NAMES))
register.filter(loot_names)
register.filter(cards.role_tip)

for card_tag in (
    cards.card_art,
    cards.role_help_list,
    cards.role_card,
    cards.card_back,
    cards.hand_card,
    cards.loot_card,
    cards.boss_card,
    cards.threat_cards,
    cards.pool_cards,
    cards.role_icon,
):
    register.simple_tag(card_tag)
register.simple_tag(panels.seat_panel, takes_context=True)
register.simple_tag(panels.action_panel, takes_context=True)
