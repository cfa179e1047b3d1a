"""Random play for the engine tests that need whole games: one random turn, and an action decided
as the site decides what a page sends (after a JSON round trip)."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event


def random_turn(
    rules: Any, state: Any, actors: Any, rng: random.Random, now: float, *, timeout_odds: float, due_first: bool
) -> tuple[int, Any, float]:
    """(seat, action, now) of one random turn: the server's first legal step when SYSTEM acts; else the
    earliest time-out (its time reached) when nobody may act, at ``timeout_odds``, or, with
    ``due_first``, when it is already due; else a random seat's random legal action."""
    if SYSTEM in actors:
        return SYSTEM, rules.legal_actions(state, SYSTEM)[0], now
    deadlines = sorted(rules.deadlines(state), key=lambda d: d.due)
    people = [s for s in sorted(actors) if rules.legal_actions(state, s)]
    due = due_first and bool(deadlines) and deadlines[0].due <= now
    if deadlines and (due or not people or rng.random() < timeout_odds):
        return SYSTEM, deadlines[0].action, max(now, deadlines[0].due)
    seat = rng.choice(people)
    return seat, rng.choice(rules.legal_actions(state, seat)), now


def decided_as_sent(rules: Any, state: Any, seat: int, action: Any, rng: random.Random, now: float) -> list[Event]:
    """The events of ``seat``'s ``action`` decided as the site decides a page's (sent as JSON)."""
    return list(rules.decide(state, seat, rules.parse_action(json.loads(json.dumps(action))), DecideContext(rng, now)))
