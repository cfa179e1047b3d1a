"""Immutable state of a Dirty Money match and its JSON form.

Card stacks are tuples of card ids. The money deck and the placement decks have their top card
first; the discard pile and every blacklist have their top card last (R-7, R-8). A token pile entry
is ``(holder, card)``: ``holder`` is the placement id the token lies under, or ``"RAT"`` for the
Corrupt Rat's overpay slot; ``card`` is ``"*"`` for a virtual token (R-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import fields_from_json, fields_to_json
from .cards import BANK, LOCATION_ORDER, PLACEMENTS, REGIONS

# phases
SETUP = "setup"  # before the start action
BEAR_CHOICE = "bear"  # S-6: the Bear's owner chooses the private stock split
PLAY = "play"
OVER = "over"

# turn steps (section 4.2)
CHOOSE = "choose"  # T-1
ACTIONS = "actions"  # T-3
LOCATION = "location"  # T-4
LAUNDER = "launder"  # T-5: use the Launderer's ability?
LAUNDER_DISCARD = "launder_discard"  # T-5: which card to discard
END = "end"  # T-6: checkpoint (e) done, waiting only for overflow choices


@dataclass(frozen=True)
class State:
    players: int
    quick: bool = False
    choice: bool = False
    pace: str = "live"
    phase: str = SETUP
    locations: tuple[str, ...] = ()
    villains: tuple[str, ...] = ()  # per seat
    resigned: tuple[bool, ...] = ()
    marker: int = 0  # first-player marker holder
    last_player: int = 0  # S-5
    round: int = 0
    order: tuple[int, ...] = ()  # this round's turn order
    turn: int = 0  # index into ``order``
    final: bool = False
    # cards
    deck: tuple[str, ...] = ()  # money deck, top first (server only)
    discard: tuple[str, ...] = ()  # top last
    rows: tuple[tuple[str, ...], ...] = ()  # per location of ``locations``, in arrival order
    pdecks: tuple[tuple[str, ...], ...] = ((), (), ())  # per region, top first (server only)
    displays: tuple[tuple[str, ...], ...] = ((), (), ())  # per region, face-up
    auction: tuple[str, ...] = ("", "", "")  # Auction House slot per region, "" = empty
    stock: tuple[str, ...] = ()  # the Bear's private stock
    hands: tuple[tuple[str, ...], ...] = ()
    tableaux: tuple[tuple[str, ...], ...] = ()
    tokens: tuple[tuple[tuple[str, str], ...], ...] = ()  # per seat: (holder, card)
    blacklists: tuple[tuple[str, ...], ...] = ()  # per seat, top last, "*" virtual
    # the turn in progress
    step: str = CHOOSE
    location: str = ""
    pending: tuple[str, ...] = ()  # the active player's pending action cards, in row order
    resolving: str = ""  # the action card being resolved (Trade's second step)
    trade_target: int = -1
    trim: tuple[int, ...] = ()  # seats that must blacklist overflow cards now
    gallery_left: int = 0  # Art Gallery draws still to decide
    after_gain: bool = False  # checkpoint (c) and R-95 are due once the gain's effects are done
    queued: str = ""  # second card of a combined purchase, paid for, gained after the first
    bought: int = 0  # placements bought during this visit
    shark_used: bool = False  # R-89, per turn
    banana_done: bool = False  # R-52 carried out this turn
    drawn: str = ""  # the Launderer's drawn card (secret of the active player)
    since: float = 0.0  # when the current decision started
    round_gains: int = 0  # placements gained this round (for the stalled-game end, see rules.stalled)
    # the end
    result: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())  # scores, ranks, winners
    history: tuple[tuple[int, ...], ...] = ()  # money in each hand (R-3 values) as each round began, and at the end

    # -- derived ---------------------------------------------------------------------------------

    @property
    def active(self) -> int:
        """The seat whose turn it is (-1 between rounds)."""
        if not self.order:
            return self.marker
        return self.order[self.turn] if self.turn < len(self.order) else -1

    @property
    def target(self) -> int:
        """R-95 / R-130: placements that trigger the final round."""
        return 8 if self.quick else 10

    @property
    def display_size(self) -> int:
        """R-131: face-up cards per regional display."""
        return 3 if self.choice else 2

    def row(self, location: str) -> tuple[str, ...]:
        return self.rows[self.locations.index(location)]

    def limit(self, seat: int) -> int:
        """R-20 / R-79: 7 plus one per Digital Bank owned."""
        return 7 + sum(1 for p in self.tableaux[seat] if PLACEMENTS[p].type == BANK)

    def blacklist_points(self, seat: int) -> int:
        """R-7: the number of cards (virtual tokens included) in the blacklist."""
        return len(self.blacklists[seat])

    def token_count(self, seat: int, holder: str) -> int:
        return sum(1 for h, _card in self.tokens[seat] if h == holder)

    def villain_seat(self, villain: str) -> int:
        return self.villains.index(villain) if villain in self.villains else -1

    def owned(self, seat: int, kind: str, region: str | None = None) -> int:
        return sum(
            1
            for p in self.tableaux[seat]
            if PLACEMENTS[p].type == kind and (region is None or PLACEMENTS[p].region == region)
        )


_DEPTH: dict[str, int] = {
    "locations": 1,
    "villains": 1,
    "resigned": 1,
    "order": 1,
    "deck": 1,
    "discard": 1,
    "rows": 2,
    "pdecks": 2,
    "displays": 2,
    "auction": 1,
    "stock": 1,
    "hands": 2,
    "tableaux": 2,
    "tokens": 3,
    "blacklists": 2,
    "pending": 1,
    "trim": 1,
    "result": 2,
    "history": 2,
}


def _to_lists(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_lists(v) for v in value]
    return value


def _to_tuples(value: Any, depth: int) -> Any:
    if depth == 0:
        return value
    return tuple(_to_tuples(v, depth - 1) for v in value)


def state_to_json(state: State) -> dict[str, Any]:
    return fields_to_json(state, lambda _name, value: _to_lists(value))


def state_from_json(data: dict[str, Any]) -> State:
    return fields_from_json(State, data, lambda name, value: _to_tuples(value, _DEPTH.get(name, 0)))


def all_cards(state: State) -> list[str]:
    """Every real card in some zone (for the R-5 invariant: each exactly once)."""
    out: list[str] = list(state.deck) + list(state.discard) + list(state.stock) + list(state.pending)
    if state.resolving:
        out.append(state.resolving)
    for row in state.rows:
        out += row
    for cards in (*state.pdecks, *state.displays, *state.hands, *state.tableaux):
        out += cards
    out += [c for c in state.auction if c]
    for pile in state.tokens:
        out += [c for _h, c in pile if c != "*"]
    for bl in state.blacklists:
        out += [c for c in bl if c != "*"]
    return out


__all__ = ["LOCATION_ORDER", "REGIONS", "State", "all_cards", "state_from_json", "state_to_json"]
