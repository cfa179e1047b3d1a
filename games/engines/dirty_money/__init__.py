"""dirty_money (*Dirty Money: The Money Laundering Game*). See /work/shared/rules/dirty_money.md."""

from __future__ import annotations

from .rules import DirtyMoneyRules
from .state import State

RULES = DirtyMoneyRules()

__all__ = ["RULES", "DirtyMoneyRules", "State"]
