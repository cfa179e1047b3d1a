"""heist's panels written in Python (its board template draws them with ``{% seat_panel %}`` and
``{% action_panel %}``): a move draws one or two seat panels for every viewer, and Django's template
engine took three quarters of their time (walking its nodes, not drawing cards)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.boards.common import escape_text, seat_name
from games.boards.forms import action_button, action_fields, action_form_attrs
from games.boards.heist.cards import boss_card, hand_card, role_card, threat_cards
from games.boards.heist.words import ROLE_NAMES
from games.boards.lookups import get, has_type, numbered, of_type
from games.push.speaking import gettext as _


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
    return SafeString(
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
    return SafeString("".join(out))


def _role_name(role: Any) -> str:
    return escape_text(ROLE_NAMES.get(str(role), role))
