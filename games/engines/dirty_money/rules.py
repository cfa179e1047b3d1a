"""The Dirty Money rules object: validation (decide), automatic steps, deadlines."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
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
    Option,
    Outcome,
    check_due,
    check_sender,
)
from ..base import gettext_noop as _
from . import bot as _bot
from . import log as _log
from . import view as _view
from .cards import (
    ACCOUNTING,
    ART,
    AUD2,
    AUDITS,
    AUDTOP,
    BEAR,
    BRIBE,
    CASINO,
    GALLERY,
    INS2,
    INSLR,
    INSPECTS,
    LAW,
    LOC_AH,
    LOC_BM,
    LOC_BR,
    LOCATION_ORDER,
    PLACEMENTS,
    RAT,
    RAT_SLOT,
    REGION_OF_LOCATION,
    REGIONS,
    SHARK,
    TARGETED,
    TERMS,
    TRADE,
    VILLAINS,
    action_kind,
    is_action,
    is_dirty,
    locations_for,
    value_to,
)
from .evolve import evolve as _evolve
from .parse import parse_action as _parse_action
from .payment import amount_due, cheapest_payment, payment_error, payments
from .scoring import final_scores
from .state import (
    BEAR_CHOICE,
    CHOOSE,
    END,
    LAUNDER,
    LAUNDER_DISCARD,
    LOCATION,
    OVER,
    PLAY,
    SETUP,
    State,
    state_from_json,
    state_to_json,
)

# -- decisions and their deadlines (10.1, 10.3) ------------------------------------------------------

BEAR_STOCK = "choose_bear_stock"
CHOOSE_LOCATION = "choose_location"
BLACKLIST = "blacklist_cards"
RESOLVE = "resolve_action"
TRADE_SWAP = "trade_swap"
LOCATION_ACTION = "location_action"
GALLERY_DRAW = "gallery_draw"
LAUNDER_USE = "launder"
LAUNDER_DROP = "launder_discard"

LIVE_SECONDS: dict[str, float] = {
    BEAR_STOCK: 60,
    CHOOSE_LOCATION: 90,
    BLACKLIST: 45,
    RESOLVE: 45,
    TRADE_SWAP: 30,
    LOCATION_ACTION: 90,
    GALLERY_DRAW: 20,
    LAUNDER_USE: 30,
    LAUNDER_DROP: 20,
}
PROMPTS = frozenset({BEAR_STOCK, BLACKLIST})  # decisions asked of a player who may not be active
CORRESPONDENCE_TURN = 24 * 3600.0  # 10.3: a turn decision on an async table
CORRESPONDENCE_PROMPT = 12 * 3600.0  # 10.3: a prompt on an async table


def seconds_for(state: State, kind: str) -> float:
    """10.3: the live defaults, or the correspondence scale (24 h a turn decision, 12 h a prompt)."""
    if state.pace == "correspondence":
        return CORRESPONDENCE_PROMPT if kind in PROMPTS else CORRESPONDENCE_TURN
    return LIVE_SECONDS[kind]


def decision(state: State) -> tuple[str, tuple[int, ...]]:
    """The decision the game waits for and who makes it ("" when nothing is awaited)."""
    if state.phase == BEAR_CHOICE:
        return BEAR_STOCK, (state.villain_seat(BEAR),)
    if state.phase != PLAY or state.turn >= len(state.order):
        return "", ()
    if state.trim:  # R-22, 10.2: the active player waits while a prompt is open
        return BLACKLIST, state.trim
    a = (state.active,)
    if state.trade_target >= 0:
        return TRADE_SWAP, a
    if state.pending:
        return RESOLVE, a
    if state.gallery_left:
        return GALLERY_DRAW, a
    step = state.step
    if step == CHOOSE:
        return CHOOSE_LOCATION, a
    if step == LOCATION and not state.queued and not state.after_gain:
        return LOCATION_ACTION, a
    if step == LAUNDER:
        return LAUNDER_USE, a
    if step == LAUNDER_DISCARD:
        return LAUNDER_DROP, a
    return "", ()


# -- helpers -------------------------------------------------------------------------------------------


def left_of(state: State, seat: int) -> int:
    """R-1: the left neighbour is the next seat clockwise."""
    return (seat + 1) % state.players


def right_of(state: State, seat: int) -> int:
    return (seat - 1) % state.players


def choosable_locations(state: State) -> list[str]:
    """R-13 / R-14: locations with a non-empty row, or every location when all rows are empty."""
    found = [loc for loc in state.locations if state.row(loc)]
    return found or list(state.locations)


def max_purchases(state: State) -> int:
    """R-51 / R-53 / R-54 / R-88: 2 at a regional location, else 1."""
    return 2 if state.location in REGION_OF_LOCATION else 1


def buyable(state: State) -> list[str]:
    """Placements the active player may buy now at the chosen location (R-51 to R-54, R-88)."""
    loc = state.location
    if state.bought >= max_purchases(state):
        return []
    if loc in REGION_OF_LOCATION:
        return list(state.displays[REGIONS.index(REGION_OF_LOCATION[loc])])
    if loc == LOC_BM:  # from any regional display, never the Auction House or the stock
        return [c for d in state.displays for c in d]
    if loc == LOC_AH:
        return [c for c in state.auction if c]
    if loc == LOC_BR and state.banana_done and state.villains[state.active] == BEAR:
        return list(state.stock)
    return []


def location_exhausted(state: State) -> bool:
    """Nothing more can happen at this location this visit: the visit ends by itself."""
    if state.location == LOC_BR and not state.banana_done:
        return False
    return not buyable(state)


def hand_value(state: State, seat: int, card: str) -> int:
    return value_to(card, state.villains[seat]) if state.villains else 0


def lowest_cards(state: State, seat: int, count: int) -> list[str]:
    """10.3: the lowest-value cards (R-3), ties broken by id, one at a time."""
    ranked = sorted(state.hands[seat], key=lambda c: (hand_value(state, seat, c), c))
    return ranked[:count]


def default_ins2_target(state: State, seat: int) -> int:
    """10.3: the other player with most cards; ties go first clockwise from the left neighbour."""
    best, best_size = -1, -1
    for i in range(1, state.players):
        other = (seat + i) % state.players
        if len(state.hands[other]) > best_size:
            best, best_size = other, len(state.hands[other])
    return best


def stalled(state: State) -> bool:
    """The spec is silent on a game that can no longer move (everything spent on blacklists and
    tokens, nobody able to buy): a round in which nobody gained a placement, ending with the money
    deck, the discard pile and every row empty, ends the game and it is scored. Players would
    expect a game that cannot progress to end; it guarantees that every game terminates."""
    return state.round_gains == 0 and not state.deck and not state.discard and not any(state.rows)


def shuffle_order(rng: random.Random, size: int) -> list[int]:
    """R-141: Fisher-Yates over the canonical (sorted by id) order, as a permutation of positions."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# --------------------------------------------------------------------------------------------------------
# A run of decide: emits events and evolves as it goes
# --------------------------------------------------------------------------------------------------------


class _Run(DecideRun[State]):
    def __init__(self, state: State, ctx: DecideContext) -> None:
        super().__init__(state, _evolve)
        self.now = float(ctx.now)
        self.rng = ctx.rng

    def record(self, event: Event) -> None:
        """Every event carries the time of its action (``at``)."""
        super().record(replace(event, data={**event.data, "at": self.now}))

    # -- cards moving ------------------------------------------------------------------------------------

    def ensure_deck(self) -> bool:
        """R-9: reshuffle the discard pile into an empty money deck; False if nothing can be drawn."""
        s = self.state
        if s.deck:
            return True
        if not s.discard:
            return False
        order = shuffle_order(self.rng, len(s.discard))
        self.emit("money_deck_shuffled", {"source": "discard", "size": len(s.discard)}, {"order": order}, ())
        return True

    def token_source(self) -> dict[str, Any]:
        """R-6: where the next token comes from; the discard pile's top card is public."""
        s = self.state
        if s.discard:
            return {"source": "discard", "card": s.discard[-1]}
        if s.deck:
            return {"source": "deck"}
        return {"source": "virtual"}

    def blacklist_point(self, seat: int, reason: str) -> None:
        """R-7: gain a blacklist point (a token onto the blacklist)."""
        self.emit("blacklist_gained", {"seat": seat, "reason": reason, **self.token_source()})

    def token(self, seat: int, holder: str) -> None:
        self.emit("token_placed", {"seat": seat, "holder": holder, **self.token_source()})

    def remove_point(self, seat: int, reason: str) -> None:
        """R-7: the blacklist's top card goes face-up onto the discard pile (a virtual token vanishes)."""
        bl = self.state.blacklists[seat]
        self.emit("blacklist_removed", {"seat": seat, "reason": reason, "card": bl[-1] if bl else None})

    def checkpoint(self, point: str) -> None:
        """R-21 / R-22: every player above their limit must blacklist the excess."""
        s = self.state
        over = [p for p in range(s.players) if len(s.hands[p]) > s.limit(p)]
        if over:
            excess = [len(s.hands[p]) - s.limit(p) for p in over]
            self.emit("checkpoint", {"point": point, "seats": over, "excess": excess})

    def trigger_check(self) -> None:
        """R-95: the round becomes the final round once anyone owns enough placements."""
        s = self.state
        if s.final:
            return
        for seat in range(s.players):
            if len(s.tableaux[seat]) >= s.target:
                self.emit("final_round", {"seat": seat, "count": len(s.tableaux[seat])})
                return

    # -- setup -----------------------------------------------------------------------------------------------

    def start(self) -> None:
        """S-1 to S-10. R-140 / R-143: the match RNG only, used in the order S-2, S-4, S-7, S-8."""
        s = self.state
        locations = locations_for(s.players)
        self.emit(
            "game_started",
            {"players": s.players, "quick": s.quick, "choice": s.choice, "pace": s.pace, "locations": list(locations)},
        )
        for region in REGIONS:  # S-2
            self.emit("placement_deck_shuffled", {"region": region}, {"order": shuffle_order(self.rng, 20)}, ())
        for region in REGIONS:  # S-3
            for _i in range(s.display_size):
                r = REGIONS.index(region)
                self.emit("display_dealt", {"region": region, "card": self.state.pdecks[r][0]})
        if LOC_AH in locations:
            for r, region in enumerate(REGIONS):
                self.emit("display_dealt", {"region": region, "card": self.state.pdecks[r][0], "auction": True})
        order = shuffle_order(self.rng, len(VILLAINS))  # S-4
        dealt = [VILLAINS[i] for i in order[: s.players]]
        first = min(range(s.players), key=lambda seat: dealt[seat])  # S-5 / R-11: lowest number (ids sort by it)
        self.emit(
            "villains_dealt",
            {
                "villains": dealt,
                "first_seat": first,
                "last_seat": (first - 1) % s.players,
                "bear_seat": dealt.index(BEAR) if BEAR in dealt else -1,
            },
            {"order": order},
            (),
        )
        if BEAR not in dealt:
            self.finish_setup()

    def bear_stock(self, counts: dict[str, int]) -> None:
        """S-6: the chosen numbers of cards come off the region decks' tops, Europe first."""
        s = self.state
        cards: list[str] = []
        for r, region in enumerate(REGIONS):
            cards += list(s.pdecks[r][: counts[region]])
        self.emit("bear_stock_taken", {"seat": s.villain_seat(BEAR), "counts": counts, "cards": cards})
        self.finish_setup()

    def finish_setup(self) -> None:
        s = self.state
        self.emit("currency_shuffled", {"size": 90}, {"order": shuffle_order(self.rng, 90)}, ())  # S-7
        self.emit("hands_dealt", {"first_seat": s.marker, "last_seat": s.last_player})
        remaining = len(self.state.deck) + 30
        self.emit(
            "money_deck_shuffled",
            {"source": "setup", "size": remaining},
            {"order": shuffle_order(self.rng, remaining)},
            (),
        )  # S-8
        for loc in self.state.locations:  # S-9
            for _i in range(2):
                self.emit("row_dealt", {"location": loc, "card": self.state.deck[0]})
        self.start_round(1)  # S-10

    def start_round(self, number: int) -> None:
        """R-10: the order is fixed at the start of the round, from the marker's holder."""
        s = self.state
        order = [(s.marker + i) % s.players for i in range(s.players)]
        self.emit("round_started", {"round": number, "order": order, "first_seat": s.marker})

    # -- the flow --------------------------------------------------------------------------------------------

    def advance(self) -> None:
        """Run the automatic steps until a player has to decide (or the game is over)."""
        for _guard in range(1000):
            s = self.state
            if s.phase != PLAY:
                return
            if s.trim or s.trade_target >= 0 or s.pending or s.gallery_left:
                return
            if s.after_gain:  # R-67 3-4: checkpoint (c), then the end trigger
                self.checkpoint("c")
                self.trigger_check()
                self.emit("gain_settled", {"seat": s.active})
                continue
            if s.queued:  # R-66 combined: the second card once the first one's effects are done
                self.gain(s.queued)
                continue
            if s.step == LOCATION:
                if location_exhausted(s):
                    self.end_location()
                    continue
                return
            if s.step == END:
                self.end_turn()
                continue
            return

    def end_location(self) -> None:
        self.emit("location_ended", {"seat": self.state.active, "location": self.state.location})
        if self.state.step == END:
            self.checkpoint("e")

    def end_turn(self) -> None:
        """T-6: trigger check, next player; after the last turn the round end or the game end."""
        self.trigger_check()
        self.emit("turn_ended", {"seat": self.state.active})
        s = self.state
        if s.turn < len(s.order):
            return
        if s.final:  # no refill after the final round
            self.score()
            return
        if stalled(s):
            self.emit("game_stalled", {"round": s.round})
            self.score()
            return
        self.round_end()
        self.start_round(s.round + 1)

    def round_end(self) -> None:
        """E-1 to E-5 (R-90 to R-92)."""
        s = self.state
        filled = [loc for loc in s.locations if s.row(loc)]  # E-1
        empty = [loc for loc in s.locations if not s.row(loc)]
        self.emit("round_ended", {"round": s.round, "nonempty": filled, "empty": empty})
        for loc in filled:  # E-2 / R-91
            if len(self.state.row(loc)) < 4 and self.ensure_deck():
                self.emit("row_dealt", {"location": loc, "card": self.state.deck[0]})
        for loc in empty:  # E-3
            for _i in range(2):
                if not self.ensure_deck():
                    break
                self.emit("row_dealt", {"location": loc, "card": self.state.deck[0]})
        for r, region in enumerate(REGIONS):  # E-4
            while len(self.state.displays[r]) < s.display_size and self.state.pdecks[r]:
                self.emit("display_dealt", {"region": region, "card": self.state.pdecks[r][0]})
        if LOC_AH in s.locations:  # E-5
            for r, region in enumerate(REGIONS):
                if not self.state.auction[r] and self.state.pdecks[r]:
                    self.emit("display_dealt", {"region": region, "card": self.state.pdecks[r][0], "auction": True})

    def score(self) -> None:
        """Section 6 (R-110 to R-123) as one event listing every component."""
        s = self.state
        data = final_scores(s)
        self.emit("game_scored", data)

    # -- action cards -------------------------------------------------------------------------------------

    def inspect(self, actor: int, target: int, k: int) -> None:
        """R-33: k random cards of the target, chosen from the hand sorted by id (R-141 2)."""
        hand = sorted(self.state.hands[target])
        picks: list[str] = []
        if hand:
            positions = self.rng.sample(range(len(hand)), min(k, len(hand)))
            picks = sorted(hand[i] for i in positions)
        taken = [c for c in picks if is_dirty(c)]
        self.emit("inspected", {"seat": actor, "target_seat": target, "picks": picks, "taken": taken})
        for _card in taken:
            self.blacklist_point(target, "inspect")

    def resolve(self, seat: int, card: str, target: int | None) -> None:
        s = self.state
        kind = action_kind(card)
        data: dict[str, Any] = {"seat": seat, "card": card}
        if target is not None:
            data["target_seat"] = target
        self.emit("action_started", data)
        n = s.players
        if kind in INSPECTS:
            if kind == INSLR:
                if n == 2:
                    self.inspect(seat, left_of(s, seat), 2)
                else:
                    self.inspect(seat, left_of(s, seat), 1)
                    self.inspect(seat, right_of(s, seat), 1)
            elif kind == INS2:
                self.inspect(seat, int(target if target is not None else default_ins2_target(s, seat)), 2)
            else:
                for i in range(1, n):
                    self.inspect(seat, (seat + i) % n, 1)
            for firm in [p for p in self.state.tableaux[seat] if PLACEMENTS[p].type == LAW]:
                self.token(seat, firm)
        elif kind in AUDITS:
            self.audit(seat, kind)
            for firm in [p for p in self.state.tableaux[seat] if PLACEMENTS[p].type == ACCOUNTING]:
                self.token(seat, firm)
        elif kind == TRADE:  # R-42 first step
            other = int(target if target is not None else left_of(s, seat))
            theirs = self.state.hands[other]
            swap = bool(theirs) and bool(self.state.hands[seat])
            self.emit(
                "trade_started",
                {"seat": seat, "target_seat": other, "swap": swap},
                {"hand": sorted(theirs)},
                (seat, other),  # the target knows its own hand; nobody else sees it
            )
            if swap:
                return
        elif kind == BRIBE:
            self.remove_point(seat, "bribe")
        self.action_done(seat, card)

    def action_done(self, seat: int, card: str) -> None:
        """R-30: the resolved card goes onto the discard pile, then checkpoint (b)."""
        self.emit("action_done", {"seat": seat, "card": card})
        self.checkpoint("b")

    def audit(self, actor: int, kind: str) -> None:
        """R-38 to R-40: the others reveal their hands; those meeting the condition gain 1 point."""
        s = self.state
        others = [p for p in range(s.players) if p != actor]
        dirty = {p: sum(1 for c in s.hands[p] if is_dirty(c)) for p in others}
        if kind == AUDTOP:
            most = max(dirty.values())
            hit = [p for p in others if most >= 1 and dirty[p] == most]
        else:
            need = 2 if kind == AUD2 else 3
            hit = [p for p in others if dirty[p] >= need]
        self.emit(
            "audited",
            {
                "seat": actor,
                "kind": kind,
                "hands": [{"seat": p, "cards": sorted(s.hands[p]), "dirty": dirty[p]} for p in others],
                "hit": hit,
            },
        )
        for p in hit:
            self.blacklist_point(p, "audit")

    # -- purchases ----------------------------------------------------------------------------------------------

    def gain(self, card: str) -> None:
        # a Gallery-drawn action card is resolved by the Gallery's owner, the active player.
        # Art and Real Estate do nothing here. R-56: the bought slot stays empty.
        """R-67: into the tableau, then Casino tokens, then Gallery draws (R-71: never for itself)."""
        s = self.state
        seat = s.active
        p = PLACEMENTS[card]
        before = s.tableaux[seat]
        galleries = sum(1 for t in before if PLACEMENTS[t].type == GALLERY) if p.type == ART else 0
        self.emit("gained", {"seat": seat, "card": card, "galleries": galleries})
        for casino in before:
            if PLACEMENTS[casino].type == CASINO and PLACEMENTS[casino].region == p.region:
                self.token(seat, casino)


# --------------------------------------------------------------------------------------------------------
# The rules object
# --------------------------------------------------------------------------------------------------------

PLAYER_TYPES = frozenset(
    {
        "choose_bear_stock",
        "choose_location",
        "blacklist_cards",
        "resolve_action",
        "trade_swap",
        "buy",
        "banana_republic",
        "end_location_action",
        "gallery_draw",
        "launder",
        "launder_discard",
    }
)
SYSTEM_TYPES = frozenset({"start", "resign", "timeout"})
KIND_OF_TYPE: dict[str, str] = {
    "choose_bear_stock": BEAR_STOCK,
    "choose_location": CHOOSE_LOCATION,
    "blacklist_cards": BLACKLIST,
    "resolve_action": RESOLVE,
    "trade_swap": TRADE_SWAP,
    "buy": LOCATION_ACTION,
    "banana_republic": LOCATION_ACTION,
    "end_location_action": LOCATION_ACTION,
    "gallery_draw": GALLERY_DRAW,
    "launder": LAUNDER_USE,
    "launder_discard": LAUNDER_DROP,
}


class DirtyMoneyRules(GenericRules[State]):
    slug = "dirty_money"
    name = _("Dirty Money")
    min_players = 2
    max_players = 5
    options: tuple[Option, ...] = (
        Option("quick", _("Quick Mode: the end comes at 8 placements"), "bool", False),
        Option("choice", _("Choice Mode: 3 face-up placements per region"), "bool", False),  # combinable
        Option(
            "pace",
            _("Pace"),
            "choice",
            "live",
            (("live", _("Live (seconds per decision)")), ("correspondence", _("Correspondence (hours per decision)"))),
        ),
    )
    terms: Mapping[str, str] = TERMS
    uses_time_limit = False  # its own clock: the options' times, or real time

    def correspondence(self, options: Mapping[str, Any]) -> bool:
        """10.3: the correspondence pace gives hours a decision."""
        return options.get("pace") == "correspondence"

    # -- setup ---------------------------------------------------------------------------------------------

    def initial(self, players: int, options: Mapping[str, Any]) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"dirty_money needs 2 to 5 players, not {players}")
        pace = str(options.get("pace") or "live")
        if pace not in ("live", "correspondence"):
            raise ValueError(f"unknown pace {pace!r}")
        return State(
            players=players,
            quick=bool(options.get("quick", False)),
            choice=bool(options.get("choice", False)),
            pace=pace,
            resigned=(False,) * players,
        )

    # -- who acts, what is legal -------------------------------------------------------------------------

    def actors(self, state: State) -> frozenset[int]:
        if state.phase == SETUP:
            return frozenset({SYSTEM})
        if state.phase == OVER:
            return frozenset()
        _kind, seats = decision(state)
        out = set(seats)
        if any(d.due == 0 for d in self.deadlines(state)):
            out.add(SYSTEM)
        return frozenset(out)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat == SYSTEM:
            if state.phase == SETUP:
                return [{"type": "start"}]
            return [dict(d.action) for d in self.deadlines(state) if d.due == 0]
        kind, seats = decision(state)
        if seat not in seats or not 0 <= seat < state.players:
            return []
        return _legal(state, seat, kind)

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        return _parse_action(payload)

    # -- decide ----------------------------------------------------------------------------------------------

    def decide(self, state: State, seat: int, action: Action, ctx: DecideContext) -> list[Event]:
        t = action.get("type")
        check_sender(t, seat, state.players, SYSTEM_TYPES, PLAYER_TYPES)
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        run = _Run(state, ctx)
        if t == "start":
            if state.phase != SETUP:
                raise IllegalAction(_("The game has already started."))
            run.start()
        elif t == "resign":
            who = action["seat"]
            if not 0 <= who < state.players:
                raise IllegalAction(_("There is no such seat."))
            if state.phase == SETUP:
                raise IllegalAction(_("The game has not started yet."))
            if state.resigned[who]:
                raise IllegalAction(_("That player has already resigned."))
            run.emit("resigned", {"seat": who})
            if all(run.state.resigned):  # nobody is left to play (spec silent): score the game now
                run.score()
        elif t == "timeout":
            self._timeout(run, action)
        else:
            self._player(run, seat, action)
        run.advance()
        return run.events

    def _timeout(self, run: _Run, action: Action) -> None:
        """10.3: a deadline that has passed: the decision's default action, by every rule."""
        who = action["seat"]
        check_due(self.deadlines(run.state), action, run.now)
        kind, _seats = decision(run.state)
        run.emit("timed_out", {"seat": who, "kind": kind})
        for default in default_actions(run.state, who):
            now_kind, now_seats = decision(run.state)
            if KIND_OF_TYPE[default["type"]] != now_kind or who not in now_seats:
                break  # e.g. the Banana Republic visit already ended by itself
            self._player(run, who, default)
            run.advance()

    def _player(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        t = action["type"]
        if s.phase == SETUP:
            raise IllegalAction(_("The game has not started yet."))
        kind, seats = decision(s)
        if seat not in seats:
            raise IllegalAction(_("It is not your decision now."))
        if KIND_OF_TYPE[t] != kind:
            raise IllegalAction(_(WRONG_MOVE.get(kind, "That is not possible now.")))
        getattr(self, f"_do_{t}")(run, seat, action)

    # Player actions -------------------------------------------------------------------------------------

    def _do_choose_bear_stock(self, run: _Run, seat: int, action: Action) -> None:
        counts = {r: action[r] for r in REGIONS}
        if any(v < 0 for v in counts.values()) or sum(counts.values()) != 3:  # S-6
            raise IllegalAction(_("Choose 3 cards in all, from Europe, the USA and Japan."))
        run.bear_stock(counts)

    def _do_choose_location(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        loc = action["location"]
        if loc not in s.locations:
            raise IllegalAction(_("That location is not in play."))
        if loc not in choosable_locations(s):
            raise IllegalAction(_("That location has no money waiting: choose another one."))
        # T-2 / R-15; R-16: the row is now empty until the round end
        run.emit("location_chosen", {"seat": seat, "location": loc, "cards": list(s.row(loc))})
        run.checkpoint("a")  # R-21 a / R-24

    def _do_blacklist_cards(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        cards = action["cards"]
        excess = len(s.hands[seat]) - s.limit(seat)
        if len(cards) != excess:
            raise IllegalAction(_("Choose exactly %(count)s card(s) for your blacklist."), count=excess)
        if len(set(cards)) != len(cards) or any(c not in s.hands[seat] for c in cards):
            raise IllegalAction(_("Choose different cards from your own hand."))
        run.emit("cards_blacklisted", {"seat": seat, "count": len(cards)}, {"cards": list(cards)}, (seat,))

    def _do_resolve_action(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        card = action["card"]
        if card not in s.pending:
            raise IllegalAction(_("That action card is not waiting to be resolved."))
        target = action.get("target")
        if action_kind(card) in TARGETED:
            if target is None:
                raise IllegalAction(_("Choose another player for this card."))
            if not 0 <= target < s.players or target == seat:
                raise IllegalAction(_("Choose another player for this card."))
        else:
            target = None
        run.resolve(seat, card, target)

    def _do_trade_swap(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        target = s.trade_target
        take, give = action["take"], action["give"]
        if take not in s.hands[target]:
            raise IllegalAction(_("Take a card from the other player's hand."))
        if give not in s.hands[seat]:
            raise IllegalAction(_("Give a card from your own hand."))
        run.emit(
            "traded",
            {"seat": seat, "target_seat": target},
            {"take": take, "give": give},
            (seat, target),  # 8.3: the actor knows both; the target sees the card given (and the one lost)
        )
        run.action_done(seat, s.resolving)

    def _do_buy(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        cards = list(action["cards"])
        mode = action.get("mode", "separate")
        if len(cards) == 2 and mode == "separate":  # 10.1: separate mode pays for the first card only
            cards = cards[:1]
        if len(cards) != len(set(cards)):
            raise IllegalAction(_("Choose two different placements."))
        offer = buyable(s)
        if not offer:
            raise IllegalAction(_("There is nothing more to buy here."))
        if any(c not in offer for c in cards):
            raise IllegalAction(_("That placement cannot be bought here."))
        if s.bought + len(cards) > max_purchases(s):  # R-68; R-55: only the active player buys
            raise IllegalAction(_("You cannot buy that many placements here."))
        region = PLACEMENTS[cards[0]].region
        if any(PLACEMENTS[c].region != region for c in cards):
            raise IllegalAction(_("A combined payment covers placements of one region."))
        shark_card = action.get("shark_card")
        villain = s.villains[seat]
        if shark_card is not None and (villain != SHARK or s.shark_used):
            raise IllegalAction(_("Only the Loan Shark may count a card as 2, once per turn."))
        due = amount_due(cards, s.tableaux[seat])
        payment = list(action["payment"])
        error = payment_error(s.hands[seat], villain, region, due, payment, shark_card)
        if error:
            raise IllegalAction(error)
        total = sum((2 if c == shark_card else value_to(c, villain)) for c in payment)  # R-62 checked; R-64: no change
        run.emit(
            "bought",
            {
                "seat": seat,
                "location": s.location,
                "cards": cards,
                "mode": "combined" if len(cards) == 2 else "single",
                "payment": payment,
                "shark_card": shark_card,
                "due": due,
                "total": total,
                "overpay": total - due,
            },
        )
        if villain == RAT and total - due >= 2:
            run.token(seat, RAT_SLOT)
        run.gain(cards[0])

    def _do_banana_republic(self, run: _Run, seat: int, action: Action) -> None:
        s = run.state
        if s.location != LOC_BR:
            raise IllegalAction(_("That is the Banana Republic's action."))
        if s.banana_done:
            raise IllegalAction(_("You have already done that this turn."))
        run.remove_point(seat, "banana")  # R-52 1
        run.emit("banana", {"seat": seat})  # R-52 2 / R-12

    def _do_end_location_action(self, run: _Run, seat: int, action: Action) -> None:
        run.end_location()

    def _do_gallery_draw(self, run: _Run, seat: int, action: Action) -> None:
        """R-74: each Gallery's draw is optional and decided one at a time."""
        if not action["draw"]:
            run.emit("gallery_skipped", {"seat": seat})
            return
        if not run.ensure_deck():
            run.emit("gallery_drew", {"seat": seat, "kind": "none"})
            return
        card = run.state.deck[0]
        if is_action(card):  # revealed and resolved at once (pending), then checkpoint (b)
            run.emit("gallery_drew", {"seat": seat, "kind": "action", "card": card})
        else:
            run.emit("gallery_drew", {"seat": seat, "kind": "currency"}, {"card": card}, (seat,))

    def _do_launder(self, run: _Run, seat: int, action: Action) -> None:
        """R-85: draw until a currency card (one reshuffle at most), then discard one."""
        if not action["use"]:
            run.emit("launder_declined", {"seat": seat})
            run.checkpoint("d")
            return
        reshuffled = False
        while True:
            s = run.state
            if not s.deck:
                if s.discard and not reshuffled:
                    run.ensure_deck()
                    reshuffled = True
                    continue
                run.emit("launder_nothing", {"seat": seat})
                run.checkpoint("d")
                return
            card = s.deck[0]
            if is_action(card):
                run.emit("launder_skipped_action", {"seat": seat, "card": card})
                continue
            # the hand may now be one over its limit until the discard (no checkpoint between)
            run.emit("launder_drew", {"seat": seat}, {"card": card}, (seat,))
            return

    def _do_launder_discard(self, run: _Run, seat: int, action: Action) -> None:
        card = action["card"]
        if card not in run.state.hands[seat]:
            raise IllegalAction(_("Discard a card from your hand."))
        run.emit("launder_discarded", {"seat": seat, "card": card})
        run.checkpoint("d")  # R-21 d; (e) follows at once and finds the same hands

    # -- the rest of the protocol -------------------------------------------------------------------------

    # The pure parts of the protocol are this game's module functions, as they are.
    evolve = staticmethod(_evolve)
    log_lines = staticmethod(_log.log_lines)
    state_to_json = staticmethod(state_to_json)
    state_from_json = staticmethod(state_from_json)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        kind, seats = decision(state)
        return _view.view(state, seat, kind, seats, self.deadlines(state))

    def view_revealed(self, state: State) -> dict[str, Any]:
        """The spectator's view with every hand shown (R-110's reveal, at any point of a replay)."""
        out = self.view(state, None)
        out["hands"] = [sorted(h) for h in state.hands]
        return out

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals, ranks, winners = state.result
        return Outcome(scores=totals, ranks=ranks, winners=winners, reason="scored")

    def deadlines(self, state: State) -> list[Deadline]:
        kind, seats = decision(state)
        if not kind:
            return []
        out = []
        for who in seats:
            due = 0.0 if state.resigned[who] else state.since + seconds_for(state, kind)
            out.append(Deadline((who,), due, {"type": "timeout", "seat": who}, kind))
        return out

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        kind, seats = decision(state)
        if seat not in seats:
            raise IllegalAction(_("No legal action for seat %(seat)s."), seat=seat)
        return _bot.choose(state, seat, kind, rng)


WRONG_MOVE: dict[str, str] = {
    BEAR_STOCK: _("The Wall Street Bear must first choose the private stock."),
    CHOOSE_LOCATION: _("Choose a location first."),
    BLACKLIST: _("Overflowing cards must first go to the blacklist."),
    RESOLVE: _("Resolve your pending action cards first."),
    TRADE_SWAP: _("Finish the trade first: take one card and give one."),
    LOCATION_ACTION: _("Use the location or end its action first."),
    GALLERY_DRAW: _("Decide on the Art Gallery draw first."),
    LAUNDER_USE: _("Decide whether to use the Launderer's ability first."),
    LAUNDER_DROP: _("Discard a card after laundering first."),
}


def default_actions(state: State, seat: int) -> list[Action]:
    """10.3: the action(s) applied when a decision's deadline passes."""
    kind, _seats = decision(state)
    if kind == BEAR_STOCK:
        return [{"type": "choose_bear_stock", "EU": 1, "US": 1, "JP": 1}]
    if kind == CHOOSE_LOCATION:
        first = next(loc for loc in LOCATION_ORDER if loc in choosable_locations(state))
        return [{"type": "choose_location", "location": first}]
    if kind == BLACKLIST:
        excess = len(state.hands[seat]) - state.limit(seat)
        return [{"type": "blacklist_cards", "cards": lowest_cards(state, seat, excess)}]
    if kind == RESOLVE:
        card = state.pending[0]
        target: int | None = None
        if action_kind(card) == INS2:
            target = default_ins2_target(state, seat)
        elif action_kind(card) == TRADE:
            target = left_of(state, seat)
        return [{"type": "resolve_action", "card": card, "target": target}]
    if kind == TRADE_SWAP:
        theirs = state.hands[state.trade_target]
        take = min(theirs, key=lambda c: (-hand_value(state, seat, c), c))
        give = min(state.hands[seat], key=lambda c: (hand_value(state, seat, c), c))
        return [{"type": "trade_swap", "take": take, "give": give}]
    if kind == LOCATION_ACTION:
        if state.location == LOC_BR and not state.banana_done:
            return [{"type": "banana_republic"}, {"type": "end_location_action"}]
        return [{"type": "end_location_action"}]
    if kind == GALLERY_DRAW:
        return [{"type": "gallery_draw", "draw": True}]
    if kind == LAUNDER_USE:
        return [{"type": "launder", "use": False}]
    if kind == LAUNDER_DROP:
        card = state.drawn if state.drawn in state.hands[seat] else lowest_cards(state, seat, 1)[0]
        return [{"type": "launder_discard", "card": card}]
    return []


def _legal(state: State, seat: int, kind: str) -> list[Action]:
    if kind == BEAR_STOCK:
        return [
            {"type": "choose_bear_stock", "EU": a, "US": b, "JP": 3 - a - b} for a in range(4) for b in range(4 - a)
        ]
    if kind == CHOOSE_LOCATION:
        return [{"type": "choose_location", "location": loc} for loc in choosable_locations(state)]
    if kind == BLACKLIST:
        excess = len(state.hands[seat]) - state.limit(seat)
        return [{"type": "blacklist_cards", "cards": list(c)} for c in combinations(sorted(state.hands[seat]), excess)]
    if kind == RESOLVE:
        out: list[Action] = []
        for card in dict.fromkeys(state.pending):
            if action_kind(card) in TARGETED:
                for other in range(state.players):
                    if other != seat:
                        out.append({"type": "resolve_action", "card": card, "target": other})
            else:
                out.append({"type": "resolve_action", "card": card, "target": None})
        return out
    if kind == TRADE_SWAP:
        return [
            {"type": "trade_swap", "take": t, "give": g}
            for t in sorted(state.hands[state.trade_target])
            for g in sorted(state.hands[seat])
        ]
    if kind == LOCATION_ACTION:
        return (
            purchase_actions(state, seat)
            + ([{"type": "banana_republic"}] if state.location == LOC_BR and not state.banana_done else [])
            + [{"type": "end_location_action"}]
        )
    if kind == GALLERY_DRAW:
        return [{"type": "gallery_draw", "draw": True}, {"type": "gallery_draw", "draw": False}]
    if kind == LAUNDER_USE:
        return [{"type": "launder", "use": True}, {"type": "launder", "use": False}]
    if kind == LAUNDER_DROP:
        return [{"type": "launder_discard", "card": c} for c in sorted(state.hands[seat])]
    return []


def _buy(cards: list[str], payment: tuple[str, ...], shark_card: str | None) -> Action:
    """The ``buy`` action of ``cards`` paid with ``payment`` (R-60 to R-68, R-89)."""
    return {
        "type": "buy",
        "cards": cards,
        "mode": "combined" if len(cards) == 2 else "separate",
        "payment": list(payment),
        "shark_card": shark_card,
    }


def purchase_options(state: State, seat: int) -> list[tuple[list[str], int]]:
    """Every (cards in order, amount due) the active player could buy now, before paying."""
    offer = buyable(state)
    tableau = state.tableaux[seat]
    out = [([c], amount_due([c], tableau)) for c in offer]
    if max_purchases(state) - state.bought >= 2:
        for a in offer:
            for b in offer:
                if a != b:
                    out.append(([a, b], amount_due([a, b], tableau)))
    return out


def purchase_actions(state: State, seat: int) -> list[Action]:
    """Every legal ``buy`` (payments listed in id order; R-61 to R-63, R-66, R-89)."""
    villain = state.villains[seat]
    shark = villain == SHARK and not state.shark_used
    hand = state.hands[seat]
    out: list[Action] = []
    cache: dict[tuple[str, int], list[tuple[tuple[str, ...], str | None]]] = {}
    for cards, due in purchase_options(state, seat):
        region = PLACEMENTS[cards[0]].region
        key = (region, due)
        if key not in cache:
            cache[key] = payments(hand, villain, region, due, shark)
        for pay, special in cache[key]:
            out.append(_buy(cards, pay, special))
    return out


def legal_purchase(state: State, seat: int, worth: Any) -> Action | None:
    """The bot's buy: the most valuable affordable option, paid with the cheapest legal payment."""
    villain = state.villains[seat]
    shark = villain == SHARK and not state.shark_used
    best: tuple[float, Action] | None = None
    cache: dict[tuple[str, int], tuple[tuple[str, ...], str | None] | None] = {}
    for cards, due in purchase_options(state, seat):
        region = PLACEMENTS[cards[0]].region
        if (region, due) not in cache:
            cache[region, due] = cheapest_payment(state.hands[seat], villain, region, due, shark)
        pay = cache[region, due]
        if pay is None:
            continue
        cards_paid, special = pay
        total = sum(2 if c == special else value_to(c, villain) for c in cards_paid)
        score = sum(worth(c, state, seat) for c in cards) - 0.3 * (total - due)
        if best is None or score > best[0]:
            best = (score, _buy(cards, cards_paid, special))
    return best[1] if best else None
