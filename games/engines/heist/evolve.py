"""``evolve``: apply one event to a state. Pure, total, no validation, no randomness."""

from __future__ import annotations

import copy
from typing import Any

from ..base import Event
from .state import (
    COMMITTED,
    FORFEITED,
    HEIST,
    NAMING,
    NEGOTIATION,
    OVER,
    PLANNING,
    RETURNED,
    WITHDRAWN,
    Hand,
    Look,
    Offer,
    State,
    replace,
)

REPORT_TYPES = frozenset(
    {
        "negotiation_ended",
        "revealed",
        "role_named",
        "informant_alone",
        "heist_empty",
        "loot_shared",
        "driver_fee",
        "goon_theft",
        "bonus_paid",
        "heist_ended",
        "game_over",
    }
)


def _add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == seat else v for i, v in enumerate(values))


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == seat else v for i, v in enumerate(values))


def _stake_back(state: State, entries: list[dict[str, Any]], how: str) -> State:
    for e in entries:
        hand = state.hand(e["seat"], e["slot"])
        if hand is None:
            continue
        state = state.replace_hand(replace(hand, stake_state=how))
        if how == RETURNED:
            state = replace(state, balances=_add(state.balances, e["seat"], e["own"]))
    return state


def evolve(state: State, event: Event) -> State:
    d = event.data
    secret = event.secret or {}
    t = event.type
    n = state.players

    if t == "game_started":
        state = replace(
            state,
            deck=tuple(secret.get("deck", ())),
            removed=tuple(secret.get("removed", ())),
            money_history=(state.balances,),
        )
    elif t == "heist_started":
        prev = d.get("previous_roles")
        state = replace(
            state,
            phase=PLANNING,
            heist=d["heist"],
            loot=d["loot"],
            deck=state.deck[1:],
            boss=d["boss_seat"],
            planning_at=d["at"],
            choices=((),) * n,
            timed_out=(False,) * n,
            previous=tuple(tuple(p) for p in prev) if prev is not None else (),
            hands=(),
            pool=(),
            set_aside="",
            roll_call=False,
            powers_ready=False,
            prompts=(),
            call_due=None,
            offers=(),
            informant=None,
            named_role=None,
            naming_due=None,
        )
    elif t in ("role_chosen", "choice_timed_out"):
        seat = d["seat"]
        roles = tuple(secret.get("roles", ("?",)))
        state = replace(state, choices=_set(state.choices, seat, roles))
        if t == "choice_timed_out":
            state = replace(state, timed_out=_set(state.timed_out, seat, True))
    elif t == "pool_laid_out":
        hands = []
        after_stakes = list(state.balances)
        for s in d["stakes"]:
            seat, slot = s["seat"], s["slot"]
            chosen = state.choices[seat] if seat < len(state.choices) else ()
            role = chosen[slot - 1] if len(chosen) >= slot else "?"
            hands.append(Hand(seat, slot, role, s["stake"], s["own"], s["loan"]))
            after_stakes[seat] -= s["own"]
        state = replace(
            state,
            phase=NEGOTIATION,
            negotiation_at=d["at"],
            hands=tuple(hands),
            balances=tuple(after_stakes),
            pool=tuple(d["face_up"]),
            set_aside=secret.get("set_aside", ""),
            powers_ready=False,
        )
    elif t == "hand_withdrawn":
        hand = state.hand(d["seat"], d["slot"])
        if hand is not None:
            state = state.replace_hand(replace(hand, status=WITHDRAWN, stake_state=RETURNED))
            state = replace(state, balances=_add(state.balances, d["seat"], d["own"]))
    elif t == "hands_committed":
        for slot in d["slots"]:
            hand = state.hand(d["seat"], slot)
            if hand is not None:
                state = state.replace_hand(replace(hand, status=COMMITTED))
    elif t == "offer_created":
        clause = d.get("clause_slot") or 0
        offer = Offer(
            id=d["offer"],
            creator=d["creator_seat"],
            payer=d["payer_seat"],
            payee=d["payee_seat"],
            amount=d["amount"],
            clause=clause,
            created=d["at"],
            expires=d["expires"],
        )
        state = replace(state, offers=(*state.offers, offer), next_offer=max(state.next_offer, offer.id + 1))
    elif t == "offer_accepted":
        # acceptance settles the offer at once (the clause withdrawal is its own
        # hand_withdrawn event), so nothing of it is left to keep: it leaves the state.
        if state.offer(d["offer"]) is not None:
            balances = _add(state.balances, d["payer_seat"], -d["amount"])
            balances = _add(balances, d["payee_seat"], d["amount"])
            state = replace(state, balances=balances).without_offer(d["offer"])
    elif t in ("offer_declined", "offer_cancelled", "offer_failed", "offer_expired"):
        # a closed offer has no further effect; its history stays in the event log.
        state = state.without_offer(d["offer"])
    elif t == "threat_used":
        seat = d["seat"]
        look = Look(state.heist, seat, d["target_seat"], d["slot"], secret.get("role", ""))
        state = replace(
            state,
            threats=_add(state.threats, seat, -1),
            supply=state.supply + 1,
            looks=(*state.looks, look),
        )
    elif t == "roll_call":
        state = replace(state, roll_call=True)
    elif t == "boss_powers_ready":
        state = replace(state, powers_ready=True)
    elif t == "player_prompted":
        state = replace(state, prompts=(*state.prompts, (d["target_seat"], d["due"])))
    elif t == "heist_called":
        state = replace(state, call_due=d["due"])
    elif t == "resigned":
        state = replace(state, resigned=_set(state.resigned, d["seat"], True))
    elif t == "negotiation_ended":
        state = replace(state, phase=HEIST, report=(), report_heist=state.heist)
    elif t == "revealed":
        for h in d["hands"]:
            hand = state.hand(h["seat"], h["slot"])
            if hand is not None:
                state = state.replace_hand(replace(hand, revealed=True, result=d["result"]))
        state = _stake_back(state, d.get("returned", []), RETURNED)
        state = _stake_back(state, d.get("forfeited", []), FORFEITED)
        threat_seat = d.get("threat_seat")
        if threat_seat is not None:
            state = replace(state, threats=_add(state.threats, threat_seat, 1), supply=state.supply - 1)
        if d.get("lone"):
            first = d["hands"][0]
            state = replace(state, informant=(first["seat"], first["slot"]))
        if d.get("naming_due") is not None:
            state = replace(state, phase=NAMING, naming_due=d["naming_due"])
    elif t == "role_named":
        for h in d["hands"]:
            hand = state.hand(h["seat"], h["slot"])
            if hand is not None:
                state = state.replace_hand(replace(hand, named=True))
        state = replace(state, phase=HEIST, named_role=d["role"], naming_due=None)
    elif t == "informant_alone":
        hand = state.hand(d["seat"], d["slot"])
        if hand is not None:
            state = state.replace_hand(replace(hand, result="eliminated"))
        state = replace(state, balances=_add(state.balances, d["seat"], -d["paid"]))
    elif t == "loot_shared":
        balances = state.balances
        for p in d["payments"]:
            balances = _add(balances, p["seat"], p["amount"])
        state = replace(state, balances=balances)
    elif t == "driver_fee":
        balances = state.balances
        for p in d["payments"]:
            balances = _add(balances, p["seat"], -p["amount"])
            balances = _add(balances, d["seat"], p["amount"])
        state = replace(state, balances=balances)
    elif t == "goon_theft":
        balances = _add(state.balances, d["thug_seat"], -d["amount"])
        state = replace(state, balances=_add(balances, d["seat"], d["amount"]))
    elif t == "bonus_paid":
        state = replace(state, balances=_add(state.balances, d["seat"], d["amount"]))
    elif t == "heist_ended":
        state = replace(
            state,
            loot="",
            hands=(),
            pool=(),
            set_aside="",
            boss=d["boss_seat"],
            informant=None,
            named_role=None,
            naming_due=None,
            prompts=(),
            call_due=None,
            roll_call=False,
            powers_ready=False,
            offers=(),
            money_history=(*state.money_history, state.balances),
        )
    elif t == "game_over":
        state = replace(state, phase=OVER, end_reason=d["reason"], winners=tuple(d["winners"]))

    if t in REPORT_TYPES:
        state = replace(state, report=(*state.report, {"type": t, "data": copy.deepcopy(d)}))
    return state
