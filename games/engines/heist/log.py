"""``log_lines``: readable lines for one (redacted) event, English with %(name)s params."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import LogLine, gettext_noop, in_third_person
from .constants import LOOT, ROLE_NAMES

_ = gettext_noop


def _role(role: Any) -> str:
    return ROLE_NAMES.get(str(role), str(role))


def _roles(roles: Any) -> list[str]:
    """Role names as a list: the web layer translates each and joins them with commas."""
    return [_role(r) for r in roles or ()]


_WITHDRAW_REASON = {
    "player": _("%(seat)s withdrew and took back %(amount)sM"),
    "timeout": _("%(seat)s withdrew (time-out) and took back %(amount)sM"),
    "offer": _("%(seat)s withdrew as agreed in the offer and took back %(amount)sM"),
    "resign": _("%(seat)s withdrew (resigned) and took back %(amount)sM"),
}
_COMMIT_REASON = {
    "player": _("%(seat)s committed"),
    "prompt": _("%(seat)s committed (prompt countdown ran out)"),
    "end": _("%(seat)s stays in (negotiation ended)"),
}
_END_REASON = {
    "decided": _("Negotiation is over: every hand has decided."),
    "deadline": _("Negotiation is over: time ran out."),
    "call": _("Negotiation is over: the boss's call ran out."),
}
_OFFER_REASON = {
    "funds": _("Offer #%(offer)s failed: the payer cannot pay."),
    "clause": _("Offer #%(offer)s failed: the clause hand has already decided."),
    "withdrawn": _("Offer #%(offer)s failed: a party has withdrawn."),
}
_EXPIRE_REASON = {
    "lifetime": _("Offer #%(offer)s expired."),
    "clause": _("Offer #%(offer)s expired: its clause hand has decided."),
    "withdrawn": _("Offer #%(offer)s expired: a party has withdrawn."),
    "ended": _("Offer #%(offer)s expired: negotiation is over."),
    "resigned": _("Offer #%(offer)s expired: a party resigned."),
}


# A secret shown to everybody after the game names its owner (never "You chose" for another seat).
THIRD_PERSON = {
    "You chose %(roles)s.": _("%(seat)s chose %(roles)s."),
    "Time-out: %(roles)s was picked for you.": _("Time-out: %(roles)s was picked for %(seat)s."),
    "You saw: %(target_seat)s is the %(role)s.": _("%(seat)s saw: %(target_seat)s is the %(role)s."),
}


def log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    lines = _log_lines(event)
    if event.get("revealed"):
        return in_third_person(lines, THIRD_PERSON, (event.get("data") or {}).get("seat"))
    return lines


def _log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    t = event.get("type")
    d: Mapping[str, Any] = event.get("data") or {}
    secret: Mapping[str, Any] | None = event.get("secret")
    L = LogLine
    out: list[LogLine] = []

    if t == "game_started":
        out.append(
            L(
                _("The game begins: first to %(target)sM, at most %(heists)s heists."),
                {"target": d.get("target"), "heists": d.get("deck_size")},
            )
        )
    elif t == "heist_started":
        # the loot card is described by what it says, never by its id.
        loot = LOOT.get(str(d["loot"]))
        params = {"heist": d["heist"], "left": d["deck_count"]}
        if loot is None:
            out.append(L(_("Heist %(heist)s begins; %(left)s loot card(s) left."), params))
        elif loot.bonus:
            params |= {"total": loot.total, "stake": loot.stake, "bonus": _role(loot.bonus)}
            out.append(
                L(
                    _(
                        "Heist %(heist)s: the loot card is worth %(total)sM, stake %(stake)sM per hand, "
                        "bonus for the %(bonus)s; %(left)s card(s) left."
                    ),
                    params,
                )
            )
        else:
            params |= {"total": loot.total, "stake": loot.stake}
            out.append(
                L(
                    _(
                        "Heist %(heist)s: the loot card is worth %(total)sM, stake %(stake)sM per hand; "
                        "%(left)s card(s) left."
                    ),
                    params,
                )
            )
        out.append(L(_("%(seat)s holds the boss card."), {"seat": d["boss_seat"]}))
        for seat, roles in enumerate(d.get("previous_roles") or []):
            out.append(L(_("%(seat)s used %(roles)s last heist."), {"seat": seat, "roles": _roles(roles)}))
    elif t == "role_chosen":
        out.append(L(_("%(seat)s has chosen."), {"seat": d["seat"]}))
        if secret:
            out.append(L(_("You chose %(roles)s."), {"roles": _roles(secret.get("roles"))}))
    elif t == "choice_timed_out":
        out.append(L(_("%(seat)s did not choose in time."), {"seat": d["seat"]}))
        if secret:
            out.append(L(_("Time-out: %(roles)s was picked for you."), {"roles": _roles(secret.get("roles"))}))
    elif t == "pool_laid_out":
        out.append(
            L(_("Stakes are paid; the pool shows %(cards)s (one card set aside)."), {"cards": _roles(d.get("face_up"))})
        )
        for s in d.get("stakes", []):
            if s.get("loan"):
                out.append(
                    L(
                        _("%(seat)s borrows %(loan)sM from the bank for a stake."),
                        {"seat": s["seat"], "loan": s["loan"]},
                    )
                )
        if secret:
            out.append(L(_("Set aside: %(role)s."), {"role": _role(secret.get("set_aside"))}))
    elif t == "hand_withdrawn":
        msg = _WITHDRAW_REASON.get(d.get("reason", ""), _WITHDRAW_REASON["player"])
        out.append(L(msg, {"seat": d["seat"], "amount": d["own"], "slot": d["slot"]}))
    elif t == "hands_committed":
        msg = _COMMIT_REASON.get(d.get("reason", ""), _COMMIT_REASON["player"])
        out.append(L(msg, {"seat": d["seat"]}))
    elif t == "offer_created":
        if d.get("clause_slot"):
            msg = _(
                "Offer #%(offer)s: %(payer_seat)s pays %(payee_seat)s %(amount)sM "
                "and %(payee_seat)s withdraws (hand %(slot)s)."
            )
        else:
            msg = _("Offer #%(offer)s: %(payer_seat)s pays %(payee_seat)s %(amount)sM.")
        out.append(
            L(
                msg,
                {
                    "offer": d["offer"],
                    "payer_seat": d["payer_seat"],
                    "payee_seat": d["payee_seat"],
                    "amount": d["amount"],
                    "slot": d.get("clause_slot"),
                },
            )
        )
    elif t == "offer_accepted":
        out.append(
            L(
                _("Offer #%(offer)s accepted: %(payer_seat)s paid %(payee_seat)s %(amount)sM."),
                {
                    "offer": d["offer"],
                    "payer_seat": d["payer_seat"],
                    "payee_seat": d["payee_seat"],
                    "amount": d["amount"],
                },
            )
        )
    elif t == "offer_declined":
        out.append(L(_("%(seat)s declined offer #%(offer)s."), {"seat": d["seat"], "offer": d["offer"]}))
    elif t == "offer_cancelled":
        out.append(L(_("%(seat)s cancelled offer #%(offer)s."), {"seat": d["seat"], "offer": d["offer"]}))
    elif t == "offer_failed":
        out.append(L(_OFFER_REASON.get(d.get("reason", ""), _OFFER_REASON["funds"]), {"offer": d["offer"]}))
    elif t == "offer_expired":
        out.append(L(_EXPIRE_REASON.get(d.get("reason", ""), _EXPIRE_REASON["lifetime"]), {"offer": d["offer"]}))
    elif t == "threat_used":
        out.append(
            L(
                _("%(seat)s spent a threat card to look at %(target_seat)s (hand %(slot)s)."),
                {"seat": d["seat"], "target_seat": d["target_seat"], "slot": d["slot"]},
            )
        )
        if secret:
            out.append(
                L(
                    _("You saw: %(target_seat)s is the %(role)s."),
                    {"target_seat": d["target_seat"], "role": _role(secret.get("role"))},
                )
            )
    elif t == "roll_call":
        out.append(L(_("Roll call! %(seat)s asks each undecided player to state their role."), {"seat": d["seat"]}))
        for i, seat in enumerate(d.get("order", []), start=1):
            out.append(L(_("%(number)s. %(seat)s"), {"number": i, "seat": seat}))
    elif t == "boss_powers_ready":
        out.append(L(_("The boss may now prompt players and call the heist."), {}))
    elif t == "player_prompted":
        out.append(
            L(_("%(seat)s prompts %(target_seat)s to decide."), {"seat": d["seat"], "target_seat": d["target_seat"]})
        )
    elif t == "heist_called":
        out.append(L(_("%(seat)s calls the heist: negotiation ends soon."), {"seat": d["seat"]}))
    elif t == "resigned":
        out.append(L(_("%(seat)s resigned."), {"seat": d["seat"]}))
    elif t == "negotiation_ended":
        out.append(L(_END_REASON.get(d.get("reason", ""), _END_REASON["decided"]), {}))
    elif t == "heist_empty":
        out.append(L(_("Nobody stayed in: there is no heist."), {}))
    elif t == "revealed":
        for h in d.get("hands", []):
            out.append(L(_("%(seat)s revealed %(role)s"), {"seat": h["seat"], "role": _role(h["role"])}))
        if d.get("step") == "NAMED":
            out.append(L(_("The named hands are eliminated."), {}))
        elif d.get("result") == "eliminated":
            out.append(L(_("Several %(role)s: all are eliminated."), {"role": _role(d.get("step"))}))
        for e in d.get("returned", []):
            out.append(L(_("%(seat)s takes back a %(amount)sM stake."), {"seat": e["seat"], "amount": e["own"]}))
        for e in d.get("forfeited", []):
            out.append(L(_("%(seat)s loses a %(amount)sM stake."), {"seat": e["seat"], "amount": e["own"] + e["loan"]}))
        if d.get("threat_seat") is not None:
            out.append(L(_("%(seat)s gains a threat card."), {"seat": d["threat_seat"]}))
        if d.get("naming_due") is not None:
            out.append(L(_("%(seat)s, the lone Informant, must name a role."), {"seat": d["hands"][0]["seat"]}))
    elif t == "role_named":
        if d.get("role") is None:
            out.append(L(_("%(seat)s names nothing."), {"seat": d["seat"]}))
        elif d.get("timeout"):
            out.append(
                L(_("%(seat)s names %(role)s (named by time-out)."), {"seat": d["seat"], "role": _role(d["role"])})
            )
        else:
            out.append(L(_("%(seat)s names %(role)s."), {"seat": d["seat"], "role": _role(d["role"])}))
    elif t == "informant_alone":
        out.append(
            L(
                _("%(seat)s is the only survivor: the Informant pays %(amount)sM and nobody shares the loot."),
                {"seat": d["seat"], "amount": d["paid"]},
            )
        )
    elif t == "loot_shared":
        out.append(
            L(
                _("%(value)sM split between %(hands)s hand(s): %(share)sM each, %(remainder)sM stays in the bank."),
                {"value": d["value"], "hands": d["hands"], "share": d["share"], "remainder": d["remainder"]},
            )
        )
        for p in d.get("payments", []):
            out.append(L(_("%(seat)s receives %(amount)sM."), {"seat": p["seat"], "amount": p["amount"]}))
    elif t == "driver_fee":
        for p in d.get("payments", []):
            out.append(
                L(
                    _("%(payer_seat)s pays the Driver %(seat)s %(amount)sM."),
                    {"payer_seat": p["seat"], "seat": d["seat"], "amount": p["amount"]},
                )
            )
    elif t == "goon_theft":
        out.append(
            L(
                _("The Goon %(seat)s takes %(amount)sM from the Thug %(thug_seat)s."),
                {"seat": d["seat"], "thug_seat": d["thug_seat"], "amount": d["amount"]},
            )
        )
    elif t == "bonus_paid":
        out.append(
            L(
                _("%(seat)s gets the %(role)s bonus of %(amount)sM."),
                {"seat": d["seat"], "role": _role(d["role"]), "amount": d["amount"]},
            )
        )
    elif t == "heist_ended":
        out.append(
            L(
                _("Heist %(heist)s is over. %(seat)s takes the boss card."),
                {"heist": d["heist"], "seat": d["boss_seat"]},
            )
        )
    elif t == "game_over":
        for w in d.get("winners", []):
            out.append(L(_("%(seat)s wins with %(amount)sM."), {"seat": w, "amount": d["scores"][w]}))
    return out
