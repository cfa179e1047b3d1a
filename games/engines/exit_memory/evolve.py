"""``evolve``: apply one event to the state. Pure and total; ``decide`` validated everything."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base import Event
from .state import CHAIN, EXTRA, OVER, SUMMARY, TURN, Chain, Placed, State
from .tiles import N, right


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _rotated(state: State, quarter_turns: int) -> State:
    """R-50: every tile on the pile (T00 included) turns clockwise by ``quarter_turns``."""

    def turn(h: str) -> str:
        for _ in range(quarter_turns):
            h = right(h)
        return h

    pile = tuple(replace(p, facing=turn(p.facing)) for p in state.pile)
    return replace(state, pile=pile, start_facing=turn(state.start_facing))


def _game_created(state: State, data: dict[str, Any], secret: dict[str, Any]) -> State:
    n = state.players
    return replace(
        state,
        seed=secret["seed"],
        scores=(0,) * n,
        holders=(True,) * n,
        hands=((),) * n,
        skipped=(False,) * n,
        jammed=(False,) * n,
        ready=(False,) * n,
        resigned=state.resigned or (False,) * n,
    )


def _shuffled(state: State, data: dict[str, Any], secret: dict[str, Any]) -> State:
    order = tuple(secret["order"])
    if data["label"] == "floor":
        return replace(state, floor_deck=order)
    if data["label"] == "danger":
        return replace(state, danger_deck=order)
    return replace(state, deck=order)


def _round_started(state: State, data: dict[str, Any]) -> State:
    n = state.players
    new_floors, new_dangers = tuple(data.get("floors", ())), tuple(data.get("dangers", ()))
    floors = state.floors + new_floors
    floor_deck = tuple(c for c in state.floor_deck if c not in new_floors)
    dangers = state.dangers + new_dangers
    danger_deck = tuple(c for c in state.danger_deck if c not in new_dangers)
    return replace(
        state,
        phase=TURN,
        round=data["round"],
        start_player=data["start"],
        turn=-1,
        prompted=-1,
        floors=floors,
        floor_deck=floor_deck,
        dangers=dangers,
        danger_deck=danger_deck,
        deck=(),
        hands=((),) * n,
        start_facing=N,
        pile=(),
        holders=(True,) * n,
        chains=(),
        face_down_next=False,
        skipped=(False,) * n,
        jammed=(False,) * n,
        notice="",
        notice_seat=-1,
        ready=(False,) * n,
        result=None,
    )


def _drawn(state: State, data: dict[str, Any], secret: dict[str, Any]) -> State:
    seat, tiles = data["seat"], tuple(secret["tiles"])
    return replace(state, deck=state.deck[len(tiles) :], hands=_set(state.hands, seat, state.hands[seat] + tiles))


def _turn_started(state: State, data: dict[str, Any]) -> State:
    skipped, jammed = state.skipped, state.jammed
    if state.turn >= 0:  # a jam lapses after the jammed player's turn (DG7 never jams the player on turn)
        jammed = _set(jammed, state.turn, False)
    for seat in data.get("skipped", ()):  # the flagged turn is skipped; a jam on it lapses too
        skipped, jammed = _set(skipped, seat, False), _set(jammed, seat, False)
    return replace(state, phase=TURN, turn=data["seat"], prompted=-1, since=data["at"], skipped=skipped, jammed=jammed)


def _tile_placed(state: State, data: dict[str, Any], secret: dict[str, Any]) -> State:
    seat, tile = data["seat"], secret["tile"]
    hand = list(state.hands[seat])
    hand.remove(tile)
    placed = Placed(tile, secret["facing"], bool(data["face_down"]))
    return replace(
        state,
        hands=_set(state.hands, seat, tuple(hand)),
        pile=(*state.pile, placed),
        face_down_next=state.face_down_next and not placed.face_down,
        notice="",
        notice_seat=-1,
    )


def _danger_triggered(state: State, secret: dict[str, Any]) -> State:
    card, target = secret["card"], secret.get("target", -1)
    state = replace(state, notice=card, notice_seat=secret["seat"])
    if card == "DG1":
        return _rotated(state, 1)
    if card == "DG3":
        return _rotated(state, 2)
    if card == "DG2":
        return replace(state, face_down_next=True)
    if card == "DG5" and target >= 0:
        return replace(state, skipped=_set(state.skipped, target, True))
    if card == "DG7" and target >= 0:
        return replace(state, jammed=_set(state.jammed, target, True))
    return state  # DG4 and DG6 act through their own events (hand_received, extra_turn)


def _lost_declared(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    chain = Chain(data["chain"], data["position"], (seat,))
    return replace(
        state,
        phase=CHAIN,
        turn=seat,
        prompted=-1,
        holders=_set(state.holders, seat, False),
        chains=(*state.chains, chain),
        chain_asked=(),
        notice="",
        notice_seat=-1,
    )


def _chain_reply(state: State, data: dict[str, Any]) -> State:
    if not data["join"]:
        return replace(state, prompted=-1, chain_asked=(*state.chain_asked, data["seat"]))
    seat = data["seat"]
    last = state.chains[-1]
    chains = (*state.chains[:-1], replace(last, members=(*last.members, seat)))
    return replace(
        state,
        prompted=-1,
        chain_asked=(*state.chain_asked, seat),
        holders=_set(state.holders, seat, False),
        chains=chains,
    )


def evolve(state: State, event: Event) -> State:
    data, secret, kind = event.data, event.secret or {}, event.type
    if kind == "game_created":
        return _game_created(state, data, secret)
    if kind == "shuffled":
        return _shuffled(state, data, secret)
    if kind == "round_started":
        return _round_started(state, data)
    if kind in ("dealt", "drew"):
        return _drawn(state, data, secret)
    if kind == "turn_started":
        return _turn_started(state, data)
    if kind == "tile_placed":
        return _tile_placed(state, data, secret)
    if kind == "danger_triggered":
        return _danger_triggered(state, secret)
    if kind == "hand_received":
        return replace(state, hands=_set(state.hands, data["seat"], tuple(secret["tiles"])))
    if kind == "extra_turn":
        return replace(state, phase=EXTRA, since=data["at"])
    if kind == "lost_declared":
        return _lost_declared(state, data)
    if kind == "prompted":
        return replace(state, prompted=data["seat"], since=data["at"])
    if kind == "chain_reply":
        return _chain_reply(state, data)
    if kind == "resolved":
        ready = tuple(state.resigned)  # a player who left is always ready
        return replace(state, phase=SUMMARY, result=dict(data), ready=ready, since=data["at"], prompted=-1)
    if kind == "scored":
        scores = tuple(data["scores"])
        return replace(state, scores=scores, score_history=(*state.score_history, scores))
    if kind == "ready":
        return replace(state, ready=_set(state.ready, data["seat"], True))
    if kind == "resigned":
        seat = data["seat"]
        return replace(state, resigned=_set(state.resigned, seat, True), ready=_set(state.ready, seat, True))
    if kind == "game_ended":
        return replace(state, phase=OVER, winners=tuple(data["winners"]), turn=-1, prompted=-1)
    return state  # passed, round_ended, timed_out: nothing to apply
