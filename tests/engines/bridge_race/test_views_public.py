"""R-89: a bridge_race seat's view holds nothing hidden from the other players.

The platform compresses a game's pushes on the wire only when its views are public
(``views_public``): compressing a secret beside text another player chose would leak it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engines.base import DecideContext, replay
from games.engines.bridge_race import view as view_mod
from games.engines.bridge_race.legal import legal
from games.engines.bridge_race.rules import BridgeRaceRules
from games.engines.bridge_race.state import Game

OWN_OPTIONS = {"legal_actions", "placements"}  # what this seat may do now: derived from public state


def random_race(rules: BridgeRaceRules, players: int, seed: int, steps: int) -> Iterator[tuple[int, Game, list[int]]]:
    """The states of a race played by the bots: (step, state, the seats acting in it), until it ends."""
    rng = random.Random(seed)
    state = rules.initial(players, {})
    for step in range(steps):
        actors = sorted(rules.actors(state))
        if not actors:
            return
        yield step, state, actors
        seat = rng.choice(actors)
        action = rules.bot_action(state, seat, rng)
        context = DecideContext(rng=random.Random(rng.random()), now=1000.0 + step)
        state = replay(rules, state, rules.decide(state, seat, action, context))


def test_r89_a_seats_view_differs_from_a_spectators_only_by_its_own_options() -> None:
    rules = BridgeRaceRules()
    assert rules.views_public is True
    for game in range(3):
        checked = 0
        for step, state, actors in random_race(rules, 5, game, 400):
            public = rules.view(state, None)
            for seat in range(5):
                mine = rules.view(state, seat)
                differing = {key for key in set(mine) | set(public) if mine.get(key) != public.get(key)}
                assert differing <= OWN_OPTIONS, (step, seat, differing)
                if seat not in actors:  # the site shows a waiting seat the spectator's view itself
                    assert mine == public, (step, seat)
                checked += 1
        assert checked > 100


def test_r89_r93_views_and_legal_actions_kept_per_state_are_the_engines_own_each_time() -> None:
    """The rules object keeps the spectator's view and the legal actions of the latest states
    (the site asks for them several times a move): what it answers is what the view and the legal
    actions (R-93) of that state are, and each answer is a list and dict of its own."""
    rules = BridgeRaceRules()
    acted = 0
    for step, state, actors in random_race(rules, 4, 7, 300):
        for seat in (None, 0, 1, 2, 3):
            assert rules.view(state, seat) == view_mod.view(state, seat), (step, seat)
        for seat in actors:
            if seat < 0:
                continue
            first = rules.legal_actions(state, seat)
            assert first == legal(state, seat), step
            first[0]["type"] = "CHANGED"
            first.clear()
            mine = rules.view(state, seat)
            mine["legal_actions"].clear()
            mine.pop("board")
            assert rules.legal_actions(state, seat) == legal(state, seat), step
            assert rules.view(state, seat) == view_mod.view(state, seat), step
            acted += 1
    assert acted > 100


def test_r71_r93_cells_kept_per_state_are_a_fresh_walks_each_time() -> None:
    """The placeable cells (ramps, mines, oil) and each face-up adventure tile's legal cells (R-71)
    are kept for the latest states, for the legal actions (R-93) and the placements of the same
    state: every answer equals a fresh walk of the bridge, and is a list of its own."""
    from games.engines.bridge_race import legal as legal_mod
    from games.engines.bridge_race.rounds import legal_cells
    from games.engines.bridge_race.sim import Sim

    rules = BridgeRaceRules()
    tiles_seen = 0
    for _step, state, _actors in random_race(rules, 5, 11, 300):
        sim = Sim(state)
        walked = [(lane, row) for row in range(3, 33) for lane in range(5) if sim.placeable((lane, row))]
        for _twice in range(2):
            answer = legal_mod._placeable(state)
            assert answer == walked
            answer.clear()  # a caller's own list: the next answer is whole
        for tile in state.face_up:
            fresh = legal_cells(state, tile)
            assert legal_mod._tile_cells(state, tile) == fresh
            legal_mod._tile_cells(state, tile).append((9, 99))
            assert legal_mod._tile_cells(state, tile) == fresh
            tiles_seen += 1
    assert tiles_seen > 20
