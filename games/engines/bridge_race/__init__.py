"""Bridge Race (Gang Rush Breakout): pure-Python engine."""

from .rules import RULES, BridgeRaceRules
from .view import plan_actions

__all__ = ["RULES", "BridgeRaceRules", "plan_actions"]
