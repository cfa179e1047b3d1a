"""Write bridge_race_late.json: a 3-player standard Bridge Race late in the race, seat 0 to move, and
bridge_race_over.json: the same race played to its end.

Bots play every seat through the engine only (no Django): ``RULES.decide``/``RULES.evolve`` from
``RULES.initial(3, {"mode": "standard", "time_limit": 60})`` with a fixed seed and fixed clock
values, so the same file comes out every time. The play stops at the start of a turn of seat 0
(before rolling, nothing to choose) once the leading car is at row ``LEAD_ROW`` or beyond and no
car has crossed the finish yet.

    .venv/bin/python tests/e2e/data/make_bridge_race_late.py          # writes the file
    .venv/bin/python tests/e2e/data/make_bridge_race_late.py --check  # fails if it would change

Load it with ``manage.py import_match tests/e2e/data/bridge_race_late.json a@x b@x c@x``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[3]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from games.engines.bridge_race import RULES  # noqa: E402
from tests.e2e.data.stored import play_until, stored_match, write_or_check  # noqa: E402

OUT = Path(__file__).with_name("bridge_race_late.json")
OVER = Path(__file__).with_name("bridge_race_over.json")
SEED = "e2e-bridge-race-late-1"
BOT_SEED = 20240601
OPTIONS = {"mode": "standard"}
TIME_LIMIT = 60
LEAD_ROW = 26
START_CLOCK = 1_700_000_000.0  # fixed "now" of the first action; each action is 5 s later
MAX_ACTIONS = 5000


def late_position(state: Any) -> bool:
    if state.phase != "turn" or state.turn is None or state.prompt is not None:
        return False
    if state.turn.seat != 0 or state.turn.stage != "pre" or state.finish_order:
        return False
    rows = [c.row for c in state.cars if c.on_board]
    return bool(rows) and max(rows) >= LEAD_ROW


def build(stop: Any = late_position) -> dict[str, Any]:
    start = RULES.initial(3, {**OPTIONS, "time_limit": TIME_LIMIT})
    bots = random.Random(BOT_SEED)
    state, events = play_until(RULES, start, stop, seed=SEED, bots=bots, first_clock=START_CLOCK, most=MAX_ACTIONS)
    return stored_match(
        RULES,
        start,
        state,
        events,
        game="bridge_race",
        seat_count=3,
        options=OPTIONS,
        time_limit=TIME_LIMIT,
        seed=SEED,
    )


def main() -> None:
    write_or_check(OUT, build(), __file__)
    write_or_check(OVER, build(lambda s: RULES.outcome(s) is not None), __file__)


if __name__ == "__main__":
    main()
