"""Fixed data of heist: roles, loot cards, role sets by player count (spec sections 2 and 3)."""

from __future__ import annotations

from typing import NamedTuple

INFORMANT = "INFORMANT"
THUG = "THUG"
DRIVER = "DRIVER"
GOON = "GOON"
MASTERMIND = "MASTERMIND"

REVEAL_ORDER: tuple[str, ...] = (INFORMANT, THUG, DRIVER, GOON, MASTERMIND)
"""Roles in reveal-step order (R-30)."""

ROLE_NAMES: dict[str, str] = {
    INFORMANT: "Informant",
    THUG: "Thug",
    DRIVER: "Driver",
    GOON: "Goon",
    MASTERMIND: "Mastermind",
}

NAMING_TIMEOUT_ORDER: tuple[str, ...] = (THUG, DRIVER, GOON, MASTERMIND)
"""R-77: the lone informant's default is the first nameable role in this order."""


class Loot(NamedTuple):
    id: str
    total: int
    stake: int
    bonus: str | None


LOOT: dict[str, Loot] = {
    card.id: card
    for card in (
        Loot("L01", 8, 1, THUG),
        Loot("L02", 8, 1, None),
        Loot("L03", 9, 1, INFORMANT),
        Loot("L04", 9, 1, None),
        Loot("L05", 10, 1, DRIVER),
        Loot("L06", 10, 2, None),
        Loot("L07", 11, 2, GOON),
        Loot("L08", 11, 2, None),
        Loot("L09", 12, 2, MASTERMIND),
        Loot("L10", 12, 2, None),
    )
}
LOOT_IDS: tuple[str, ...] = tuple(LOOT)

START_BALANCE = 5
THREAT_SUPPLY = 8
TARGET = 20
TARGET_QUICK = 16
DECK_SIZE = 8
DECK_SIZE_QUICK = 6
INFORMANT_PENALTY = 3
MASTERMIND_BONUS = 2
DRIVER_FEE = 1
GOON_THEFT = 2
BONUS_PAY = 1
DEFAULT_TIME_LIMIT = 60


def roles_for(players: int) -> tuple[str, ...]:
    """The roles each player owns at this player count (spec section 3), in reveal order."""
    if players == 4:
        owned: tuple[str, ...] = (THUG, DRIVER, GOON)
    elif players in (5, 6):
        owned = (INFORMANT, THUG, DRIVER, GOON)
    else:  # 3, 7, 8
        owned = REVEAL_ORDER
    return tuple(r for r in REVEAL_ORDER if r in owned)


def hands_per_player(players: int) -> int:
    """Two hands each with 3 players (R-52), otherwise one (R-1)."""
    return 2 if players == 3 else 1
