"""police_alarm (*Polizei-Alarm*): a real-time race between a safe-cracking thief and the police car.

See /work/shared/rules/police_alarm.md. Pure Python: no Django, no clock, no randomness of its own.
"""

from __future__ import annotations

from .constants import MAP_ROWS, route
from .randomness import Scripted
from .rules import PoliceAlarmRules, Rejected
from .state import State

RULES = PoliceAlarmRules()

__all__ = ["MAP_ROWS", "RULES", "PoliceAlarmRules", "Rejected", "Scripted", "State", "route"]
