"""The engine protocol shared by every game (event sourcing).

A game is a :class:`Rules` object. The platform only ever talks to games through it:

* ``initial(players, options)`` builds the state before anything random happens.
* ``actors(state)`` lists the seats that may act now (``SYSTEM`` for automatic steps that should
  run at once); it is empty when the game is over.
* ``legal_actions(state, seat)`` lists canonical action payloads (used by the UI, bots and tests).
* ``parse_action(payload)`` turns untrusted JSON into a canonical action, or raises
  :class:`InvalidAction` (malformed input, HTTP 400).
* ``decide(state, seat, action, ctx)`` validates the action against the state, raising
  :class:`IllegalAction` (HTTP 422), and returns the events it causes. Every random outcome is
  drawn here from ``ctx.rng`` and recorded in the events.
* ``evolve(state, event)`` applies one event: pure, total, no validation, no randomness. Replay is a
  fold of ``evolve`` over the log.
* ``view(state, seat)`` is what that seat (``None``: a spectator) may see, as JSON-safe data.
* ``outcome(state)`` is the result once the game is over, else ``None``.
* ``deadlines(state)`` lists the decisions being waited on and the ``SYSTEM`` action that applies
  when each one's time runs out.

Seats are 0-based integers; ``SYSTEM`` (-1) acts for the server (start, time-outs, round-end steps).
Actions are canonical JSON objects with a ``"type"`` key. Events are JSON too.

The optional capabilities (options, a live game, public views, bots that plan in time, chat rules...)
are the other members of :class:`Rules`; :class:`GenericRules`, which every engine's rules class
inherits, holds their defaults. docs/engine-contract.md lists every member.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

SYSTEM = -1
"""The seat number that stands for the server itself."""

JSON = Any
Action = dict[str, Any]
State = Any
S = TypeVar("S")
D = TypeVar("D", bound="DataclassInstance")


class EngineError(ValueError):
    """Base class of the errors an engine raises for a refused action."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


class InvalidAction(EngineError):
    """The payload is malformed: unknown type, missing or badly typed fields (HTTP 400)."""


class IllegalAction(EngineError):
    """The action is well formed but not allowed now, or not by this seat (HTTP 422)."""


def gettext_noop(message: str) -> str:
    """Marks a message for translation without translating it (the web layer translates)."""
    return message


@dataclass(frozen=True)
class Event:
    """One fact in a match's log.

    ``data`` is public. ``secret`` is known only to the seats in ``visible_to``; everybody else
    receives the event without it. ``evolve`` sees both.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] | None = None
    visible_to: tuple[int, ...] = ()

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator)."""
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.secret is not None and seat is not None and seat in self.visible_to:
            out["secret"] = self.secret
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "data": self.data,
            "secret": self.secret,
            "visible_to": list(self.visible_to),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        return cls(
            type=raw["type"],
            data=dict(raw.get("data") or {}),
            secret=raw.get("secret"),
            visible_to=tuple(raw.get("visible_to") or ()),
        )


@dataclass(frozen=True)
class DecideContext:
    """What ``decide`` may use besides the state: the seeded RNG and the server's clock.

    ``now`` is seconds since the epoch, read once by the server for the whole action.
    """

    rng: random.Random
    now: float


@dataclass(frozen=True)
class Deadline:
    """A decision the game is waiting for.

    ``seats`` are the players being waited on; at ``due`` (epoch seconds) the server submits
    ``action`` as ``SYSTEM``. ``kind`` names the decision for messages and reminders.
    """

    seats: tuple[int, ...]
    due: float
    action: Action
    kind: str


@dataclass(frozen=True)
class Outcome:
    """The end of a game as data: points (or money) and rank per seat (1 = best), winners."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class LogLine:
    """One readable line of the match log: an English message with %(name)s params.

    ``message`` is marked with ``gettext_noop`` in the engine and translated by the web layer.
    A param named ``seat`` / ``seat2`` holds a seat number that the web layer replaces with the
    player's name.
    """

    message: str
    params: dict[str, Any] = field(default_factory=dict)


def in_third_person(lines: list[LogLine], rewrites: Mapping[str, str], seat: Any) -> list[LogLine]:
    """Lines of a secret shown to somebody else (``"revealed"`` events, after the game): each
    "you" message in ``rewrites`` becomes its third-person form, naming ``seat``."""
    return [
        LogLine(rewrites[line.message], {**line.params, "seat": seat}) if line.message in rewrites else line
        for line in lines
    ]


@dataclass(frozen=True)
class Option:
    """A match option shown on the create form."""

    name: str
    label: str
    kind: str  # "bool" or "choice"
    default: Any
    choices: tuple[tuple[str, str], ...] = ()


BotPlan = Callable[[S, int, random.Random], "tuple[Action, float] | None"]
"""``bot_plan(state, seat, rng)``: the bot's next action and the epoch second from which it is
legal, or ``None`` when the bot has nothing to do now."""


@runtime_checkable
class Rules(Protocol[S]):
    """The protocol every game implements. See the module docstring and docs/engine-contract.md.

    The members up to ``state_from_json`` are each game's own. The rest are optional
    capabilities: :class:`GenericRules`, which every engine's rules class inherits, holds their
    defaults, and a game declares one by overriding it.
    """

    slug: str
    name: str
    min_players: int
    max_players: int

    def initial(self, players: int, options: Mapping[str, Any]) -> S: ...

    def actors(self, state: S) -> frozenset[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def parse_action(self, payload: Mapping[str, Any]) -> Action: ...

    def decide(self, state: S, seat: int, action: Action, ctx: DecideContext) -> list[Event]: ...

    def evolve(self, state: S, event: Event) -> S: ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def deadlines(self, state: S) -> list[Deadline]: ...

    def log_lines(self, event: Mapping[str, Any]) -> list[LogLine]:
        """Readable lines of one event as a seat sees it. An event whose secret is shown to a seat
        that did not own it (everything is public once the game is over) carries ``"revealed":
        True``: its lines must name the owner, never say "you"."""
        ...

    def state_to_json(self, state: S) -> JSON: ...

    def state_from_json(self, data: JSON) -> S: ...

    # -- optional capabilities (defaults in GenericRules) ----------------------------------------

    options: tuple[Option, ...]
    """The options on the create form (default: none)."""
    site_hidden_options: frozenset[str]
    """Names of ``options`` the engine has but the site does not offer yet (default: none)."""
    seat_options: tuple[str, ...]
    """Options whose value names a lobby seat ("0", "1", ...); see :func:`reseat_options`."""
    per_seat_options: tuple[str, ...]
    """Option names with a ``{seat}`` field, one option per lobby seat; see :func:`reseat_options`."""
    terms: Mapping[str, str]
    """Ids that log lines may carry as params (``"C1"``, ``"THUG"``) -> English names marked with
    ``gettext_noop``; the web layer shows the translated name (default: none)."""
    blind_actions: frozenset[str]
    """Action types a seat decides regardless of what others did meanwhile (simultaneous secret
    choices, heist's planning): a stale expected version does not refuse them (default: none)."""
    views_public: bool
    """No seat's view holds anything hidden from the other players: a player's pushes may then be
    compressed (default: False)."""
    live: bool
    """A real-time game: its pushes are its new events as JSON, its timers fire on time, and it
    judges who may act itself, at the input's own time (default: False)."""
    uses_time_limit: bool
    """The game's deadlines run on the match's time limit per decision (the create form's time
    fields, the waiting page's "Time limit per decision"); a game on a clock of its own (its options,
    or real time) declares ``False`` (default: ``True``)."""
    time_bank: bool
    """Every deadline waits on one seat and runs ``time_limit`` from the move that opened it, so a
    time bank may stand in for the fixed time per decision: the platform then submits the time-out
    when the seat's reserve runs out, the match's time limit being the increment (default: False)."""
    connection_events: bool
    """The platform submits ``disconnected`` / ``reconnected`` for a seat that lost its last socket
    or got one back (default: False)."""
    quiet_events: frozenset[str] | None
    """Of a live game: the events its client applies by itself; a push holding any other event
    carries the viewer's new ``view`` too. ``None`` (the default): pushes carry events only."""

    private_event_types: frozenset[str]
    """Of a live game: the types of the events :meth:`is_private` may call private (the platform
    looks them up by type, to count what each viewer is not told of; default: none)."""

    def is_private(self, event: Event) -> bool:
        """Of a live game: whether the event's very existence is secret, so that it is pushed only
        to its ``visible_to`` seats while the game runs (default: no event is). Nothing else moves
        for the others: the counters they are shown skip it (games.push.presenter.viewer_version, and
        for a write of such events alone, shown_revision)."""
        ...

    @property
    def bot_plan(self) -> BotPlan[S] | None:
        """A game whose bots act in time plans each move (:data:`BotPlan`); ``None`` (the default):
        a bot moves, by :meth:`bot_action`, when the game waits on it."""
        ...

    def bot_action(self, state: S, seat: int, rng: random.Random) -> Action:
        """A bot's move for ``seat`` (default: a random legal action)."""
        ...

    def chat_allowed(self, state: S, seat: int) -> bool:
        """Whether ``seat`` may chat while the game runs (default: always)."""
        ...

    def correspondence(self, options: Mapping[str, Any]) -> bool:
        """Whether a match with these options (``time_limit`` among them) is played by
        correspondence, at days or hours a decision, so that a player's vacation stops its clocks
        (default: not a live game, and at least a day a decision by the match's time limit)."""
        ...

    def clock_ms(self, state: S) -> int | None:
        """Of a game that keeps its own time in its events (a live game's server clock): that clock
        at ``state``, in milliseconds, never going back; a replay plays back on it. ``None`` (the
        default): the replay takes the times the events were stored at."""
        ...

    def view_revealed(self, state: S) -> dict[str, Any]:
        """The view of ``state`` with every secret shown, at any point of the game: what a replay of
        a finished match shows "with everything revealed" (the same keys as :meth:`view`, plus every
        seat's hidden part). Default: the spectator's view, for a game whose views hide nothing."""
        ...


def replay(rules: Rules[S], state: S, events: Iterable[Event]) -> S:
    """Fold ``evolve`` over ``events``: the only way a stored match becomes a state."""
    for event in events:
        state = rules.evolve(state, event)
    return state


def apply(
    rules: Rules[S], state: S, seat: int, payload: Mapping[str, Any], ctx: DecideContext
) -> tuple[S, list[Event]]:
    """Parse, decide and evolve one action; raises InvalidAction/IllegalAction."""
    action = rules.parse_action(payload)
    events = rules.decide(state, seat, action, ctx)
    return replay(rules, state, events), events


def reseat_options(rules: Rules[Any], options: Mapping[str, Any], order: Sequence[int]) -> dict[str, Any]:
    """The options as the seats are numbered once the table is seated: ``order[i]`` is the seat the
    player of lobby seat ``i`` takes. An option that names a seat (the first police) or belongs to
    one (a handicap) follows its player; the rest is left alone. A game that declares neither
    ``seat_options`` nor ``per_seat_options`` gets its options back unchanged."""
    out = dict(options)
    for name in rules.seat_options:
        raw = str(options.get(name, ""))
        if raw.isdigit() and int(raw) < len(order):
            out[name] = str(order[int(raw)])
    for template in rules.per_seat_options:
        for seated in order:
            out.pop(template.format(seat=seated), None)
        for lobby, seated in enumerate(order):
            if template.format(seat=lobby) in options:
                out[template.format(seat=seated)] = options[template.format(seat=lobby)]
    return out


def check_sender(kind: object, seat: int, players: int, system: Collection[str], player: Collection[str]) -> None:
    """Who may send an action of type ``kind``: the server (``SYSTEM``) the ``system`` types, a
    seated player the ``player`` types; any other type is unknown. Raises IllegalAction."""
    if kind in system:
        if seat != SYSTEM:
            raise IllegalAction(gettext_noop("Only the server may do that."))
    elif kind in player:
        if seat == SYSTEM or not 0 <= seat < players:
            raise IllegalAction(gettext_noop("Only a player may do that."))
    else:
        raise IllegalAction(gettext_noop("Unknown action type."))


WHOLE_NUMBER_LIMIT = 1_000_000
"""No whole-number field of any action (a seat, a slot, an amount, an offer) comes near this."""
# What a form sends for a whole number: ASCII digits, perhaps a minus sign, never a huge value.
# ``str.isdigit`` alone would let "²" and "٣" through, which ``int`` refuses or reads as 3.
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,6}", re.ASCII)


def whole_number(value: Any, field: str) -> int:
    """A whole-number field of an untrusted payload: an int within ``WHOLE_NUMBER_LIMIT`` or its
    decimal string as an HTML form sends it; never a bool. ``None`` is a missing field. Raises
    InvalidAction naming ``field``."""
    if value is None:
        raise InvalidAction(gettext_noop("Field %(field)s is missing."), field=field)
    if isinstance(value, bool):
        raise InvalidAction(gettext_noop("Field %(field)s must be a whole number."), field=field)
    if isinstance(value, int):
        if -WHOLE_NUMBER_LIMIT <= value <= WHOLE_NUMBER_LIMIT:
            return value
        raise InvalidAction(gettext_noop("Field %(field)s is out of range."), field=field)
    if isinstance(value, str) and len(value) <= 12 and _WHOLE_NUMBER.fullmatch(value.strip()):
        return int(value.strip())
    raise InvalidAction(gettext_noop("Field %(field)s must be a whole number."), field=field)


def rng_for(seed: str, version: int) -> random.Random:
    """The RNG for the action that moves a match past ``version``."""
    return random.Random(f"{seed}:{version}")


def check_due(deadlines: Iterable[Deadline], action: Action, now: float) -> None:
    """A time-out (``SYSTEM``) action applies only to a deadline that waits for that very action
    and is due at ``now`` (convention 5 of docs/engine-contract.md). Raises IllegalAction."""
    for deadline in deadlines:
        if deadline.action == action:
            if now < deadline.due:
                raise IllegalAction(gettext_noop("It is too early for that time-out."))
            return
    raise IllegalAction(gettext_noop("Nothing is waiting for that time-out."))


class DecideRun(Generic[S]):
    """The events of one ``decide`` call, each applied by ``evolve`` as it is recorded, so that the
    call's later steps see the state the earlier ones made; ``decide`` returns ``events``."""

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def record(self, event: Event) -> None:
        """Keep ``event`` and apply it to ``state``."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)

    def emit(
        self,
        type_: str,
        data: dict[str, Any],
        secret: dict[str, Any] | None = None,
        visible_to: tuple[int, ...] = (),
    ) -> None:
        """Record a new event (see :class:`Event` for its parts)."""
        self.record(Event(type_, data, secret, visible_to))


def fields_to_json(state: DataclassInstance, encode: Callable[[str, Any], Any]) -> dict[str, Any]:
    """The snapshot of the dataclass ``state``: each field as ``encode(name, value)`` writes it."""
    return {f.name: encode(f.name, getattr(state, f.name)) for f in fields(state)}


def fields_from_json(cls: type[D], data: Mapping[str, Any], decode: Callable[[str, Any], Any]) -> D:
    """The dataclass ``cls`` (a game's state) from its snapshot: each field that ``data`` holds, as
    ``decode(name, value)`` gives it back; a field it lacks keeps its default, so that older
    snapshots still load (convention 12 of docs/engine-contract.md)."""
    return cls(**{f.name: decode(f.name, data[f.name]) for f in fields(cls) if f.name in data})


class GenericRules(Generic[S]):
    """The base every engine's rules class inherits: the defaults of the optional members of
    :class:`Rules` (each documented there). A game overrides those it has."""

    options: tuple[Option, ...] = ()
    site_hidden_options: frozenset[str] = frozenset()
    seat_options: tuple[str, ...] = ()
    per_seat_options: tuple[str, ...] = ()
    terms: Mapping[str, str] = {}
    blind_actions: frozenset[str] = frozenset()
    views_public: bool = False
    live: bool = False
    uses_time_limit: bool = True
    time_bank: bool = False
    connection_events: bool = False
    quiet_events: frozenset[str] | None = None
    private_event_types: frozenset[str] = frozenset()
    bot_plan: BotPlan[S] | None = None

    def is_private(self, event: Event) -> bool:
        return False

    def bot_action(self, state: S, seat: int, rng: random.Random) -> Action:
        legal: Sequence[Action] = self.legal_actions(state, seat)  # type: ignore[attr-defined]
        if not legal:
            raise IllegalAction("No legal action for seat %(seat)s.", seat=seat)
        return dict(rng.choice(list(legal)))

    def chat_allowed(self, state: S, seat: int) -> bool:
        return True

    def correspondence(self, options: Mapping[str, Any]) -> bool:
        return not self.live and self.uses_time_limit and int(options.get("time_limit") or 0) >= 86400

    def clock_ms(self, state: S) -> int | None:
        return None

    def view_revealed(self, state: S) -> dict[str, Any]:
        shown: dict[str, Any] = self.view(state, None)  # type: ignore[attr-defined]
        return shown
