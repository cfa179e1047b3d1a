"""Heist's words for templates, translated (the engine only knows ids)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from .hideout import named

register = template.Library()

ROLE_NAMES = {
    "INFORMANT": _("Informant"),
    "THUG": _("Thug"),
    "DRIVER": _("Driver"),
    "GOON": _("Goon"),
    "MASTERMIND": _("Mastermind"),
}
PHASE_NAMES = {
    "setup": _("Setting up"),
    "planning": _("Secret choice"),
    "negotiation": _("Negotiation"),
    "naming": _("The informant names a role"),
    "over": _("Game over"),
}
STATUS_NAMES = {
    "undecided": _("undecided"),
    "withdrawn": _("withdrawn"),
    "committed": _("committed"),
    "open": _("open"),
    "accepted": _("accepted"),
    "declined": _("declined"),
    "cancelled": _("cancelled"),
    "failed": _("failed"),
    "expired": _("expired"),
}


@register.filter
def hands_of(hands: Any, seat: int) -> list[dict[str, Any]]:
    return [h for h in hands or () if h.get("seat") == seat]


@register.filter
def for_offer(legal: Any, offer_id: int) -> list[dict[str, Any]]:
    """This seat's legal actions on one offer (accept, decline or cancel)."""
    return [a for a in legal or () if a.get("offer") == offer_id]


register.filter("role_name", named(ROLE_NAMES))
register.filter("phase_name", named(PHASE_NAMES))
register.filter("status_name", named(STATUS_NAMES))
