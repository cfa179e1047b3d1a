"""Section 11: the seed, its commitment and every random decision (N-1 .. N-9).

``decide`` is the only caller: the values are recorded in events, so ``evolve`` and a replay never
draw anything.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from .constants import CARD_IDS, CIRCLE_IDS


def commitment(seed: str) -> str:
    """N-1: lowercase hex SHA-256 of the seed string."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def new_seed(rng: random.Random) -> str:
    """N-1: 32 bytes, as 64 lowercase hex characters (drawn from ``ctx.rng`` in ``start``)."""
    return f"{rng.getrandbits(256):064x}"


def draw(seed: str, label: str, i: int, m: int) -> int:
    """N-2: int(SHA-256(seed:label:i)) mod m, digest read big-endian."""
    digest = hashlib.sha256(f"{seed}:{label}:{i}".encode("ascii")).digest()
    return int.from_bytes(digest, "big") % m


@dataclass(frozen=True)
class Scripted:
    """N-9 test seam: scripted random results instead of a seed (tests only, never an option).

    ``dice[k]`` is the k-th die of the game, ``pairs[j]`` the j-th random circle pair (placements
    and young layouts, in the order they are needed). Indexing by counters kept in the state keeps
    the engine pure.
    """

    first: int = 0
    deck: tuple[int, ...] = CARD_IDS
    dice: tuple[int, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()


class Source:
    """The random source of one game: the seed (N-2 .. N-7) or a :class:`Scripted` one (N-9)."""

    def __init__(self, seed: str, scripted: Scripted | None = None) -> None:
        self.seed = seed
        self.scripted = scripted

    def first(self, n: int) -> int:
        """N-5."""
        if self.scripted is not None:
            return self.scripted.first % n
        return draw(self.seed, "first", 0, n)

    def deck(self) -> tuple[int, ...]:
        """N-4: Fisher-Yates from the top (position 0)."""
        if self.scripted is not None:
            return tuple(self.scripted.deck)
        cards = list(CARD_IDS)
        for i in range(len(cards) - 1, 0, -1):
            j = draw(self.seed, "deck", i, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards)

    def die(self, k: int) -> int:
        """N-3: the k-th die of the game (k counts across rounds)."""
        if self.scripted is not None:
            return self.scripted.dice[k % len(self.scripted.dice)]
        return draw(self.seed, "die", k, 6) + 1

    def pair(self, label: str, j: int) -> tuple[str, str]:
        """N-6 / N-7: two different circles; ``label`` is "place:r" or "layout:s", ``j`` counts pairs."""
        if self.scripted is not None:
            a, b = self.scripted.pairs[j % len(self.scripted.pairs)]
            return (a, b)
        ids = list(CIRCLE_IDS)
        first = ids.pop(draw(self.seed, label, 0, 12))
        second = ids[draw(self.seed, label, 1, 11)]
        return (first, second)
