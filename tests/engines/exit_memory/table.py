"""A prescribed table (R-65) driven action by action, for the rule tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.exit_memory import ExitMemoryRules, Prescribed
from games.engines.exit_memory.rules import Refused
from games.engines.exit_memory.state import State

SEED = "5eed" * 16


class Table:
    def __init__(
        self,
        hands: Sequence[str],
        deck: str = "",
        *,
        start: int = 0,
        floors: str = "FL0",
        dangers: str = "",
        options: dict[str, Any] | None = None,
    ) -> None:
        """``hands`` holds one space-separated string of tile ids per seat."""
        prescribed = Prescribed(
            hands=tuple(tuple(h.split()) for h in hands),
            deck=tuple(deck.split()),
            start=start,
            floors=tuple(floors.split()),
            dangers=tuple(dangers.split()),
        )
        self.rules = ExitMemoryRules(prescribed, seed=SEED)
        opts = {"danger": bool(dangers), **(options or {})}
        self.initial = self.rules.initial(len(hands), opts)
        self.state: State = self.initial
        self.log: list[Event] = []
        self.now = 1000.0
        self.do(SYSTEM, {"type": "start"})

    def do(self, seat: int, payload: dict[str, Any]) -> list[Event]:
        action = self.rules.parse_action(payload)
        events = self.rules.decide(self.state, seat, action, DecideContext(random.Random(0), self.now))
        for event in events:
            self.state = self.rules.evolve(self.state, event)
        self.log.extend(events)
        return events

    def place(self, seat: int, tile: str, facing: str | None = None) -> list[Event]:
        payload: dict[str, Any] = {"type": "place", "tile": tile}
        if facing is not None:
            payload["facing"] = facing
        return self.do(seat, payload)

    def declare(self, seat: int) -> list[Event]:
        return self.do(seat, {"type": "declare_lost"})

    def reply(self, seat: int, join: bool) -> list[Event]:
        return self.do(seat, {"type": "chain_reply", "join": join})

    def refused(self, seat: int, payload: dict[str, Any]) -> str:
        """The R-68 code of a refused action; the state and the log are unchanged."""
        before, length = self.state, len(self.log)
        with pytest.raises(Refused) as caught:
            self.do(seat, payload)
        assert self.state == before and len(self.log) == length
        return caught.value.code

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.rules.view(self.state, seat)

    def types(self, events: Sequence[Event]) -> list[str]:
        return [e.type for e in events]
