"""The heist rules object: validation (decide), automatic steps, deadlines."""

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
    check_due,
    check_sender,
    gettext_noop,
    whole_number,
)
from ..kept import KeptByIdentity
from . import bot as _bot
from . import log as _log
from . import view as _view
from .constants import (
    BONUS_PAY,
    DEFAULT_TIME_LIMIT,
    DRIVER,
    DRIVER_FEE,
    GOON,
    GOON_THEFT,
    INFORMANT,
    INFORMANT_PENALTY,
    LOOT,
    LOOT_IDS,
    MASTERMIND,
    MASTERMIND_BONUS,
    NAMING_TIMEOUT_ORDER,
    REVEAL_ORDER,
    START_BALANCE,
    THREAT_SUPPLY,
    THUG,
    hands_per_player,
    roles_for,
)
from .evolve import evolve as _evolve
from .state import (
    ELIMINATED,
    NAMING,
    NEGOTIATION,
    OVER,
    PLANNING,
    SETUP,
    SURVIVED,
    UNDECIDED,
    WITHDRAWN,
    Hand,
    State,
)
from .state import state_from_json as _state_from_json
from .state import state_to_json as _state_to_json

_ = gettext_noop

# The spectator's view of the latest states (states are never changed once made): the pushes after
# a move build every seat's view from it.
_public_views: KeptByIdentity[dict[str, Any]] = KeptByIdentity(32)

PLAYER_TYPES = frozenset(
    {
        "choose",
        "withdraw",
        "commit",
        "offer",
        "accept",
        "decline",
        "cancel",
        "look",
        "roll_call",
        "prompt",
        "call",
        "name",
    }
)
SYSTEM_TYPES = frozenset(
    {
        "start",
        "resign",
        "planning_timeout",
        "negotiation_timeout",
        "prompt_timeout",
        "call_timeout",
        "naming_timeout",
        "expire_offer",
        "powers_ready",
    }
)


# --------------------------------------------------------------------------------------------
# Helpers on states (pure)
# --------------------------------------------------------------------------------------------


def allowed_roles(state: State, seat: int) -> tuple[str, ...]:
    """Roles the seat may choose now (spec section 3, R-61, R-57)."""
    owned = roles_for(state.players)
    if state.no_repeat and state.previous and seat < len(state.previous):
        owned = tuple(r for r in owned if r not in state.previous[seat])
    return owned


def nameable_roles(state: State) -> tuple[str, ...]:
    """R-31 b: role types on the face-up pool cards, except INFORMANT, in reveal order."""
    return tuple(r for r in REVEAL_ORDER if r != INFORMANT and r in state.pool)


def negotiation_due(state: State) -> float:
    return state.negotiation_at + 3 * state.time_limit


def powers_at(state: State) -> float:
    """R-76: prompt and call become available T/2 after negotiation starts.

    This is only the due time of the ``boss_powers`` deadline: ``decide`` never compares it with
    the clock for a player's action. The ``powers_ready`` SYSTEM action (refused before this
    time) emits ``boss_powers_ready``, and the state's ``powers_ready`` flag is what unlocks
    prompt and call.
    """
    return state.negotiation_at + state.time_limit / 2


def ranks_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    """R-60: competition ranking, equal balances share a rank."""
    return tuple(1 + sum(1 for o in scores if o > s) for s in scores)


def staying(state: State) -> tuple[Hand, ...]:
    return tuple(h for h in state.hands if h.status != WITHDRAWN)


# --------------------------------------------------------------------------------------------
# A run of decide: emits events and evolves as it goes
# --------------------------------------------------------------------------------------------


class _Run(DecideRun[State]):
    def __init__(self, state: State, ctx: DecideContext) -> None:
        super().__init__(state, _evolve)
        self.now = float(ctx.now)
        self.rng = ctx.rng

    @property
    def T(self) -> float:
        return float(self.state.time_limit)

    # -- heist start and planning ----------------------------------------------------------

    def start_heist(self) -> None:
        s = self.state
        previous = None
        if s.no_repeat and s.heist >= 1:
            previous = [list(c) for c in s.choices]
        self.emit(
            "heist_started",
            {
                "heist": s.heist + 1,
                "loot": s.deck[0],
                "deck_count": len(s.deck) - 1,
                "boss_seat": s.boss,
                "at": self.now,
                "due": self.now + self.T,
                "previous_roles": previous,
            },
        )
        for seat in range(s.players):
            if self.state.resigned[seat]:
                self.pick_for(seat)
        self.maybe_lay_pool()

    def pick_for(self, seat: int) -> None:
        """R-77 / R-70 4: a uniform pick among the allowed roles (ordered pair with 3 players)."""
        allowed = list(allowed_roles(self.state, seat))
        roles = self.rng.sample(allowed, hands_per_player(self.state.players))
        self.emit("choice_timed_out", {"seat": seat}, {"roles": roles}, (seat,))

    def maybe_lay_pool(self) -> None:
        s = self.state
        if s.phase != PLANNING or any(not c for c in s.choices):
            return
        stake = LOOT[s.loot].stake
        stakes = []
        cards = []
        for seat in range(s.players):
            balance = s.balances[seat]
            for slot, role in enumerate(s.choices[seat], start=1):
                own = min(stake, balance)
                balance -= own
                stakes.append({"seat": seat, "slot": slot, "stake": stake, "own": own, "loan": stake - own})
                cards.append(role)
        order = self.rng.sample(cards, len(cards))
        face_up = sorted(order[1:], key=REVEAL_ORDER.index)
        self.emit(
            "pool_laid_out",
            {
                "at": self.now,
                "due": self.now + 3 * self.T,
                "stakes": stakes,
                "face_up": face_up,
            },
            {"order": order, "set_aside": order[0]},
            (),
        )
        # a time-out pick (or a resigned player, R-79) withdraws at negotiation start.
        for hand in self.state.hands:
            if self.state.timed_out[hand.seat] or self.state.resigned[hand.seat]:
                self.withdraw(hand, "timeout")
        self.after_change()

    # -- negotiation -----------------------------------------------------------------------

    def withdraw(self, hand: Hand, reason: str) -> None:
        self.emit(
            "hand_withdrawn",
            {
                "seat": hand.seat,
                "slot": hand.slot,
                "own": hand.own,
                "loan": hand.loan,
                "reason": reason,
            },
        )

    def commit(self, seat: int, reason: str) -> None:
        slots = [h.slot for h in self.state.undecided(seat)]
        if slots:
            self.emit("hands_committed", {"seat": seat, "slots": slots, "reason": reason})

    def after_change(self) -> None:
        """R-26 expiries, then R-28 a."""
        s = self.state
        if s.phase != NEGOTIATION:
            return
        for offer in s.offers:  # only open offers are in the state
            reason = ""
            if offer.clause:
                clause_hand = s.hand(offer.payee, offer.clause)
                if clause_hand is None or clause_hand.status != UNDECIDED:
                    reason = "clause"
            if s.fully_withdrawn(offer.payer) or s.fully_withdrawn(offer.payee):
                reason = reason or "withdrawn"
            if reason:
                self.emit("offer_expired", {"offer": offer.id, "reason": reason})
        if not any(h.status == UNDECIDED for h in self.state.hands):
            self.end_negotiation("decided")

    def end_negotiation(self, reason: str) -> None:
        for seat in range(self.state.players):
            self.commit(seat, "end")
        for offer in self.state.offers:  # every offer in the state is open
            self.emit("offer_expired", {"offer": offer.id, "reason": "ended"})
        self.emit("negotiation_ended", {"reason": reason})
        self.resolve_start()

    # -- the heist -------------------------------------------------------------------------

    def resolve_start(self) -> None:
        s = self.state
        stay = staying(s)
        if not stay:
            self.emit("heist_empty", {})
            self.end_heist()
            return
        informants = [h for h in stay if h.role == INFORMANT]
        if len(informants) >= 2:  # R-31 a
            self.reveal(INFORMANT, informants, ELIMINATED, returned=False)
        elif len(informants) == 1:  # R-31 b
            lone = informants[0]
            nameable = nameable_roles(s)
            waits = bool(nameable) and not s.resigned[lone.seat]
            self.reveal(
                INFORMANT,
                informants,
                SURVIVED,
                returned=True,
                lone=True,
                naming_due=self.now + self.T if waits else None,
            )
            if waits:
                return  # the only pause
            if nameable:  # resigned owner: default at once
                self.name(default_named_role(self.state), timeout=True)
                return
            self.name(None, timeout=False)
            return
        self.resolve_rest()

    def reveal(
        self,
        step: str,
        hands: list[Hand],
        result: str,
        *,
        returned: bool,
        lone: bool = False,
        naming_due: float | None = None,
        threat_seat: int | None = None,
        thug_returns: bool = False,
    ) -> None:
        back = []
        lost = []
        for h in hands:
            entry = {"seat": h.seat, "slot": h.slot, "own": h.own, "loan": h.loan}
            if returned or (thug_returns and h.role == THUG):
                back.append(entry)
            else:
                lost.append(entry)
        data: dict[str, Any] = {
            "step": step,
            "hands": [{"seat": h.seat, "slot": h.slot, "role": h.role} for h in hands],
            "result": result,
            "returned": back,
            "forfeited": lost,
            "threat_seat": threat_seat,
            "lone": lone,
            "naming_due": naming_due,
        }
        self.emit("revealed", data)

    def name(self, role: str | None, *, timeout: bool) -> None:
        s = self.state
        assert s.informant is not None
        seat, slot = s.informant
        targets = [h for h in staying(s) if role is not None and h.role == role]
        self.emit(
            "role_named",
            {
                "seat": seat,
                "slot": slot,
                "role": role,
                "timeout": timeout,
                "hands": [{"seat": h.seat, "slot": h.slot} for h in targets],
            },
        )
        self.resolve_rest()

    def resolve_rest(self) -> None:
        for role in (THUG, DRIVER, GOON, MASTERMIND):  # R-32 .. R-35
            hands = [h for h in staying(self.state) if h.role == role and not h.named]
            if not hands:
                continue
            if len(hands) >= 2:
                self.reveal(role, hands, ELIMINATED, returned=role == THUG)
            else:
                threat = None
                if role == THUG and self.state.supply > 0:
                    threat = hands[0].seat
                self.reveal(role, hands, SURVIVED, returned=True, threat_seat=threat)
        named = [h for h in staying(self.state) if h.named]
        if named:
            self.reveal("NAMED", named, ELIMINATED, returned=False, thug_returns=True)
        s = self.state
        survivors = [h for h in s.hands if h.result == SURVIVED]
        alone = False
        if (
            s.informant is not None and len(survivors) == 1 and (survivors[0].seat, survivors[0].slot) == s.informant
        ):
            alone = True
            seat, slot = s.informant
            paid = min(INFORMANT_PENALTY, s.balances[seat])
            self.emit("informant_alone", {"seat": seat, "slot": slot, "paid": paid})
        if survivors and not alone:
            self.split(survivors)
        self.end_heist()

    def split(self, survivors: list[Hand]) -> None:
        s = self.state
        loot = LOOT[s.loot]
        roles = {h.role: h for h in survivors}
        mastermind = MASTERMIND in roles
        value = loot.total + (MASTERMIND_BONUS if mastermind else 0)
        k = len(survivors)
        share = value // k
        per_seat: dict[int, int] = {}
        for h in survivors:
            per_seat[h.seat] = per_seat.get(h.seat, 0) + share
        self.emit(
            "loot_shared",
            {
                "value": value,
                "mastermind": mastermind,
                "share": share,
                "hands": k,
                "payments": [{"seat": seat, "amount": a} for seat, a in sorted(per_seat.items())],
                "remainder": value - k * share,
            },
        )
        driver = roles.get(DRIVER)
        if driver is not None:
            balances = list(self.state.balances)
            payments = []
            for h in sorted(survivors, key=lambda x: (x.seat, x.slot)):
                if h is driver or h.seat == driver.seat:
                    continue  # paying oneself changes nothing
                amount = min(DRIVER_FEE, balances[h.seat])
                balances[h.seat] -= amount
                balances[driver.seat] += amount
                payments.append({"seat": h.seat, "slot": h.slot, "amount": amount})
            if payments:
                self.emit("driver_fee", {"seat": driver.seat, "payments": payments})
        goon, thug = roles.get(GOON), roles.get(THUG)
        if goon is not None and thug is not None and goon.seat != thug.seat:
            amount = min(GOON_THEFT, self.state.balances[thug.seat])
            self.emit("goon_theft", {"seat": goon.seat, "thug_seat": thug.seat, "amount": amount})
        if loot.bonus is not None and loot.bonus in roles:
            self.emit(
                "bonus_paid",
                {"seat": roles[loot.bonus].seat, "role": loot.bonus, "amount": BONUS_PAY},
            )

    def end_heist(self) -> None:
        s = self.state
        self.emit(
            "heist_ended",
            {"heist": s.heist, "loot": s.loot, "boss_seat": (s.boss + 1) % s.players},
        )
        s = self.state
        best = max(s.balances)
        if best >= s.target:  # R-58 a
            reason = "target"
        elif not s.deck:  # R-58 b
            reason = "deck"
        else:
            self.start_heist()
            return
        self.emit(
            "game_over",
            {
                "reason": reason,
                "scores": list(s.balances),
                "ranks": list(ranks_of(s.balances)),
                "winners": [i for i, b in enumerate(s.balances) if b == best],
            },
        )


def default_named_role(state: State) -> str | None:
    """R-77: first nameable role in the order THUG, DRIVER, GOON, MASTERMIND."""
    nameable = nameable_roles(state)
    for role in NAMING_TIMEOUT_ORDER:
        if role in nameable:
            return role
    return None


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------


def _int(payload: Mapping[str, Any], key: str, default: int | None = None) -> int:
    return whole_number(payload.get(key, default), key)


def _opt_int(payload: Mapping[str, Any], key: str) -> int | None:
    value = payload.get(key)
    if value is None or value == "" or value == 0 or value == "0":
        return None
    return _int(payload, key)


def _role(value: Any) -> str:
    if not isinstance(value, str) or value.upper() not in REVEAL_ORDER:
        raise InvalidAction(_("Unknown role."))
    return value.upper()


# --------------------------------------------------------------------------------------------
# The rules object
# --------------------------------------------------------------------------------------------


class HeistRules(GenericRules[State]):
    slug = "heist"
    name = _("Heist")
    min_players = 3
    max_players = 8
    options: tuple[Option, ...] = (
        Option("no_repeat", _("Not fooled again: no role twice in a row"), "bool", False),
        Option("quick", _("Quick game: 16M target, 6 heists"), "bool", False),
    )

    # -- setup -----------------------------------------------------------------------------

    def initial(self, players: int, options: Mapping[str, Any]) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"heist needs 3 to 8 players, not {players}")
        time_limit = int(options.get("time_limit") or DEFAULT_TIME_LIMIT)
        if time_limit <= 0:
            raise ValueError("time_limit must be positive")
        return State(
            players=players,
            no_repeat=bool(options.get("no_repeat", False)),
            quick=bool(options.get("quick", False)),
            time_limit=time_limit,
            balances=(START_BALANCE,) * players,
            threats=(0,) * players,
            supply=THREAT_SUPPLY,
            resigned=(False,) * players,
            choices=((),) * players,
            timed_out=(False,) * players,
        )

    # -- who acts, what is legal -----------------------------------------------------------

    _last_actors: tuple[State, frozenset[int]] | None = None

    def actors(self, state: State) -> frozenset[int]:
        # States are immutable and the web layer asks about the same one many times per move
        # (the write path, who is waited on, every seat's board): remember the last answer.
        last = self._last_actors
        if last is not None and last[0] is state:
            return last[1]
        if state.phase == SETUP:
            found = frozenset({SYSTEM})
        elif state.phase == OVER:
            found = frozenset()
        else:
            out = {s for s in range(state.players) if self._remembered_legal(state, s)}
            if self._remembered_legal(state, SYSTEM):
                out.add(SYSTEM)
            found = frozenset(out)
        self._last_actors = (state, found)
        return found

    _last_legal: tuple[State, dict[int, list[Action]]] | None = None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        # actors() asks for every seat's, then each seat's board asks for its own again, of the same
        # (immutable) state: remember the last state's answers, and hand out copies. Most actions hold
        # only scalars, and dict() copies those several times faster than a comprehension.
        return [
            {key: list(value) if type(value) is list else value for key, value in action.items()}
            if list in map(type, action.values())
            else dict(action)
            for action in self._remembered_legal(state, seat)
        ]

    def _remembered_legal(self, state: State, seat: int) -> list[Action]:
        """The last state's answers themselves, for callers here that only read them (not copies)."""
        last = self._last_legal
        if last is None or last[0] is not state:
            last = (state, {})
            self._last_legal = last
        found = last[1].get(seat)
        if found is None:
            found = last[1][seat] = self._legal_actions(state, seat)
        return found

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        phase = state.phase
        if seat == SYSTEM:
            return [dict(d.action) for d in self.deadlines(state) if d.due == 0] or (
                [{"type": "start"}] if phase == SETUP else []
            )
        if not 0 <= seat < state.players or state.resigned[seat]:
            return []
        if phase == PLANNING:
            if state.choices[seat]:
                return []
            allowed = allowed_roles(state, seat)
            if hands_per_player(state.players) == 1:
                return [{"type": "choose", "roles": [r]} for r in allowed]
            return [{"type": "choose", "roles": [a, b]} for a in allowed for b in allowed if a != b]
        if phase == NAMING:
            if state.informant is not None and state.informant[0] == seat:
                return [{"type": "name", "role": r} for r in nameable_roles(state)]
            return []
        if phase == NEGOTIATION:
            return self._negotiation_actions(state, seat)
        return []

    def _negotiation_actions(self, state: State, seat: int) -> list[Action]:
        out: list[Action] = []
        mine = state.undecided(seat)
        for h in mine:
            out.append({"type": "withdraw", "slot": h.slot})
        if mine:
            out.append({"type": "commit"})
        for offer in state.offers:  # the open offers
            if offer.creator == seat:
                out.append({"type": "cancel", "offer": offer.id})
            elif seat in (offer.payer, offer.payee):
                out.append({"type": "accept", "offer": offer.id})
                out.append({"type": "decline", "offer": offer.id})
        if not state.fully_withdrawn(seat):
            for other in range(state.players):
                if other == seat or not self._can_deal(state, other):
                    continue
                pay_max = min(5, state.balances[seat])
                other_slots = [None] + [h.slot for h in state.undecided(other)]
                for amount in range(1, pay_max + 1):
                    for clause in other_slots:
                        out.append(_offer(other, amount, "pay", clause))
                my_slots = [None] + [h.slot for h in mine]
                for amount in range(1, min(3, state.balances[other]) + 1):
                    for clause in my_slots:
                        out.append(_offer(other, amount, "ask", clause))
            if state.threats[seat] > 0:
                for h in state.hands:
                    if h.seat != seat and h.status != WITHDRAWN:
                        out.append({"type": "look", "target_seat": h.seat, "slot": h.slot})
        if seat == state.boss:
            if not state.roll_call:
                out.append({"type": "roll_call"})
            if state.powers_ready:  # R-76 b/c: only once boss_powers_ready has been applied
                prompted = {p for p, _due in state.prompts}
                for other in range(state.players):
                    if other not in prompted and state.undecided(other):
                        out.append({"type": "prompt", "target_seat": other})
                if state.call_due is None:
                    out.append({"type": "call"})
        return out

    @staticmethod
    def _can_deal(state: State, seat: int) -> bool:
        return not state.resigned[seat] and not state.fully_withdrawn(seat)

    # -- parsing ---------------------------------------------------------------------------

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        if not isinstance(payload, Mapping):
            raise InvalidAction(_("An action must be an object."))
        t = payload.get("type")
        if not isinstance(t, str) or t not in PLAYER_TYPES | SYSTEM_TYPES:
            raise InvalidAction(_("Unknown action type."))
        if t in (
            "start",
            "commit",
            "roll_call",
            "call",
            "negotiation_timeout",
            "call_timeout",
            "naming_timeout",
            "powers_ready",
        ):
            return {"type": t}
        if t == "choose":
            roles = payload.get("roles")
            if roles is None and "role" in payload:
                roles = [payload["role"]]
            if isinstance(roles, str):
                roles = [r for r in roles.split(",") if r]
            if not isinstance(roles, (list, tuple)) or not 1 <= len(roles) <= 2:
                raise InvalidAction(_("Choose one role (two with 3 players)."))
            return {"type": t, "roles": [_role(r) for r in roles]}
        if t == "withdraw":
            return {"type": t, "slot": _int(payload, "slot", 1)}
        if t == "offer":
            direction = payload.get("direction", "pay")
            if direction not in ("pay", "ask"):
                raise InvalidAction(_("An offer is either pay or ask."))
            return _offer(
                _int(payload, "to_seat"),
                _int(payload, "amount"),
                direction,
                _opt_int(payload, "clause_slot"),
            )
        if t in ("accept", "decline", "cancel", "expire_offer"):
            return {"type": t, "offer": _int(payload, "offer")}
        if t == "look":
            return {"type": t, "target_seat": _int(payload, "target_seat"), "slot": _int(payload, "slot", 1)}
        if t == "prompt":
            return {"type": t, "target_seat": _int(payload, "target_seat")}
        if t == "name":
            role = payload.get("role")
            return {"type": t, "role": None if role in (None, "") else _role(role)}
        if t in ("resign", "prompt_timeout"):
            return {"type": t, "seat": _int(payload, "seat")}
        if t == "planning_timeout":
            if payload.get("seat") in (None, ""):
                return {"type": t}
            return {"type": t, "seat": _int(payload, "seat")}
        raise InvalidAction(_("Unknown action type."))  # pragma: no cover

    # -- decide ----------------------------------------------------------------------------

    def decide(self, state: State, seat: int, action: Action, ctx: DecideContext) -> list[Event]:
        t = action.get("type")
        check_sender(t, seat, state.players, SYSTEM_TYPES, PLAYER_TYPES)
        if t in PLAYER_TYPES and state.resigned[seat]:
            raise IllegalAction(_("You have resigned."))
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        run = _Run(state, ctx)
        handler = getattr(self, f"_do_{t}")
        handler(run, seat, action)
        return run.events

    # System actions

    def _do_start(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        if s.phase != SETUP:
            raise IllegalAction(_("The game has already started."))
        order = run.rng.sample(list(LOOT_IDS), len(LOOT_IDS))  # R-70 2
        run.emit(
            "game_started",
            {
                "players": s.players,
                "target": s.target,
                "deck_size": s.deck_size,
                "no_repeat": s.no_repeat,
                "quick": s.quick,
                "time_limit": s.time_limit,
            },
            {"deck": order[: s.deck_size], "removed": order[s.deck_size :]},
            (),
        )
        run.start_heist()

    def _check_due(self, run: _Run, action: Action) -> None:
        """A time-out (SYSTEM) action applies only to a deadline that exists and is due.

        This is the only place where ``decide`` compares ``ctx.now`` with a time: player actions
        depend on the state alone, so that everything ``legal_actions`` lists is accepted. Time
        passing reaches the state only through these SYSTEM actions and their events (R-80).
        """
        check_due(self.deadlines(run.state), action, run.now)

    def _do_resign(self, run: _Run, seat: int, action: Action) -> None:
        who = action["seat"]
        s = run.state
        if not 0 <= who < s.players:
            raise IllegalAction(_("No such seat."))
        if s.resigned[who]:
            raise IllegalAction(_("%(seat)s has already resigned."), seat=who)
        run.emit("resigned", {"seat": who})
        s = run.state
        if s.phase == PLANNING and not s.choices[who]:
            run.pick_for(who)
            run.maybe_lay_pool()
        elif s.phase == NEGOTIATION:
            for offer in s.offers:
                if who in (offer.payer, offer.payee):
                    run.emit("offer_expired", {"offer": offer.id, "reason": "resigned"})
            for hand in run.state.undecided(who):
                run.withdraw(hand, "resign")
            run.after_change()
        elif s.phase == NAMING and s.informant is not None and s.informant[0] == who:
            run.name(default_named_role(s), timeout=True)

    def _do_planning_timeout(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        if s.phase != PLANNING:
            raise IllegalAction(_("Nobody is choosing a role."))
        self._check_due(run, action)
        if "seat" in action:
            run.pick_for(action["seat"])
        else:
            for who in range(s.players):
                if not run.state.choices[who]:
                    run.pick_for(who)
        run.maybe_lay_pool()

    def _do_negotiation_timeout(self, run: _Run, seat: int, action: Action) -> None:
        if run.state.phase != NEGOTIATION:
            raise IllegalAction(_("Negotiation is not running."))
        self._check_due(run, action)
        run.end_negotiation("deadline")

    def _do_call_timeout(self, run: _Run, seat: int, action: Action) -> None:
        if run.state.phase != NEGOTIATION:
            raise IllegalAction(_("Negotiation is not running."))
        self._check_due(run, action)
        run.end_negotiation("call")

    def _do_prompt_timeout(self, run: _Run, seat: int, action: Action) -> None:
        if run.state.phase != NEGOTIATION:
            raise IllegalAction(_("Negotiation is not running."))
        self._check_due(run, action)
        run.commit(action["seat"], "prompt")
        run.after_change()

    def _do_naming_timeout(self, run: _Run, seat: int, action: Action) -> None:
        if run.state.phase != NAMING:
            raise IllegalAction(_("Nobody is naming a role."))
        self._check_due(run, action)
        run.name(default_named_role(run.state), timeout=True)

    def _do_expire_offer(self, run: _Run, seat: int, action: Action) -> None:
        if run.state.phase != NEGOTIATION:
            raise IllegalAction(_("Negotiation is not running."))
        self._check_due(run, action)
        run.emit("offer_expired", {"offer": action["offer"], "reason": "lifetime"})

    def _do_powers_ready(self, run: _Run, seat: int, action: Action) -> None:
        """R-76 b/c: T/2 into negotiation the boss may prompt and call (time passing as an event)."""
        if run.state.phase != NEGOTIATION:
            raise IllegalAction(_("Negotiation is not running."))
        self._check_due(run, action)
        run.emit("boss_powers_ready", {"boss_seat": run.state.boss, "at": run.now})

    # Player actions. None of them reads the clock: until a time-out has actually been
    # applied by its SYSTEM action, the decision it would end is still open in the state, and the
    # first accepted action wins.

    def _negotiating(self, run: _Run, seat: int) -> State:
        s = run.state
        if s.phase != NEGOTIATION:
            raise IllegalAction(_("That is only possible during negotiation."))
        return s

    def _not_silenced(self, s: State, seat: int) -> None:
        if s.fully_withdrawn(seat):
            raise IllegalAction(_("You have withdrawn from this heist."))

    def _do_choose(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        if s.phase != PLANNING:
            raise IllegalAction(_("You cannot choose a role now."))
        if s.choices[seat]:
            raise IllegalAction(_("You have already chosen."))
        roles = list(action["roles"])
        need = hands_per_player(s.players)
        if len(roles) != need:
            raise IllegalAction(_("Choose exactly %(count)s role(s)."), count=need)
        if len(set(roles)) != len(roles):
            raise IllegalAction(_("Your two roles must be different."))
        allowed = allowed_roles(s, seat)
        for role in roles:
            if role not in allowed:
                raise IllegalAction(_("You may not choose that role now."))
        run.emit("role_chosen", {"seat": seat}, {"roles": roles}, (seat,))
        run.maybe_lay_pool()

    def _do_withdraw(self, run: _Run, seat: int, action: Action) -> None:
        s = self._negotiating(run, seat)
        hand = s.hand(seat, action["slot"])
        if hand is None or hand.status != UNDECIDED:
            raise IllegalAction(_("That hand cannot be withdrawn."))
        run.withdraw(hand, "player")
        run.after_change()

    def _do_commit(self, run: _Run, seat: int, action: Action) -> None:
        s = self._negotiating(run, seat)
        if not s.undecided(seat):
            raise IllegalAction(_("You have nothing left to decide."))
        run.commit(seat, "player")
        run.after_change()

    def _do_offer(self, run: _Run, seat: int, action: Action) -> None:
        s = self._negotiating(run, seat)
        other = action["to_seat"]
        amount = action["amount"]
        if not 0 <= other < s.players or other == seat:
            raise IllegalAction(_("An offer needs another player."))
        self._not_silenced(s, seat)
        if not self._can_deal(s, other):
            raise IllegalAction(_("%(seat)s cannot deal now."), seat=other)
        if amount < 1:
            raise IllegalAction(_("An offer is at least 1M."))
        payer, payee = (seat, other) if action["direction"] == "pay" else (other, seat)
        if payer == seat and amount > s.balances[seat]:
            raise IllegalAction(_("You cannot pay %(amount)sM."), amount=amount)
        clause = action.get("clause_slot")
        if clause is not None:
            hand = s.hand(payee, clause)
            if hand is None or hand.status != UNDECIDED:
                raise IllegalAction(_("The clause must name an undecided hand of the payee."))
        run.emit(
            "offer_created",
            {
                "offer": s.next_offer,
                "creator_seat": seat,
                "payer_seat": payer,
                "payee_seat": payee,
                "amount": amount,
                "clause_slot": clause,
                "at": run.now,
                "expires": run.now + run.T,
            },
        )

    def _open_offer(self, run: _Run, seat: int, action: Action, creator: bool) -> Any:
        s = self._negotiating(run, seat)
        offer = s.offer(action["offer"])
        if offer is None:  # unknown, or closed: a closed offer has left the state
            raise IllegalAction(_("That offer is not open."))
        if creator and offer.creator != seat:
            raise IllegalAction(_("Only its creator may cancel an offer."))
        if not creator and (seat not in (offer.payer, offer.payee) or seat == offer.creator):
            raise IllegalAction(_("That offer is not addressed to you."))
        # Past ``offer.expires`` the offer stays open until expire_offer has run.
        return offer

    def _do_accept(self, run: _Run, seat: int, action: Action) -> None:
        offer = self._open_offer(run, seat, action, creator=False)
        s = run.state
        reason = ""
        clause_hand = s.hand(offer.payee, offer.clause) if offer.clause else None
        if s.balances[offer.payer] < offer.amount:
            reason = "funds"
        elif offer.clause and (clause_hand is None or clause_hand.status != UNDECIDED):
            reason = "clause"
        elif s.fully_withdrawn(offer.payer) or s.fully_withdrawn(offer.payee):
            reason = "withdrawn"
        if reason:
            run.emit("offer_failed", {"offer": offer.id, "reason": reason})
            return
        run.emit(
            "offer_accepted",
            {
                "offer": offer.id,
                "seat": seat,
                "payer_seat": offer.payer,
                "payee_seat": offer.payee,
                "amount": offer.amount,
            },
        )
        if clause_hand is not None:
            run.withdraw(clause_hand, "offer")
        run.after_change()

    def _do_decline(self, run: _Run, seat: int, action: Action) -> None:
        offer = self._open_offer(run, seat, action, creator=False)
        run.emit("offer_declined", {"offer": offer.id, "seat": seat})

    def _do_cancel(self, run: _Run, seat: int, action: Action) -> None:
        offer = self._open_offer(run, seat, action, creator=True)
        run.emit("offer_cancelled", {"offer": offer.id, "seat": seat})

    def _do_look(self, run: _Run, seat: int, action: Action) -> None:
        s = self._negotiating(run, seat)
        self._not_silenced(s, seat)
        if s.threats[seat] < 1:
            raise IllegalAction(_("You have no threat card."))
        target, slot = action["target_seat"], action["slot"]
        hand = s.hand(target, slot)
        if target == seat or hand is None or hand.status == WITHDRAWN:
            raise IllegalAction(_("You may only look at another player's hand on the table."))
        run.emit(
            "threat_used",
            {"seat": seat, "target_seat": target, "slot": slot},
            {"role": hand.role},
            (seat,),
        )

    def _boss(self, run: _Run, seat: int, timed: bool) -> State:
        s = self._negotiating(run, seat)
        if seat != s.boss:
            raise IllegalAction(_("Only the boss may do that."))
        if timed and not s.powers_ready:  # the flag, not the clock: see powers_at
            raise IllegalAction(_("The boss must wait until half the time limit has passed."))
        return s

    def _do_roll_call(self, run: _Run, seat: int, action: Action) -> None:
        s = self._boss(run, seat, timed=False)
        if s.roll_call:
            raise IllegalAction(_("The roll call was already held this heist."))
        n = s.players
        order = [(s.boss + i) % n for i in range(1, n + 1)]
        run.emit("roll_call", {"seat": seat, "order": [p for p in order if s.undecided(p)]})

    def _do_prompt(self, run: _Run, seat: int, action: Action) -> None:
        s = self._boss(run, seat, timed=True)
        target = action["target_seat"]
        if not 0 <= target < s.players or not s.undecided(target):
            raise IllegalAction(_("That player has nothing left to decide."))
        if any(p == target for p, _due in s.prompts):
            raise IllegalAction(_("That player was already prompted this heist."))
        run.emit(
            "player_prompted",
            {"seat": seat, "target_seat": target, "at": run.now, "due": run.now + run.T / 4},
        )

    def _do_call(self, run: _Run, seat: int, action: Action) -> None:
        s = self._boss(run, seat, timed=True)
        if s.call_due is not None:
            raise IllegalAction(_("The heist was already called."))
        run.emit("heist_called", {"seat": seat, "at": run.now, "due": run.now + run.T / 4})

    def _do_name(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        if s.phase != NAMING or s.informant is None or s.informant[0] != seat:
            raise IllegalAction(_("You have nothing to name."))
        role = action["role"]
        if role not in nameable_roles(s):
            raise IllegalAction(_("You may only name a role shown face up, not the Informant."))
        run.name(role, timeout=False)

    # -- evolve, views, results ------------------------------------------------------------

    # The pure parts of the protocol are this game's module functions, as they are.
    evolve = staticmethod(_evolve)
    log_lines = staticmethod(_log.log_lines)
    state_to_json = staticmethod(_state_to_json)
    state_from_json = staticmethod(_state_from_json)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """``view.view``: a seat's from the spectator's, built once per state (``view.seat_view``)."""
        public = _public_views.get(state, lambda s: _view.view(s, None, self.deadlines(s), self.outcome(s)))
        return _view.seat_view(public, state, seat)

    def view_revealed(self, state: State) -> dict[str, Any]:
        public = _public_views.get(state, lambda s: _view.view(s, None, self.deadlines(s), self.outcome(s)))
        return _view.revealed_view(public, state)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(
            scores=tuple(state.balances),
            ranks=ranks_of(state.balances),
            winners=tuple(state.winners),
            reason=state.end_reason,
        )

    def deadlines(self, state: State) -> list[Deadline]:
        T = float(state.time_limit)
        out: list[Deadline] = []
        if state.phase == PLANNING:
            waiting = tuple(s for s in range(state.players) if not state.choices[s] and not state.resigned[s])
            for s in range(state.players):
                if not state.choices[s] and state.resigned[s]:
                    out.append(Deadline((s,), 0, {"type": "planning_timeout", "seat": s}, "choice"))
            if waiting:
                out.append(Deadline(waiting, state.planning_at + T, {"type": "planning_timeout"}, "choice"))
        elif state.phase == NEGOTIATION:
            waiting = tuple(s for s in range(state.players) if state.undecided(s))
            out.append(Deadline(waiting, negotiation_due(state), {"type": "negotiation_timeout"}, "negotiation"))
            if not state.powers_ready:  # R-76 b/c: nobody is waited on, time just passes
                out.append(Deadline((), powers_at(state), {"type": "powers_ready"}, "boss_powers"))
            if state.call_due is not None:
                out.append(Deadline(waiting, state.call_due, {"type": "call_timeout"}, "call"))
            for who, due in state.prompts:
                if state.undecided(who):
                    out.append(Deadline((who,), due, {"type": "prompt_timeout", "seat": who}, "prompt"))
            for offer in state.offers:  # the open offers
                other = offer.payee if offer.creator == offer.payer else offer.payer
                out.append(
                    Deadline(
                        (other,),
                        offer.expires,
                        {"type": "expire_offer", "offer": offer.id},
                        "offer",
                    )
                )
        elif state.phase == NAMING and state.informant is not None:
            who = state.informant[0]
            due = 0.0 if state.resigned[who] else float(state.naming_due or 0.0)
            out.append(Deadline((who,), due, {"type": "naming_timeout"}, "naming"))
        return out

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(_("No legal action for seat %(seat)s."), seat=seat)
        return _bot.choose(state, seat, legal, rng)

    def chat_allowed(self, state: State, seat: int) -> bool:
        """R-22 / R-74: a fully withdrawn player is muted until the heist ends."""
        if not 0 <= seat < state.players:
            return False
        return state.phase in (SETUP, OVER, PLANNING) or not state.fully_withdrawn(seat)


def _offer(other: int, amount: int, direction: str, clause: int | None) -> Action:
    return {
        "type": "offer",
        "to_seat": other,
        "amount": amount,
        "direction": direction,
        "clause_slot": clause,
    }


__all__ = ["HeistRules", "allowed_roles", "default_named_role", "nameable_roles"]
