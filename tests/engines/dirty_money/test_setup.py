"""Setup (section 3, S-1 to S-10) and randomness (section 9, R-140 to R-143)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.dirty_money import RULES
from games.engines.dirty_money.cards import ACTION_CARDS, CURRENCY_CARDS, REGION_CARDS, VILLAINS, is_action
from games.engines.dirty_money.rules import shuffle_order
from games.engines.dirty_money.state import all_cards

from .helpers import NOW, act, of_type, started


@pytest.mark.parametrize(
    ("players", "locations"),
    [
        (2, ["LOC-EU", "LOC-US", "LOC-JP", "LOC-BR"]),
        (3, ["LOC-EU", "LOC-US", "LOC-JP", "LOC-BR"]),
        (4, ["LOC-EU", "LOC-US", "LOC-JP", "LOC-BR", "LOC-BM"]),
        (5, ["LOC-EU", "LOC-US", "LOC-JP", "LOC-BR", "LOC-BM", "LOC-AH"]),
    ],
)
def test_S1_locations_by_player_count(players: int, locations: list[str]) -> None:
    state = started(players)
    assert list(state.locations) == locations
    assert len(state.locations) > players  # 3.1: always one more location than players


def test_S2_R141_placement_decks_are_shuffles_of_the_sorted_cards() -> None:
    state = RULES.initial(3, {})
    _, events = act(state, SYSTEM, {"type": "start"}, seed=7)
    shuffles = of_type(events, "placement_deck_shuffled")
    assert [e.data["region"] for e in shuffles] == ["EU", "US", "JP"]
    rng = random.Random(7)
    for e in shuffles:  # the first three uses of the RNG, in region order
        assert e.secret == {"order": shuffle_order(rng, 20)}
        assert e.visible_to == ()


def test_R141_shuffle_is_fisher_yates_over_sorted_ids() -> None:
    rng = random.Random(3)
    order = list(range(5))
    for i in range(4, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    assert shuffle_order(random.Random(3), 5) == order


@pytest.mark.parametrize("choice", [False, True])
def test_S3_R131_displays_dealt_from_deck_tops(choice: bool) -> None:
    state = RULES.initial(5, {"choice": choice})
    after, events = act(state, SYSTEM, {"type": "start"}, seed=2)
    size = 3 if choice else 2
    dealt = of_type(events, "display_dealt")
    assert [e.data["region"] for e in dealt] == ["EU"] * size + ["US"] * size + ["JP"] * size + ["EU", "US", "JP"]
    for r, region in enumerate(("EU", "US", "JP")):
        order = of_type(events, "placement_deck_shuffled")[r].secret["order"]  # type: ignore[index]
        deck = [REGION_CARDS[region][i] for i in order]
        assert list(after.displays[r]) == deck[:size]
        assert after.auction[r] == deck[size]  # the Auction House card comes after the display
        assert after.pdecks[r][:2] == tuple(deck[size + 1 : size + 3]) or after.stock


def test_S4_S5_R11_villains_dealt_and_lowest_number_starts() -> None:
    for seed in range(10):
        state = started(3, seed)
        assert len(set(state.villains)) == 3 and set(state.villains) <= set(VILLAINS)
        first = state.marker
        assert state.villains[first] == min(state.villains)  # ids sort by number
        assert state.last_player == (first - 1) % 3
        assert state.order[0] == first


def test_S4_all_five_villains_with_five_players() -> None:
    assert sorted(started(5).villains) == list(VILLAINS)


def test_S6_bear_chooses_stock_and_the_active_player_waits() -> None:
    for seed in range(40):
        state = RULES.initial(2, {})
        state, _ = act(state, SYSTEM, {"type": "start"}, seed)
        if "V4-BEAR" in state.villains:
            break
    else:  # pragma: no cover
        pytest.fail("no bear")
    bear = state.villains.index("V4-BEAR")
    assert state.phase == "bear"
    assert RULES.actors(state) == frozenset({bear})
    with pytest.raises(IllegalAction):
        act(state, bear, {"type": "choose_bear_stock", "EU": 2, "US": 2, "JP": 0})
    jp_top = state.pdecks[2][:3]
    after, _events = act(state, bear, {"type": "choose_bear_stock", "EU": 0, "US": "0", "JP": "3"}, seed=5)
    assert after.stock == jp_top  # the tops of the Japan deck
    assert after.pdecks[2] == state.pdecks[2][3:]
    assert after.phase == "play" and after.hands[0]


def test_S6_default_is_one_card_per_region() -> None:
    for seed in range(40):
        state = RULES.initial(3, {})
        state, _ = act(state, SYSTEM, {"type": "start"}, seed)
        if state.phase == "bear":
            break
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "choose_bear_stock" and deadline.due == NOW + 60
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, deadline.action, now=NOW + 59)
    after, _ = act(state, SYSTEM, deadline.action, now=NOW + 60)
    assert after.stock == (state.pdecks[0][0], state.pdecks[1][0], state.pdecks[2][0])


def test_S7_starting_hands_three_each_and_one_more_for_the_last_player() -> None:
    for players in range(2, 6):
        state = started(players, seed=players)
        sizes = [len(h) for h in state.hands]
        assert sizes == [4 if seat == state.last_player else 3 for seat in range(players)]
        assert not any(is_action(c) for h in state.hands for c in h)


def test_S7_deal_goes_round_from_the_first_player() -> None:
    state = RULES.initial(3, {})
    after, events = act(state, SYSTEM, {"type": "start"}, seed=11)
    if after.phase == "bear":
        after, events = act(
            after, after.villains.index("V4-BEAR"), {"type": "choose_bear_stock", "EU": 1, "US": 1, "JP": 1}, 12
        )
    order = of_type(events, "currency_shuffled")[0].secret["order"]  # type: ignore[index]
    deck = [CURRENCY_CARDS[i] for i in order]
    first = after.marker
    for k in range(3):
        for i in range(3):
            assert deck[3 * k + i] in after.hands[(first + i) % 3]
    assert deck[9] in after.hands[after.last_player]


def test_S8_S9_money_deck_and_rows() -> None:
    state = started(4, seed=3)
    assert all(len(row) == 2 for row in state.rows)
    assert set(ACTION_CARDS) <= set(state.deck) | {c for row in state.rows for c in row}
    assert len(state.deck) == 120 - 13 - 2 * 5
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == 180  # every card in exactly one zone
    assert state.discard == ()


def test_S10_R143_same_seed_same_game() -> None:
    assert started(5, seed=9) == started(5, seed=9)
    assert started(5, seed=9) != started(5, seed=10)


def test_R142_shuffles_are_secret_and_recorded() -> None:
    state = RULES.initial(2, {})
    _, events = act(state, SYSTEM, {"type": "start"}, seed=4)
    for e in events:
        if "shuffled" in e.type or e.type == "villains_dealt":
            assert e.visible_to == () and e.secret is not None and "order" in e.secret
            assert "order" not in e.for_seat(0).get("secret", {})


def test_R140_all_randomness_comes_from_the_match_rng() -> None:
    random.seed(1)
    a = act(RULES.initial(5, {}), SYSTEM, {"type": "start"}, seed=21)[1]
    random.seed(2)  # the global RNG plays no part
    b = act(RULES.initial(5, {}), SYSTEM, {"type": "start"}, seed=21)[1]
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
