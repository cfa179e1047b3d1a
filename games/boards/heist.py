"""heist's presentation: the result panel of the latest heist (issue 10, item 2), built from the
public events the engine keeps in ``view["report"]`` (R-29..R-44: reveals, naming, the split)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.boards import FragmentInputs
from games.boards.common import escape_text, seat_name
from games.engines.heist.constants import LOOT
from games.push.speaking import gettext as _
from games.templatetags.heist_tags import ROLE_NAMES, boss_card, hand_card, role_card, threat_cards
from games.templatetags.hideout import action_button, action_fields, action_form_attrs, get, has_type, numbered, of_type


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, str(seat + 1))


def _stake(entry: Mapping[str, Any]) -> int:
    return int(entry.get("own", 0)) + int(entry.get("loan", 0))


def signed_m(amount: int) -> str:
    """+4M, −1M, 0M (a real minus sign)."""
    return f"+{amount}M" if amount > 0 else f"−{-amount}M" if amount < 0 else "0M"


def heist_result(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """Who was what, what happened to each stake, the split and each seat's money change."""
    report = view.get("report") or []
    if not any(r["type"] in ("revealed", "heist_empty") for r in report):
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
                change[p["seat"]] -= p["amount"]
                change[d["seat"]] += p["amount"]
                money.append(
                    _("%(payer)s paid the Driver %(driver)s %(n)sM.")
                    % {"payer": _name(names, p["seat"]), "driver": _name(names, d["seat"]), "n": p["amount"]}
                )
        elif t == "goon_theft":
            change[d["thug_seat"]] -= d["amount"]
            change[d["seat"]] += d["amount"]
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


def board_context(
    *,
    view: Mapping[str, Any],
    seat: int | None,
    legal: list[dict[str, Any]],
    names: Mapping[int, str],
    finished: bool,
    state_key: tuple[Any, ...] | None = None,
) -> dict[str, Any]:
    # The result panel is a shared fragment, drawn from the spectator's context alone (the report it
    # reads is public, R-64): a seat's own context would compute it for nothing on every push.
    result = heist_result(view, names) if seat is None else None
    acts = any(a.get("type") not in _NOT_IN_ACTIONS for a in legal)  # the offers have panels of their own
    return {"result": result, "notices": boss_notices(view, seat, names), "acts": acts}


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
                % {"order": ", ".join(_name(names, s) for s in order)},
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


# --- a seat's public panel, written in Python: a move draws one or two of them for every viewer, and
# Django's template engine took three quarters of their time (walking its nodes, not drawing cards).


def seat_panel(context: Any, number: int) -> SafeString:
    """``#heist-seat-<n>`` (``board.html``): a seat's name, the boss card, its money and threat
    cards, whether it has chosen (R-4), its hands on the table and the roles it played last heist.
    Drawn from the spectator's context (a shared fragment): nothing in it is secret (R-65)."""
    view = context["view"]
    seat = numbered(context.get("seats"), number)
    name = escape_text(seat.display_name) if seat is not None else ""
    boss = " " + boss_card() if view.get("boss_seat") == number else ""
    # No call inside an f-string's braces: makemessages would not find its text.
    resigned = " <em>(" + escape_text(_("resigned")) + ")</em>" if get(view.get("resigned"), number) else ""
    balance = escape_text(get(view.get("balances"), number))
    choice = ""
    if view.get("phase") == "planning":
        chosen = (
            "✔ " + escape_text(_("has chosen"))
            if get(view.get("chosen"), number)
            else "… " + escape_text(_("choosing"))
        )
        choice = f'<span class="choice-state">{chosen}</span>'
    heist, per_player = view.get("heist"), view.get("hands_per_player")
    hands = "".join(hand_card(h, heist, per_player) for h in view.get("hands") or () if h.get("seat") == number)
    last = ""
    if view.get("previous_roles"):
        roles = "".join(
            escape_text(ROLE_NAMES.get(str(r), r)) + " " for r in get(view.get("previous_roles"), number) or ()
        )
        last_heist = escape_text(_("last heist:"))
        last = f'<small class="seat-last">{last_heist} {roles}</small>'
    money = escape_text(_("Money"))
    return mark_safe(
        f'<li id="heist-seat-{number}" class="seat-panel" data-seat="{number}">\n'
        f'<div class="seat-head"><strong class="seat-name">{name}</strong>{boss}\n{resigned}</div>\n'
        f'<div class="seat-assets">\n<span class="chip" data-money="{balance}" data-seat="{number}">'
        f'<span class="sr-only">{money}: </span>{balance}M</span>\n'
        f"{threat_cards(get(view.get('threats'), number))}\n</div>\n"
        f'<div class="seat-hands">\n{choice}\n{hands}\n</div>\n{last}\n</li>'
    )


def action_panel(context: Any) -> SafeString:
    """``#heist-actions`` (``board.html``): the viewer's own actions but the offers' (which have
    panels of their own): choose a role in secret (R-4), name a role as the lone informant, stay or
    withdraw, look at a hand with a threat card, and the boss's powers (R-76)."""
    legal = context.get("legal") or ()
    view = context["view"]
    two_hands = view.get("hands_per_player") == 2
    names = context.get("names")

    def button(action: dict[str, Any], label: Any, css: str = "") -> str:
        return str(action_button(context, action, label, css))

    def who(seat: Any) -> str:
        return escape_text(seat_name(names, seat))

    out = ['<div id="heist-actions">']
    if (context.get("board") or {}).get("acts"):
        label = escape_text(_("Your actions"))  # (no call inside an f-string's braces: see seat_panel)
        out.append(f'\n<div class="actions" aria-label="{label}">\n')
        if has_type(legal, "choose"):
            heading = escape_text(_("Choose your role in secret"))
            out.append(f"\n<h3>{heading}</h3>\n")
            if two_hands:
                allowed = (view.get("me") or {}).get("allowed_roles") or ()
                first = "".join(f'<option value="{escape_text(r)}">{_role_name(r)}</option>' for r in allowed)
                second = "".join(
                    f'<option value="{escape_text(r)}"{" selected" if n == 2 else ""}>{_role_name(r)}</option>'
                    for n, r in enumerate(allowed, start=1)
                )
                hand_1, hand_2 = escape_text(_("First hand")), escape_text(_("Second hand"))
                choose = escape_text(_("Choose"))
                out.append(
                    f'\n<form {action_form_attrs(context)} class="row">{action_fields(context, "choose")}\n'
                    f'<label>{hand_1} <select name="roles[]">{first}</select></label>\n'
                    f'<label>{hand_2} <select name="roles[]">{second}</select></label>\n'
                    f'<button type="submit" class="btn primary">{choose}</button>\n</form>\n'
                )
            else:
                cards = "".join(
                    button(a, role_card(a["roles"][0], "", "", False), "btn card-button")
                    for a in of_type(legal, "choose")
                )
                out.append(f'\n<div class="row card-choices">{cards}</div>\n')
            out.append("\n")
        out.append("\n")
        if has_type(legal, "name"):
            named = "".join(button(a, _role_name(a["role"]), "btn primary") for a in of_type(legal, "name"))
            heading = escape_text(_("You are the lone informant: name a role"))
            out.append(f'\n<h3>{heading}</h3>\n<div class="row">{named}</div>\n')
        out.append("\n")
        if has_type(legal, "withdraw") or has_type(legal, "commit"):
            withdraw = "".join(
                button(a, mark_safe(_("Withdraw hand #%(n)s") % {"n": escape_text(a["slot"])}))
                if two_hands
                else button(a, _("Withdraw"))
                for a in of_type(legal, "withdraw")
            )
            commit = "".join(button(a, _("Commit: I stay"), "btn primary") for a in of_type(legal, "commit"))
            heading = escape_text(_("Stay or withdraw"))
            out.append(f'\n<h3>{heading}</h3>\n<div class="row">\n{withdraw}\n{commit}\n</div>\n')
        out.append("\n")
        if has_type(legal, "look"):
            looks = "".join(
                button(
                    a,
                    mark_safe(
                        _("Look at %(who)s #%(n)s") % {"who": who(a["target_seat"]), "n": escape_text(a["slot"])}
                    ),
                )
                if two_hands
                else button(a, mark_safe(_("Look at %(who)s") % {"who": who(a["target_seat"])}))
                for a in of_type(legal, "look")
            )
            heading = escape_text(_("Spend a threat card to look at a hand"))
            out.append(f'\n<h3>{heading}</h3>\n<div class="row">{looks}</div>\n')
        out.append("\n")
        if has_type(legal, "roll_call") or has_type(legal, "prompt") or has_type(legal, "call"):
            roll_call = "".join(button(a, _("Roll call")) for a in of_type(legal, "roll_call"))
            prompts = "".join(
                button(a, mark_safe(_("Prompt %(who)s") % {"who": who(a["target_seat"])}))
                for a in of_type(legal, "prompt")
            )
            call = "".join(button(a, _("Call the heist")) for a in of_type(legal, "call"))
            heading = escape_text(_("Boss powers"))
            out.append(f'\n<h3>{heading}</h3>\n<div class="row">\n{roll_call}\n{prompts}\n{call}\n</div>\n')
        out.append("\n</div>\n")
    out.append("</div>")
    return mark_safe("".join(out))


def _role_name(role: Any) -> str:
    return escape_text(ROLE_NAMES.get(str(role), role))


# --- what each board fragment reads (games.push.fragment_memo): a panel is rendered again only when it changed


def _hands(view: Mapping[str, Any], seat: Any) -> list[Any]:
    return [h for h in view.get("hands") or () if h.get("seat") == seat]


def _status_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    return tuple(view.get(k) for k in ("heist", "max_heists", "phase", "deck_count", "target", "variants", "loot"))


def _seat_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    return (
        key,
        (context.get("names") or {}).get(key),  # the seat's display_name, as read once for every seat
        view.get("boss_seat") == key,
        get(view.get("resigned"), key),
        get(view.get("balances"), key),
        get(view.get("threats"), key),
        view.get("phase"),
        get(view.get("chosen"), key),
        _hands(view, key),
        view.get("heist"),
        view.get("hands_per_player"),
        bool(view.get("previous_roles")),
        get(view.get("previous_roles"), key),
    )


def _result_inputs(context: Any, key: Any) -> object:
    board = context.get("board") or {}
    return board.get("result"), context["view"].get("hands_per_player")


def _me_inputs(context: Any, key: Any) -> object:
    # What the panel reads, and no more: the whole "me" and every field of my hands changed more
    # often than the panel (about half of its renders gave the HTML it already had).
    view, seat = context["view"], context.get("seat")
    me = view.get("me")
    board = context.get("board") or {}
    two_hands = view.get("hands_per_player") == 2
    looks = me.get("looks") if me else None
    return (
        seat,
        None if me is None else (bool(me), me.get("roles"), me.get("timed_out"), looks),
        board.get("notices"),
        two_hands,
        [(h.get("slot"), h.get("role"), h.get("status")) for h in _hands(view, seat)] if two_hands else None,
        context.get("names") if looks else None,
    )


# The legal actions the offers panel draws (each open offer's buttons); the offer form stands for
# every offer (every amount and clause is legal); the actions panel draws the others.
_OFFER_ANSWERS = frozenset({"accept", "decline", "cancel"})
_NOT_IN_ACTIONS = _OFFER_ANSWERS | {"offer"}


def _actions_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    legal = context.get("legal") or ()
    return (
        context.get("seat"),
        [a for a in legal if a.get("type") not in _NOT_IN_ACTIONS],
        (view.get("me") or {}).get("allowed_roles"),
        view.get("hands_per_player"),
        context.get("names"),  # the seats named by a look or a prompt
        context.get("action_url"),
    )


def _offer_form_inputs(context: Any, key: Any) -> object:
    return (
        context.get("seat"),
        any(a.get("type") == "offer" for a in context.get("legal") or ()),
        context["view"].get("hands_per_player"),
        context.get("names"),  # every seat's number and display_name
        context.get("action_url"),
    )


def _offers_inputs(context: Any, key: Any) -> object:
    answers = [a for a in context.get("legal") or () if a.get("type") in _OFFER_ANSWERS]
    return context["view"].get("offers"), answers, context.get("names"), context.get("action_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "heist-status": _status_inputs,
    "heist-seat": _seat_inputs,
    "heist-pool": lambda context, key: context["view"].get("pool"),
    "heist-result": _result_inputs,
    "heist-me": _me_inputs,
    "heist-actions": _actions_inputs,
    "heist-offer-form": _offer_form_inputs,
    "heist-offers": _offers_inputs,
    "heist-final": lambda context, key: context["view"].get("final"),
}


def _shell_inputs(context: Any) -> object:
    """``board.html`` outside its fragments: the seat it is drawn for and a panel per seat."""
    return context.get("seat"), [s.number for s in context.get("seats") or ()]


SHELL_INPUTS = _shell_inputs
