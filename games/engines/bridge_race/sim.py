"""A mutable working copy of the state used inside ``decide``; it yields the new immutable
state and the patch recorded in the event (R-97)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .board import FREE_TOKENS, Cell, key, on_bridge, unkey, zone_of
from .state import (
    FACES,
    GAME_FIELDS,
    SECRET_FIELDS,
    Car,
    Game,
    Obj,
    Prompt,
    Turn,
    field_from_json,
    field_to_json,
)


class NeedChoice(Exception):
    def __init__(self, seat: int, kind: str, options: list[Cell]) -> None:
        super().__init__(kind)
        self.seat = seat
        self.kind = kind
        self.options = options


class Sim:
    """Working copy. Scalar fields are plain attributes; cars a list; objects/money dicts."""

    # The other Game fields, copied by ``__init__`` through GAME_FIELDS (declared for the checker).
    time_limit: int
    round: int
    seq: int
    since: float
    order: tuple[int, ...]
    turn_idx: int
    place_idx: int
    choose_idx: int
    face_up: tuple[str, ...]
    adv_pile: tuple[str, ...]
    adv_discard: tuple[str, ...]
    bonus_pile: tuple[str, ...]
    bonus_discard: tuple[str, ...]
    shop: tuple[str, ...]
    bought_round: bool
    end_steps: tuple[str, ...]
    prompt: Prompt | None
    finish_order: tuple[int, ...]
    arrest_order: tuple[int, ...]
    bank_out: int
    end_reason: str

    def __init__(
        self,
        g: Game,
        rng: random.Random | None = None,
        choices: tuple[int, ...] = (),
        draws: tuple[str, ...] = (),
    ) -> None:
        self.g0 = g
        for n in GAME_FIELDS:
            setattr(self, n, getattr(g, n))
        self.cars: list[Car] = list(g.cars)
        self.objects: dict[Cell, Obj] = dict(g.objects or {})
        self.money: dict[Cell, int] = dict(g.money or {})
        self.turn: Turn | None = g.turn
        self.rng = rng
        self.choices = list(choices)
        self.draws_in = list(draws)
        self.draws_out: list[str] = []
        self.choices_used: list[int] = []
        self.fx: list[dict[str, Any]] = []
        self.zeroed: list[tuple[int, bool]] = []
        self.move_over = False  # the active car's movement was ended by an effect
        self.players: int = g.players
        self.mode: str = g.mode
        self.phase: str = g.phase

    # ---- freezing and patches ---------------------------------------------------------
    def freeze(self) -> Game:
        kw = {n: getattr(self, n) for n in GAME_FIELDS}
        kw["cars"] = tuple(self.cars)
        return Game(**kw)

    def log(self, t: str, **kw: Any) -> None:
        kw["t"] = t
        self.fx.append(kw)

    # ---- cars ---------------------------------------------------------------------------
    def car(self, seat: int) -> Car:
        return self.cars[seat]

    def set_car(self, seat: int, **kw: Any) -> Car:
        c = replace(self.cars[seat], **kw)
        self.cars[seat] = c
        return c

    def car_at(self, cell: Cell) -> Car | None:
        for c in self.cars:
            if c.status == "board" and c.lane == cell[0] and c.row == cell[1]:
                return c
        return None

    def set_turn(self, **kw: Any) -> None:
        assert self.turn is not None
        self.turn = replace(self.turn, **kw)

    def active_seat(self) -> int:
        return self.turn.seat if self.turn is not None else -99

    def has_blue(self, seat: int, tile: str) -> bool:
        return tile in self.cars[seat].blue

    def closed(self) -> bool:
        return self.mode == "closed_border"

    # ---- objects --------------------------------------------------------------------
    def obj(self, cell: Cell) -> Obj | None:
        return self.objects.get(cell)

    def set_obj(self, cell: Cell, o: Obj | None) -> None:
        if o is None:
            self.objects.pop(cell, None)
        else:
            self.objects[cell] = o

    def remove_obj(self, cell: Cell) -> None:
        """Remove an object and discard its tiles."""
        o = self.objects.pop(cell, None)
        if o is None:
            return
        self.discard_tiles(o.tiles)

    def discard_tiles(self, tiles: tuple[str, ...]) -> None:
        for t in tiles:
            if t.startswith("A"):
                self.adv_discard = (*self.adv_discard, t)
            else:
                self.bonus_discard = (*self.bonus_discard, t)

    def blocks_car(self, cell: Cell) -> bool:
        """Container or fortified police (immovable for cars)."""
        o = self.objects.get(cell)
        return o is not None and (o.kind == "container" or o.fortified)

    def is_free(self, cell: Cell) -> bool:
        return on_bridge(cell) and cell not in self.objects and self.car_at(cell) is None

    def placeable(self, cell: Cell) -> bool:
        if not self.is_free(cell) or cell[1] <= 2:
            return False
        if self.closed():
            from .board import FORCED_ZONE, wall_row

            if zone_of(cell[1]) == FORCED_ZONE[self.players] or cell[1] > wall_row(self.players):
                return False
        return True

    # ---- money ------------------------------------------------------------------------
    def gain(self, seat: int, amount: int) -> None:
        c = self.cars[seat]
        self.set_car(seat, balance=c.balance + amount)
        self.bank_out += amount

    def pay(self, seat: int, amount: int) -> None:
        self.gain(seat, -amount)

    def drop(self, cell: Cell, amount: int) -> None:
        if amount:
            self.money[cell] = self.money.get(cell, 0) + amount

    def pickup(self, seat: int, cell: Cell) -> None:
        amount = self.money.pop(cell, 0)
        if amount:
            c = self.cars[seat]
            self.set_car(seat, balance=c.balance + amount)
            self.log("pickup", seat=seat, amount=amount, lane=cell[0], row=cell[1])

    def damage(
        self,
        seat: int,
        n: int,
        kind: str,
        drop: Any = None,
        immovable: bool = False,
    ) -> int:
        """R-26. ``drop``: a cell, "bank", or None (caller drops the returned money).
        Returns the money lost."""
        c = self.cars[seat]
        if c.char == "C4" and kind in ("road", "landing", "bounce"):
            n = max(0, n - 1)
        if kind == "shot" and "B07" in c.blue:
            self.log("protected", seat=seat)
            return 0
        lost = min(n, c.dur)
        if lost <= 0:
            return 0
        amount = min(100 * lost, max(c.balance, 0))
        c = self.set_car(seat, dur=c.dur - lost, balance=c.balance - amount)
        self.log("damage", seat=seat, n=lost, amount=amount, kind=kind)
        if drop == "bank":
            self.bank_out -= amount
            amount = 0
        elif drop is not None:
            self.drop(drop, amount)
            amount = 0
        if c.dur == 0:
            self.zeroed.append((seat, immovable))
        return amount

    def spins(self) -> None:
        """R-55: spin every car whose durability reached 0 in the current event."""
        pending, self.zeroed = self.zeroed, []
        done: set[int] = set()
        for seat, immovable in pending:
            if seat in done:
                continue
            done.add(seat)
            c = self.cars[seat]
            if c.status != "board":
                continue
            if immovable and c.speed == 0:
                continue
            self.set_car(seat, facing=-c.facing, speed=0)
            self.log("spin", seat=seat)
            self.update_leg(seat)
            if self.turn is not None and self.turn.seat == seat and self.turn.stage == "move":
                self.move_over = True

    def update_leg(self, seat: int) -> None:
        """R-82: an OUTBOUND car in the forced zone facing the start becomes RETURN."""
        if not self.closed():
            return
        from .board import FORCED_ZONE

        c = self.cars[seat]
        if c.status == "board" and c.leg == "OUT" and c.facing == -1 and zone_of(c.row) == FORCED_ZONE[self.players]:
            self.set_car(seat, leg="RET")
            self.log("leg", seat=seat)

    def normal_facing(self, seat: int) -> int:
        return -1 if self.cars[seat].leg == "RET" else 1

    def reversed(self, seat: int) -> bool:
        return self.cars[seat].facing != self.normal_facing(seat)

    # ---- choices and randomness ------------------------------------------------------
    def choose(self, seat: int, kind: str, options: list[Cell]) -> Cell:
        if len(options) == 1:
            return options[0]
        if self.choices:
            i = self.choices.pop(0)
            self.choices_used.append(i)
            if not 0 <= i < len(options):
                i = 0
            return options[i]
        raise NeedChoice(seat, kind, options)

    def draw_face(self) -> str:
        if self.draws_in:
            f = self.draws_in.pop(0)
        else:
            assert self.rng is not None
            f = self.rng.choice(FACES)
        self.draws_out.append(f)
        return f

    def shuffle(self, items: tuple[str, ...]) -> tuple[str, ...]:
        assert self.rng is not None
        out = list(items)
        self.rng.shuffle(out)
        return tuple(out)

    # ---- tokens -------------------------------------------------------------------------
    def pool(self) -> int:
        t = self.turn
        if t is None:
            return 0
        steer = sum(2 if d.double else 1 for d in t.dice if d.face == "STEER" and d.state == "")
        return t.pool_free + t.pool_bonus + steer

    def spend(self, n: int) -> None:
        t = self.turn
        assert t is not None
        free = min(n, t.pool_free)
        n -= free
        bonus = min(n, t.pool_bonus)
        n -= bonus
        dice = list(t.dice)
        for i, d in enumerate(dice):
            if n <= 0:
                break
            if d.face == "STEER" and d.state == "":
                n -= 2 if d.double else 1
                dice[i] = replace(d, state="used")
        self.turn = replace(t, pool_free=t.pool_free - free, pool_bonus=t.pool_bonus - bonus, dice=tuple(dice))

    def empty_pool(self) -> None:
        t = self.turn
        assert t is not None
        dice = tuple(replace(d, state="used") if d.face == "STEER" and d.state == "" else d for d in t.dice)
        self.turn = replace(t, pool_free=0, pool_bonus=0, dice=dice)


def free_tokens(speed: int) -> int:
    return FREE_TOKENS.get(speed, 0)


def make_patch(old: Game, new: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """(public patch, secret patch) turning ``old`` into ``new``."""
    pub: dict[str, Any] = {}
    sec: dict[str, Any] = {}
    f: dict[str, Any] = {}
    for n in GAME_FIELDS:
        a = getattr(old, n)
        b = getattr(new, n)
        if a is b:
            continue
        if n == "cars":
            cs = {str(i): c.to_json() for i, c in enumerate(b) if i >= len(a) or a[i] != c}
            if len(a) != len(b):
                f["cars"] = field_to_json("cars", b)
            elif cs:
                pub["c"] = cs
            continue
        if n in ("objects", "money"):
            a = a or {}
            b = b or {}
            if a == b:
                continue
            d: dict[str, Any] = {}
            for k in a.keys() | b.keys():
                va = a.get(k)
                vb = b.get(k)
                if va != vb:
                    if vb is None:
                        d[key(k)] = None
                    else:
                        d[key(k)] = vb.to_json() if n == "objects" else vb
            pub["o" if n == "objects" else "m"] = d
            continue
        if a == b:
            continue
        if n in SECRET_FIELDS:
            sec[n] = field_to_json(n, b)
        else:
            f[n] = field_to_json(n, b)
    if f:
        pub["f"] = f
    return pub, sec


def apply_patch(g: Game, pub: dict[str, Any], sec: dict[str, Any] | None) -> Game:
    kw: dict[str, Any] = {}
    for n, v in (pub.get("f") or {}).items():
        kw[n] = field_from_json(n, v)
    for n, v in (sec or {}).items():
        kw[n] = field_from_json(n, v)
    if "c" in pub:
        cars = list(kw.get("cars", g.cars))
        for i, c in pub["c"].items():
            cars[int(i)] = Car.from_json(c)
        kw["cars"] = tuple(cars)
    if "o" in pub:
        kw["objects"] = _patched_cells(g.objects, pub["o"], Obj.from_json)
    if "m" in pub:
        kw["money"] = _patched_cells(g.money, pub["m"], lambda amount: amount)
    return replace(g, **kw) if kw else g


def _patched_cells(
    cells: dict[Cell, Any] | None, changes: dict[str, Any], decode: Callable[[Any], Any]
) -> dict[Cell, Any]:
    """``cells`` with a patch's changes by cell key: ``None`` empties the cell, anything else is
    ``decode``d into it."""
    out = dict(cells or {})
    for k, v in changes.items():
        if v is None:
            out.pop(unkey(k), None)
        else:
            out[unkey(k)] = decode(v)
    return out
