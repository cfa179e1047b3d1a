"""R-89: a bridge_race seat's view holds nothing hidden from the other players.

The platform compresses a game's pushes on the wire only when its views are public
(``views_public``): compressing a secret beside text another player chose would leak it.
"""

from __future__ import annotations

import random

from games.engines.base import DecideContext, replay
from games.engines.bridge_race.rules import BridgeRaceRules

OWN_OPTIONS = {"legal_actions", "placements"}  # what this seat may do now: derived from public state


def test_r89_a_seats_view_differs_from_a_spectators_only_by_its_own_options() -> None:
    rules = BridgeRaceRules()
    assert rules.views_public is True
    for game in range(3):
        rng = random.Random(game)
        state = rules.initial(5, {})
        checked = 0
        for step in range(400):
            actors = sorted(rules.actors(state))
            if not actors:
                break
            public = rules.view(state, None)
            for seat in range(5):
                mine = rules.view(state, seat)
                differing = {key for key in set(mine) | set(public) if mine.get(key) != public.get(key)}
                assert differing <= OWN_OPTIONS, (step, seat, differing)
                if seat not in actors:  # the site shows a waiting seat the spectator's view itself
                    assert mine == public, (step, seat)
                checked += 1
            seat = rng.choice(actors)
            action = rules.bot_action(state, seat, rng)
            context = DecideContext(rng=random.Random(rng.random()), now=1000.0 + step)
            events = rules.decide(state, seat, action, context)
            state = replay(rules, state, events)
        assert checked > 100
