"""R-62..R-64: the seed, the labelled SHA-256 streams and the recorded shuffles, checked against an
implementation written here from the spec's words alone."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

from games.engines.base import SYSTEM, DecideContext
from games.engines.exit_memory import RULES, ExitMemoryRules
from games.engines.exit_memory.randomness import Stream

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def spec_stream(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    while True:
        yield from hashlib.sha256(seed + label.encode() + counter.to_bytes(4, "big")).digest()
        counter += 1


def spec_shuffle(seed_hex: str, label: str, ids: list[str]) -> list[str]:
    stream = spec_stream(bytes.fromhex(seed_hex), label)

    def rand(m: int) -> int:
        while True:
            u = int.from_bytes(bytes(next(stream) for _ in range(8)), "big")
            if u < 2**64 - (2**64 % m):
                return u % m

    deck = sorted(ids)
    for i in range(len(deck) - 1, 0, -1):
        j = rand(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def started(seed: str = SEED, players: int = 3, danger: bool = True) -> list[dict[str, object]]:
    rules = ExitMemoryRules(seed=seed)
    state = rules.initial(players, {"danger": danger})
    events = rules.decide(state, SYSTEM, {"type": "start"}, DecideContext(random.Random(1), 1000.0))
    return [e.to_json() for e in events]


def test_R63_a_known_seed_gives_the_spec_shuffles() -> None:
    events = started()
    orders = {e["data"]["label"]: e["secret"]["order"] for e in events if e["type"] == "shuffled"}  # type: ignore[index]
    assert orders["floor"] == spec_shuffle(SEED, "floor", [f"FL{i}" for i in range(1, 7)])
    assert orders["danger"] == spec_shuffle(SEED, "danger", [f"DG{i}" for i in range(1, 8)])
    assert orders["tiles/round-1"] == spec_shuffle(SEED, "tiles/round-1", [f"T{i:02d}" for i in range(1, 38)])
    # The first 8 bytes of SHA-256(seed ‖ "start" ‖ 0) choose the start player (rand(3)).
    u = int.from_bytes(hashlib.sha256(bytes.fromhex(SEED) + b"start" + bytes(4)).digest()[:8], "big")
    round_started = next(e for e in events if e["type"] == "round_started")
    assert round_started["data"]["start"] == u % 3  # type: ignore[index]


def test_R63_the_deal_takes_three_tiles_each_from_the_top_starting_with_the_start_player() -> None:
    events = started(players=4, danger=False)
    order = next(e for e in events if e["type"] == "shuffled" and e["data"]["label"] == "tiles/round-1")  # type: ignore[index]
    deck = order["secret"]["order"]  # type: ignore[index]
    start = next(e for e in events if e["type"] == "round_started")["data"]["start"]  # type: ignore[index]
    dealt = [e for e in events if e["type"] == "dealt"]
    assert [d["data"]["seat"] for d in dealt] == [(start + i) % 4 for i in range(4)]  # type: ignore[index]
    assert [t for d in dealt for t in d["secret"]["tiles"]] == deck[:12]  # type: ignore[index]


def test_R63_rand_rejects_the_biased_tail() -> None:
    """rand(m) discards u ≥ 2^64 − (2^64 mod m): with m = 3, 2^64 mod 3 = 1, so only u = 2^64 − 1 is
    discarded; check the stream consumes exactly 8 bytes a draw otherwise."""
    stream = Stream(SEED, "x")
    raw = spec_stream(bytes.fromhex(SEED), "x")
    for _ in range(10):
        u = int.from_bytes(bytes(next(raw) for _ in range(8)), "big")
        assert stream.rand(7) == u % 7


def test_R62_R64_seed_and_shuffles_are_secret_until_the_game_ends() -> None:
    events = started()
    created = events[0]
    assert created["type"] == "game_created" and created["secret"] == {"seed": SEED}
    assert created["visible_to"] == [] and SEED not in json.dumps(created["data"])
    for e in events:
        if e["type"] == "shuffled":
            assert e["visible_to"] == [] and "order" not in e["data"]  # type: ignore[operator]


def test_R62_each_game_draws_its_own_32_byte_seed() -> None:
    state = RULES.initial(2, {})
    seeds = set()
    for i in range(3):
        events = RULES.decide(state, SYSTEM, {"type": "start"}, DecideContext(random.Random(i), 0.0))
        seeds.add(events[0].secret["seed"])  # type: ignore[index]
    assert len(seeds) == 3 and all(len(bytes.fromhex(s)) == 32 for s in seeds)
