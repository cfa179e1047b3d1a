"""Scenario builders for bridge_race tests: ASCII board pictures and injected dice."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.engines.base import DecideContext, Event
from games.engines.bridge_race import RULES
from games.engines.bridge_race.sim import free_tokens
from games.engines.bridge_race.state import FACES, Car, Die, Game, Obj, Prompt, Turn

TOKENS: dict[str, Obj] = {
    "#": Obj("container", 1),
    "P": Obj("police", 1, -1, ("A14",), True),
    "s": Obj("speed", 0, -1, ("A19",)),
    "o": Obj("oil", 0, 0, ("B29",)),
    "a": Obj("acid", 0, 0, ("B30",)),
    "^": Obj("ramp", 1, 0),
    "v": Obj("ramp", -1, 0),
}


def parse_picture(picture: str) -> tuple[dict[tuple[int, int], Obj], dict[int, tuple[int, int]]]:
    """Rows like ``row 5: . A . # .``. Tokens: ``.`` empty, ``#`` container, ``P`` fortified
    police, ``s`` speed limit, ``o`` oil, ``a`` acid, ``^``/``v`` ramp, ``rN`` roadblock of N,
    ``cN`` caltrops N, ``pN`` police N officers, ``mK`` mine of seat K, digits 0-4 cars."""
    objects: dict[tuple[int, int], Obj] = {}
    cars: dict[int, tuple[int, int]] = {}
    for line in picture.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        head, body = line.split(":", 1)
        row = int(head.split()[1])
        for lane, tok in enumerate(body.split()):
            cell = (lane, row)
            if tok == ".":
                continue
            if tok.isdigit():
                cars[int(tok)] = cell
            elif tok in TOKENS:
                objects[cell] = TOKENS[tok]
            elif tok[0] == "r":
                objects[cell] = Obj("roadblock", int(tok[1:]), -1, ("A08",))
            elif tok[0] == "c":
                objects[cell] = Obj("caltrops", int(tok[1:]), -1, ("A01",))
            elif tok[0] == "p":
                objects[cell] = Obj("police", int(tok[1:]), -1, ("A15",))
            elif tok[0] == "m":
                objects[cell] = Obj("mine", 0, int(tok[1:]), ("B27",))
            else:
                raise ValueError(tok)
    return objects, cars


def scenario(
    picture: str,
    *,
    players: int | None = None,
    mode: str = "standard",
    chars: dict[int, str] | None = None,
    speeds: dict[int, int] | None = None,
    facings: dict[int, int] | None = None,
    durs: dict[int, int] | None = None,
    balances: dict[int, int] | None = None,
    tiles: Mapping[int, tuple[str, ...]] | None = None,
    blue: Mapping[int, tuple[str, ...]] | None = None,
    legs: dict[int, str] | None = None,
    money: dict[tuple[int, int], int] | None = None,
    active: int = 0,
    stage: str = "move",
    mp: int | None = None,
    dice: tuple[str, ...] = (),
    pool_free: int | None = None,
    pool_bonus: int = 0,
    rerolls: int = 0,
    status: dict[int, str] | None = None,
    shop: tuple[str, ...] = ("", "", "", "", ""),
    bonus_pile: tuple[str, ...] = (),
    reversed_start: bool = False,
) -> Game:
    objects, pos = parse_picture(picture)
    n = players or len(pos)
    chars = chars or {}
    default_chars = ["C2"] * 5
    cars = []
    for seat in range(n):
        char = chars.get(seat, default_chars[seat])
        maxdur = 8 if char == "C3" else 6
        lane, row = pos.get(seat, (-1, -1))
        cars.append(
            Car(
                seat=seat,
                char=char,
                start=f"S{seat + 1}",
                lane=lane,
                row=row,
                facing=(facings or {}).get(seat, 1),
                speed=(speeds or {}).get(seat, 0),
                dur=(durs or {}).get(seat, maxdur),
                maxdur=maxdur,
                balance=(balances or {}).get(seat, 1000),
                status=(status or {}).get(seat, "board" if seat in pos else "finished"),
                leg=(legs or {}).get(seat, "OUT"),
                ramp="none" if mode == "first_game" else "held",
                tiles=(tiles or {}).get(seat, ()),
                blue=(blue or {}).get(seat, ()),
            )
        )
    speed = cars[active].speed
    turn = Turn(
        seat=active,
        stage=stage,
        dice=tuple(Die(f) for f in dice),
        rerolls=rerolls,
        mp=speed // 10 if mp is None else mp,
        pool_free=free_tokens(speed) if pool_free is None else pool_free,
        pool_bonus=pool_bonus,
        reversed_start=reversed_start,
        ramp_ok=stage == "pre",
    )
    order = tuple(sorted(range(n), key=lambda s: (-cars[s].row, -cars[s].speed, cars[s].lane)))
    g = Game(
        players=n,
        mode=mode,
        phase="turn",
        round=1,
        order=order,
        turn_idx=order.index(active) if active in order else 0,
        cars=tuple(cars),
        objects=objects,
        money=dict(money or {}),
        turn=turn,
        shop=shop,
        bonus_pile=bonus_pile,
        bank_out=sum(c.balance for c in cars) + sum((money or {}).values()),
    )
    return g


class FixedRng(random.Random):
    """Returns the queued faces for die draws; falls back to a seeded RNG."""

    def __init__(self, faces: tuple[str, ...] | list[str] = (), seed: int = 1) -> None:
        super().__init__(seed)
        self.faces = list(faces)

    def choice(self, seq: Any) -> Any:
        if seq is FACES and self.faces:
            return self.faces.pop(0)
        return super().choice(seq)


def reversed_car(dice: tuple[str, ...], **kw: Any) -> Game:
    """Seat 0 facing back at row 10 since the start of its turn (R-56, R-57), choosing what its
    ``dice`` do (stage ``mod``); seats 1 and 2 wait at row 1."""
    return scenario(
        "row 10: . . 0 . .\nrow 1: 1 2 . . .", facings={0: -1}, dice=dice, stage="mod", reversed_start=True, **kw
    )


def do(
    state: Game,
    seat: int,
    payload: dict[str, Any],
    faces: tuple[str, ...] | list[str] = (),
    now: float = 1000.0,
) -> tuple[Game, list[Event]]:
    action = RULES.parse_action(payload)
    events = RULES.decide(state, seat, action, DecideContext(FixedRng(faces), now))
    for e in events:
        state = RULES.evolve(state, Event.from_json(e.to_json()))
    return state, events


def fx(events: list[Event]) -> list[dict[str, Any]]:
    return [f for e in events for f in e.data.get("fx", [])]


def car(state: Game, seat: int) -> Car:
    return state.cars[seat]


def money_total(g: Game) -> int:
    return sum(c.balance for c in g.cars) + sum(g.money.values())


def with_turn(g: Game, **kw: Any) -> Game:
    assert g.turn is not None
    return replace(g, turn=replace(g.turn, **kw))


def turn_of(g: Game) -> Turn:
    """The turn in progress (the scenario is in the turn phase)."""
    assert g.turn is not None
    return g.turn


def prompt_of(g: Game) -> Prompt:
    """The pending choice (the last action stopped at one)."""
    assert g.prompt is not None
    return g.prompt
