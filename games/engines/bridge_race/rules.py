"""The Rules object for Bridge Race."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..base import (
    SYSTEM,
    Deadline,
    DecideContext,
    Event,
    GenericRules,
    IllegalAction,
    LogLine,
    Option,
    Outcome,
    gettext_noop,
)
from ..kept import KeptByIdentity
from . import bot
from . import view as view_mod
from .actions import parse, perform
from .legal import actor, default_action, legal
from .rounds import initial as initial_state
from .rounds import outcome as outcome_of
from .rounds import ranking
from .sim import NeedChoice, Sim, apply_patch, make_patch
from .state import ADVENTURE, BONUS, CHARACTERS, Game, Prompt, game_from_json, game_to_json

MESSAGES: dict[str, str] = {
    "start": gettext_noop("The race is set up"),
    "choose_car": gettext_noop("%(seat)s chose %(character)s at %(start)s and took $%(amount)s"),
    "round": gettext_noop("Round %(round)s begins"),
    "place_adventure": gettext_noop("%(seat)s placed %(tile)s at lane %(lane)s row %(row)s"),
    "adventure_discard": gettext_noop("The remaining adventure tiles were discarded"),
    "turn": gettext_noop("%(seat)s's turn"),
    "skip": gettext_noop("%(seat)s's turn is skipped"),
    "ramp": gettext_noop("%(seat)s placed a ramp at lane %(lane)s row %(row)s"),
    "roll": gettext_noop("%(seat)s rolled %(faces)s"),
    "reroll": gettext_noop("%(seat)s rerolled: %(faces)s"),
    "finalize": gettext_noop("%(seat)s finalized the dice: %(faces)s"),
    "cancel": gettext_noop("%(seat)s cancelled %(n)s repair/damage pairs"),
    "repair": gettext_noop("%(seat)s repaired %(n)s"),
    "resolve": gettext_noop("%(seat)s drives at %(speed)s mph"),
    "move": gettext_noop("%(seat)s moved to lane %(lane)s row %(row)s"),
    "pickup": gettext_noop("%(seat)s picked up $%(amount)s"),
    "damage": gettext_noop("%(seat)s took %(n)s damage and dropped $%(amount)s"),
    "protected": gettext_noop("%(seat)s was protected"),
    "spin": gettext_noop("%(seat)s spun around"),
    "leg": gettext_noop("%(seat)s is now on the return leg"),
    "finish": gettext_noop("%(seat)s crossed the finish in place %(place)s (prize $%(prize)s)"),
    "exit": gettext_noop("%(seat)s left the bridge in place %(place)s (prize $%(prize)s)"),
    "arrest": gettext_noop("%(seat)s was arrested"),
    "river": gettext_noop("%(seat)s fell into the river (crane fee $%(fee)s)"),
    "rail": gettext_noop("%(seat)s hit a guardrail"),
    "crash": gettext_noop("%(seat)s crashed into a container"),
    "push": gettext_noop("%(seat)s rammed another car"),
    "hit": gettext_noop("%(seat)s hit %(target_seat)s"),
    "roadblock": gettext_noop("%(seat)s smashed a roadblock"),
    "caltrops": gettext_noop("%(seat)s drove over caltrops"),
    "slowed": gettext_noop("%(seat)s slowed down by %(amount)s mph"),
    "speed_trap": gettext_noop("%(seat)s was caught by a speed limit"),
    "mine": gettext_noop("%(seat)s hit a mine"),
    "ramp_hit": gettext_noop("%(seat)s hit a ramp from the side"),
    "oil": gettext_noop("%(seat)s slid on an oil slick"),
    "acid": gettext_noop("%(seat)s slid through an acid pool"),
    "jump": gettext_noop("%(seat)s jumped (%(result)s) towards lane %(lane)s row %(row)s"),
    "bounce": gettext_noop("%(seat)s bounced at lane %(lane)s row %(row)s"),
    "dodge": gettext_noop("Police dodged to lane %(lane)s row %(row)s"),
    "police_removed": gettext_noop("Police at lane %(lane)s row %(row)s left the bridge"),
    "shot": gettext_noop("%(seat)s fired a shot"),
    "roadblock_shot": gettext_noop("A roadblock at lane %(lane)s row %(row)s lost %(n)s pieces"),
    "police_fire": gettext_noop("Police at lane %(lane)s row %(row)s fired"),
    "police_fire_at": gettext_noop("Police fired at %(target_seat)s"),
    "crane": gettext_noop("The crane put %(seat)s back at lane %(lane)s row %(row)s"),
    "shop": gettext_noop("The shop was refilled"),
    "shop_discard": gettext_noop("%(tile)s left the shop"),
    "reshuffle": gettext_noop("The %(pile)s discard pile was reshuffled"),
    "buy": gettext_noop("%(seat)s bought %(tile)s for $%(price)s"),
    "use_tile": gettext_noop("%(seat)s used %(tile)s"),
    "mortar": gettext_noop("%(seat)s fired a mortar at %(target_seat)s"),
    "mine_placed": gettext_noop("%(seat)s buried a mine at lane %(lane)s row %(row)s"),
    "stop_repair": gettext_noop("%(seat)s paid $200 for a full repair"),
    "handbrake": gettext_noop("%(seat)s pulled the handbrake"),
    "uturn": gettext_noop("%(seat)s made a U-turn"),
    "sell": gettext_noop("%(seat)s sold %(n)s dice for $%(amount)s"),
    "allowance": gettext_noop("%(seat)s received a $%(amount)s allowance"),
    "game_over": gettext_noop("The game is over"),
    "prompt": gettext_noop("%(seat)s must choose"),
    "resign": gettext_noop("%(seat)s resigned"),
    "timeout": gettext_noop("%(seat)s ran out of time"),
}


# The site asks, after each move, for the acting seat's legal actions and its view (which holds
# them too) beside every other viewer's: both are kept for the latest states.
_recent: KeptByIdentity[Any] = KeptByIdentity(32)


def _kept(state: Game, what: str, seat: int | None, build: Callable[[], Any]) -> Any:
    return _recent.get(state, lambda _state: build(), (what, seat))


class BridgeRaceRules(GenericRules[Game]):
    slug = "bridge_race"
    name = gettext_noop("Bridge Race")
    min_players = 3
    max_players = 5
    # One seat decides at a time: no action may bypass the expected-version check.
    blind_actions: frozenset[str] = frozenset()
    # a seat's view holds nothing hidden from the others (only its own options differ from a
    # spectator's), so its pushes may be compressed.
    views_public = True
    time_bank = True  # one seat decides at a time, each decision timed from its opening move
    # Set on RULES below (built from the catalogs once).
    terms: Mapping[str, str]
    options: tuple[Option, ...] = (
        Option(
            "mode",
            gettext_noop("Mode"),
            "choice",
            "standard",
            choices=(
                ("standard", gettext_noop("Standard")),
                ("first_game", gettext_noop("First game")),
                ("closed_border", gettext_noop("Closed border (expert)")),
            ),
        ),
    )

    # ---- protocol ------------------------------------------------------------------------
    def initial(self, players: int, options: Mapping[str, Any]) -> Game:
        if not self.min_players <= players <= self.max_players:
            raise ValueError("Bridge Race needs 3 to 5 players")
        mode = str(options.get("mode", "standard"))
        if mode not in ("standard", "first_game", "closed_border"):
            raise ValueError(f"unknown mode {mode}")
        return initial_state(players, mode, int(options.get("time_limit", 60)))

    def actors(self, state: Game) -> frozenset[int]:
        a = actor(state)
        return frozenset() if a is None else frozenset({a})

    def legal_actions(self, state: Game, seat: int) -> list[dict[str, Any]]:
        # Each action a dict of its own: a caller may change one (a test making it illegal) and
        # ask again. The values are the engine's lists and strings, never changed in place.
        return [dict(action) for action in _kept(state, "legal", seat, lambda: legal(state, seat))]

    def parse_action(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        return parse(payload)

    def decide(self, state: Game, seat: int, action: dict[str, Any], ctx: DecideContext) -> list[Event]:
        t = action.get("type")
        if t == "resign":
            return self._resign(state, seat, action, ctx)
        if t == "timeout":
            return self._timeout(state, seat, action, ctx)
        if state.phase == "over":
            raise IllegalAction(gettext_noop("The game is over."))
        if seat != SYSTEM and actor(state) != seat:
            raise IllegalAction(gettext_noop("It is not your turn."))
        return [self._run(state, seat, action, ctx)]

    def _run(
        self,
        state: Game,
        seat: int,
        action: dict[str, Any],
        ctx: DecideContext,
        timeout: bool = False,
    ) -> Event:
        if action["type"] == "CHOOSE":
            p = state.prompt
            if p is None or seat != p.seat:
                raise IllegalAction(gettext_noop("There is nothing to choose."))
            if not 0 <= action["option"] < len(p.options):
                raise IllegalAction(gettext_noop("Unknown option."))
            base = replace(state, prompt=None)
            choices = (*p.choices, action["option"])
            return self._exec(state, base, seat, p.action, ctx, choices, p.draws, timeout)
        if state.prompt is not None:
            raise IllegalAction(gettext_noop("Answer the pending choice first."))
        return self._exec(state, state, seat, action, ctx, (), (), timeout)

    def _exec(
        self,
        state: Game,
        base: Game,
        seat: int,
        action: dict[str, Any],
        ctx: DecideContext,
        choices: tuple[int, ...],
        draws: tuple[str, ...],
        timeout: bool,
    ) -> Event:
        sim = Sim(base, ctx.rng, choices, draws)
        etype = action["type"]
        try:
            perform(sim, seat, action)
            sim.seq = state.seq + 1
            sim.since = float(ctx.now)
            sim.prompt = None
            if sim.objects == base.objects:
                sim.objects = base.objects
            if sim.money == base.money:
                sim.money = base.money
            new = sim.freeze()
            fx = sim.fx
        except NeedChoice as need:
            prompt = Prompt(
                need.seat, need.kind, tuple(need.options), action, tuple(sim.choices_used), tuple(sim.draws_out)
            )
            new = replace(state, prompt=prompt, seq=state.seq + 1, since=float(ctx.now))
            etype = "PROMPT"
            fx = [{"t": "prompt", "seat": need.seat, "kind": need.kind, "options": [list(o) for o in need.options]}]
        pub, sec = make_patch(state, new)
        data: dict[str, Any] = {
            "seat": seat,
            "action": action,
            "seq": new.seq,
            "round": new.round,
            "fx": fx,
            "draws": list(sim.draws_out),
            "patch": pub,
        }
        if timeout:
            data["timeout"] = True
        if sec:
            return Event(etype, data, secret={"patch": sec}, visible_to=())
        return Event(etype, data)

    def _resign(self, state: Game, seat: int, action: dict[str, Any], ctx: DecideContext) -> list[Event]:
        if seat != SYSTEM:
            raise IllegalAction(gettext_noop("Only the server records resignations."))
        s = action["seat"]
        if not 0 <= s < state.players or state.cars[s].resigned:
            raise IllegalAction(gettext_noop("Unknown or already resigned seat."))
        cars = list(state.cars)
        cars[s] = replace(cars[s], resigned=True)
        new = replace(state, cars=tuple(cars), seq=state.seq + 1)
        pub, _ = make_patch(state, new)
        return [Event("resign", {"seat": s, "seq": new.seq, "fx": [{"t": "resign", "seat": s}], "patch": pub})]

    def _timeout(self, state: Game, seat: int, action: dict[str, Any], ctx: DecideContext) -> list[Event]:
        if seat != SYSTEM:
            raise IllegalAction(gettext_noop("Only the server applies time-outs."))
        if action["seq"] != state.seq:
            raise IllegalAction(gettext_noop("That decision has already been taken."))
        dls = self.deadlines(state)
        if not dls or ctx.now < dls[0].due:
            raise IllegalAction(gettext_noop("The time limit has not run out."))
        who = dls[0].seats[0]
        events: list[Event] = []
        cur = state
        for _ in range(60):
            act = default_action(cur, ctx.rng)
            ev = self._run(cur, who, act, ctx, timeout=True)
            events.append(ev)
            cur = self.evolve(cur, ev)
            if not (
                cur.phase == "turn"
                and actor(cur) == who
                and cur.turn is not None
                and cur.turn.seat == who
                and state.phase == "turn"
            ):
                break
        return events

    def evolve(self, state: Game, event: Event) -> Game:
        patch = event.data.get("patch")
        if patch is None:
            return state
        sec = (event.secret or {}).get("patch")
        new = apply_patch(state, patch, sec)
        ended = new.round > state.round or (new.phase == "over" and state.phase != "over")
        if ended and state.round >= 1:
            # round ``state.round`` has ended: its places, for the end chart (derived, not a rule)
            place = {seat: i + 1 for i, seat in enumerate(ranking(new))}
            places = tuple(place.get(seat, new.players) for seat in range(new.players))
            new = replace(new, place_history=(*new.place_history, (state.round, *places)))
        return new

    def view(self, state: Game, seat: int | None) -> dict[str, Any]:
        """``view.view``, from the spectator's view of ``state`` built once (R-89: the acting seat's
        adds only its options) and the legal actions it shares with :meth:`legal_actions`."""
        out = dict(_kept(state, "view", None, lambda: view_mod.public_view(state)))
        if seat is not None and out["active_seat"] == seat:
            out.update(view_mod.seat_options(state, seat, self.legal_actions(state, seat)))
        return out

    def outcome(self, state: Game) -> Outcome | None:
        return outcome_of(state)

    def deadlines(self, state: Game) -> list[Deadline]:
        a = actor(state)
        if a is None or a == SYSTEM:
            return []
        due = 0.0 if state.cars[a].resigned else state.since + state.time_limit
        kind = state.phase
        if state.phase == "turn" and state.turn is not None:
            kind = "choose" if state.prompt is not None else f"turn_{state.turn.stage}"
        return [Deadline((a,), due, {"type": "timeout", "seq": state.seq}, kind)]

    def bot_action(self, state: Game, seat: int, rng: random.Random) -> dict[str, Any]:
        return bot.choose(state, seat, rng)

    def log_lines(self, event: Mapping[str, Any]) -> list[LogLine]:
        data = event.get("data") or {}
        out = []
        if data.get("timeout"):
            out.append(LogLine(MESSAGES["timeout"], {"seat": data.get("seat")}))
        for fx in data.get("fx") or []:
            t = fx.get("t")
            msg = MESSAGES.get(t)
            if msg is None:
                continue
            params = {k: v for k, v in fx.items() if k != "t"}
            if t == "police_fire":
                if fx.get("target_seat") is None:
                    continue
                msg = MESSAGES["police_fire_at"]
            out.append(LogLine(msg, params))
        return out

    def state_to_json(self, state: Game) -> Any:
        return game_to_json(state)

    def state_from_json(self, data: Any) -> Game:
        return game_from_json(data)


def _terms() -> dict[str, str]:
    kinds = {
        "caltrops": gettext_noop("Caltrops"),
        "roadblock": gettext_noop("Roadblock"),
        "police": gettext_noop("Police"),
        "speed": gettext_noop("Speed limit 30"),
        "container": gettext_noop("Container"),
    }
    terms: dict[str, str] = {
        "POINTER": gettext_noop("Pointer"),
        "STEER": gettext_noop("Steering"),
        "SHOOT": gettext_noop("Shoot"),
        "REPAIR": gettext_noop("Repair"),
        "DAMAGE": gettext_noop("Damage"),
        "perfect": gettext_noop("perfect jump"),
        "good": gettext_noop("good jump"),
        "failed": gettext_noop("failed jump"),
        "bonus": gettext_noop("bonus"),
        "adventure": gettext_noop("adventure"),
    }
    terms.update(CHARACTERS)
    terms.update({tile: name for tile, (name, _colour) in BONUS.items()})
    terms.update({tile: kinds[kind] for tile, (kind, _count) in ADVENTURE.items()})
    return terms


RULES = BridgeRaceRules()
RULES.terms = _terms()
