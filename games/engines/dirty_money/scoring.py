"""Final scoring (section 6, R-110 to R-123)."""

from __future__ import annotations

from typing import Any

from .cards import (
    ACCOUNTING,
    ART,
    BANK,
    CASINO,
    CHARITY,
    LAW,
    PLACEMENTS,
    RAT_SLOT,
    REGIONS,
    REMITTANCE,
    RESTAURANT,
    value_to,
)
from .state import State

ART_TABLE = (0, 2, 5, 9, 14)
TOKEN_POINTS = {CASINO: 1, ACCOUNTING: 2, LAW: 2}


def art_points(n: int) -> int:
    """R-114: sets of at most 5, t = [0, 2, 5, 9, 14]."""
    return 20 * (n // 5) + ART_TABLE[n % 5]


def blacklist_penalties(points: list[int]) -> list[int]:
    """R-112: the lowest lose nothing, the others their points, the highest 2 more; all tied: nobody."""
    low, high = min(points), max(points)
    if low == high:
        return [0] * len(points)
    return [0 if b == low else b + (2 if b == high else 0) for b in points]


def components(state: State, seat: int) -> dict[str, Any]:
    tableau = state.tableaux[seat]
    types = [PLACEMENTS[p].type for p in tableau]
    per_region = {r: sum(1 for p in tableau if PLACEMENTS[p].region == r) for r in REGIONS}
    # every copy counts
    restaurant = sum(per_region[PLACEMENTS[p].region] for p in tableau if PLACEMENTS[p].type == RESTAURANT)
    remittance = 3 * min(per_region.values()) * types.count(REMITTANCE)
    bank = len(state.hands[seat]) * types.count(BANK)
    tokens = 0
    for holder, _card in state.tokens[seat]:
        tokens += 1 if holder == RAT_SLOT else TOKEN_POINTS.get(PLACEMENTS[holder].type, 0)
    blacklist = state.blacklist_points(seat)
    removed = min(2 * types.count(CHARITY), blacklist)
    return {
        "seat": seat,
        "base": sum(PLACEMENTS[p].points for p in tableau),
        "art": art_points(types.count(ART)),
        "restaurant": restaurant,
        "remittance": remittance,
        "bank": bank,
        "tokens": tokens,
        "blacklist": blacklist,
        "charity_removed": removed,
        "blacklist_after_charity": blacklist - removed,
        "hand": sorted(state.hands[seat]),
        "hand_value": sum(value_to(c, state.villains[seat]) for c in state.hands[seat]),
        "turn_position": state.order.index(seat) if seat in state.order else seat,
    }


def final_scores(state: State) -> dict[str, Any]:
    """Every player's components, the totals (R-119), ranks (R-120 to R-123) and winner."""
    rows = [components(state, seat) for seat in range(state.players)]
    penalties = blacklist_penalties([r["blacklist_after_charity"] for r in rows])
    for row, penalty in zip(rows, penalties, strict=True):
        row["penalty"] = penalty
        row["total"] = (
            row["base"] + row["art"] + row["restaurant"] + row["remittance"] + row["bank"] + row["tokens"] - penalty
        )
    ordered = sorted(rows, key=lambda r: (-r["total"], -r["hand_value"], -r["turn_position"]))
    ranks = [0] * state.players
    for place, row in enumerate(ordered, start=1):
        ranks[row["seat"]] = place
    tiebreak = "none"
    if len(ordered) > 1 and ordered[0]["total"] == ordered[1]["total"]:
        tiebreak = "hand_value" if ordered[0]["hand_value"] != ordered[1]["hand_value"] else "turn_order"
    return {
        "players": rows,
        "totals": [r["total"] for r in rows],
        "ranks": ranks,
        "winners": [ordered[0]["seat"]],
        "tiebreak": tiebreak,
    }
