"""Write heist_mid.json and heist_over.json: a 4-player heist game in the negotiation of its third
heist (the second heist's result on the table) and the same game played to its end.

Bots play every seat through the engine only (no Django), from ``RULES.initial(4, {})`` with a fixed
seed and fixed clock values, so the same files come out every time. The translation test renders
them in Traditional Chinese (tests/platform/test_zh_positions.py).

    .venv/bin/python tests/e2e/data/make_heist_positions.py          # writes the files
    .venv/bin/python tests/e2e/data/make_heist_positions.py --check  # fails if they would change
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[3]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from games.engines.base import SYSTEM  # noqa: E402
from games.engines.heist import RULES  # noqa: E402
from tests.e2e.data.stored import apply, stored_match, write_or_check  # noqa: E402

HERE = Path(__file__).parent
SEED = "stored-heist-1"
BOT_SEED = 3
OPTIONS: dict[str, Any] = {}
TIME_LIMIT = 86400
START_CLOCK = 4_000_000_000.0  # fixed clock (in 2096: nothing times out); +5 s an action, or a deadline's time
MAX_ACTIONS = 3000


def play(stop: Any) -> dict[str, Any]:
    bots = random.Random(BOT_SEED)
    start = RULES.initial(4, OPTIONS)
    state = start
    events: list[dict[str, Any]] = []
    clock = START_CLOCK
    for _n in range(MAX_ACTIONS):
        if stop(state):
            break
        # As the platform does: a bot answers when the game waits on its seat; otherwise the
        # earliest deadline fires as a SYSTEM action (a time-out or a timer).
        actors = set(RULES.actors(state))
        deadlines = sorted(RULES.deadlines(state), key=lambda d: d.due)
        waited = sorted(s for d in deadlines for s in d.seats if s in actors)
        clock += 5
        now = clock
        if SYSTEM in actors:
            seat, action = SYSTEM, RULES.legal_actions(state, SYSTEM)[0]
        elif waited:
            seat = waited[0]
            action = RULES.bot_action(state, seat, bots)
        elif deadlines:
            seat, action = SYSTEM, dict(deadlines[0].action)
            now = clock = max(clock, deadlines[0].due)
        else:
            raise SystemExit("the game ended early; change BOT_SEED")
        state = apply(RULES, state, seat, action, SEED, events, now)
    else:
        raise SystemExit(f"no stop within {MAX_ACTIONS} actions")
    return stored_match(
        RULES, start, state, events, game="heist", seat_count=4, options=OPTIONS, time_limit=TIME_LIMIT, seed=SEED
    )


POSITIONS = {
    "heist_mid.json": lambda s: s.heist == 3 and s.phase == "negotiation",
    "heist_over.json": lambda s: s.phase == "over",
}


NAMING_ROLES = ("INFORMANT", "THUG", "DRIVER", "GOON", "GOON")  # a lone Informant, two Goons


def play_to_naming() -> dict[str, Any]:
    """Five players choose ``NAMING_ROLES`` and all commit: the heist pauses at the Informant (R-31 b)."""
    start = RULES.initial(len(NAMING_ROLES), OPTIONS)
    state, events, clock = start, list[dict[str, Any]](), START_CLOCK

    def step(seat: int, action: dict[str, Any]) -> None:
        nonlocal state, clock
        clock += 5
        state = apply(RULES, state, seat, action, SEED, events, clock)

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
    return stored_match(
        RULES,
        start,
        state,
        events,
        game="heist",
        seat_count=len(NAMING_ROLES),
        options=OPTIONS,
        time_limit=TIME_LIMIT,
        seed=SEED,
    )


def main() -> None:
    for name, stop in POSITIONS.items():
        write_or_check(HERE / name, play(stop), __file__)
    write_or_check(HERE / "heist_naming.json", play_to_naming(), __file__)


if __name__ == "__main__":
    main()
