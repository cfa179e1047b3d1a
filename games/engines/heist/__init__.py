"""heist (*Millions of Dollars*): negotiate, bluff and split the loot. See rules/heist.md."""

from __future__ import annotations

from .rules import HeistRules
from .state import State

RULES = HeistRules()

__all__ = ["RULES", "HeistRules", "State"]
