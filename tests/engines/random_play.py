"""Random play for the engine tests that need whole games: one random turn, an action decided as
the site decides what a page sends (after a JSON round trip), and a played game as the match
document the site stores."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event, Rules


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


MAX_STEPS = 6000  # a whole game, of any of the engines, ends well within this many turns


def option_sets(rules: Rules[Any]) -> list[dict[str, Any]]:
    """Each engine option's default, then each other value of one option at a time."""
    sets: list[dict[str, Any]] = [{o.name: o.default for o in rules.options}]
    for option in rules.options:
        values = [True] if option.kind == "bool" else [v for v, _ in option.choices if v != option.default]
        for value in values:
            sets.append({**sets[0], option.name: value})
    return sets


def play(rules: Rules[Any], players: int, options: dict[str, Any], seed: int) -> tuple[Any, Any, list[Event]]:
    """A random game to its end (time runs out now and then); (initial state, final state, log)."""
    rng = random.Random(seed)
    initial = rules.initial(players, {**options, "time_limit": 60})
    state, log, now = initial, [], 1_000_000.0
    for step in range(MAX_STEPS):
        actors = rules.actors(state)
        if not actors:
            break
        now += rng.choice((0.0, 0.5, 3.0))
        # Late in a long game, let time run out so that every game ends.
        odds = 0.05 if step < MAX_STEPS // 2 else 0.6
        seat, action, now = random_turn(rules, state, actors, rng, now, timeout_odds=odds, due_first=False)
        events = decided_as_sent(rules, state, seat, action, rng, now)
        for event in events:
            state = rules.evolve(state, event)
        log.extend(events)
    return initial, state, log


def stored_document(game: str, players: int, options: dict[str, Any], log: list[Event], seed: str) -> dict[str, Any]:
    """The match document ``games.play.archive.import_match`` reads of a game played to ``log``, 60 s a
    decision; no actor is recorded (import replays the events, it does not decide them again)."""
    return {
        "format": 1,
        "game": game,
        "seat_count": players,
        "options": options,
        "time_limit": 60,
        "seed": seed,
        "events": [{"actor": -1, **event.to_json()} for event in log],
    }
