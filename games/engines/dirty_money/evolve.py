"""``evolve``: apply one event to a state. Pure, total, no validation, no randomness.

Draws take the top of the stacks held in the state, so an event never has to carry a hidden card
for the state to follow it; the shuffles' outcomes arrive as permutations of the canonical (sorted
by id) order in ``Event.secret`` (R-141, R-142).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..base import Event
from .cards import (
    ACTION_CARDS,
    CURRENCY_CARDS,
    LAUNDERER,
    PLACEMENTS,
    REGION_CARDS,
    REGIONS,
    VIRTUAL,
    is_action,
    value_to,
)
from .state import ACTIONS, BEAR_CHOICE, CHOOSE, END, LAUNDER, LAUNDER_DISCARD, LOCATION, OVER, PLAY, State

Tup = tuple[Any, ...]


def _set(values: Tup, index: int, value: Any) -> Tup:
    return (*values[:index], value, *values[index + 1 :])


def _without(cards: tuple[str, ...], remove: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    gone = set(remove)
    return tuple(c for c in cards if c not in gone)


def _permute(cards: tuple[str, ...] | list[str], order: list[int]) -> tuple[str, ...]:
    base = sorted(cards)
    return tuple(base[i] for i in order)


def _take_token(s: State) -> tuple[State, str]:
    """R-6: the top of the discard pile, else the top of the money deck, else a virtual token."""
    if s.discard:
        return replace(s, discard=s.discard[:-1]), s.discard[-1]
    if s.deck:
        return replace(s, deck=s.deck[1:]), s.deck[0]
    return s, VIRTUAL


def _turn_reset(s: State) -> State:
    return replace(
        s,
        step=CHOOSE,
        location="",
        pending=(),
        resolving="",
        trade_target=-1,
        gallery_left=0,
        after_gain=False,
        queued="",
        bought=0,
        shark_used=False,
        banana_done=False,
        drawn="",
    )


def _game_started(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    n = s.players
    return replace(
        s,
        locations=tuple(d["locations"]),
        rows=((),) * len(d["locations"]),
        resigned=(False,) * n,
        hands=((),) * n,
        tableaux=((),) * n,
        tokens=((),) * n,
        blacklists=((),) * n,
    )


def _placement_deck_shuffled(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    r = REGIONS.index(d["region"])
    return replace(s, pdecks=_set(s.pdecks, r, _permute(REGION_CARDS[d["region"]], x["order"])))


def _display_dealt(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    r = REGIONS.index(d["region"])
    deck = s.pdecks[r]
    if not deck:
        return s
    s = replace(s, pdecks=_set(s.pdecks, r, deck[1:]))
    if d.get("auction"):
        return replace(s, auction=_set(s.auction, r, deck[0]))
    return replace(s, displays=_set(s.displays, r, (*s.displays[r], deck[0])))


def _villains_dealt(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(
        s,
        villains=tuple(d["villains"]),
        marker=d["first_seat"],
        last_player=d["last_seat"],
        phase=BEAR_CHOICE if d.get("bear_seat", -1) >= 0 else s.phase,
    )


def _bear_stock_taken(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    pdecks = s.pdecks
    for r, region in enumerate(REGIONS):
        k = int(d["counts"].get(region, 0))
        pdecks = _set(pdecks, r, pdecks[r][k:])
    return replace(s, stock=tuple(d["cards"]), pdecks=pdecks, phase=PLAY)


def _currency_shuffled(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, deck=_permute(CURRENCY_CARDS, x["order"]))


def _hands_dealt(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    """S-7: three times round clockwise from the first player, then one more to the last player."""
    hands = [list(h) for h in s.hands]
    deck = list(s.deck)
    n = s.players
    for _round in range(3):
        for i in range(n):
            hands[(s.marker + i) % n].append(deck.pop(0))
    hands[s.last_player].append(deck.pop(0))
    return replace(s, hands=tuple(tuple(h) for h in hands), deck=tuple(deck))


def _money_deck_shuffled(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    if d.get("source") == "setup":  # S-8
        return replace(s, deck=_permute(list(s.deck) + list(ACTION_CARDS), x["order"]))
    return replace(s, deck=_permute(s.discard, x["order"]), discard=())


def _row_dealt(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    if not s.deck:
        return s
    i = s.locations.index(d["location"])
    return replace(s, rows=_set(s.rows, i, (*s.rows[i], s.deck[0])), deck=s.deck[1:])


def _money_held(s: State) -> tuple[int, ...]:
    """Each seat's money in hand at its own values (R-3), for the end-of-game chart (derived, not a rule)."""
    return tuple(sum(value_to(c, s.villains[p]) for c in s.hands[p] if not is_action(c)) for p in range(s.players))


def _round_started(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    s = _turn_reset(s)
    history = (*s.history, _money_held(s))
    return replace(s, phase=PLAY, round=d["round"], order=tuple(d["order"]), turn=0, round_gains=0, history=history)


def _location_chosen(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    i = s.locations.index(d["location"])
    row = s.rows[i]
    money = tuple(c for c in row if not is_action(c))
    acts = tuple(c for c in row if is_action(c))
    return replace(
        s,
        rows=_set(s.rows, i, ()),
        hands=_set(s.hands, seat, s.hands[seat] + money),
        pending=acts,
        location=d["location"],
        step=ACTIONS if acts else LOCATION,
    )


def _checkpoint(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, trim=tuple(d["seats"]))


def _cards_blacklisted(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    cards = x["cards"]
    return replace(
        s,
        hands=_set(s.hands, seat, _without(s.hands[seat], cards)),
        blacklists=_set(s.blacklists, seat, s.blacklists[seat] + tuple(cards)),
        trim=tuple(t for t in s.trim if t != seat),
    )


def _action_started(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    card = d["card"]
    return replace(s, pending=tuple(c for c in s.pending if c != card), resolving=card)


def _inspected(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat, target = d["seat"], d["target_seat"]
    taken = list(d["taken"])
    hands = _set(s.hands, target, _without(s.hands[target], taken))
    hands = _set(hands, seat, hands[seat] + tuple(taken))
    return replace(s, hands=hands)


def _blacklist_gained(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    s, card = _take_token(s)
    return replace(s, blacklists=_set(s.blacklists, seat, (*s.blacklists[seat], card)))


def _token_placed(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    s, card = _take_token(s)
    return replace(s, tokens=_set(s.tokens, seat, (*s.tokens[seat], (d["holder"], card))))


def _trade_started(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, trade_target=d["target_seat"] if d.get("swap") else -1)


def _traded(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat, target = d["seat"], d["target_seat"]
    take, give = x["take"], x["give"]
    hands = _set(s.hands, target, (*_without(s.hands[target], [take]), give))
    hands = _set(hands, seat, (*_without(hands[seat], [give]), take))
    return replace(s, hands=hands, trade_target=-1)


def _blacklist_removed(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    bl = s.blacklists[seat]
    if not bl:
        return s
    top = bl[-1]
    s = replace(s, blacklists=_set(s.blacklists, seat, bl[:-1]))
    if top != VIRTUAL:
        s = replace(s, discard=(*s.discard, top))
    return s


def _action_done(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    s = replace(s, resolving="", trade_target=-1, discard=(*s.discard, d["card"]))
    if s.step == ACTIONS and not s.pending:
        s = replace(s, step=LOCATION)
    return s


def _banana(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, banana_done=True, marker=d["seat"])


def _bought(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    payment = tuple(d["payment"])
    cards = d["cards"]
    return replace(
        s,
        hands=_set(s.hands, seat, _without(s.hands[seat], payment)),
        discard=s.discard + payment,  # in the listed order, the last on top
        shark_used=s.shark_used or bool(d.get("shark_card")),
        bought=s.bought + len(cards),
        queued=cards[1] if len(cards) > 1 else "",
    )


def _gained(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat, card = d["seat"], d["card"]
    r = REGIONS.index(PLACEMENTS[card].region)
    s = replace(
        s,
        displays=_set(s.displays, r, _without(s.displays[r], [card])),
        auction=tuple("" if c == card else c for c in s.auction),
        stock=_without(s.stock, [card]),
        tableaux=_set(s.tableaux, seat, (*s.tableaux[seat], card)),
        queued="" if s.queued == card else s.queued,
        gallery_left=int(d.get("galleries", 0)),
        after_gain=True,
        round_gains=s.round_gains + 1,
    )
    return s


def _gallery_drew(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    if not s.deck or d.get("kind") == "none":
        return replace(s, gallery_left=0)  # no later draws of the same effect
    s = replace(s, gallery_left=max(0, s.gallery_left - 1))
    card, s = s.deck[0], replace(s, deck=s.deck[1:])
    if is_action(card):
        return replace(s, pending=(*s.pending, card))
    return replace(s, hands=_set(s.hands, seat, (*s.hands[seat], card)))


def _gallery_skipped(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, gallery_left=max(0, s.gallery_left - 1))


def _gain_settled(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, after_gain=False)


def _final_round(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, final=True)


def _location_ended(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, step=LAUNDER if s.villains[d["seat"]] == LAUNDERER else END)


def _launder_skipped_action(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    if not s.deck:
        return s
    return replace(s, deck=s.deck[1:], discard=(*s.discard, s.deck[0]))


def _launder_drew(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat = d["seat"]
    if not s.deck:
        return s
    card = s.deck[0]
    return replace(
        s,
        deck=s.deck[1:],
        hands=_set(s.hands, seat, (*s.hands[seat], card)),
        drawn=card,
        step=LAUNDER_DISCARD,
    )


def _launder_discarded(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    seat, card = d["seat"], d["card"]
    return replace(
        s,
        hands=_set(s.hands, seat, _without(s.hands[seat], [card])),
        discard=(*s.discard, card),
        drawn="",
        step=END,
    )


def _to_end(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, step=END)


def _turn_ended(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(_turn_reset(s), turn=s.turn + 1)


def _game_scored(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(
        s,
        phase=OVER,
        result=(tuple(d["totals"]), tuple(d["ranks"]), tuple(d["winners"])),
        trim=(),
        history=(*s.history, _money_held(s)),
    )


def _resigned(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return replace(s, resigned=_set(s.resigned, d["seat"], True))


def _nothing(s: State, d: dict[str, Any], x: dict[str, Any]) -> State:
    return s


HANDLERS: dict[str, Callable[[State, dict[str, Any], dict[str, Any]], State]] = {
    "game_started": _game_started,
    "placement_deck_shuffled": _placement_deck_shuffled,
    "display_dealt": _display_dealt,
    "villains_dealt": _villains_dealt,
    "bear_stock_taken": _bear_stock_taken,
    "currency_shuffled": _currency_shuffled,
    "hands_dealt": _hands_dealt,
    "money_deck_shuffled": _money_deck_shuffled,
    "row_dealt": _row_dealt,
    "round_started": _round_started,
    "location_chosen": _location_chosen,
    "checkpoint": _checkpoint,
    "cards_blacklisted": _cards_blacklisted,
    "action_started": _action_started,
    "inspected": _inspected,
    "blacklist_gained": _blacklist_gained,
    "token_placed": _token_placed,
    "audited": _nothing,
    "trade_started": _trade_started,
    "traded": _traded,
    "blacklist_removed": _blacklist_removed,
    "action_done": _action_done,
    "banana": _banana,
    "bought": _bought,
    "gained": _gained,
    "gallery_drew": _gallery_drew,
    "gallery_skipped": _gallery_skipped,
    "gain_settled": _gain_settled,
    "final_round": _final_round,
    "location_ended": _location_ended,
    "launder_declined": _to_end,
    "launder_skipped_action": _launder_skipped_action,
    "launder_drew": _launder_drew,
    "launder_nothing": _to_end,
    "launder_discarded": _launder_discarded,
    "turn_ended": _turn_ended,
    "round_ended": _nothing,
    "game_stalled": _nothing,
    "game_scored": _game_scored,
    "resigned": _resigned,
    "timed_out": _nothing,
}


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.type)
    data = event.data
    if handler is None:
        return state
    state = handler(state, data, event.secret or {})
    at = data.get("at")
    if isinstance(at, int | float) and at != state.since:
        state = replace(state, since=float(at))
    return state


__all__ = ["HANDLERS", "evolve"]
