"""Write dirty_money_late.json: a 3-player Quick Mode Dirty Money game near its end, and
dirty_money_over.json: the same game played to its final scoring.

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {"quick": True})``
with a fixed seed and fixed clock values, so the same file comes out every time. The play stops at
a turn of seat 0 (choosing a location) once somebody owns 6 placements, two
short of the Quick Mode end (R-95), so a browser test plays a round or two to the final scoring.

    .venv/bin/python tests/e2e/data/make_dirty_money_late.py          # writes the file
    .venv/bin/python tests/e2e/data/make_dirty_money_late.py --check  # fails if it would change
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[3]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from games.engines.dirty_money import RULES  # noqa: E402
from games.engines.dirty_money.rules import decision  # noqa: E402
from tests.e2e.data.stored import play_until, stored_match, write_or_check  # noqa: E402

OUT = Path(__file__).with_name("dirty_money_late.json")
OVER = Path(__file__).with_name("dirty_money_over.json")
SEED = "e2e-dirty-money-late-1"
BOT_SEED = 1
OPTIONS = {"quick": True, "choice": False, "pace": "correspondence"}
TIME_LIMIT = 86400
START_CLOCK = 4_000_000_000.0  # fixed "now" of the first action (in 2096: the loaded turn never times out); +5 s each
MAX_ACTIONS = 5000


def late_position(state: Any) -> bool:
    """Seat 0 to choose while somebody needs two more placements to end the game (R-95)."""
    kind, seats = decision(state)
    close = max((len(t) for t in state.tableaux), default=0) >= state.target - 2
    return close and not state.final and kind == "choose_location" and seats == (0,)


def build(stop: Any = late_position) -> dict[str, Any]:
    start = RULES.initial(3, OPTIONS)
    bots = random.Random(BOT_SEED)
    state, events = play_until(RULES, start, stop, seed=SEED, bots=bots, first_clock=START_CLOCK, most=MAX_ACTIONS)
    return stored_match(
        RULES,
        start,
        state,
        events,
        game="dirty_money",
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
