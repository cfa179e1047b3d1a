"""Write bridge_race_late.json: a 3-player standard Bridge Race late in the race, seat 0 to move, and
bridge_race_over.json: the same race played to its end (run it as stored.py says).

Bots play every seat through the engine only (no Django): ``RULES.decide``/``RULES.evolve`` from
``RULES.initial(3, {"mode": "standard", "time_limit": 60})`` with a fixed seed and fixed clock
values, so the same file comes out every time. The play stops at the start of a turn of seat 0
(before rolling, nothing to choose) once the leading car is at row ``LEAD_ROW`` or beyond and no
car has crossed the finish yet.

Load it with ``manage.py import_match tests/e2e/data/bridge_race_late.json a@x b@x c@x``.
"""

from __future__ import annotations

from typing import Any

from games.engines.bridge_race import RULES
from tests.e2e.data.stored import BotGame, play_until

LEAD_ROW = 26
GAME = BotGame(
    RULES,
    "bridge_race",
    seat_count=3,
    seed="e2e-bridge-race-late-1",
    bot_seed=20240601,
    first_clock=1_700_000_000.0,  # fixed "now" of the first action; each action is 5 s later
    most=5000,
    play=play_until,
    options={"mode": "standard"},
    time_limit=60,
    start_options={"mode": "standard", "time_limit": 60},
)


def late_position(state: Any) -> bool:
    if state.phase != "turn" or state.turn is None or state.prompt is not None:
        return False
    if state.turn.seat != 0 or state.turn.stage != "pre" or state.finish_order:
        return False
    rows = [c.row for c in state.cars if c.on_board]
    return bool(rows) and max(rows) >= LEAD_ROW


POSITIONS = {
    "bridge_race_late.json": late_position,
    "bridge_race_over.json": lambda s: RULES.outcome(s) is not None,
}

if __name__ == "__main__":
    GAME.write_positions(POSITIONS, __file__)
