"""Buying and paying (section 5.7): adjusted costs, the payment checks and their enumeration."""

from __future__ import annotations

from ..base import gettext_noop as _
from .cards import CRYPTO, CURRENCY_OF, EXCHANGE, PLACEMENTS, is_action, value_to


def adjusted_cost(card: str, tableau: tuple[str, ...] | list[str]) -> int:
    """R-60 / R-75: printed cost minus the buyer's Crypto Exchanges of the card's region."""
    p = PLACEMENTS[card]
    exchanges = sum(1 for t in tableau if PLACEMENTS[t].type == EXCHANGE and PLACEMENTS[t].region == p.region)
    return max(0, p.cost - exchanges)


def amount_due(cards: list[str], tableau: tuple[str, ...]) -> int:
    """R-66 combined: adj(first) + adj(second) as if the first were already owned (R-71)."""
    total = 0
    owned = list(tableau)
    for card in cards:
        total += adjusted_cost(card, owned)
        owned.append(card)
    return total


def eligible(card: str, region: str) -> bool:
    """R-61 / R-2: the region's currency or crypto."""
    cur = card.split("-")[0]
    return cur in (CURRENCY_OF[region], CRYPTO)


def counts_for(card: str, villain: str, shark_card: str | None) -> int:
    """R-61 / R-89: a card's worth in a payment (the Shark's designated card counts exactly 2)."""
    return 2 if card == shark_card else value_to(card, villain)


def payment_error(
    hand: tuple[str, ...],
    villain: str,
    region: str,
    due: int,
    payment: list[str],
    shark_card: str | None,
) -> str | None:
    """None if ``payment`` is legal for ``due`` (R-61 to R-63, R-89), else the reason."""
    if len(set(payment)) != len(payment):
        return _("A card can be paid only once.")
    for card in payment:
        if card not in hand or is_action(card):
            return _("You can only pay with money cards from your hand.")
    if shark_card is not None and shark_card not in payment:
        return _("The card counted as 2 must be part of the payment.")
    for card in payment:
        if card != shark_card and not eligible(card, region):
            return _("That currency cannot pay for this placement.")
    if due == 0:
        return None if not payment else _("This placement costs nothing: pay with no cards.")
    worths = [counts_for(c, villain, shark_card) for c in payment]
    total = sum(worths)
    if total < due:
        return _("That is not enough money.")
    if any(total - w >= due for w in worths):
        return _("Every card of a payment must be needed: leave out the surplus card.")
    return None


def payments(
    hand: tuple[str, ...],
    villain: str,
    region: str,
    due: int,
    shark: bool,
) -> list[tuple[tuple[str, ...], str | None]]:
    """Every legal (payment, shark card) for ``due``, payments sorted by id (R-61 to R-63, R-89)."""
    if due == 0:
        return [((), None)]
    money = sorted(c for c in hand if not is_action(c))
    ok = [c for c in money if eligible(c, region)]
    out: list[tuple[tuple[str, ...], str | None]] = []
    seen: set[tuple[tuple[str, ...], str | None]] = set()

    def consider(cards: tuple[str, ...], shark_card: str | None) -> None:
        key = (tuple(sorted(cards)), shark_card)
        if key in seen:
            return
        worths = [counts_for(c, villain, shark_card) for c in cards]
        total = sum(worths)
        if total >= due and all(total - w < due for w in worths):
            seen.add(key)
            out.append(key)

    def extend(cards: list[str], start: int, chosen: tuple[str, ...], total: int, special: str | None) -> None:
        # A set whose total already reaches ``due`` cannot grow: the added card would be surplus.
        if total >= due:
            consider(chosen, special)
            return
        for i in range(start, len(cards)):
            extend(cards, i + 1, (*chosen, cards[i]), total + value_to(cards[i], villain), special)

    extend(ok, 0, (), 0, None)
    if shark:
        for special in money:
            extend([c for c in ok if c != special], 0, (special,), 2, special)
    return out


def cheapest_payment(
    hand: tuple[str, ...], villain: str, region: str, due: int, shark: bool
) -> tuple[tuple[str, ...], str | None] | None:
    """The legal payment with the least overpayment, then fewest clean cards, then fewest cards."""
    options = payments(hand, villain, region, due, shark)
    if not options:
        return None

    def key(option: tuple[tuple[str, ...], str | None]) -> tuple[int, int, int, int, tuple[str, ...]]:
        cards, special = option
        total = sum(counts_for(c, villain, special) for c in cards)
        clean = sum(1 for c in cards if "D-" not in c)
        return (total - due, 1 if special else 0, clean, len(cards), cards)

    return min(options, key=key)
