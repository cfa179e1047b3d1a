"""Write heist_mid.json and heist_over.json: a 4-player heist game in the negotiation of its third
heist (the second heist's result on the table) and the same game played to its end, and
heist_naming.json: a 5-player heist paused at its Informant (run it as stored.py says).

Bots play every seat through the engine only (no Django), from ``RULES.initial(4, {})`` with a fixed
seed and fixed clock values, so the same files come out every time. The translation test renders
them in Traditional Chinese (tests/platform/test_zh_positions.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.engines.base import SYSTEM
from games.engines.heist import RULES
from tests.e2e.data.stored import BotGame, apply, play_with_deadlines, write_or_check

GAME = BotGame(
    RULES,
    "heist",
    seat_count=4,
    seed="stored-heist-1",
    bot_seed=3,
    first_clock=4_000_000_000.0,  # fixed clock (in 2096: nothing times out); +5 s an action, or a deadline's time
    most=3000,
    play=play_with_deadlines,
)

POSITIONS = {
    "heist_mid.json": lambda s: s.heist == 3 and s.phase == "negotiation",
    "heist_over.json": lambda s: s.phase == "over",
}


NAMING_ROLES = ("INFORMANT", "THUG", "DRIVER", "GOON", "GOON")  # a lone Informant, two Goons


def play_to_naming() -> Any:
    """Five players choose ``NAMING_ROLES`` and all commit: the heist pauses at the Informant (R-31 b)."""
    start = GAME.start(len(NAMING_ROLES))
    state, events, clock = start, list[dict[str, Any]](), GAME.first_clock

    def step(seat: int, action: dict[str, Any]) -> None:
        nonlocal state, clock
        clock += 5
        state = apply(RULES, state, seat, action, GAME.seed, events, clock)

    def system_steps() -> None:
        while SYSTEM in RULES.actors(state):
            step(SYSTEM, RULES.legal_actions(state, SYSTEM)[0])

    system_steps()
    for seat, role in enumerate(NAMING_ROLES):
        step(seat, {"type": "choose", "roles": [role]})
    system_steps()
    for seat in range(len(NAMING_ROLES)):
        step(seat, next(a for a in RULES.legal_actions(state, seat) if a["type"] == "commit"))
    assert state.phase == "naming" and RULES.actors(state) == {0}, state.phase
    return GAME.document(start, state, events, seat_count=len(NAMING_ROLES))


if __name__ == "__main__":
    GAME.write_positions(POSITIONS, __file__)
    write_or_check(Path(__file__).with_name("heist_naming.json"), play_to_naming(), __file__)
