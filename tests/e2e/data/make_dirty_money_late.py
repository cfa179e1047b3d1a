"""Write dirty_money_late.json: a 3-player Quick Mode Dirty Money game near its end, and
dirty_money_over.json: the same game played to its final scoring (run it as stored.py says).

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {"quick": True})``
with a fixed seed and fixed clock values, so the same file comes out every time. The play stops at
a turn of seat 0 (choosing a location) once somebody owns 6 placements, two
short of the Quick Mode end (R-95), so a browser test plays a round or two to the final scoring.
"""

from __future__ import annotations

from typing import Any

from games.engines.dirty_money import RULES
from games.engines.dirty_money.rules import decision
from tests.e2e.data.stored import BotGame, play_until

GAME = BotGame(
    RULES,
    "dirty_money",
    seat_count=3,
    seed="e2e-dirty-money-late-1",
    bot_seed=1,
    first_clock=4_000_000_000.0,  # "now" of the first action (in 2096: the loaded turn never times out); +5 s each
    most=5000,
    play=play_until,
    options={"quick": True, "choice": False, "pace": "correspondence"},
)


def late_position(state: Any) -> bool:
    """Seat 0 to choose while somebody needs two more placements to end the game (R-95)."""
    kind, seats = decision(state)
    close = max((len(t) for t in state.tableaux), default=0) >= state.target - 2
    return close and not state.final and kind == "choose_location" and seats == (0,)


POSITIONS = {
    "dirty_money_late.json": late_position,
    "dirty_money_over.json": lambda s: RULES.outcome(s) is not None,
}

if __name__ == "__main__":
    GAME.write_positions(POSITIONS, __file__)
