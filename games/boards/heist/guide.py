"""heist's How to play pictures: the role cards, in reveal order, and the roles per table size."""

from __future__ import annotations

from typing import Any

from games.boards.heist.words import CARD_HELP, ROLE_HELP, ROLE_NAMES

REVEAL_ORDER = ("INFORMANT", "THUG", "DRIVER", "GOON", "MASTERMIND")
# The roles each player owns by player count (the setup table of the rules).
ROLES_BY_PLAYERS = (
    ("3", REVEAL_ORDER),
    ("4", ("THUG", "DRIVER", "GOON")),
    ("5–6", ("INFORMANT", "THUG", "DRIVER", "GOON")),
    ("7–8", REVEAL_ORDER),
)


def guide_context() -> dict[str, Any]:
    roles = [
        {"id": role.lower(), "key": role, "step": step, "name": ROLE_NAMES[role], "help": ROLE_HELP[role]}
        for step, role in enumerate(REVEAL_ORDER, start=1)
    ]
    by_players = [(players, [ROLE_NAMES[r] for r in owned]) for players, owned in ROLES_BY_PLAYERS]
    example_loot = {"total": 10, "stake": 1, "bonus": "DRIVER"}
    return {"roles": roles, "roles_by_players": by_players, "example_loot": example_loot, "card_help": CARD_HELP}
