"""Write exit_memory_mid.json, exit_memory_facing.json, exit_memory_summary.json and
exit_memory_over.json: a 3-player Emergency Exit game in its second round's turns, on a turn of seat 0
where a tile of its hand may face any way (after a roundabout or a face-down tile), at a round's
summary, and played to its end (run it as stored.py says).

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {})`` with a fixed
seed and fixed clock values, so the same files come out every time. The phone-width browser test
(tests/e2e/test_phone_width_browser.py) shows them at 390 px.
"""

from __future__ import annotations

from typing import Any

from games.engines.exit_memory import RULES
from tests.e2e.data.stored import BotGame, play_with_deadlines

GAME = BotGame(
    RULES,
    "exit_memory",
    seat_count=3,
    seed="stored-exit-memory-1",
    bot_seed=4,
    first_clock=4_000_000_000.0,  # fixed clock (in 2096: nothing times out); +5 s an action
    most=3000,
    play=play_with_deadlines,
)


def free_facing(state: Any) -> bool:
    """Seat 0 on turn with a tile it may place facing more than one way."""
    if state.phase != "turn" or state.turn != 0:
        return False
    places = [a for a in RULES.legal_actions(state, 0) if a.get("type") == "place"]
    return any(sum(1 for b in places if b["tile"] == a["tile"]) > 1 for a in places)


POSITIONS = {
    "exit_memory_mid.json": lambda s: s.round == 2 and s.phase == "turn" and len(s.pile) >= 3,
    "exit_memory_facing.json": free_facing,
    "exit_memory_summary.json": lambda s: s.phase == "summary",
    "exit_memory_over.json": lambda s: s.phase == "over",
}

if __name__ == "__main__":
    GAME.write_positions(POSITIONS, __file__)
