"""Write police_alarm_over.json: a 3-player Police Alarm game played to its end.

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {})`` with a fixed
seed and fixed clock values, so the same file comes out every time. The phone-width browser test
(tests/e2e/test_phone_width_browser.py) shows it at 390 px; the running game is played in
tests/e2e/test_police_alarm_browser.py.

    .venv/bin/python tests/e2e/data/make_police_alarm_positions.py          # writes the file
    .venv/bin/python tests/e2e/data/make_police_alarm_positions.py --check  # fails if it would change
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[3]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from games.engines.police_alarm import RULES  # noqa: E402
from tests.e2e.data.stored import play_with_deadlines, stored_match, write_or_check  # noqa: E402

HERE = Path(__file__).parent
SEED = "stored-police-alarm-1"
BOT_SEED = 5
OPTIONS: dict[str, Any] = {}
TIME_LIMIT = 86400
START_CLOCK = 4_000_000_000.0
MAX_ACTIONS = 5000

POSITIONS = {"police_alarm_over.json": lambda s: s.over}


def build(stop: Any) -> dict[str, Any]:
    start = RULES.initial(3, OPTIONS)
    state, events = play_with_deadlines(
        RULES, start, stop, seed=SEED, bots=random.Random(BOT_SEED), first_clock=START_CLOCK, most=MAX_ACTIONS
    )
    return stored_match(
        RULES,
        start,
        state,
        events,
        game="police_alarm",
        seat_count=3,
        options=OPTIONS,
        time_limit=TIME_LIMIT,
        seed=SEED,
    )


def main() -> None:
    for name, stop in POSITIONS.items():
        write_or_check(HERE / name, build(stop), __file__)


if __name__ == "__main__":
    main()
