"""Write police_alarm_over.json: a 3-player Police Alarm game played to its end (run it as stored.py
says).

Bots play every seat through the engine only (no Django), from ``RULES.initial(3, {})`` with a fixed
seed and fixed clock values, so the same file comes out every time. The phone-width browser test
(tests/e2e/test_phone_width_browser.py) shows it at 390 px; the running game is played in
tests/e2e/test_police_alarm_browser.py.
"""

from __future__ import annotations

from games.engines.police_alarm import RULES
from tests.e2e.data.stored import BotGame, play_with_deadlines

GAME = BotGame(
    RULES,
    "police_alarm",
    seat_count=3,
    seed="stored-police-alarm-1",
    bot_seed=5,
    first_clock=4_000_000_000.0,
    most=5000,
    play=play_with_deadlines,
)

if __name__ == "__main__":
    GAME.write_positions({"police_alarm_over.json": lambda s: s.over}, __file__)
