"""Immutable state of a heist match and its JSON form."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from ..base import fields_from_json, fields_to_json
from .constants import DECK_SIZE, DECK_SIZE_QUICK, TARGET, TARGET_QUICK

_Frozen = TypeVar("_Frozen")
_FIELD_NAMES: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def replace(obj: _Frozen, /, **changes: Any) -> _Frozen:
    """``dataclasses.replace`` for this module's frozen dataclasses, in about a third of its time
    (``evolve`` replaces the state or a hand some ten times a move, and a frozen class's
    ``__init__`` sets each of the state's thirty fields through ``object.__setattr__``). None of
    them has an ``__post_init__``, a field left out of ``__init__`` or ``__slots__``: the new
    instance is the fields' values with the changes laid over them, as ``dataclasses.replace``
    builds it."""
    cls = type(obj)
    found = _FIELD_NAMES.get(cls)
    if found is None:
        ordered = tuple(f.name for f in fields(obj))  # type: ignore[arg-type]
        found = _FIELD_NAMES[cls] = (ordered, frozenset(ordered))
    names, known = found
    if not changes.keys() <= known:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # raises its TypeError
    values = obj.__dict__
    new = object.__new__(cls)
    new.__dict__.update({name: values[name] for name in names})  # frozen: setattr refused, not the dict
    new.__dict__.update(changes)
    return new


# Phases
SETUP = "setup"
PLANNING = "planning"
NEGOTIATION = "negotiation"
HEIST = "heist"  # transient: resolution runs inside one decide
NAMING = "naming"  # the resolution waits for the lone informant's owner
OVER = "over"

# Hand statuses
UNDECIDED = "undecided"
WITHDRAWN = "withdrawn"
COMMITTED = "committed"

# Hand results during the heist
SURVIVED = "survived"
ELIMINATED = "eliminated"

# Stake states
ON_TABLE = "table"
RETURNED = "returned"
FORFEITED = "forfeited"

# Offer statuses. Only open offers live in the state: an offer leaves it the moment it is
# accepted (R-24 settles it at once, nothing is left to pay later), declined, cancelled, failed
# or expired. Its history is in the event log, which the log lines read.
OPEN = "open"
ACCEPTED = "accepted"
DECLINED = "declined"
CANCELLED = "cancelled"
FAILED = "failed"
EXPIRED = "expired"


@dataclass(frozen=True)
class Hand:
    """One character placed in the current heist (R-1)."""

    seat: int
    slot: int
    role: str
    stake: int
    own: int
    loan: int
    status: str = UNDECIDED
    stake_state: str = ON_TABLE
    named: bool = False
    revealed: bool = False
    result: str = ""


@dataclass(frozen=True)
class Offer:
    """An open binding money offer (R-24). ``clause`` is the payee's slot to withdraw, 0 for none.

    Every offer in a state is open (R-26): closing removes it, so there is no status field.
    """

    id: int
    creator: int
    payer: int
    payee: int
    amount: int
    clause: int
    created: float
    expires: float


@dataclass(frozen=True)
class Look:
    """A threat-card look (R-48): only ``seat`` may ever see ``role`` during the match."""

    heist: int
    seat: int
    target: int
    slot: int
    role: str


@dataclass(frozen=True)
class State:
    players: int
    no_repeat: bool = False
    quick: bool = False
    time_limit: int = 60
    phase: str = SETUP
    heist: int = 0
    deck: tuple[str, ...] = ()  # secret: remaining loot deck, top first
    removed: tuple[str, ...] = ()  # secret: loot cards out of the game
    loot: str = ""  # current loot card id ("" between heists)
    balances: tuple[int, ...] = ()
    threats: tuple[int, ...] = ()
    supply: int = 8
    boss: int = 0
    resigned: tuple[bool, ...] = ()
    choices: tuple[tuple[str, ...], ...] = ()  # secret: roles per seat, () = not chosen yet
    timed_out: tuple[bool, ...] = ()  # secret-ish: whose choice was a time-out pick
    previous: tuple[tuple[str, ...], ...] = ()  # public (V-NO-REPEAT): last heist's roles
    hands: tuple[Hand, ...] = ()
    pool: tuple[str, ...] = ()  # face-up role cards, in reveal order
    set_aside: str = ""  # secret
    planning_at: float = 0.0
    negotiation_at: float = 0.0
    roll_call: bool = False
    powers_ready: bool = False  # R-76 b/c: set by the boss_powers_ready event (T/2 into negotiation)
    prompts: tuple[tuple[int, float], ...] = ()  # (seat, due)
    call_due: float | None = None
    offers: tuple[Offer, ...] = ()  # the open offers only (closed ones leave, see Offer)
    next_offer: int = 1  # the next offer id: never reset, so ids are unique in the match
    looks: tuple[Look, ...] = ()
    informant: tuple[int, int] | None = None  # the lone informant (seat, slot)
    named_role: str | None = None
    naming_due: float | None = None
    report: tuple[dict[str, Any], ...] = ()  # public events of the latest heist resolution
    report_heist: int = 0
    end_reason: str = ""
    winners: tuple[int, ...] = field(default=())
    # Derived, not a rule: every balance at the start and after each heist, for the end chart
    # (appended by ``evolve`` at ``game_started`` and ``heist_ended``; R-64 makes balances public).
    money_history: tuple[tuple[int, ...], ...] = ()

    # -- derived helpers -------------------------------------------------------------------

    @property
    def target(self) -> int:
        return TARGET_QUICK if self.quick else TARGET

    @property
    def deck_size(self) -> int:
        return DECK_SIZE_QUICK if self.quick else DECK_SIZE

    def hands_of(self, seat: int) -> tuple[Hand, ...]:
        return tuple(h for h in self.hands if h.seat == seat)

    def hand(self, seat: int, slot: int) -> Hand | None:
        for h in self.hands:
            if h.seat == seat and h.slot == slot:
                return h
        return None

    def undecided(self, seat: int) -> tuple[Hand, ...]:
        return tuple(h for h in self.hands if h.seat == seat and h.status == UNDECIDED)

    def fully_withdrawn(self, seat: int) -> bool:
        """R-5: every hand of the seat in the current heist is withdrawn."""
        mine = self.hands_of(seat)
        return bool(mine) and all(h.status == WITHDRAWN for h in mine)

    def offer(self, offer_id: int) -> Offer | None:
        for o in self.offers:
            if o.id == offer_id:
                return o
        return None

    def replace_hand(self, new: Hand) -> State:
        return replace(
            self,
            hands=tuple(new if (h.seat, h.slot) == (new.seat, new.slot) else h for h in self.hands),
        )

    def without_offer(self, offer_id: int) -> State:
        """The state once offer ``offer_id`` has closed (accepted, declined, cancelled, failed, expired)."""
        return replace(self, offers=tuple(o for o in self.offers if o.id != offer_id))


def _tuple_of(kind: type, items: list[Any]) -> tuple[Any, ...]:
    return tuple(kind(**item) for item in items)


_OFFER_FIELDS = tuple(f.name for f in fields(Offer))


def _open_offers(items: list[dict[str, Any]]) -> tuple[Offer, ...]:
    """Offers of a snapshot; older snapshots also kept closed offers (with a status): drop those."""
    return tuple(Offer(**{k: item[k] for k in _OFFER_FIELDS}) for item in items if item.get("status", OPEN) == OPEN)


def _field_to_json(name: str, value: Any) -> Any:
    if name in ("hands", "offers", "looks"):
        return [{g.name: getattr(item, g.name) for g in fields(item)} for item in value]
    if name in ("choices", "previous", "prompts", "money_history"):
        return [list(v) for v in value]
    if name == "report":
        return [dict(v) for v in value]
    return list(value) if isinstance(value, tuple) else value


def _field_from_json(name: str, value: Any) -> Any:
    if name == "hands":
        return _tuple_of(Hand, value)
    if name == "offers":
        return _open_offers(value)
    if name == "looks":
        return _tuple_of(Look, value)
    if name in ("choices", "previous", "money_history"):
        return tuple(tuple(v) for v in value)
    if name == "prompts":
        return tuple((int(s), d) for s, d in value)
    if name == "report":
        return tuple(dict(v) for v in value)
    if name == "informant":
        return None if value is None else (int(value[0]), int(value[1]))
    return tuple(value) if isinstance(value, list) else value


def state_to_json(state: State) -> dict[str, Any]:
    return fields_to_json(state, _field_to_json)


def state_from_json(data: dict[str, Any]) -> State:
    return fields_from_json(State, data, _field_from_json)
