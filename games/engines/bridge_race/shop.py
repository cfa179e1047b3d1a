"""The shop (R-65..R-67) and pile draws (R-22, R-66)."""

from __future__ import annotations

from ..base import IllegalAction, gettext_noop
from .sim import Sim
from .state import BONUS, COLOUR_RANK, SHOP_PRICES


def _draw(sim: Sim, pile: str, discard: str, name: str) -> str:
    """The top tile of a pile, reshuffling its discard pile into it when it is empty (R-22, R-66)."""
    if not getattr(sim, pile) and getattr(sim, discard):
        setattr(sim, pile, sim.shuffle(getattr(sim, discard)))
        setattr(sim, discard, ())
        sim.log("reshuffle", pile=name)
    tiles: tuple[str, ...] = getattr(sim, pile)
    if not tiles:
        return ""
    setattr(sim, pile, tiles[1:])
    return tiles[0]


def draw_bonus(sim: Sim) -> str:
    return _draw(sim, "bonus_pile", "bonus_discard", "bonus")


def draw_adventure(sim: Sim) -> str:
    return _draw(sim, "adv_pile", "adv_discard", "adventure")


def setup_shop(sim: Sim) -> None:
    """R-18 step 5."""
    drawn = [draw_bonus(sim) for _ in range(5)]
    drawn = [t for t in drawn if t]
    drawn.sort(key=lambda t: COLOUR_RANK[BONUS[t][1]])  # stable
    sim.shop = tuple(drawn + [""] * (5 - len(drawn)))
    sim.log("shop", tiles=list(sim.shop))


def refill(sim: Sim, slot: int) -> None:
    """R-66: slots more expensive than ``slot`` move down one; the $500 slot is refilled."""
    shop = list(sim.shop)
    for i in range(slot, 0, -1):
        shop[i] = shop[i - 1]
    shop[0] = ""
    sim.shop = tuple(shop)
    tile = draw_bonus(sim)
    shop[0] = tile
    sim.shop = tuple(shop)
    sim.log("shop", tiles=list(sim.shop))


def buy(sim: Sim, seat: int, slot: int) -> None:
    """R-65."""
    t = sim.turn
    assert t is not None
    if sim.mode == "first_game":
        raise IllegalAction(gettext_noop("There is no shop in the first game."))
    if t.bought:
        raise IllegalAction(gettext_noop("You already bought a tile this turn."))
    if not 0 <= slot < 5 or not sim.shop[slot]:
        raise IllegalAction(gettext_noop("That shop slot is empty."))
    tile = sim.shop[slot]
    price = SHOP_PRICES[slot]
    sim.pay(seat, price)
    c = sim.car(seat)
    sim.set_car(seat, tiles=(*c.tiles, tile))
    sim.set_turn(bought=True)
    sim.bought_round = True
    sim.log("buy", seat=seat, tile=tile, price=price)
    refill(sim, slot)


def refresh(sim: Sim) -> None:
    """R-67."""
    if sim.shop[4]:
        sim.bonus_discard = (*sim.bonus_discard, sim.shop[4])
        sim.log("shop_discard", tile=sim.shop[4])
    refill(sim, 4)
