"""police_alarm (*Polizei-Alarm*): a real-time race between a safe-cracking thief and the police car.

See /work/shared/rules/police_alarm.md. Pure Python: no Django, no clock, no randomness of its own.

For the web layer (details in ``rules.py``):

* Player actions: ``place`` {circles: ["A", "L"]}, ``place_random``, ``ready``, ``auto_escape``
  {on: bool}, ``roll``, ``draw``, ``escape``, ``move`` {dir: up/down/left/right, from: [x, y]},
  ``siren`` {circle: "A"}, ``abandon``, and in relay mode ``stop`` (police) and ``ready`` (thief).
  Server (SYSTEM): ``start``, ``tick`` (every deadline),
  ``disconnected`` / ``reconnected`` / ``resign`` {seat: n}.
* A refusal is ``Rejected`` with ``.code`` (T-14 reason); ``bad_move`` carries ``params["car"]``.
* Bots act in time: ``RULES.bot_plan(state, seat, rng)`` -> (action, epoch second) or None.
* ``MAP_ROWS`` is the static map, ``route(cell, circle)`` a shortest route (tap to drive, W-10).
* ``RULES.is_private(event)``: an event whose whole content is secret (the auto-escape flag, H-2;
  a relay police session before its play-back) must reach only ``visible_to`` while the game runs.
"""

from __future__ import annotations

from .constants import MAP_ROWS, route
from .randomness import Scripted
from .rules import PoliceAlarmRules, Rejected
from .state import State

RULES = PoliceAlarmRules()

__all__ = ["MAP_ROWS", "RULES", "PoliceAlarmRules", "Rejected", "Scripted", "State", "route"]
