"""heist (*Millions of Dollars*): negotiate, bluff and split the loot. See rules/heist.md."""

from __future__ import annotations

from .constants import ROLE_NAMES
from .rules import HeistRules
from .state import State

RULES = HeistRules()
RULES.terms = ROLE_NAMES
# choices are simultaneous and secret; another player's choice never changes mine.
# offers are immutable and an acceptance is checked against the state at that moment,
# so making, accepting, declining or cancelling one is not refused because the table moved on
# (negotiation runs in real time). Irreversible decisions about one's own hands (withdraw, commit)
# and the boss's and threat-card actions still need the board the player saw.
RULES.blind_actions = frozenset({"choose", "offer", "accept", "decline", "cancel"})

__all__ = ["RULES", "HeistRules", "State"]
