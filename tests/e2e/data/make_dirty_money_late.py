"""Write dirty_money_late.json: a 3-player Quick Mode Dirty Money game near its end.

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

from games.engines.base import SYSTEM, DecideContext, rng_for  # noqa: E402
from games.engines.dirty_money import RULES  # noqa: E402
from games.engines.dirty_money.rules import decision  # noqa: E402
from tests.e2e.data.stored import stored_match, write_or_check  # noqa: E402

OUT = Path(__file__).with_name("dirty_money_late.json")
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


def build() -> dict[str, Any]:
    bots = random.Random(BOT_SEED)
    start = RULES.initial(3, OPTIONS)
    state = start
    events: list[dict[str, Any]] = []
    for n in range(MAX_ACTIONS):
        if late_position(state):
            break
        actors = RULES.actors(state)
        if not actors:
            raise SystemExit("the game ended before a final-round turn of seat 0 came up; change BOT_SEED")
        seat = min(actors)
        action = RULES.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else RULES.bot_action(state, seat, bots)
        ctx = DecideContext(rng=rng_for(SEED, len(events)), now=START_CLOCK + 5 * n)
        for event in RULES.decide(state, seat, action, ctx):
            state = RULES.evolve(state, event)
            events.append({"actor": seat, **event.to_json()})
    else:
        raise SystemExit(f"no late position within {MAX_ACTIONS} actions")
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


if __name__ == "__main__":
    main()
