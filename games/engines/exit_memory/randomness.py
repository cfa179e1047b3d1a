"""Section 9: the seed and its labelled SHA-256 streams (R-62, R-63).

``decide`` is the only caller; every result is recorded in a ``shuffled`` event (R-64), so replay
never draws anything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
_LIMIT = 2**64


def new_seed(bits: int) -> str:
    """R-62: 32 bytes as 64 lowercase hex characters (``bits`` come from a secure source)."""
    return f"{bits:064x}"


class Stream:
    """R-63: the byte stream of label ``L``: SHA-256(seed ‖ UTF-8(L) ‖ counter) for counter = 0, 1, …
    (a 4-byte big-endian counter), consumed 8 bytes at a time by :meth:`rand`."""

    def __init__(self, seed: str, label: str) -> None:
        self._blocks = self._generate(bytes.fromhex(seed), label.encode("utf-8"))
        self._buffer = b""

    @staticmethod
    def _generate(seed: bytes, label: bytes) -> Iterator[bytes]:
        counter = 0
        while True:
            yield hashlib.sha256(seed + label + counter.to_bytes(4, "big")).digest()
            counter += 1

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += next(self._blocks)
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def rand(self, m: int) -> int:
        """R-63 ``rand(m)``: unbiased by rejection of u ≥ 2^64 − (2^64 mod m)."""
        if m < 1:
            raise ValueError("rand(m) needs m >= 1")
        while True:
            u = int.from_bytes(self._take(8), "big")
            if u < _LIMIT - (_LIMIT % m):
                return u % m


def shuffle(seed: str, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """R-63 ``shuffle``: from the list sorted by id, swap i and rand(i+1) for i = len−1 … 1.
    Index 0 is the top of the deck."""
    stream = Stream(seed, label)
    deck = sorted(items)  # type: ignore[type-var]
    for i in range(len(deck) - 1, 0, -1):
        j = stream.rand(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def start_seat(seed: str, players: int) -> int:
    """R-63 label ``start``: rand(n) picks the round-1 start player's 0-based seat."""
    return Stream(seed, "start").rand(players)
