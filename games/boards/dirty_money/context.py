"""dirty_money's board context: the engine's view (section 8) turned into what its board template draws.

Everything here starts from ``view`` (already filtered for the seat) and ``legal``; a card id the
seat may not see cannot reach the template because it is not in the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.contract import BoardInputs
from games.boards.dirty_money.chart import chart
from games.boards.dirty_money.words import (
    ACTION_HELP,
    CURRENCY_NAMES,
    LOCATION_HELP,
    NEXT,
    TYPE_HELP,
    VILLAIN_HELP,
    WAITING,
)
from games.engines.dirty_money import cards as C
from games.engines.dirty_money.payment import cheapest_payment
from games.push.speaking import gettext as _
from games.push.speaking import list_separator

SYMBOL = C.SYMBOLS
REGION_FLAG = {"EU": "EU", "US": "US", "JP": "JP"}


def money_card(card: str, villain: str | None = None) -> dict[str, Any]:
    """A money-deck card as the board draws it (a card the viewer may see)."""
    if C.is_action(card):
        kind = C.action_kind(card)
        return {
            "id": card,
            "action": True,
            "kind": kind.lower(),
            "name": _(C.ACTION_NAMES[kind]),
            "help": _(ACTION_HELP[kind]),
        }
    cur = C.currency(card)
    dirty = C.is_dirty(card)
    worth = C.value_to(card, villain) if villain else C.printed_value(card)
    label = f"{SYMBOL[cur]}{worth}"
    name = _("%(currency)s %(value)s, dirty") if dirty else _("%(currency)s %(value)s")
    return {
        "id": card,
        "action": False,
        "currency": cur.lower(),
        "symbol": SYMBOL[cur],
        "value": worth,
        "label": label,
        "dirty": dirty,
        "name": name % {"currency": _(CURRENCY_NAMES[cur]), "value": worth},
    }


def location_help(location: str) -> str:
    return _(LOCATION_HELP[location])


def placement(card: str) -> dict[str, Any]:
    p = C.PLACEMENTS[card]
    return {
        "id": card,
        "name": _(p.name),
        "region": p.region.lower(),
        "region_name": _(C.TERMS[p.region]),
        "type": p.type,
        "type_name": _(C.TYPE_NAMES[p.type]),
        "cost": p.cost,
        "points": p.points,
        "currency": SYMBOL[C.CURRENCY_OF[p.region]],
        "help": _(TYPE_HELP[p.type]),
    }


def villain(card: str | None) -> dict[str, Any] | None:
    if not card:
        return None
    return {
        "id": card,
        "number": C.VILLAINS.index(card) + 1,
        "name": _(C.VILLAIN_NAMES[card]),
        "help": _(VILLAIN_HELP[card]),
    }


def _name(names: Mapping[int, str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names.get(seat, str(seat + 1))


def _who(names: Mapping[int, str], seats: list[int]) -> str:
    return list_separator().join(_name(names, s) for s in seats)


def _locations(view: Mapping[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    choosable = {a["location"]: a for a in legal if a.get("type") == "choose_location"}
    out = []
    for loc in view["locations"]:
        lid = loc["id"]
        out.append(
            {
                "id": lid,
                "css": lid.lower(),
                "name": _(C.LOCATION_NAMES[lid]),
                "help": location_help(lid),
                "row": [money_card(c) for c in loc["row"]],
                "display": [placement(c) for c in loc["display"]],
                "current": view.get("location") == lid,
                "choose": choosable.get(lid),
            }
        )
    return out


def _players(view: Mapping[str, Any], names: Mapping[int, str], me: int | None) -> list[dict[str, Any]]:
    out = []
    for p in view["seats"]:
        seat = p["seat"]
        tableau = [placement(c) for c in p["tableau"]]
        for card in tableau:
            card["tokens"] = p["tokens"].get(card["id"], 0)
        out.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "me": seat == me,
                "villain": villain(p["villain"]),
                "hand_size": p["hand_size"],
                "hand_limit": p["hand_limit"],
                "blacklist": p["blacklist"],
                "tableau": tableau,
                "placements": len(tableau),
                "tokens": sum(p["tokens"].values()),
                "overpay": p["overpay"],
                "resigned": p["resigned"],
                "turn": view.get("turn_seat") == seat,
                "marker": view.get("marker_seat") == seat,
                "order": view["order"].index(seat) + 1 if seat in view["order"] else None,
            }
        )
    return out


def _hand(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """My hand grouped by currency (crypto last), each group with its total at my values."""
    values: Mapping[str, int] = view.get("hand_values", {})
    groups: dict[str, list[dict[str, Any]]] = {}
    for card in view.get("hand", []):
        entry = money_card(card)
        entry["value"] = values.get(card, entry.get("value", 0))
        entry["label"] = f"{entry['symbol']}{entry['value']}"
        groups.setdefault(C.currency(card), []).append(entry)
    out = []
    for cur in (*C.FIATS, C.CRYPTO):
        cards = sorted(groups.get(cur, []), key=lambda c: (c["value"], c["id"]))
        if cards:
            out.append(
                {
                    "currency": cur.lower(),
                    "symbol": SYMBOL[cur],
                    "name": _(CURRENCY_NAMES[cur]),
                    "cards": cards,
                    "total": sum(c["value"] for c in cards),
                }
            )
    return out


def _purchase(view: Mapping[str, Any], legal: list[dict[str, Any]], villain_id: str) -> dict[str, Any] | None:
    """The payment picker: every purchase option with the cards that may pay it (R-61 to R-63, R-89)."""
    purchase = view.get("purchase")
    if not purchase or not purchase.get("options"):
        return None  # nothing to buy here (the Banana Republic's visit, R-52): no "Buy" panel
    affordable = {tuple(a["cards"]) for a in legal if a.get("type") == "buy"}
    values: Mapping[str, int] = view.get("hand_values", {})
    hand = tuple(view.get("hand", []))
    money = [c for c in sorted(hand) if not C.is_action(c)]
    shark = bool(purchase.get("shark_available"))
    singles: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    for index, option in enumerate(purchase["options"]):
        cards = option["cards"]
        region = C.PLACEMENTS[cards[0]].region
        eligible = set(option["eligible"])
        suggestion = (
            cheapest_payment(hand, villain_id, region, option["due"], shark) if tuple(cards) in affordable else None
        )
        suggested = set(suggestion[0]) if suggestion else set()
        payable = []
        for card in money:
            if card not in eligible and not shark:
                continue
            entry = money_card(card)
            entry["value"] = values.get(card, entry["value"])
            entry["label"] = f"{entry['symbol']}{entry['value']}"
            entry["eligible"] = card in eligible
            entry["checked"] = card in suggested
            payable.append(entry)
        item = {
            "index": index,
            "cards": [placement(c) for c in cards],
            "action": {"type": "buy", "cards": cards, "mode": "combined" if len(cards) == 2 else "separate"},
            "due": option["due"],
            "currency": SYMBOL[option["currency"]],
            "affordable": tuple(cards) in affordable,
            "payable": payable,
            "shark_card": suggestion[1] if suggestion else None,
        }
        (pairs if len(cards) == 2 else singles).append(item)
    pairs = _one_order_each(pairs)
    return {"singles": singles, "pairs": pairs, "shark": shark, "max_more": purchase.get("max_more", 0)}


# Placements whose effect already works for the second card when bought first.
_WORKS_FOR_THE_SECOND = (C.EXCHANGE, C.CASINO, C.GALLERY)


def _one_order_each(pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pair of placements once (the engine lists A then B and B then A): in the order a buyer
    would choose, one they can pay, then the lower amount due (R-66), then the one whose first card
    already works for the second."""

    def preference(item: dict[str, Any]) -> tuple[bool, int, bool, int]:
        first_works = item["cards"][0]["type"] in _WORKS_FOR_THE_SECOND
        return (not item["affordable"], item["due"], not first_works, item["index"])

    best: dict[frozenset[str], dict[str, Any]] = {}
    for item in pairs:
        key = frozenset(c["id"] for c in item["cards"])
        if key not in best or preference(item) < preference(best[key]):
            best[key] = item
    return sorted(best.values(), key=lambda item: item["index"])


def _prompt(view: Mapping[str, Any], legal: list[dict[str, Any]], names: Mapping[int, str]) -> dict[str, Any]:
    """What the seat is asked to do now, with the choices as ready-made actions."""
    kind = view["decision"]["kind"]
    prompt: dict[str, Any] = {"kind": kind}
    if kind == "resolve_action":
        choices = []
        for a in legal:
            card = money_card(a["card"])
            label = card["name"]
            if a.get("target") is not None:
                label = _("%(card)s on %(player)s") % {"card": card["name"], "player": _name(names, a["target"])}
            choices.append({"action": a, "label": label, "help": card["help"]})
        prompt["choices"] = choices
    elif kind == "trade_swap":
        prompt["take"] = [money_card(c) for c in view.get("trade_hand", [])]
        prompt["give"] = [money_card(c) for c in view.get("hand", [])]
        prompt["target"] = _name(names, view.get("trade_target_seat"))
    elif kind == "blacklist_cards":
        me = view.get("seat")
        excess = next((t["excess"] for t in view.get("trim", []) if t["seat"] == me), 0)
        prompt["excess"] = excess
        prompt["cards"] = [money_card(c) for c in view.get("hand", [])]
    elif kind == "launder_discard":
        prompt["cards"] = [{"action": a, "card": money_card(a["card"])} for a in legal]
        drawn = view.get("launder_drawn")
        prompt["drawn"] = money_card(drawn) if drawn else None
    elif kind == "location_action":
        prompt["banana"] = next((a for a in legal if a.get("type") == "banana_republic"), None)
        prompt["end"] = next((a for a in legal if a.get("type") == "end_location_action"), None)
    return prompt


def _next_line(view: Mapping[str, Any], seat: int | None, names: Mapping[int, str]) -> str:
    decision = view["decision"]
    kind, seats = decision["kind"], decision["seats"]
    if view["phase"] == "over":
        return _("The game is over.")
    if not kind:
        return ""
    if seat is not None and seat in seats and kind in NEXT:
        return _(NEXT[kind])
    return _(WAITING.get(kind, "Waiting for %(who)s.")) % {"who": _who(names, seats)}


def _scores(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    scores = view.get("scores")
    if not scores:
        return None
    rows = []
    for row in scores["players"]:
        seat = row["seat"]
        rows.append(
            {
                **row,
                "name": _name(names, seat),
                "rank": scores["ranks"][seat],
                "winner": seat in scores["winners"],
                "hand": [money_card(c) for c in row["hand"]],
            }
        )
    rows.sort(key=lambda r: (r["rank"], r["seat"]))
    tiebreak = {
        "none": "",
        "hand_value": _("Tied on points: the most money left in hand wins."),
        "turn_order": _("Tied on points and money: whoever played latest in the final round wins."),
    }[scores["tiebreak"]]
    return {"rows": rows, "tiebreak": tiebreak}


def board_context(inputs: BoardInputs) -> dict[str, Any]:
    view, legal, names = inputs.view, inputs.legal, inputs.names
    me = view.get("seat")
    players = _players(view, names, me)
    my_villain = next((p["villain"]["id"] for p in players if p["me"] and p["villain"]), "")
    decision = view["decision"]
    hand = _hand(view)
    return {
        "locations": _locations(view, legal),
        "auction": [placement(c) for c in view.get("auction", [])],
        "bear_stock": [placement(c) for c in view.get("bear_stock", [])],
        "players": players,
        "hand": hand,
        "hand_total": sum(g["total"] for g in hand),
        "dirty_count": view.get("dirty_count", 0),
        "pending": [money_card(c) for c in view.get("pending", [])],
        "discard_top": money_card(view["discard_top"]) if view.get("discard_top") else None,
        "launder_drawn": money_card(view["launder_drawn"]) if view.get("launder_drawn") else None,
        "trade_hand": [money_card(c) for c in view.get("trade_hand", [])],
        "next_line": _next_line(view, me, names),
        "my_decision": me is not None and me in decision["seats"] and bool(legal),
        "prompt": _prompt(view, legal, names) if me is not None and legal else None,
        "purchase": _purchase(view, legal, my_villain) if me is not None and legal else None,
        "turn_name": _name(names, view.get("turn_seat")),
        "marker_name": _name(names, view.get("marker_seat")),
        "scores": _scores(view, names),
        "chart": chart(view, names) if inputs.finished else None,
        "round_label": _("Round %(n)s") % {"n": view["round"]},
        "revealed_hands": _revealed_hands(view, names),
    }


def _revealed_hands(view: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Every hand, from a view that shows them before the end (a replay with everything revealed:
    ``rules.view_revealed``); at the end the final scoring shows them, and no player's view has them before."""
    if "hands" not in view or view["phase"] == "over":
        return []
    return [
        {"name": _name(names, seat), "cards": [money_card(c) for c in hand]} for seat, hand in enumerate(view["hands"])
    ]
