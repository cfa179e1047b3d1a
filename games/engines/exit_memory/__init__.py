"""exit_memory (*Emergency Exit Only*): build an escape route nobody can see. See rules/exit_memory.md."""

from __future__ import annotations

from .rules import ExitMemoryRules, Prescribed
from .state import State

RULES = ExitMemoryRules()

__all__ = ["RULES", "ExitMemoryRules", "Prescribed", "State"]
