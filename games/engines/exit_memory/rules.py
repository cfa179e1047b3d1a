"""The exit_memory rules object: validation (decide), turns, chains, danger effects, resolution,
deadlines. Rule ids refer to ``rules/exit_memory.md``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    check_due,
)
from ..base import gettext_noop as _
from . import bot as _bot
from . import log as _log
from . import view as _view
from .evolve import evolve as _evolve
from .randomness import new_seed, shuffle, start_seat
from .state import CHAIN, EXTRA, OVER, PRESTART, SUMMARY, TURN, State, state_from_json, state_to_json
from .tiles import (
    DANGER_DECK,
    DANGER_SYMBOL,
    FL0,
    FLOOR_DECK,
    HAND_SIZE,
    HEADINGS,
    ROUNDABOUT,
    SHUFFLED_TILES,
    SYMBOL,
    TERMS,
    TILE_TYPE,
    N,
    display_exit,
)
from .walk import ChainRecord, score_chains, walk

# -- refusals (R-68) -------------------------------------------------------------------------------

NOT_YOUR_TURN = "NOT_YOUR_TURN"
WRONG_PHASE = "WRONG_PHASE"
TILE_NOT_IN_HAND = "TILE_NOT_IN_HAND"
BAD_FACING = "BAD_FACING"
JAMMED = "JAMMED"
HAND_NOT_EMPTY = "HAND_NOT_EMPTY"
CANNOT_JOIN_LAST_HOLDER = "CANNOT_JOIN_LAST_HOLDER"

MESSAGES: dict[str, str] = {
    NOT_YOUR_TURN: _("It is not your turn."),
    WRONG_PHASE: _("That cannot be done at this point of the round."),
    TILE_NOT_IN_HAND: _("That tile is not in your hand."),
    BAD_FACING: _("Turn the tile so that it continues the arrow on top of the pile."),
    JAMMED: _("The exit is jammed: you may not declare lost on this turn."),
    HAND_NOT_EMPTY: _("You still hold tiles, so you cannot pass: place one or declare lost."),
    CANNOT_JOIN_LAST_HOLDER: _("The last player holding a lost tile cannot join."),
}


class Refused(IllegalAction):
    """An R-68 refusal: ``code`` is the spec's error code, the message says it in words."""

    def __init__(self, code: str) -> None:
        super().__init__(MESSAGES[code])
        self.code = code


# -- decisions and their time limits (R-70) -----------------------------------------------------------

TURN_CHOICES = (15, 30, 60, 120, 300)
CHAIN_CHOICES = (5, 10, 20, 60, 120)
EXTRA_SECONDS = 60
SUMMARY_SECONDS = 60

SYSTEM_TYPES = frozenset({"start", "timeout", "resign"})
PLAYER_TYPES = frozenset({"place", "declare_lost", "pass", "chain_reply", "ready"})


@dataclass(frozen=True)
class Prescribed:
    """R-65: a prescribed first round for tests (hands per seat, the deck under them, the start
    player and the face-up cards). Only a rules object built with it uses it; ``RULES`` has none."""

    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    start: int = 0
    floors: tuple[str, ...] = (FL0,)
    dangers: tuple[str, ...] = ()


# -- pure helpers on states --------------------------------------------------------------------------


def required_facing(state: State) -> str | None:
    """R-6/R-7: the display facing a new face-up tile must have, or ``None`` when it is free."""
    if not state.pile:
        return display_exit("START", state.start_facing)
    top = state.pile[-1]
    if top.face_down or TILE_TYPE[top.tile] == ROUNDABOUT:
        return None
    return display_exit(TILE_TYPE[top.tile], top.facing)


def allowed_facings(state: State, tile: str) -> tuple[str, ...]:
    """The facings a placement of ``tile`` may have now (R-6..R-8, R-51)."""
    if TILE_TYPE[tile] == ROUNDABOUT or state.face_down_next:
        return HEADINGS  # stored but never used: a face-down tile's facing is free
    required = required_facing(state)
    return HEADINGS if required is None else (required,)


def clockwise_from(state: State, seat: int) -> list[int]:
    """R-1: every other seat, clockwise from ``seat``'s left neighbour."""
    return [(seat + i) % state.players for i in range(1, state.players)]


def next_holder(state: State, seat: int) -> tuple[int, list[int]]:
    """R-21/R-18/R-53: the next holder clockwise from ``seat`` (``seat`` itself last), skipping
    DG5-flagged holders; returns it and the flags it consumed."""
    order = [*clockwise_from(state, seat), seat]
    consumed: list[int] = []
    for candidate in order:
        if not state.holders[candidate]:
            continue
        if state.skipped[candidate]:
            consumed.append(candidate)
            continue
        return candidate, consumed
    return consumed[0], consumed  # every holder was flagged: the flags lapse and the first plays


def following_holder(state: State, seat: int) -> int:
    """DG5/DG7: the holder who would take the next turn after ``seat`` (another holder)."""
    for candidate in clockwise_from(state, seat):
        if state.holders[candidate]:
            return candidate
    return -1


def all_tiles_played(state: State) -> bool:
    """R-24b: the deck is empty and no holder has a direction tile in hand."""
    return not state.deck and not any(state.hands[s] for s in state.holder_seats())


def may_declare(state: State, seat: int) -> bool:
    """R-20: on one's own turn, as a holder who is not jammed (DG7)."""
    return state.phase == TURN and seat == state.turn and state.holders[seat] and not state.jammed[seat]


def next_prompt(state: State) -> int:
    """R-14/R-15: the next holder to ask in the open chain, or -1 when the chain is over."""
    chain = state.chains[-1]
    if len(state.holder_seats()) <= 1:
        return -1  # the last holder keeps their lost tile without being asked
    for seat in clockwise_from(state, chain.members[0]):
        if seat not in state.chain_asked and state.holders[seat]:
            return seat
    return -1


def next_start_player(state: State) -> int:
    """R-43: the opener of C1, or the left neighbour of this round's start player."""
    if state.chains:
        return state.chains[0].members[0]
    return (state.start_player + 1) % state.players


def decision(state: State) -> tuple[str, tuple[int, ...]]:
    """The decision the game waits for (R-66, R-70) and who makes it."""
    if state.phase == TURN:
        return "turn", (state.turn,)
    if state.phase == EXTRA:
        return "extra", (state.turn,)
    if state.phase == CHAIN and state.prompted >= 0:
        return "chain", (state.prompted,)
    if state.phase == SUMMARY:
        return "summary", tuple(s for s in range(state.players) if not state.ready[s])
    return "", ()


def seconds_for(state: State, kind: str) -> float:
    return {"turn": state.turn_seconds, "extra": EXTRA_SECONDS, "chain": state.chain_seconds}.get(kind, SUMMARY_SECONDS)


# -- one decide call ------------------------------------------------------------------------------


class _Run(DecideRun[State]):
    def __init__(self, state: State, now: float, prescribed: Prescribed | None) -> None:
        super().__init__(state, _evolve)
        self.now = now
        self.prescribed = prescribed

    # -- rounds (section 3, R-44) ---------------------------------------------------------------

    def begin_round(self, number: int, start: int) -> None:
        s = self.state
        prescribed = self.prescribed if number == 1 else None
        if prescribed is not None:
            floors, dangers = [c for c in prescribed.floors if c not in s.floors], list(prescribed.dangers)
            start = prescribed.start
        else:
            floors = [FL0] if number == 1 else list(s.floor_deck[:1])  # R-44 step 3, R-45
            dangers = list(s.danger_deck[:1]) if s.danger else []
        self.emit("round_started", {"round": number, "start": start, "floors": floors, "dangers": dangers})
        if prescribed is not None:
            dealt = [t for i in range(s.players) for t in prescribed.hands[(start + i) % s.players]]
            order = (*dealt, *prescribed.deck)
        else:
            order = shuffle(s.seed, f"tiles/round-{number}", SHUFFLED_TILES)  # R-44 step 2, R-63
        self.emit("shuffled", {"label": f"tiles/round-{number}"}, {"order": list(order)})
        for i in range(s.players):  # section 3 step 7: 3 tiles each, from the start player clockwise
            seat = (start + i) % s.players
            size = len(prescribed.hands[seat]) if prescribed is not None else HAND_SIZE
            tiles = list(self.state.deck[:size])
            self.emit("dealt", {"seat": seat, "count": len(tiles)}, {"tiles": tiles}, (seat,))
        self.emit("turn_started", {"seat": start, "at": self.now, "skipped": []})

    def next_turn(self, after: int) -> None:
        """R-21/R-18: the next holder clockwise, DG5 skips consumed."""
        seat, skipped = next_holder(self.state, after)
        self.emit("turn_started", {"seat": seat, "at": self.now, "skipped": skipped})

    def end_round(self, reason: str) -> None:
        """R-24 then R-25..R-46: resolve the pile, score, and end the game or wait for READY."""
        s = self.state
        self.emit("round_ended", {"reason": reason})
        result = walk([p.tile for p in s.pile], s.floors)
        chains = [ChainRecord(c.number, c.position, c.members) for c in s.chains]
        scoring = score_chains(result, chains, s.holder_seats())
        scores = [score + (1 if seat in scoring["scorers"] else 0) for seat, score in enumerate(s.scores)]
        pile = [
            {"tile": p.tile, "type": TILE_TYPE[p.tile], "facing": p.facing, "face_down": p.face_down} for p in s.pile
        ]
        self.emit(
            "resolved",
            {
                "round": s.round,
                "reason": reason,
                "pile": pile,
                **result,
                **scoring,
                "scores": scores,
                "next_start": next_start_player(s),
                "at": self.now,
            },
        )  # the whole pile and the transcript, to everyone
        self.emit("scored", {"scorers": scoring["scorers"], "scores": scores})
        if max(scores) >= s.target:  # everyone at or above the target wins
            winners = [seat for seat, score in enumerate(scores) if score >= s.target]
            self.emit("game_ended", {"winners": winners, "scores": scores, "seed": s.seed})
        elif all(self.state.ready):
            self.begin_round(s.round + 1, self.state.result["next_start"] if self.state.result else 0)

    def after_action(self, seat: int) -> None:
        """R-24b after any action, else the next turn."""
        if all_tiles_played(self.state):
            self.end_round("all_played")
        else:
            self.next_turn(seat)

    # -- placing (R-5..R-11, section 7) ----------------------------------------------------------

    def on_turn(self, seat: int, phases: tuple[str, ...] = (TURN,)) -> State:
        """The state, once it is ``seat``'s turn in one of ``phases`` (R-68: else WRONG_PHASE or
        NOT_YOUR_TURN)."""
        s = self.state
        if s.phase not in phases:
            raise Refused(WRONG_PHASE)
        if seat != s.turn:
            raise Refused(NOT_YOUR_TURN)
        return s

    def place(self, seat: int, tile: str, facing: str | None, auto: bool) -> None:
        s = self.on_turn(seat, (TURN, EXTRA))
        if tile not in s.hands[seat]:
            raise Refused(TILE_NOT_IN_HAND)
        allowed = allowed_facings(s, tile)
        if facing is None:
            facing = allowed[0] if len(allowed) == 1 else N
        elif facing not in allowed:
            raise Refused(BAD_FACING)
        face_down = s.face_down_next
        extra = s.phase == EXTRA
        self.emit(
            "tile_placed",
            {"seat": seat, "index": len(s.pile) + 1, "face_down": face_down, "extra": extra, "auto": auto},
            {"tile": tile, "facing": facing},  # the identity is server-only until the round ends
        )
        if not face_down and self.trigger(seat, tile):
            return  # DG6: the extra placement comes first
        self.finish_turn(seat)

    def trigger(self, seat: int, tile: str) -> bool:
        """R-11, R-49..R-55: the revealed danger card whose symbol the tile bears. Returns True when
        the player now owes a DG6 extra placement."""
        s = self.state
        if not s.danger or tile not in SYMBOL:
            return False
        card = next((c for c in s.dangers if DANGER_SYMBOL[c] == SYMBOL[tile]), None)
        if card is None:
            return False
        target = -1
        if card in ("DG5", "DG7"):
            target = following_holder(s, seat)
            if card == "DG5" and target >= 0 and s.skipped[target]:
                target = -1  # flags do not stack
        self.emit("danger_triggered", {}, {"card": card, "seat": seat, "tile": tile, "target": target})
        if card == "DG4":
            self.sprinklers()
        if card == "DG6" and self.state.hands[seat]:
            self.emit("extra_turn", {"seat": seat, "at": self.now})
            return True
        return False

    def sprinklers(self) -> None:
        """R-52: every holder hands their whole hand to the next holder clockwise, all at once."""
        s = self.state
        holders = s.holder_seats()
        for i, receiver in enumerate(holders):
            giver = holders[i - 1]
            tiles = list(s.hands[giver])
            self.emit("hand_received", {"seat": receiver, "count": len(tiles)}, {"tiles": tiles}, (receiver,))

    def finish_turn(self, seat: int) -> None:
        """R-10: draw up to 3 once, after every placement and effect of the turn; then R-24b, R-21."""
        s = self.state
        count = max(0, min(HAND_SIZE - len(s.hands[seat]), len(s.deck)))
        if count:
            self.emit("drew", {"seat": seat, "count": count}, {"tiles": list(s.deck[:count])}, (seat,))
        self.after_action(seat)

    # -- declaring and the chain (R-13..R-20) ----------------------------------------------------

    def declare(self, seat: int) -> None:
        s = self.on_turn(seat)
        if s.jammed[seat]:
            raise Refused(JAMMED)
        self.emit("lost_declared", {"seat": seat, "chain": len(s.chains) + 1, "position": len(s.pile)})
        self.advance_chain()

    def reply(self, seat: int, join: bool, auto: bool) -> None:
        s = self.state
        if s.phase != CHAIN:
            raise Refused(WRONG_PHASE)
        if seat != s.prompted:
            raise Refused(NOT_YOUR_TURN)
        if join and len(s.holder_seats()) <= 1:
            raise Refused(CANNOT_JOIN_LAST_HOLDER)  # R-15 (never prompted, but guarded)
        self.emit("chain_reply", {"seat": seat, "chain": s.chains[-1].number, "join": join, "auto": auto})
        self.advance_chain()

    def advance_chain(self) -> None:
        """R-14/R-16: prompt the next holder, or close the chain (R-18, R-24)."""
        seat = next_prompt(self.state)
        if seat >= 0:
            self.emit("prompted", {"seat": seat, "chain": self.state.chains[-1].number, "at": self.now})
            return
        if len(self.state.holder_seats()) == 1:
            self.end_round("one_holder")  # R-24a
        else:
            self.after_action(self.state.chains[-1].members[0])

    def pass_turn(self, seat: int, auto: bool) -> None:
        s = self.on_turn(seat)
        if s.hands[seat]:
            raise Refused(HAND_NOT_EMPTY)
        self.emit("passed", {"seat": seat, "auto": auto})
        self.after_action(seat)

    def ready(self, seat: int, auto: bool) -> None:
        if self.state.phase != SUMMARY:
            raise Refused(WRONG_PHASE)
        if self.state.ready[seat]:
            raise IllegalAction(_("You are already ready for the next round."))
        self.emit("ready", {"seat": seat, "auto": auto})
        if all(self.state.ready):  # the next round starts when everybody is ready
            result = self.state.result or {}
            self.begin_round(self.state.round + 1, int(result.get("next_start", 0)))


# -- the rules object ----------------------------------------------------------------------------


# A seat field is a small whole number (SYSTEM is negative); a larger one is no seat at all.
MAX_SEAT_NUMBER = 1000


def _seat(payload: Mapping[str, Any]) -> int:
    value = payload.get("seat")
    if isinstance(value, bool) or not isinstance(value, int) or not -MAX_SEAT_NUMBER <= value <= MAX_SEAT_NUMBER:
        raise InvalidAction(_("A seat number is required."))
    return value


class ExitMemoryRules(GenericRules[State]):
    slug = "exit_memory"
    name = _("Emergency Exit")
    min_players = 2
    max_players = 5
    options: tuple[Option, ...] = (
        Option("danger", _("Danger mode: danger cards change the pile as you play"), "bool", False),
        Option(
            "turn_seconds",
            _("Time for a turn"),
            "choice",
            "60",
            tuple((str(v), _("%s seconds") % v) for v in TURN_CHOICES),
        ),
        Option(
            "chain_seconds",
            _("Time to answer a declaration"),
            "choice",
            "20",
            tuple((str(v), _("%s seconds") % v) for v in CHAIN_CHOICES),
        ),
    )
    terms: Mapping[str, str] = TERMS
    uses_time_limit = False  # its own clock: the options' times, or real time

    def __init__(self, prescribed: Prescribed | None = None, seed: str | None = None) -> None:
        """``prescribed`` (R-65) and ``seed`` are test seams; the registered ``RULES`` has neither."""
        self.prescribed = prescribed
        self.fixed_seed = seed

    # -- setup ------------------------------------------------------------------------------------

    def initial(self, players: int, options: Mapping[str, Any]) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"exit_memory needs 2 to 5 players, not {players}")

        def pick(name: str, choices: tuple[int, ...], default: int) -> int:
            raw = str(options.get(name, default))
            return int(raw) if raw.isdigit() and int(raw) in choices else default

        return State(
            players=players,
            danger=bool(options.get("danger", False)),
            turn_seconds=pick("turn_seconds", TURN_CHOICES, 60),
            chain_seconds=pick("chain_seconds", CHAIN_CHOICES, 20),
            resigned=(False,) * players,
        )

    def _start(self, run: _Run, rng: random.Random) -> None:
        s = run.state
        seed = self.fixed_seed if self.fixed_seed is not None else new_seed(rng.getrandbits(256))
        run.emit(
            "game_created",
            {
                "players": s.players,
                "danger": s.danger,
                "turn_seconds": s.turn_seconds,
                "chain_seconds": s.chain_seconds,
            },
            {"seed": seed},
        )  # the seed is secret until the game ends
        run.emit("shuffled", {"label": "floor"}, {"order": list(shuffle(seed, "floor", FLOOR_DECK))})
        if s.danger:
            run.emit("shuffled", {"label": "danger"}, {"order": list(shuffle(seed, "danger", DANGER_DECK))})
        run.begin_round(1, start_seat(seed, s.players))  # section 3 step 2

    # -- who acts, what is legal --------------------------------------------------------------------

    def actors(self, state: State) -> frozenset[int]:
        if state.phase == PRESTART:
            return frozenset({SYSTEM})
        return frozenset(decision(state)[1])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat == SYSTEM:
            return [{"type": "start"}] if state.phase == PRESTART else []
        if state.phase == OVER or not 0 <= seat < state.players or state.resigned[seat]:
            return []
        kind, seats = decision(state)
        if seat not in seats:
            return []
        if kind in ("turn", "extra"):
            out: list[Action] = [
                {"type": "place", "tile": tile, "facing": facing}
                for tile in sorted(state.hands[seat])
                for facing in allowed_facings(state, tile)
            ]
            if kind == "turn" and may_declare(state, seat):
                out.append({"type": "declare_lost"})
            if kind == "turn" and not state.hands[seat]:
                out.append({"type": "pass"})
            return out
        if kind == "chain":
            return [{"type": "chain_reply", "join": True}, {"type": "chain_reply", "join": False}]
        return [{"type": "ready"}]

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        if not isinstance(payload, Mapping):
            raise InvalidAction(_("An action must be an object."))
        kind = payload.get("type")
        if kind in ("start", "declare_lost", "pass", "ready"):
            return {"type": kind}
        if kind == "place":
            tile, facing = payload.get("tile"), payload.get("facing")
            if not isinstance(tile, str) or tile not in TILE_TYPE:
                raise InvalidAction(_("Choose a tile from your hand."))
            if facing in (None, ""):
                return {"type": "place", "tile": tile}
            if facing not in HEADINGS:
                raise InvalidAction(_("A tile can only face up, right, down or left."))
            return {"type": "place", "tile": tile, "facing": facing}
        if kind == "chain_reply":
            join = payload.get("join")
            if isinstance(join, str) and join in ("true", "false"):
                join = join == "true"
            if not isinstance(join, bool):
                raise InvalidAction(_("Answer join or keep."))
            return {"type": "chain_reply", "join": join}
        if kind in ("timeout", "resign"):
            return {"type": kind, "seat": _seat(payload)}
        raise InvalidAction(_("Unknown action type."))

    # -- decide -------------------------------------------------------------------------------------

    def decide(self, state: State, seat: int, action: Action, ctx: DecideContext) -> list[Event]:
        kind = action.get("type")
        if kind in SYSTEM_TYPES:
            if seat != SYSTEM:
                raise IllegalAction(_("Only the server may do that."))
        elif kind in PLAYER_TYPES:
            if not 0 <= seat < state.players:
                raise IllegalAction(_("Only a player may do that."))
            if state.resigned[seat]:
                raise IllegalAction(_("You have left this game."))
        else:
            raise IllegalAction(_("Unknown action type."))
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if kind != "start" and state.phase == PRESTART:
            raise Refused(WRONG_PHASE)
        run = _Run(state, ctx.now, self.prescribed)
        if kind == "start":
            if state.phase != PRESTART:
                raise IllegalAction(_("The game has already started."))
            self._start(run, ctx.rng)
        elif kind == "place":
            run.place(seat, action["tile"], action.get("facing"), auto=False)
        elif kind == "declare_lost":
            run.declare(seat)
        elif kind == "pass":
            run.pass_turn(seat, auto=False)
        elif kind == "chain_reply":
            run.reply(seat, bool(action["join"]), auto=False)
        elif kind == "ready":
            run.ready(seat, auto=False)
        elif kind == "timeout":
            self._timeout(run, action)
        else:
            self._resign(run, action["seat"])
        return run.events

    def _timeout(self, run: _Run, action: Action) -> None:
        """R-70: the default of the decision whose time ran out, marked automatic."""
        check_due(self.deadlines(run.state), action, run.now)
        kind, seats = decision(run.state)
        run.emit("timed_out", {"seat": action["seat"], "kind": kind})
        self._default(run, kind, seats)

    @staticmethod
    def _default(run: _Run, kind: str, seats: Sequence[int]) -> None:
        s = run.state
        if kind in ("turn", "extra"):
            seat = seats[0]
            if not s.hands[seat]:
                run.pass_turn(seat, auto=True)
                return
            tile = min(s.hands[seat])  # the lowest id, with the required facing (N when free)
            allowed = allowed_facings(s, tile)
            run.place(seat, tile, allowed[0] if len(allowed) == 1 else N, auto=True)
        elif kind == "chain":
            run.reply(seats[0], False, auto=True)  # keep
        else:
            for seat in seats:  # READY for everyone still reading the summary
                if run.state.phase == SUMMARY:
                    run.ready(seat, auto=True)

    def _resign(self, run: _Run, seat: int) -> None:
        if not 0 <= seat < run.state.players or run.state.resigned[seat]:
            raise IllegalAction(_("That player has already left."))
        run.emit("resigned", {"seat": seat})
        if run.state.phase == SUMMARY and all(run.state.ready):
            result = run.state.result or {}
            run.begin_round(run.state.round + 1, int(result.get("next_start", 0)))

    # -- the rest of the protocol ------------------------------------------------------------------

    # The pure parts of the protocol are this game's module functions, as they are.
    evolve = staticmethod(_evolve)
    log_lines = staticmethod(_log.log_lines)
    state_to_json = staticmethod(state_to_json)
    state_from_json = staticmethod(state_from_json)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view.view(state, seat, self.deadlines(state))

    def view_revealed(self, state: State) -> dict[str, Any]:
        """The spectator's view with every hand and the pile's order shown (for a replay)."""
        return _view.revealed_view(state, self.deadlines(state))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        order = sorted(set(state.scores), reverse=True)
        ranks = tuple(order.index(score) + 1 for score in state.scores)
        return Outcome(state.scores, ranks, state.winners, "target")

    def deadlines(self, state: State) -> list[Deadline]:
        kind, seats = decision(state)
        if not kind or not seats:
            return []
        waiting_on_people = [s for s in seats if not state.resigned[s]]
        due = state.since + seconds_for(state, kind) if waiting_on_people else 0.0
        who = seats[0] if kind != "summary" else SYSTEM
        return [Deadline(tuple(seats), due, {"type": "timeout", "seat": who}, kind)]

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        if seat not in decision(state)[1]:
            raise IllegalAction(_("No legal action for seat %(seat)s."), seat=seat)
        return _bot.choose(state, seat, rng)
