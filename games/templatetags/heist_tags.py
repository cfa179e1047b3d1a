"""Heist's words for templates, translated (the engine only knows ids)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
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
# What each role does, for tooltips and the How to play page (the rules' role table, in players' words).
ROLE_HELP = {
    "INFORMANT": _(
        "Revealed first. If it is the only Informant, it gets its stake back and names a role: every "
        "staying hand of that role is caught. If it ends up the only survivor, it pays 3M and nobody "
        "shares the loot."
    ),
    "THUG": _("Always gets its stake back, even when caught. If it is the only Thug, it gains a threat card."),
    "DRIVER": _("Collects 1M from every other surviving hand."),
    "GOON": _("Takes 2M from the surviving Thug."),
    "MASTERMIND": _("Adds 2M to the loot being shared."),
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


@register.filter
def role_tip(role: Any) -> SafeString:
    """A role's name that explains the role on hover, focus or tap."""
    key = str(role)
    if key not in ROLE_NAMES:
        return format_html("{}", role)
    # Screen readers get the help through aria-describedby (the board's hidden role-help list),
    # so the role's visible text stays just its name.
    return format_html(
        '<span class="tip role-name" tabindex="0" data-tip="{}" aria-describedby="role-help-{}">{}</span>',
        ROLE_HELP[key],
        key.lower(),
        ROLE_NAMES[key],
    )


@register.inclusion_tag("games/heist/_role_help.html")
def role_help_list() -> dict[str, Any]:
    """The hidden descriptions that role names point to (once per board)."""
    return {"roles": [(role.lower(), ROLE_HELP[role]) for role in ROLE_HELP]}


register.filter("role_name", named(ROLE_NAMES))
register.filter("role_help", named(ROLE_HELP))
register.filter("phase_name", named(PHASE_NAMES))
register.filter("status_name", named(STATUS_NAMES))
