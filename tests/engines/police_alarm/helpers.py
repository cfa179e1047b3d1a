"""A scripted-time driver for police_alarm tests: inputs with explicit server times (ms)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.police_alarm import PoliceAlarmRules, Rejected, Scripted
from games.engines.police_alarm.constants import CARD_CODE, CARD_IDS, CIRCLE_CELL, route
from games.engines.police_alarm.state import State

ORIGIN = 1_700_000_000.0


def card_id(code: str) -> int:
    return next(i for i, c in CARD_CODE.items() if "".join(map(str, c)) == code)


def deck_with(*codes: str) -> tuple[int, ...]:
    """A deck whose top cards have these codes, the rest in id order."""
    top = [card_id(c) for c in codes]
    return (*top, *(i for i in CARD_IDS if i not in top))


class Game:
    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        scripted: Scripted | None = None,
        seed: str | None = "demo",
        first: int | None = 0,
    ) -> None:
        self.rules = PoliceAlarmRules(scripted=scripted, seed=seed)
        opts: dict[str, Any] = {"time_limit": 60, **(options or {})}
        if first is not None and "first" not in opts:
            opts["first"] = str(first)
        self.state: State = self.rules.initial(players, opts)
        self.initial = self.state
        self.log: list[Event] = []
        self.inputs: list[tuple[int, dict[str, Any], int]] = []
        self.do(SYSTEM, {"type": "start"}, 0)

    def ctx(self, at: int) -> DecideContext:
        return DecideContext(random.Random(7), ORIGIN + at / 1000)

    def do(self, seat: int, payload: Mapping[str, Any], at: int) -> list[Event]:
        self.inputs.append((seat, dict(payload), at))
        action = self.rules.parse_action(json.loads(json.dumps(payload)))
        events = self.rules.decide(self.state, seat, action, self.ctx(at))
        for e in events:
            self.state = self.rules.evolve(self.state, e)
        self.log.extend(events)
        return events

    def reject(self, seat: int, payload: Mapping[str, Any], at: int, code: str) -> Rejected:
        before = self.state
        with pytest.raises(Rejected) as info:
            self.do(seat, payload, at)
        assert info.value.code == code, (info.value.code, str(info.value))
        assert info.value.params["code"] == code
        assert self.state is before  # T-15: nothing changed
        return info.value

    def tick(self, at: int) -> list[Event]:
        return self.do(SYSTEM, {"type": "tick"}, at)

    # standard-game shortcuts

    @property
    def thief(self) -> int:
        return self.state.thief

    @property
    def police(self) -> int:
        return self.state.police

    def setup(self, circles: Sequence[str] = ("B", "L"), at: int = 0) -> int:
        """Place, ready; return the "go" time."""
        self.do(self.thief, {"type": "place", "circles": list(circles)}, at)
        self.do(self.police, {"type": "ready"}, at)
        return self.state.go_at

    def drive(self, circle: str, at: int, step: int = 150) -> int:
        """Drive to ``circle`` at one cell per ``step`` ms from ``at``; return the arrival time."""
        driver = self.state.active if self.state.young else self.police
        for d in route(self.state.car, circle):
            self.do(driver, {"type": "move", "dir": d, "from": list(self.state.car)}, at)
            at += step
        assert self.state.car == CIRCLE_CELL[circle]
        return at - step

    def types(self, events: Sequence[Event] | None = None) -> list[str]:
        return [e.type for e in (self.log if events is None else events)]


def replay_inputs(game: Game) -> list[dict[str, Any]]:
    """T-19: the same options, seed and timed inputs rebuild the same log."""
    again = Game.__new__(Game)
    again.rules = game.rules
    again.state = game.initial
    again.initial = game.initial
    again.log = []
    again.inputs = []
    for seat, payload, at in game.inputs:
        with contextlib.suppress(Rejected):
            again.do(seat, payload, at)
    return [e.to_json() for e in again.log]
