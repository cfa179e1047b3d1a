"""heist (*Millions of Dollars*): negotiate, bluff and split the loot. See rules/heist.md."""

from __future__ import annotations

from .constants import ROLE_NAMES
from .rules import HeistRules
from .state import State

RULES = HeistRules()
RULES.terms = ROLE_NAMES
# choices are simultaneous and secret; another player's choice never changes mine.
RULES.blind_actions = frozenset({"choose"})

__all__ = ["RULES", "HeistRules", "State"]
