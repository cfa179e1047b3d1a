"""Fixed data: the map (section 3), the deck (D-1), the random source (N-1 .. N-9)."""

from __future__ import annotations

import hashlib

from games.engines.police_alarm.constants import (
    CARD_CODE,
    CIRCLE_CELL,
    DIST_TO,
    MAP_ROWS,
    NEIGHBOURS,
    ROAD,
    START,
    code_str,
    route,
)
from games.engines.police_alarm.randomness import Scripted, Source, commitment, draw

from .helpers import Game

DEMO_DECK = [
    "122",
    "445",
    "234",
    "346",
    "114",
    "133",
    "556",
    "233",
    "112",
    "566",
    "336",
    "113",
    "116",
    "224",
    "166",
    "256",
    "466",
    "134",
    "155",
    "446",
    "223",
    "456",
    "125",
    "126",
    "145",
    "136",
    "146",
    "345",
    "225",
    "245",
    "115",
    "266",
    "455",
    "144",
    "124",
    "123",
    "235",
    "356",
    "236",
    "334",
    "335",
    "226",
    "355",
    "366",
    "156",
    "244",
    "344",
    "255",
]


def test_D2_map_is_19_by_19_with_129_connected_road_cells_and_134_adjacencies() -> None:
    assert len(MAP_ROWS) == 19 and all(len(r) == 19 for r in MAP_ROWS)
    assert len(ROAD) == 129
    assert sum(len(v) for v in NEIGHBOURS.values()) // 2 == 134
    assert len(DIST_TO["A"]) == 129  # all connected
    assert START == (9, 9)
    assert all(MAP_ROWS[0][x] == "#" and MAP_ROWS[18][x] == "#" for x in range(19))


def test_D2_circle_cells_and_distances_from_start_match_the_table() -> None:
    table = {"A": 16, "B": 24, "C": 20, "D": 16, "E": 6, "F": 16, "G": 16, "H": 4, "I": 10, "J": 12, "K": 16, "L": 16}
    assert {c: DIST_TO[c][START] for c in table} == table
    assert CIRCLE_CELL["C"] == (15, 3) and CIRCLE_CELL["J"] == (11, 15)


def test_D2_distance_matrix_between_circles() -> None:
    rows = {
        "A": [0, 40, 36, 8, 22, 8, 32, 16, 18, 28, 24, 32],
        "E": [22, 18, 14, 22, 0, 22, 14, 10, 16, 10, 22, 14],
        "L": [32, 32, 28, 32, 14, 32, 8, 16, 22, 8, 28, 0],
    }
    for a, dists in rows.items():
        assert [DIST_TO[b][CIRCLE_CELL[a]] for b in "ABCDEFGHIJKL"] == dists


def test_D2_shortest_routes_from_the_spec() -> None:
    def letters(path: list[str]) -> str:
        return "".join(d[0].upper() for d in path)

    assert letters(route(START, "H")) == "DDLL"
    assert letters(route(START, "B")) == "RRRRUUUURRRRUUUULLLLLLLL"
    assert len(route(CIRCLE_CELL["A"], "B")) == 40


def test_D1_deck_has_48_codes_without_triples_and_135_246() -> None:
    codes = [code_str(i) for i in range(1, 49)]
    assert len(set(codes)) == 48
    assert codes[0] == "112" and codes[6] == "123" and codes[47] == "566"
    assert "111" not in codes and "135" not in codes and "246" not in codes
    assert sum(1 for c in CARD_CODE.values() if len(set(c)) == 3) == 18
    for v in range(1, 7):
        assert sum(c.count(v) for c in CARD_CODE.values()) == 24


def test_N1_N2_N8_commitment_and_draw_of_demo() -> None:
    assert commitment("demo") == "2a97516c354b68848cdbd8f54a226a0a55b21ed138e207ad6c5cbb9c00aa5aea"
    digest = hashlib.sha256(b"demo:die:0").hexdigest()
    assert digest == "784c091a5d3c0a1472a1dc691ac6badae63e5260d419a0a34edc4cc0afe66de6"
    assert draw("demo", "die", 0, 6) == 4


def test_N3_N8_first_twelve_dice() -> None:
    source = Source("demo")
    assert [source.die(k) for k in range(12)] == [5, 4, 5, 6, 4, 5, 4, 2, 3, 1, 2, 4]


def test_N4_N8_deck_order() -> None:
    assert [code_str(c) for c in Source("demo").deck()] == DEMO_DECK


def test_N5_N8_first_seat() -> None:
    assert [Source("demo").first(n) for n in (2, 3, 4)] == [1, 2, 3]


def test_N6_N7_N8_random_pairs() -> None:
    source = Source("demo")
    assert set(source.pair("place:1", 0)) == {"H", "I"}
    assert set(source.pair("place:2", 0)) == {"A", "I"}
    assert set(source.pair("layout:1", 0)) == {"H", "K"}


def test_N1_seed_is_64_hex_drawn_at_start_and_only_its_commitment_is_public() -> None:
    """D-25: the seed's commitment is public from the start."""
    game = Game(seed=None)
    created = game.log[0]
    seed = created.secret["seed"] if created.secret else ""
    assert len(seed) == 64 and int(seed, 16) >= 0
    assert created.data["commitment"] == commitment(seed)
    assert created.visible_to == ()
    for seat in (None, 0, 1):
        assert seed not in str(game.rules.view(game.state, seat))


def test_N4_R5_round_cards_are_the_next_six_of_the_seeded_deck() -> None:
    """D-26: the stack is the seeded deck's next six, in deck order."""
    game = Game()
    setup = next(e for e in game.log if e.type == "round_setup")
    assert setup.data["codes"] == DEMO_DECK[:6]


def test_N9_scripted_source_supplies_first_deck_dice_and_pairs() -> None:
    scripted = Scripted(first=1, deck=tuple(range(48, 0, -1)), dice=(6, 6, 5), pairs=(("C", "D"),))
    game = Game(scripted=scripted, first=None)
    assert game.state.first == 1 and game.state.thief == 1
    assert game.state.stack == (48, 47, 46, 45, 44, 43)
    game.do(1, {"type": "place_random"}, 0)
    assert game.state.placement == ("C", "D")
    game.do(0, {"type": "ready"}, 0)
    events = game.do(1, {"type": "roll"}, 3000)
    rolled = next(e for e in events if e.type == "dice_rolled")
    assert rolled.data["values"] == [6, 6, 5]  # card 566 cracks at once
    assert any(e.type == "card_cracked" for e in events)


def test_N10_dice_are_public_in_dice_rolled() -> None:
    game = Game()
    go = game.setup()
    events = game.do(game.thief, {"type": "roll"}, go)
    rolled = next(e for e in events if e.type == "dice_rolled")
    assert rolled.secret is None and rolled.data["values"] == [5, 4, 5]
