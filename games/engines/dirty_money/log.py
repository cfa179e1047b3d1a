"""Readable log lines from events as a seat sees them (10.4). Never needs the secret part."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base import LogLine, in_third_person
from ..base import gettext_noop as _

Lines = list[LogLine]


def _cards(cards: Any) -> list[str]:
    """Card ids as a list: the web layer shows each by its translated name (``terms``)."""
    if not isinstance(cards, list | tuple):
        return []
    return [str(c) for c in cards]


def _started(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("The game starts with %(players)s players."), {"players": d.get("players")})]


def _villains(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = [
        LogLine(_("%(seat)s plays %(villain)s."), {"seat": seat, "villain": villain})
        for seat, villain in enumerate(d.get("villains") or [])
    ]
    out.append(LogLine(_("%(seat)s takes the first-player marker."), {"seat": d.get("first_seat")}))
    return out


def _bear(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [
        LogLine(
            _("%(seat)s takes the private stock %(cards)s."), {"seat": d.get("seat"), "cards": _cards(d.get("cards"))}
        )
    ]


def _hands(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("Everyone is dealt 3 cards; %(seat)s gets 1 more."), {"seat": d.get("last_seat")})]


def _shuffled(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    if d.get("source") == "discard":
        return [LogLine(_("The discard pile is shuffled into a new money deck."))]
    return []


def _round(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("Round %(round)s begins with %(seat)s."), {"round": d.get("round"), "seat": d.get("first_seat")})]


def _chosen(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    cards = d.get("cards") or []
    if not cards:
        return [
            LogLine(
                _("%(seat)s visits %(location)s and finds nothing."),
                {"seat": d.get("seat"), "location": d.get("location")},
            )
        ]
    return [
        LogLine(
            _("%(seat)s visits %(location)s and takes %(cards)s."),
            {"seat": d.get("seat"), "location": d.get("location"), "cards": _cards(cards)},
        )
    ]


def _checkpoint(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [
        LogLine(_("%(seat)s holds %(count)s card(s) too many."), {"seat": seat, "count": n})
        for seat, n in zip(d.get("seats") or [], d.get("excess") or [], strict=False)
    ]


def _blacklisted(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    line = LogLine(
        _("%(seat)s puts %(count)s card(s) from their hand face-down on their blacklist."),
        {"seat": d.get("seat"), "count": d.get("count")},
    )
    if x.get("cards"):
        return [line, LogLine(_("Your blacklisted cards: %(cards)s."), {"cards": _cards(x.get("cards"))})]
    return [line]


def _action_started(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    if "target_seat" in d:
        return [
            LogLine(
                _("%(seat)s resolves %(card)s on %(target_seat)s."),
                {"seat": d.get("seat"), "card": d.get("card"), "target_seat": d.get("target_seat")},
            )
        ]
    return [LogLine(_("%(seat)s resolves %(card)s."), {"seat": d.get("seat"), "card": d.get("card")})]


def _inspected(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    picks = d.get("picks") or []
    if not picks:
        return [LogLine(_("%(target_seat)s has no cards to inspect."), {"target_seat": d.get("target_seat")})]
    out = [
        LogLine(
            _("Inspection of %(target_seat)s reveals %(cards)s."),
            {"target_seat": d.get("target_seat"), "cards": _cards(picks)},
        )
    ]
    if d.get("taken"):
        out.append(
            LogLine(
                _("%(seat)s takes the dirty money %(cards)s."),
                {"seat": d.get("seat"), "cards": _cards(d.get("taken"))},
            )
        )
    return out


def _bl_gained(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("%(seat)s gains 1 blacklist point."), {"seat": d.get("seat")})]


def _token(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("%(seat)s puts a token under %(holder)s."), {"seat": d.get("seat"), "holder": d.get("holder")})]


def _audited(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = []
    hit = set(d.get("hit") or [])
    for entry in d.get("hands") or []:
        if not isinstance(entry, Mapping):
            continue
        params = {"seat": entry.get("seat"), "cards": _cards(entry.get("cards")) or "-", "dirty": entry.get("dirty")}
        if entry.get("seat") in hit:
            out.append(LogLine(_("Audit: %(seat)s shows %(cards)s (%(dirty)s dirty) and is caught."), params))
        else:
            out.append(LogLine(_("Audit: %(seat)s shows %(cards)s (%(dirty)s dirty)."), params))
    return out


def _trade_started(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = [
        LogLine(
            _("%(seat)s looks at the hand of %(target_seat)s."),
            {"seat": d.get("seat"), "target_seat": d.get("target_seat")},
        )
    ]
    if "hand" in x:
        out.append(LogLine(_("The hand shows %(cards)s."), {"cards": _cards(x.get("hand")) or "-"}))
    return out


def _traded(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = [
        LogLine(
            _("%(seat)s trades with %(target_seat)s."), {"seat": d.get("seat"), "target_seat": d.get("target_seat")}
        )
    ]
    if "take" in x:
        out.append(LogLine(_("%(take)s was taken and %(give)s given."), {"take": x.get("take"), "give": x.get("give")}))
    return out


def _bl_removed(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    card = d.get("card")
    if card is None:
        return [LogLine(_("%(seat)s has no blacklist point to remove."), {"seat": d.get("seat")})]
    if card == "*":
        return [LogLine(_("%(seat)s removes 1 blacklist point."), {"seat": d.get("seat")})]
    return [
        LogLine(_("%(seat)s removes 1 blacklist point (%(card)s is discarded)."), {"seat": d.get("seat"), "card": card})
    ]


def _banana(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [LogLine(_("%(seat)s takes the first-player marker."), {"seat": d.get("seat")})]


def _bought(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    params = {
        "seat": d.get("seat"),
        "cards": _cards(d.get("cards")),
        "payment": _cards(d.get("payment")) or "-",
        "due": d.get("due"),
        "overpay": d.get("overpay"),
    }
    return [LogLine(_("%(seat)s buys %(cards)s for %(due)s, paying %(payment)s (%(overpay)s lost)."), params)]


def _gallery(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    kind = d.get("kind")
    if kind == "action":
        return [
            LogLine(
                _("%(seat)s draws %(card)s through an Art Gallery."), {"seat": d.get("seat"), "card": d.get("card")}
            )
        ]
    if kind == "none":
        return [LogLine(_("There is no card left to draw."))]
    out = [LogLine(_("%(seat)s draws a card through an Art Gallery."), {"seat": d.get("seat")})]
    if "card" in x:
        out.append(LogLine(_("You drew %(card)s."), {"card": x.get("card")}))
    return out


def _final(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    return [
        LogLine(
            _("%(seat)s owns %(count)s placements: this is the final round."),
            {"seat": d.get("seat"), "count": d.get("count")},
        )
    ]


def _launder_drew(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = [LogLine(_("%(seat)s uses the Launderer and draws a card."), {"seat": d.get("seat")})]
    if "card" in x:
        out.append(LogLine(_("You drew %(card)s."), {"card": x.get("card")}))
    return out


def _scored(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
    out = []
    for row in d.get("players") or []:
        if not isinstance(row, Mapping):
            continue
        out.append(
            LogLine(
                _(
                    "%(seat)s scores %(total)s: placements %(base)s, art %(art)s, restaurants %(restaurant)s, "
                    "remittance %(remittance)s, digital banks %(bank)s, tokens %(tokens)s, blacklist %(penalty)s."
                ),
                {
                    **{
                        k: row.get(k)
                        for k in ("seat", "total", "base", "art", "restaurant", "remittance", "bank", "tokens")
                    },
                    "penalty": -penalty if isinstance(penalty := row.get("penalty"), int) else penalty,  # "-3", or "0"
                },
            )
        )
    winners = d.get("winners") or []
    if winners:
        out.append(LogLine(_("%(seat)s wins."), {"seat": winners[0]}))
    return out


def _simple(message: str, *keys: str) -> Callable[[Mapping[str, Any], Mapping[str, Any]], Lines]:
    def render(d: Mapping[str, Any], x: Mapping[str, Any]) -> Lines:
        return [LogLine(message, {k: d.get(k) for k in keys})]

    return render


RENDER: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], Lines]] = {
    "game_started": _started,
    "villains_dealt": _villains,
    "bear_stock_taken": _bear,
    "hands_dealt": _hands,
    "money_deck_shuffled": _shuffled,
    "round_started": _round,
    "location_chosen": _chosen,
    "checkpoint": _checkpoint,
    "cards_blacklisted": _blacklisted,
    "action_started": _action_started,
    "inspected": _inspected,
    "blacklist_gained": _bl_gained,
    "token_placed": _token,
    "audited": _audited,
    "trade_started": _trade_started,
    "traded": _traded,
    "blacklist_removed": _bl_removed,
    "banana": _banana,
    "bought": _bought,
    "gained": _simple(_("%(seat)s gains %(card)s."), "seat", "card"),
    "gallery_drew": _gallery,
    "gallery_skipped": _simple(_("%(seat)s does not draw through an Art Gallery."), "seat"),
    "final_round": _final,
    "location_ended": _simple(_("%(seat)s is done at %(location)s."), "seat", "location"),
    "launder_declined": _simple(_("%(seat)s does not use the Launderer."), "seat"),
    "launder_skipped_action": _simple(_("The Launderer turns up %(card)s and discards it."), "card"),
    "launder_drew": _launder_drew,
    "launder_nothing": _simple(_("The Launderer finds no card to draw."), "seat"),
    "launder_discarded": _simple(_("%(seat)s discards %(card)s."), "seat", "card"),
    "game_scored": _scored,
    "game_stalled": _simple(_("Nothing can move any more: the game ends after round %(round)s."), "round"),
    "resigned": _simple(_("%(seat)s resigns."), "seat"),
    "timed_out": _simple(_("Time is up for %(seat)s: the default is played."), "seat"),
}


# A secret shown to everybody after the game names its owner (never "You drew" for another seat).
THIRD_PERSON = {
    "Your blacklisted cards: %(cards)s.": _("%(seat)s's blacklisted cards: %(cards)s."),
    "You drew %(card)s.": _("%(seat)s drew %(card)s."),
}


def log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    lines = _log_lines(event)
    if event.get("revealed"):
        data = event.get("data") or {}
        return in_third_person(lines, THIRD_PERSON, data.get("seat") if isinstance(data, Mapping) else None)
    return lines


def _log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    render = RENDER.get(str(event.get("type")))
    if render is None:
        return []
    data = event.get("data") or {}
    secret = event.get("secret") or {}
    if not isinstance(data, Mapping) or not isinstance(secret, Mapping):
        return []
    return render(data, secret)
