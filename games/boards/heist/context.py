"""heist's board context: the result panel of the latest heist, built from the public events the
engine keeps in ``view["report"]`` (R-29..R-44: reveals, naming, the split), and the boss's notices."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.contract import BoardInputs
from games.boards.heist.chart import chart
from games.boards.heist.words import ROLE_NAMES
from games.engines.heist.constants import LOOT
from games.push.speaking import gettext as _
from games.push.speaking import list_separator


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, str(seat + 1))


def _stake(entry: Mapping[str, Any]) -> int:
    return int(entry.get("own", 0)) + int(entry.get("loan", 0))


def signed_m(amount: int) -> str:
    """+4M, −1M, 0M (a real minus sign)."""
    return f"+{amount}M" if amount > 0 else f"−{-amount}M" if amount < 0 else "0M"


def _pay(change: list[int], payer: int, payee: int, amount: int) -> None:
    """Seat ``payer`` pays ``amount`` to seat ``payee``, in the heist's money ``change`` per seat."""
    change[payer] -= amount
    change[payee] += amount


def heist_result(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """Who was what, what happened to each stake, the split and each seat's money change: once the
    heist has resolved (its ``heist_ended``), never while it pauses for the lone Informant's naming
    (R-31 b), when the hands not revealed yet have not withdrawn and no money has moved."""
    report = view.get("report") or []
    if not any(r["type"] == "heist_ended" for r in report):
        return None
    players = int(view.get("players", 0))
    change = [0] * players
    hands: list[dict[str, Any]] = []
    money: list[str] = []
    named_role: str | None = None
    loot_id = ""
    for item in report:
        t, d = item["type"], item["data"]
        if t == "revealed":
            returned = {(e["seat"], e["slot"]) for e in d.get("returned", [])}
            for e in d.get("forfeited", []):
                change[e["seat"]] -= int(e.get("own", 0))  # only the own part was the player's
            for h in d["hands"]:
                key = (h["seat"], h["slot"])
                stake = next(
                    (
                        _stake(e)
                        for e in d.get("returned", []) + d.get("forfeited", [])
                        if (e["seat"], e["slot"]) == key
                    ),
                    0,
                )
                hands.append(
                    {
                        "seat": h["seat"],
                        "slot": h["slot"],
                        "name": _name(names, h["seat"]),
                        "role": ROLE_NAMES.get(h["role"], h["role"]),
                        "role_id": h["role"],
                        "survived": d["result"] == "survived",
                        "named": d["step"] == "NAMED",
                        "stake": stake,
                        "stake_back": key in returned,
                        "threat": d.get("threat_seat") == h["seat"],
                    }
                )
        elif t == "role_named":
            named_role = d.get("role")
        elif t == "informant_alone":
            change[d["seat"]] -= d["paid"]
            money.append(
                _("%(who)s, the Informant, was left alone and paid %(n)sM to the bank.")
                % {"who": _name(names, d["seat"]), "n": d["paid"]}
            )
        elif t == "loot_shared":
            for p in d["payments"]:
                change[p["seat"]] += p["amount"]
            text = _("The loot of %(value)sM was shared by %(hands)s hand(s): %(share)sM each.") % d
            if d.get("mastermind"):
                text += " " + _("(The Mastermind added 2M.)")
            if d.get("remainder"):
                text += " " + _("%(n)sM stayed in the bank.") % {"n": d["remainder"]}
            money.append(text)
        elif t == "driver_fee":
            for p in d["payments"]:
                _pay(change, p["seat"], d["seat"], p["amount"])
                money.append(
                    _("%(payer)s paid the Driver %(driver)s %(n)sM.")
                    % {"payer": _name(names, p["seat"]), "driver": _name(names, d["seat"]), "n": p["amount"]}
                )
        elif t == "goon_theft":
            _pay(change, d["thug_seat"], d["seat"], d["amount"])
            money.append(
                _("The Goon %(goon)s took %(n)sM from the Thug %(thug)s.")
                % {"goon": _name(names, d["seat"]), "thug": _name(names, d["thug_seat"]), "n": d["amount"]}
            )
        elif t == "bonus_paid":
            change[d["seat"]] += d["amount"]
            money.append(
                _("%(who)s got the %(role)s bonus: %(n)sM.")
                % {"who": _name(names, d["seat"]), "role": ROLE_NAMES.get(d["role"], d["role"]), "n": d["amount"]}
            )
        elif t == "heist_ended":
            loot_id = d.get("loot", "")
    revealed_seats = {h["seat"] for h in hands}
    loot = LOOT.get(loot_id)
    return {
        "heist": view.get("report_heist"),
        "loot_total": loot.total if loot else None,
        "hands": hands,
        "withdrew": [_name(names, s) for s in range(players) if s not in revealed_seats],
        "named_role": ROLE_NAMES.get(named_role, named_role) if named_role else None,
        "nobody": not hands,
        "money": money,
        "changes": [
            {"name": _name(names, s), "change": change[s], "text": signed_m(change[s])} for s in range(players)
        ],
    }


# The legal actions the offers panel draws (each open offer's buttons); the offer form stands for
# every offer (every amount and clause is legal); the actions panel draws the others.
OFFER_ANSWERS = frozenset({"accept", "decline", "cancel"})
NOT_IN_ACTIONS = OFFER_ANSWERS | {"offer"}


def board_context(inputs: BoardInputs) -> dict[str, Any]:
    view, seat, legal, names = inputs.view, inputs.seat, inputs.legal, inputs.names
    # The result panel is a shared fragment, drawn from the spectator's context alone (the report it
    # reads is public, R-64): a seat's own context would compute it for nothing on every push.
    result = heist_result(view, names) if seat is None else None
    acts = any(a.get("type") not in NOT_IN_ACTIONS for a in legal)  # the offers have panels of their own
    return {
        "result": result,
        "notices": boss_notices(view, seat, names),
        "acts": acts,
        "chart": chart(view, names) if inputs.finished else None,
    }


def boss_notices(view: Mapping[str, Any], seat: int | None, names: Mapping[int, str]) -> list[dict[str, Any]]:
    """What the boss's powers (R-76) ask of this player, and why, while negotiation lasts."""
    if view.get("phase") != "negotiation" or seat is None:
        return []
    boss = view.get("boss") or {}
    undecided = sorted({h["seat"] for h in view.get("hands", []) if h["status"] == "undecided"})
    notices: list[dict[str, Any]] = []
    if boss.get("roll_call_used") and seat in undecided:
        players = int(view["players"])
        first = (int(boss.get("seat", 0)) + 1) % players
        order = sorted(undecided, key=lambda s: (s - first) % players)  # R-76 a: clockwise from the boss
        notices.append(
            {
                "text": _(
                    "Roll call: the boss asks every player with an undecided hand to say their role in the chat, "
                    "in this order: %(order)s. Nobody checks the answers."
                )
                % {"order": list_separator().join(_name(names, s) for s in order)},
                "due": None,
            }
        )
    for prompted, due in ((p["seat"], p["due"]) for p in boss.get("prompts", [])):
        if prompted == seat and seat in undecided:  # R-76 b
            notices.append(
                {
                    "text": _("The boss prompted you: decide now, or your undecided hands stay in the heist in"),
                    "due": due,
                }
            )
    if boss.get("call_due") is not None and seat in undecided:  # R-76 c
        notices.append(
            {
                "text": _("The boss called the heist: undecided hands stay in it when negotiation ends in"),
                "due": boss["call_due"],
            }
        )
    return notices
