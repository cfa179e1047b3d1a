"""Write exit_memory_mid.json, exit_memory_facing.json, exit_memory_summary.json and
exit_memory_over.json: a 3-player Emergency Exit game in its second round's turns, on a turn of seat 0
where a tile of its hand may face any way (after a roundabout or a face-down tile), at a round's
summary, and played to its end.

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {})`` with a fixed
seed and fixed clock values, so the same files come out every time. The phone-width browser test
(tests/e2e/test_phone_width_browser.py) shows them at 390 px.

    .venv/bin/python tests/e2e/data/make_exit_memory_positions.py          # writes the files
    .venv/bin/python tests/e2e/data/make_exit_memory_positions.py --check  # fails if they would change
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[3]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from games.engines.exit_memory import RULES  # noqa: E402
from tests.e2e.data.stored import play_with_deadlines, stored_match, write_or_check  # noqa: E402

HERE = Path(__file__).parent
SEED = "stored-exit-memory-1"
BOT_SEED = 4
OPTIONS: dict[str, Any] = {}
TIME_LIMIT = 86400
START_CLOCK = 4_000_000_000.0  # fixed clock (in 2096: nothing times out); +5 s an action
MAX_ACTIONS = 3000


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


def build(stop: Any) -> dict[str, Any]:
    start = RULES.initial(3, OPTIONS)
    state, events = play_with_deadlines(
        RULES, start, stop, seed=SEED, bots=random.Random(BOT_SEED), first_clock=START_CLOCK, most=MAX_ACTIONS
    )
    return stored_match(
        RULES, start, state, events, game="exit_memory", seat_count=3, options=OPTIONS, time_limit=TIME_LIMIT, seed=SEED
    )


def main() -> None:
    for name, stop in POSITIONS.items():
        write_or_check(HERE / name, build(stop), __file__)


if __name__ == "__main__":
    main()
