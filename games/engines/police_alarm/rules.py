"""The Police Alarm rules object: parsing, timers, ``decide`` (every check of T-14) and deadlines.

Real time on the engine protocol (section 9):

* ``start`` records the time origin (``ctx.now``); every later input is at
  ``t = round((ctx.now - origin) * 1000)`` ms (T-1), never earlier than the last event (a clock that
  steps back is read as "no time passed").
* Timers (placement time-out, auto-ready, end of the countdown, end of the alarm pause, end of a
  resume countdown, the abandonment offer) are computed from the state. Before ``decide`` handles
  any input at ``t`` it first emits the events of every timer due at or before ``t``, at their own
  due times (T-3, T-4). ``deadlines`` exposes the next timer with ``{"type": "tick"}`` so that the
  platform fires it on time even when nobody sends anything.
* A refused input raises :class:`Rejected` (an ``IllegalAction``) whose ``code`` is the spec's
  reason (``too_fast``, ``bad_move`` ...) and changes nothing (T-15). The spec's ``rejected`` log
  entry (sender only) is the platform's to keep: the engine stores no event for a refusal.

Readings where the spec is silent (each also in the final report):

* Resignation (platform contract, not in the spec): a resigned thief forfeits the round at once
  (outcome ``forfeited``, the police takes all six like ``caught``); a resigned police is made
  ready at once and the thief plays on alone; a resigned young-variant police loses the turn.
  Fewer than two players left ends the game (reason ``resigned``); winners are chosen among the
  players who did not resign. A resignation during a suspension resumes at once (deadlines shifted
  by the time suspended) and suspends again if another active player is still away.
* T-24: an active player of a new round (or turn) who is already disconnected suspends it at once.
* T-25: a loss during a resume countdown stops it; the shift is counted from the first loss.
* T-26: ``abandon_offered`` records that the 120 s have passed (a timer); then ``abandon`` is a
  player action of every connected player. An abandoned game has no winner (ranks by score).
* The young variant has no timers; when the limiter alone blocks the active police, a
  ``speed_limit`` deadline (``tick``) records a ``clock`` event so that the state's time moves on.
* ``legal_actions`` lists the sensible legal police actions (see ``_police_actions``); ``decide``
  accepts every legal one.
* A clock that steps back is read as "no time passed" (``t`` never decreases).
* Relay mode (M-n, option ``mode``; standard game only): the lobby's step deadline is the option
  ``relay_hours``. The police's session starts with its ``ready``, the thief's with the thief's
  ``ready`` (M-3 names no start action); the police may ``stop``. The session's car moves, sirens,
  reveals and pause ends are private to the police (empty public data, ``is_private``) until they
  are played back as public events. Only a live session is suspended by a lost connection. The
  thief may set the auto-escape flag during the whole round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..base import (
    SYSTEM,
    Action,
    Deadline,
    DecideContext,
    DecideRun,
    Event,
    GenericRules,
    IllegalAction,
    InvalidAction,
    Option,
    Outcome,
    gettext_noop,
    whole_number,
)
from . import bot as _bot
from . import log as _log
from . import view as _view
from .constants import (
    ABANDON_OFFER_MS,
    ALARM_PAUSE_MS,
    AUTO_READY_MS,
    BEHIND,
    CARD_CODE,
    CARDS_PER_ROUND,
    CELL_CIRCLE,
    CIRCLE_IDS,
    COUNTDOWN_MS,
    DIR_ORDER,
    NEIGHBOURS,
    OPPOSITE,
    PLACEMENT_TIMEOUT_MS,
    ROAD,
    ROLL_CHOICES,
    ROLL_MS,
    STEP_CHOICES,
    STEP_MS,
    TERMS,
    YOUNG_TARGET,
    code_str,
    step,
)
from .evolve import evolve as _evolve
from .randomness import Scripted, Source, commitment, new_seed
from .state import (
    ABANDONED,
    ACTIVE_PHASES,
    COUNTDOWN,
    DRIVING,
    OVER,
    PAUSED,
    PRESTART,
    RUNNING,
    SETUP,
    STANDARD,
    SUSPENDED,
    WAIT_READY,
    YOUNG,
    State,
    state_from_json,
    state_to_json,
)

_ = gettext_noop

SYSTEM_TYPES = frozenset({"start", "tick", "resign", "disconnected", "reconnected"})
THIEF_ACTIONS = frozenset({"place", "place_random", "auto_escape", "roll", "draw", "escape"})
POLICE_ACTIONS = frozenset({"ready", "move", "siren"})
PLAYER_TYPES = THIEF_ACTIONS | POLICE_ACTIONS | {"abandon", "stop"}
RELAY_SESSION_MS = 300_000  # M-2: the police's session ends 300 000 ms after "go"
RELAY_HOURS: tuple[int, ...] = (24, 48, 72)  # M-1: the lobby's deadline per step
PRIVATE_IN_POLICE_STEP = frozenset({"car_moved", "siren", "tile_revealed", "alarm_ended"})
PAUSABLE = frozenset({"roll", "draw", "escape", "move", "siren"})  # T-14 step 4

# T-14 / T-13 reason codes and their English messages.
MESSAGES: dict[str, str] = {
    "game_over": _("The game is over."),
    "suspended": _("The game is suspended until every active player is back."),
    "not_your_role": _("That is not your part in this round."),
    "paused": _("Wait: the alarm pause is still on."),
    "wrong_phase": _("That is not possible at this moment of the round."),
    "invalid_placement": _("Choose exactly two different crime scenes."),
    "no_current_card": _("There is no safe to crack right now."),
    "cooldown": _("Wait a moment before rolling again."),
    "not_at_choice": _("You can do that only right after cracking a safe."),
    "bad_move": _("The car cannot go there: it stands at column %(x)s, row %(y)s."),
    "too_fast": _("Too fast: the car cannot go that quickly."),
    "not_at_circle": _("The car is not on that crime scene."),
    "already_revealed": _("That crime scene has already been revealed."),
}


class Rejected(IllegalAction):
    """A refused action with the spec's machine-readable reason ``code`` (T-14, T-15).

    ``params["code"]`` holds the same code; a ``bad_move`` also carries ``car`` (the authoritative
    cell, T-8) and ``x``/``y``.
    """

    def __init__(self, code: str, message: str | None = None, **params: Any) -> None:
        super().__init__(message or MESSAGES[code], code=code, **params)
        self.code = code


def _reject(code: str, message: str | None = None, **params: Any) -> Rejected:
    return Rejected(code, message, **params)


# --------------------------------------------------------------------------------------------
# Timers (T-3)
# --------------------------------------------------------------------------------------------


def active_seats(state: State) -> tuple[int, ...]:
    """The seats whose connection matters (T-24): thief and police, or the young variant's police."""
    if state.young:
        return (state.active,) if state.active >= 0 else ()
    if state.relay:  # only a live session can be suspended; the steps' waits are long anyway
        phase = state.suspended_phase if state.phase == SUSPENDED else state.phase
        if phase not in (COUNTDOWN, RUNNING, PAUSED):
            return ()
        return (state.police,) if state.step == "police" else (state.thief,)
    return tuple(s for s in (state.thief, state.police) if s >= 0)


def missing(state: State) -> tuple[int, ...]:
    return tuple(s for s in active_seats(state) if state.away[s] and not state.resigned[s])


def _relay_timers(state: State) -> list[tuple[int, str]]:
    """M-1 .. M-5: the steps' deadlines, the police's session limit and the play-back."""
    phase, step = state.phase, state.step
    out: list[tuple[int, str]] = []
    if phase == SETUP:
        out.append((state.step_t + state.relay_ms, f"relay_{step}"))
    elif phase == COUNTDOWN:
        out.append((state.go_at, "countdown"))
    elif phase in (RUNNING, PAUSED):
        if phase == PAUSED:
            out.append((state.pause_until, "alarm_pause"))  # a pause ends before anything at its end
        if step == "police":
            out.append((state.go_at + RELAY_SESSION_MS, "session_end"))
        elif step == "thief" and state.rec_index < len(state.recording):
            out.append((state.go_at + state.recording[state.rec_index][0], "replay"))
    return out


def next_timer(state: State) -> tuple[int, str] | None:
    """The next pending timer as (due ms, kind), or None; equal times keep the listed order."""
    phase = state.phase
    if state.relay and phase != SUSPENDED and not state.over and phase != PRESTART:
        timers = _relay_timers(state)
        return min(timers, key=lambda tm: tm[0]) if timers else None
    if phase == SUSPENDED:
        if state.resume_at is not None:
            return (state.resume_at, "resume")  # T-25
        if not state.abandon_offered and missing(state):
            return (state.suspended_at + ABANDON_OFFER_MS, "abandon_offer")  # T-26
        return None
    if phase == SETUP:
        if not state.placed:
            return (state.round_t + PLACEMENT_TIMEOUT_MS, "placement")
        if not state.ready:
            return (state.placed_t + AUTO_READY_MS, "ready")
        return None
    if phase == COUNTDOWN:
        return (state.go_at, "countdown")
    if phase == PAUSED:
        return (state.pause_until, "alarm_pause")
    return None


def speed_ready_at(state: State) -> int:
    """T-6: the earliest time at which the limiter accepts the next move."""
    driver = state.active if state.young else state.police
    return state.tat - 2 * state.step_ms[driver]


def ranks_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 + sum(1 for o in scores if o > s) for s in scores)


# --------------------------------------------------------------------------------------------
# One run of decide
# --------------------------------------------------------------------------------------------


class _Run(DecideRun[State]):
    def __init__(self, state: State, source: Source, t: int) -> None:
        super().__init__(state, _evolve)
        self.source = source
        self.t = t

    def emit(
        self,
        type_: str,
        data: dict[str, Any] | None = None,
        secret: dict[str, Any] | None = None,
        visible_to: tuple[int, ...] = (),
        *,
        private: bool = False,
    ) -> None:
        """Record an event at the current time. ``private``: its very existence is ``visible_to``'s
        alone (T-18, H-2), so even its time goes into the secret and nothing is public."""
        payload = {"t": self.t, **(data or {})}
        s = self.state
        if s.relay and s.step == "police" and type_ in PRIVATE_IN_POLICE_STEP:
            # M-2 / M-3: the police's drive reaches nobody else before it is played back.
            event = Event(type_, {}, payload, (s.police,))
        elif private:
            event = Event(type_, {}, {**payload, **(secret or {})}, visible_to)
        else:
            event = Event(type_, payload, secret, visible_to)
        self.record(event)

    # -- timers -----------------------------------------------------------------------------

    def fire_due(self, t: int) -> bool:
        """T-3: emit every timer due at or before ``t``, each at its due time. True if any fired."""
        fired = False
        while True:
            timer = next_timer(self.state)
            if timer is None or timer[0] > t:
                break
            due, kind = timer
            self.t = max(due, self.state.t)
            self.fire(kind)
            fired = True
        self.t = max(t, self.state.t)
        return fired

    def fire(self, kind: str) -> None:
        s = self.state
        if kind == "placement":
            self.place(self.random_pair(f"place:{s.round}"), random_choice=True)  # R-9, N-6
        elif kind == "ready":
            self.make_ready(auto=True)
        elif kind == "countdown":
            self.go()
        elif kind == "alarm_pause":
            self.emit("alarm_ended")
        elif kind == "resume":
            self.emit("resumed", {"shift": self.t - s.suspended_at})  # T-25
        elif kind == "abandon_offer":
            self.emit("abandon_offered")  # T-26
        elif kind == "relay_place":
            self.place(self.random_pair(f"place:{s.round}"), random_choice=True)  # M-5
        elif kind == "relay_police":
            self.emit("session_ended", {"reason": "missed"})  # M-5: an empty recording
        elif kind == "relay_thief":
            self.emit("thief_caught", {"missed": True})  # M-5: no thief step
            self.end_round("caught")
        elif kind == "session_end":
            self.emit("session_ended", {"reason": "time"})  # M-2
        elif kind == "replay":
            self.play_back()

    # -- standard game ----------------------------------------------------------------------

    def random_pair(self, label: str) -> tuple[str, str]:
        return self.source.pair(label, self.state.pairs_drawn)

    def start_round(self, number: int) -> None:
        s = self.state
        n = s.players
        thief, police = (s.first + number - 1) % n, (s.first + number) % n
        cards = s.deck[CARDS_PER_ROUND * (number - 1) : CARDS_PER_ROUND * number]
        self.emit(
            "round_setup",
            {
                "round": number,
                "thief": thief,
                "police": police,
                "cards": list(cards),
                "codes": [code_str(c) for c in cards],
            },
        )
        if s.resigned[thief]:
            self.end_round("forfeited")  # a resigned thief gives the round up (see module notes)
            return
        if s.resigned[police] and not s.relay:
            self.make_ready(auto=True)
        self.maybe_suspend()

    def place(self, circles: tuple[str, str], random_choice: bool) -> None:
        s = self.state
        secret = {"circles": list(circles), "random": random_choice}
        self.emit("tiles_placed", {}, secret, (s.thief,), private=True)  # T-18, N-10: the thief's alone
        if s.relay:
            if s.resigned[s.police]:
                self.emit("session_ended", {"reason": "resigned"})
            return
        if self.state.ready:
            self.countdown()

    def make_ready(self, auto: bool) -> None:
        self.emit("police_ready", {"auto": auto})
        if not self.state.young and self.state.placed:
            self.countdown()

    def countdown(self) -> None:
        self.emit("countdown", {"go_at": self.t + COUNTDOWN_MS})

    def go(self) -> None:
        self.emit("round_started")
        if self.state.step != "police":  # M-2: the police's session has no thief
            self.draw_card()  # D-5

    def play_back(self) -> None:
        """M-3: the next recorded move or siren happens now, exactly as it did for the police."""
        s = self.state
        _offset, kind, arg = s.recording[s.rec_index]
        if kind == "move":
            self.emit("car_moved", {"to": list(step(s.car, arg))})
        else:
            self.siren(arg)

    def draw_card(self) -> None:
        s = self.state
        pos = s.cracked  # the cracked cards are the first ones of the stack
        card = s.stack[pos]
        self.emit("card_drawn", {"pos": pos + 1, "card": card, "code": code_str(card)})

    def roll(self) -> None:
        """R-15, R-16 (D-4), R-17, R-18, R-19, all at the roll's timestamp (T-11)."""
        s = self.state
        card = s.stack[s.current]
        digits = CARD_CODE[card]
        filled = list(s.filled)
        values = [self.source.die(s.dice_k + i) for i in range(filled.count(False))]  # N-3
        slots: list[int] = []
        for v in values:
            for i in range(3):
                if not filled[i] and digits[i] == v:
                    filled[i] = True
                    slots.append(i + 1)
                    break
        self.emit("dice_rolled", {"values": values, "filled": slots, "open": filled.count(False)})
        if all(filled):
            cracked = s.cracked + 1
            self.emit("card_cracked", {"card": card, "code": code_str(card), "cracked": cracked})
            if cracked == len(s.stack):
                self.end_round("all_cracked")
            elif self.state.auto_escape:
                self.emit("thief_escaped", {"auto": True})
                self.end_round("escaped")

    def siren(self, circle: str) -> None:
        """R-30, R-31, R-33."""
        s = self.state
        self.emit("siren", {"circle": circle})
        tile = "thief" if circle in s.placement else "green"
        found = s.found + (tile == "thief")
        if found >= 2:
            self.emit("tile_revealed", {"circle": circle, "tile": tile, "found": found})
            if s.step == "police":
                self.emit("session_ended", {"reason": "found"})  # M-2: the recording is complete
                return
            self.emit("thief_caught")
            self.end_round("caught")
        else:
            pause = self.t + ALARM_PAUSE_MS
            self.emit("tile_revealed", {"circle": circle, "tile": tile, "found": found, "pause_until": pause})

    def end_round(self, outcome: str) -> None:
        """R-35, R-36, R-37, R-38."""
        s = self.state
        c = s.cracked
        thief_gain, police_gain = {
            "escaped": (c, CARDS_PER_ROUND - c),
            "all_cracked": (CARDS_PER_ROUND, 0),
        }.get(outcome, (0, CARDS_PER_ROUND))
        scores = list(s.scores)
        scores[s.thief] += thief_gain
        scores[s.police] += police_gain
        self.emit(
            "round_ended",
            {
                "round": s.round,
                "outcome": outcome,
                "thief_seat": s.thief,
                "police_seat": s.police,
                "thief_gain": thief_gain,
                "police_gain": police_gain,
                "scores": scores,
            },
        )
        if s.placed:
            self.emit("placement_revealed", {"circles": sorted(s.placement)})
        if s.round >= s.rounds:
            self.end_game("finished")
        else:
            self.start_round(s.round + 1)

    def end_game(self, reason: str) -> None:
        """R-40 (ties share the win, D-18), V-8; the seed is published (N-1)."""
        s = self.state
        eligible = [p for p in range(s.players) if not s.resigned[p]] or list(range(s.players))
        best = max(s.scores[p] for p in eligible)
        winners = [p for p in eligible if s.scores[p] == best]
        self.emit("game_ended", {"reason": reason, "scores": list(s.scores), "winners": winners, "seed": s.seed})

    # -- young variant ----------------------------------------------------------------------

    def new_layout(self) -> None:
        """V-2 / V-6 / N-7: a layout known to nobody (secret with ``visible_to=()``)."""
        number = self.state.layout_no + 1
        pair = self.random_pair(f"layout:{number}")
        self.emit("layout", {"no": number}, {"circles": list(pair)}, ())

    def next_turn(self, seat: int | None = None) -> None:
        """V-3: turns pass clockwise, skipping resigned players."""
        s = self.state
        if seat is None:
            seat = s.active
            for _i in range(s.players):
                seat = (seat + 1) % s.players
                if not s.resigned[seat]:
                    break
        self.emit("turn_start", {"turn": s.turn + 1, "seat": seat})
        self.maybe_suspend()

    def young_siren(self, circle: str) -> None:
        """V-6."""
        s = self.state
        self.emit("siren", {"circle": circle})
        tile = "thief" if circle in s.layout else "green"
        self.emit("tile_revealed", {"circle": circle, "tile": tile})
        if tile == "green":
            self.emit("tile_hidden", {"circle": circle})  # D-20
        else:
            card = s.deck[s.dealt]
            scores = list(s.scores)
            scores[s.active] += 1
            self.emit(
                "card_awarded",
                {"seat": s.active, "card": card, "code": code_str(card), "scores": scores},
            )
            if scores[s.active] >= YOUNG_TARGET:
                self.end_game("finished")  # V-8
                return
            if sum(1 for _c, tile_ in self.state.revealed if tile_ == "thief") >= 2:
                self.new_layout()
        self.next_turn()

    # -- connections ------------------------------------------------------------------------

    def maybe_suspend(self) -> None:
        """T-24: an active player without connection suspends SETUP .. PAUSED / WAIT_READY, DRIVING."""
        s = self.state
        if not missing(s):
            return
        if s.phase in ACTIVE_PHASES or (s.phase == SUSPENDED and s.resume_at is not None):
            self.emit("suspended")


# --------------------------------------------------------------------------------------------
# Parsing helpers (untrusted JSON)
# --------------------------------------------------------------------------------------------


def _int(payload: Mapping[str, Any], key: str) -> int:
    return whole_number(payload.get(key), key)


def _cell_param(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidAction(_("Field from must be a cell: two whole numbers."))
    return (_int({"v": value[0]}, "v"), _int({"v": value[1]}, "v"))


def _circle(value: Any) -> str:
    if not isinstance(value, str) or value.strip().upper() not in CIRCLE_IDS:
        raise InvalidAction(_("Unknown crime scene."))
    return value.strip().upper()


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "on", "1", "yes", "false", "off", "0", "no"):
        return value.strip().lower() in ("true", "on", "1", "yes")
    raise InvalidAction(_("Field on must be true or false."))


# --------------------------------------------------------------------------------------------
# The rules object
# --------------------------------------------------------------------------------------------


def _seat_label(i: int) -> str:
    return str(i + 1)


def _handicaps(name: str, label: str, default: int, choices: tuple[int, ...]) -> tuple[Option, ...]:
    """W-10: the option ``{name}_{seat}`` for each of the four lobby seats, in milliseconds;
    ``label`` names the seat by ``%s``."""
    return tuple(
        Option(
            f"{name}_{i}",
            label % _seat_label(i),
            "choice",
            str(default),
            tuple((str(v), _("%s ms") % v) for v in choices),
        )
        for i in range(4)
    )


class PoliceAlarmRules(GenericRules[State]):
    slug = "police_alarm"
    name = _("Police Alarm")
    min_players = 2
    max_players = 4
    options: tuple[Option, ...] = (
        Option(
            "variant",
            _("Variant"),
            "choice",
            STANDARD,
            ((STANDARD, _("Standard game")), (YOUNG, _("Young players' game (no thief player)"))),
        ),
        Option(
            "first",
            _("First thief (young players' game: first police)"),
            "choice",
            "random",
            (
                ("random", _("Drawn at random")),
                ("0", _("Seat 1")),
                ("1", _("Seat 2")),
                ("2", _("Seat 3")),
                ("3", _("Seat 4")),
            ),
        ),
        Option(
            "mode",
            _("How to play"),
            "choice",
            "live",
            (("live", _("Live: both players at the same time")), ("relay", _("Relay: each player's part in turn"))),
        ),
        Option(
            "relay_hours",
            _("Relay: hours for each player's part"),
            "choice",
            "48",
            tuple((str(h), _("%s hours") % h) for h in RELAY_HOURS),
        ),
        *_handicaps("step_ms", _("Handicap for seat %s: time per street cell as police"), STEP_MS, STEP_CHOICES),
        *_handicaps("roll_ms", _("Handicap for seat %s: time between rolls as thief"), ROLL_MS, ROLL_CHOICES),
    )
    terms: Mapping[str, str] = TERMS
    uses_time_limit = False  # its own clock: the options' times, or real time
    blind_actions: frozenset[str] = frozenset(PLAYER_TYPES)  # T-2: inputs carry no expected version
    live = True
    """A real-time game: its pushes are JSON events, its timers fire on time (T-3)."""
    connection_events = True
    """The platform reports a seat's lost and regained connection (``disconnected``, ``reconnected``)."""
    quiet_events: frozenset[str] | None = frozenset({"car_moved"})
    """Events a client applies on its own (a car move): a push of only these carries no new view."""
    site_hidden_options: frozenset[str] = frozenset({"mode", "relay_hours"})
    seat_options: tuple[str, ...] = ("first",)
    """The lobby's seats are shuffled at the start: the first thief (V-3: police) and each
    seat's handicap (W-10) follow the player chosen in the lobby (games.engines.base.reseat_options)."""
    per_seat_options: tuple[str, ...] = ("step_ms_{seat}", "roll_ms_{seat}")
    """Relay mode (M-n, optional) is in the engine; the site offers only live play for now."""
    views_public = False
    private_event_types = frozenset({"tiles_placed", "auto_escape_set"})
    """Events whose very existence belongs to their ``visible_to`` seats (T-18, N-10, H-2: the
    placement and the auto-escape flag): nobody else is told of them while the game runs."""

    @staticmethod
    def is_private(event: Event) -> bool:
        """True for an event whose whole content is secret: push it only to ``visible_to`` while
        the game runs (the auto-escape flag, a relay police session before its play-back)."""
        return not event.data and event.secret is not None

    def __init__(self, scripted: Scripted | None = None, seed: str | None = None) -> None:
        """``scripted`` (N-9) and ``seed`` are test seams; the registered ``RULES`` has neither."""
        self.scripted = scripted
        self.fixed_seed = seed

    # -- setup -----------------------------------------------------------------------------

    def initial(self, players: int, options: Mapping[str, Any]) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"police_alarm needs 2 to 4 players, not {players}")
        variant = str(options.get("variant", STANDARD))
        if variant not in (STANDARD, YOUNG):
            raise ValueError(f"unknown variant {variant!r}")
        first_raw = str(options.get("first", "random"))
        # A first seat that does not exist at this table is drawn instead (the lobby left it open).
        first = int(first_raw) if first_raw.isdigit() and int(first_raw) < players else -1

        def pick(name: str, choices: tuple[int, ...], default: int) -> int:
            raw = str(options.get(name, default))
            return int(raw) if raw.isdigit() and int(raw) in choices else default

        relay = variant == STANDARD and str(options.get("mode", "live")) == "relay"
        hours = pick("relay_hours", RELAY_HOURS, 48)
        return State(
            players=players,
            variant=variant,
            relay=relay,
            relay_ms=hours * 3_600_000 if relay else 0,
            first_choice=first,
            step_ms=tuple(pick(f"step_ms_{i}", STEP_CHOICES, STEP_MS) for i in range(players)),
            roll_ms=tuple(pick(f"roll_ms_{i}", ROLL_CHOICES, ROLL_MS) for i in range(players)),
            scores=(0,) * players,
            resigned=(False,) * players,
            away=(False,) * players,
        )

    # -- who acts, what is legal -----------------------------------------------------------

    def actors(self, state: State) -> frozenset[int]:
        if state.phase == PRESTART:
            return frozenset({SYSTEM})
        if state.over:
            return frozenset()
        if state.phase == SUSPENDED:
            out = set(missing(state))  # waited on: they have to come back
            if state.abandon_offered:
                out |= {p for p in range(state.players) if not state.away[p] and not state.resigned[p]}
            return frozenset(out)
        if state.young:
            return frozenset({state.active})
        return frozenset(p for p in (state.thief, state.police) if self.legal_actions(state, p))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """What ``seat`` may do at the state's own time ``state.t`` (the last event's time)."""
        if seat == SYSTEM:
            return [{"type": "start"}] if state.phase == PRESTART else []
        if not 0 <= seat < state.players or state.over or state.phase == PRESTART or state.resigned[seat]:
            return []
        phase = state.phase
        if phase == SUSPENDED:
            return [{"type": "abandon"}] if state.abandon_offered and not state.away[seat] else []
        out: list[Action] = []
        if state.young:
            if seat != state.active:
                return []
            if phase == WAIT_READY:
                return [{"type": "ready"}]
            if phase == DRIVING:
                out.extend(self._police_actions(state, young=True))
            return out
        if state.relay:
            return self._relay_actions(state, seat)
        if seat == state.thief:
            if phase == SETUP and not state.placed:
                out.extend(
                    {"type": "place", "circles": [a, b]} for i, a in enumerate(CIRCLE_IDS) for b in CIRCLE_IDS[i + 1 :]
                )
                out.append({"type": "place_random"})
            if phase == RUNNING:
                if state.current >= 0 and (state.last_roll is None or state.t >= state.last_roll + state.roll_ms[seat]):
                    out.append({"type": "roll"})
                if state.at_choice:
                    out.append({"type": "draw"})
                    out.append({"type": "escape"})
            if phase in (SETUP, COUNTDOWN, RUNNING, PAUSED):
                out.append({"type": "auto_escape", "on": not state.auto_escape})
        elif seat == state.police:
            if phase == SETUP and not state.ready:
                out.append({"type": "ready"})
            if phase == RUNNING:
                out.extend(self._police_actions(state, young=False))
        return out

    def _relay_actions(self, state: State, seat: int) -> list[Action]:
        """M-1: the step's player acts; the thief may set the flag throughout the round."""
        phase, step = state.phase, state.step
        out: list[Action] = []
        if seat == state.thief:
            if step == "place" and phase == SETUP:
                out.extend(
                    {"type": "place", "circles": [a, b]} for i, a in enumerate(CIRCLE_IDS) for b in CIRCLE_IDS[i + 1 :]
                )
                out.append({"type": "place_random"})
            if step == "thief":
                if phase == SETUP and not state.ready:
                    out.append({"type": "ready"})
                if phase == RUNNING:
                    if state.current >= 0 and (
                        state.last_roll is None or state.t >= state.last_roll + state.roll_ms[seat]
                    ):
                        out.append({"type": "roll"})
                    if state.at_choice:
                        out.extend(({"type": "draw"}, {"type": "escape"}))
            if phase in (SETUP, COUNTDOWN, RUNNING, PAUSED):
                out.append({"type": "auto_escape", "on": not state.auto_escape})
        elif seat == state.police and step == "police":
            if phase == SETUP and not state.ready:
                out.append({"type": "ready"})
            if phase == RUNNING:
                out.extend(self._police_actions(state, young=False))
            if phase in (RUNNING, PAUSED):
                out.append({"type": "stop"})
        return out

    @staticmethod
    def _police_actions(state: State, young: bool) -> list[Action]:
        out: list[Action] = []
        x, y = state.car
        # Every move to an adjacent road cell is legal, and so is a siren at any face-down
        # circle (R-28, V-7). The list (UI hints, bots, random tests) holds the sensible subset: no
        # turning back except where every other way is pointless, no alley without a circle worth a
        # siren, and in the young variant no siren at a circle everybody has just seen green.
        revealed = state.revealed_ids
        candidates = frozenset(c for c in CIRCLE_IDS if c not in revealed)
        if young:
            fresh = frozenset(c for c in candidates if c not in state.greens)
            candidates = fresh or candidates
        if state.t >= speed_ready_at(state):
            back = OPPOSITE.get(state.heading)
            dirs = [d for d, _cell in NEIGHBOURS[state.car] if candidates & BEHIND.get((state.car, d), candidates)]
            options = [d for d in dirs if d != back] or dirs or [d for d, _cell in NEIGHBOURS[state.car]]
            out.extend({"type": "move", "dir": d, "from": [x, y]} for d in options)
        circle = CELL_CIRCLE.get(state.car)
        if circle is not None and circle in candidates:
            out.append({"type": "siren", "circle": circle})
        return out

    # -- parsing ---------------------------------------------------------------------------

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        if not isinstance(payload, Mapping):
            raise InvalidAction(_("An action must be an object."))
        t = payload.get("type")
        if not isinstance(t, str) or t not in SYSTEM_TYPES | PLAYER_TYPES:
            raise InvalidAction(_("Unknown action type."))
        if t in ("resign", "disconnected", "reconnected"):
            return {"type": t, "seat": _int(payload, "seat")}
        if t == "place":
            circles = payload.get("circles")
            if isinstance(circles, str):
                circles = [c for c in circles.split(",") if c.strip()]
            if (
                not isinstance(circles, list | tuple)
                or len(circles) > len(CIRCLE_IDS)
                or not all(isinstance(c, str) and len(c) <= 8 for c in circles)
            ):
                raise InvalidAction(_("Name the crime scenes as a list of letters."))
            return {"type": t, "circles": [c.strip().upper() for c in circles]}
        if t == "auto_escape":
            if "on" not in payload:
                raise InvalidAction(_("Field %(field)s is missing."), field="on")
            return {"type": t, "on": _bool(payload["on"])}
        if t == "move":
            direction = payload.get("dir")
            if not isinstance(direction, str) or direction.strip().lower() not in DIR_ORDER:
                raise InvalidAction(_("A move goes up, down, left or right."))
            if "from" not in payload:
                raise InvalidAction(_("Field %(field)s is missing."), field="from")
            x, y = _cell_param(payload["from"])
            return {"type": t, "dir": direction.strip().lower(), "from": [x, y]}
        if t == "siren":
            return {"type": t, "circle": _circle(payload.get("circle"))}
        return {"type": t}

    # -- decide ----------------------------------------------------------------------------

    def time_of(self, state: State, now: float) -> int:
        """T-1: integer ms since the origin; never before the last event."""
        return max(state.t, round((float(now) - state.origin) * 1000))

    def decide(self, state: State, seat: int, action: Action, ctx: DecideContext) -> list[Event]:
        kind = action.get("type")
        if kind in SYSTEM_TYPES:
            if seat != SYSTEM:
                raise IllegalAction(_("Only the server may do that."))
        elif kind in PLAYER_TYPES:
            if not 0 <= seat < state.players:
                raise IllegalAction(_("Only a player of this game may do that."))
        else:
            raise IllegalAction(_("Unknown action type."))
        if kind == "start":
            return self._start(state, ctx)
        if state.phase == PRESTART:
            raise _reject("wrong_phase", _("The game has not started yet."))
        if state.over:
            raise _reject("game_over")  # T-14 step 1
        seed = state.seed
        run = _Run(state, Source(seed, self.scripted), self.time_of(state, ctx.now))
        fired = run.fire_due(run.t)  # T-3: every timer due at or before this input first
        handler = getattr(self, f"_do_{kind}")
        handler(run, seat, action, fired)
        return run.events

    def _start(self, state: State, ctx: DecideContext) -> list[Event]:
        if state.phase != PRESTART:
            raise _reject("wrong_phase", _("The game has already started."))
        seed = self.fixed_seed if self.fixed_seed is not None else new_seed(ctx.rng)  # N-1
        source = Source(seed, self.scripted)
        n = state.players
        first = state.first_choice if state.first_choice >= 0 else source.first(n)  # R-3, V-3, N-5
        deck = source.deck()  # N-4
        run = _Run(state, source, 0)
        run.emit(
            "game_created",
            {
                "origin": float(ctx.now),
                "players": n,
                "variant": state.variant,
                "first": first,
                "commitment": commitment(seed),
                "step_ms": list(state.step_ms),
                "roll_ms": list(state.roll_ms),
            },
            {"seed": seed, "deck": list(deck)},
            (),
        )
        if state.young:
            run.new_layout()
            run.next_turn(first)
        else:
            run.start_round(1)
        return run.events

    # System inputs

    def _do_tick(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        if fired:
            return
        s = run.state
        if s.young and s.phase == DRIVING and s.t < speed_ready_at(s) <= run.t:
            run.emit("clock")  # lets time reach the state so that the limiter allows a move again
            return
        raise IllegalAction(_("Nothing is due yet."))

    def _seat_param(self, run: _Run, action: Action) -> int:
        who = int(action["seat"])
        if not 0 <= who < run.state.players:
            raise IllegalAction(_("No such seat."))
        return who

    def _do_resign(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        who = self._seat_param(run, action)
        s = run.state
        if s.resigned[who]:
            raise IllegalAction(_("%(seat)s has already resigned."), seat=who)
        if s.phase == SUSPENDED:
            # The resigned seat is no longer waited for: the game resumes at once, every deadline
            # shifted by the suspension (T-25), and suspends again below if someone else is away.
            run.emit("resumed", {"shift": run.t - s.suspended_at})
        run.emit("resigned", {"seat": who})
        s = run.state
        if sum(1 for r in s.resigned if not r) < 2:
            run.end_game("resigned")
            return
        if s.young:
            if who == s.active:
                run.next_turn()
        elif who == s.thief and s.phase in ACTIVE_PHASES:
            run.end_round("forfeited")
        elif who == s.police and s.relay:
            if s.step == "police" and s.phase in ACTIVE_PHASES:
                run.emit("session_ended", {"reason": "resigned"})  # what was recorded stands
        elif who == s.police and s.phase == SETUP and not s.ready:
            run.make_ready(auto=True)
        run.maybe_suspend()

    def _do_disconnected(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """T-23, T-24."""
        who = self._seat_param(run, action)
        if run.state.away[who]:
            raise IllegalAction(_("That player is already marked as disconnected."))
        run.emit("disconnected", {"seat": who})
        run.maybe_suspend()

    def _do_reconnected(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """T-25: the last missing active player is back: resume countdown."""
        who = self._seat_param(run, action)
        if not run.state.away[who]:
            raise IllegalAction(_("That player is connected."))
        run.emit("reconnected", {"seat": who})
        s = run.state
        if s.phase == SUSPENDED and not missing(s) and s.resume_at is None:
            resume_at = run.t + COUNTDOWN_MS
            run.emit("resume_countdown", {"resume_at": resume_at, "shift": resume_at - s.suspended_at})

    # Player inputs: T-14 in order

    def _check(self, run: _Run, seat: int, kind: str) -> State:
        s = run.state
        if s.over:
            raise _reject("game_over")  # 1
        if s.phase == SUSPENDED:
            raise _reject("suspended")  # 2 (T-24, T-25)
        # 3: the sender's role (R-2, V-9, T-17)
        if s.resigned[seat]:
            raise _reject("not_your_role")
        if s.young:
            if seat != s.active or kind not in POLICE_ACTIONS:
                raise _reject("not_your_role")
        elif s.relay:
            return self._check_relay(run, seat, kind)
        elif kind == "stop":
            raise _reject("not_your_role")  # only a relay police session can be stopped
        elif (kind in THIEF_ACTIONS and seat != s.thief) or (kind in POLICE_ACTIONS and seat != s.police):
            raise _reject("not_your_role")
        if s.phase == PAUSED and kind in PAUSABLE:
            raise _reject("paused")  # 4
        # 5: the phases of T-13, repeated place / ready
        if s.young:
            allowed = WAIT_READY if kind == "ready" else DRIVING
            if s.phase != allowed:
                raise _reject("wrong_phase")
        elif kind in ("place", "place_random", "ready"):
            if s.phase != SETUP:
                raise _reject("wrong_phase")
            if (kind == "ready" and s.ready) or (kind != "ready" and s.placed):
                raise _reject("wrong_phase", _("That has already been done this round."))
        elif kind == "auto_escape":
            if s.phase not in (SETUP, COUNTDOWN, RUNNING, PAUSED):
                raise _reject("wrong_phase")
        elif s.phase != RUNNING:
            raise _reject("wrong_phase")
        return s

    def _check_relay(self, run: _Run, seat: int, kind: str) -> State:
        """T-14 steps 3-5 in relay mode (M-1): each step belongs to one player."""
        s = run.state
        step = s.step
        if kind in ("move", "siren", "stop"):
            if seat != s.police or step != "police":
                raise _reject("not_your_role")
        elif kind == "ready":
            if seat not in (s.police, s.thief) or (seat == s.thief and step != "thief"):
                raise _reject("not_your_role")
            if seat == s.police and step == "thief":
                raise _reject("not_your_role")
        elif seat != s.thief:
            raise _reject("not_your_role")
        # The pause belongs to the session being played: a thief's roll during the police's
        # session is simply not its step (wrong_phase below).
        if s.phase == PAUSED and kind in PAUSABLE and (kind in POLICE_ACTIONS) == (step == "police"):
            raise _reject("paused")
        if kind in ("place", "place_random"):
            ok = step == "place" and s.phase == SETUP
        elif kind == "ready":
            ok = s.phase == SETUP and not s.ready and step == ("police" if seat == s.police else "thief")
        elif kind == "auto_escape":
            ok = s.phase in (SETUP, COUNTDOWN, RUNNING, PAUSED)
        elif kind == "stop":
            ok = s.phase in (RUNNING, PAUSED)
        elif kind in ("roll", "draw", "escape"):
            ok = step == "thief" and s.phase == RUNNING
        else:
            ok = s.phase == RUNNING
        if not ok:
            raise _reject("wrong_phase")
        return s

    def _do_stop(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """M-2: the police ends its recorded session."""
        self._check(run, seat, "stop")
        run.emit("session_ended", {"reason": "stopped"})

    def _do_place(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-8."""
        self._check(run, seat, "place")
        circles = list(action["circles"])
        if len(circles) != 2 or circles[0] == circles[1] or not set(circles) <= set(CIRCLE_IDS):
            raise _reject("invalid_placement")
        run.place((circles[0], circles[1]), random_choice=False)

    def _do_place_random(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-8, N-6."""
        s = self._check(run, seat, "place_random")
        run.place(run.random_pair(f"place:{s.round}"), random_choice=True)

    def _do_ready(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-10 / V-4 / M-2, M-3 (each relay session starts with its player's ready)."""
        s = self._check(run, seat, "ready")
        if s.relay and s.step == "thief":
            run.emit("thief_ready")
            run.countdown()
            return
        run.make_ready(auto=False)

    def _do_auto_escape(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-25 (D-8): private to the thief; the public part of the event is empty."""
        s = self._check(run, seat, "auto_escape")
        on = bool(action["on"])
        run.record(Event("auto_escape_set", {}, {"t": run.t, "on": on}, (s.thief,)))

    def _do_roll(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-14 .. R-19, R-22, T-11."""
        s = self._check(run, seat, "roll")
        if s.current < 0:
            raise _reject("no_current_card")
        if s.last_roll is not None and run.t < s.last_roll + s.roll_ms[seat]:
            raise _reject("cooldown", ready_at=s.last_roll + s.roll_ms[seat])
        run.roll()

    def _do_draw(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-20, R-21."""
        s = self._check(run, seat, "draw")
        if not s.at_choice:
            raise _reject("not_at_choice")
        run.draw_card()

    def _do_escape(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-21, R-23 (D-6)."""
        s = self._check(run, seat, "escape")
        if not s.at_choice:
            raise _reject("not_at_choice")
        run.emit("thief_escaped", {"auto": False})
        run.end_round("escaped")

    def _do_move(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-26, T-6, T-8: ``bad_move`` first, then the limiter."""
        s = self._check(run, seat, "move")
        origin = (int(action["from"][0]), int(action["from"][1]))
        target = step(s.car, str(action["dir"]))
        if origin != s.car or target not in ROAD:
            raise _reject("bad_move", car=list(s.car), x=s.car[0], y=s.car[1])
        if run.t < speed_ready_at(s):
            raise _reject("too_fast", ready_at=speed_ready_at(s))
        run.emit("car_moved", {"to": list(target)})

    def _do_siren(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """R-28, R-29 (D-10, D-11) / V-5, V-7."""
        s = self._check(run, seat, "siren")
        circle = str(action["circle"])
        if CELL_CIRCLE.get(s.car) != circle:
            raise _reject("not_at_circle")
        if circle in s.revealed_ids:
            raise _reject("already_revealed")
        if s.young:
            run.young_siren(circle)
        else:
            run.siren(circle)

    def _do_abandon(self, run: _Run, seat: int, action: Action, fired: bool) -> None:
        """T-26, R-42: any connected player, once the suspension has lasted ABANDON_OFFER_MS."""
        s = run.state
        if s.resigned[seat] or s.away[seat]:
            raise _reject("not_your_role")
        if s.phase != SUSPENDED or not s.abandon_offered:
            raise _reject("wrong_phase", _("The game can be abandoned only after a long suspension."))
        run.emit("abandoned", {"scores": list(s.scores), "seed": s.seed})

    # -- evolve, views, results ------------------------------------------------------------

    # The pure parts of the protocol are this game's module functions, as they are.
    evolve = staticmethod(_evolve)
    log_lines = staticmethod(_log.log_lines)
    state_to_json = staticmethod(state_to_json)
    state_from_json = staticmethod(state_from_json)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view.view(state, seat, next_timer(state))

    def clock_ms(self, state: State) -> int | None:
        return state.t  # T-1: ms since the origin, never before the last event

    def view_revealed(self, state: State) -> dict[str, Any]:
        return _view.view(state, None, next_timer(state), revealed=True)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase == OVER:
            return Outcome(state.scores, ranks_of(state.scores), state.winners, state.end_reason)
        if state.phase == ABANDONED:
            return Outcome(state.scores, ranks_of(state.scores), (), "abandoned")  # no winner
        return None

    def deadlines(self, state: State) -> list[Deadline]:
        out: list[Deadline] = []
        timer = next_timer(state)
        if timer is not None:
            due, kind = timer
            seats: tuple[int, ...] = ()
            if kind in ("placement", "ready"):
                # Named by nobody: the game then waits on its actors, the thief and the police until
                # the police is ready, before the placement as after it (T-18, H-2: whether the
                # thief has placed is the thief's alone, and a set-up clock would tell it).
                seats = ()
            elif kind == "abandon_offer":
                seats = missing(state)
            elif kind in ("relay_place", "relay_thief"):
                seats = (state.thief,)
            elif kind in ("relay_police", "session_end"):
                seats = (state.police,)
            out.append(Deadline(seats, state.origin + due / 1000, {"type": "tick"}, kind))
        if state.young and state.phase == DRIVING and state.t < speed_ready_at(state):
            due_ms = speed_ready_at(state)
            out.append(Deadline((state.active,), state.origin + due_ms / 1000, {"type": "tick"}, "speed_limit"))
        return out

    def bot_plan(self, state: State, seat: int, rng: random.Random) -> tuple[Action, float] | None:
        """The bot's next action and the epoch second from which it is legal (bots act in time).

        The platform should submit the action at that time (or later) and ask again after every
        event; ``None`` means the bot has nothing to do now.
        """
        plan = _bot.plan(state, seat, rng)
        if plan is None:
            return None
        action, at_ms = plan
        return action, state.origin + max(at_ms, state.t) / 1000

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's next action (see :meth:`bot_plan` for *when*: a roll or a move planned for a
        later time is refused as ``cooldown`` / ``too_fast`` if submitted early).

        With nothing to do (a thief waiting through the countdown or a pause), it returns the
        harmless ``auto_escape`` with the flag's current value rather than toggling it.
        """
        plan = _bot.plan(state, seat, rng)
        if plan is not None:
            return plan[0]
        legal = [a for a in self.legal_actions(state, seat) if a["type"] != "auto_escape"]
        if legal:
            return dict(legal[0])
        if seat == state.thief and not state.young and state.phase in (SETUP, COUNTDOWN, RUNNING, PAUSED):
            return {"type": "auto_escape", "on": state.auto_escape}
        raise IllegalAction(_("No legal action for seat %(seat)s."), seat=seat)


__all__ = ["MESSAGES", "PoliceAlarmRules", "Rejected", "active_seats", "next_timer", "speed_ready_at"]
