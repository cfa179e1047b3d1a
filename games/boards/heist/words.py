"""heist's words for its board and How to play page, translated (the engine only knows ids)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.heist.constants import LOOT
from games.push.speaking import list_separator

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

RESULT_NAMES = {"survived": _("got away"), "eliminated": _("caught")}
CARD_HELP = {
    "loot": _("The loot card: what this heist is worth, the stake every hand pays, and the bonus role."),
    "threat": _("A threat card: during a negotiation, spend it to look at another player's secret role."),
    "boss": _(
        "The boss card: once per heist the boss may call a roll call, and later prompt a player or call the heist."
    ),
    "back": _("A face-down card: a role nobody else can see yet."),
}


def loot_names(ids: Any) -> str:
    """Loot cards as players know them (R-13: worth and stake), never by their ids."""
    out = []
    for loot_id in ids or ():
        loot = LOOT.get(str(loot_id))
        if loot is None:
            continue
        out.append(str(_("%(total)sM (stake %(stake)sM)") % {"total": loot.total, "stake": loot.stake}))
    return list_separator().join(out)
