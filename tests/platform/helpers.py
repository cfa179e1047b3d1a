"""Building matches for platform tests, and reading back what they stored."""

from __future__ import annotations

import contextlib
import gc
import importlib
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.apps import apps as django_apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from games.engines.base import SYSTEM
from games.engines.exit_memory.state import CHAIN, EXTRA, TURN
from games.engines.exit_memory.state import State as ExitMemoryState
from games.engines.registry import get_rules
from games.models import Match, Seat
from games.play import services
from games.play.store import load_state, rules_for


def started_match(
    make_user: Any,
    game: str = "heist",
    players: int = 4,
    options: dict[str, Any] | None = None,
    time_limit: int = 60,
    first_seat: int | None = None,
    seed: str | None = None,
) -> tuple[Match, dict[int, Any]]:
    """A started match of human players; returns it and {seat number: user}.

    ``first_seat``: the seat the option ``first`` (a lobby seat) is to name once the seats are
    shuffled: the option is set to the lobby seat that the shuffle puts there. ``seed``: the
    match's seed, so that its shuffles and dice are the same on every run.
    """
    users = [make_user() for _ in range(players)]
    match = services.do_create_match(users[0], game, players, options or {}, time_limit)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    if seed is not None:
        Match.objects.filter(pk=match.pk).update(seed=seed)
        match.seed = seed
    if first_seat is not None:
        match.options = {**match.options, "first": str(services.seating_order(match).index(first_seat))}
        match.save(update_fields=["options"])
    services.do_start_match(match.pk, users[0])
    match.refresh_from_db()
    by_seat = {seat.number: seat.user for seat in match.seats.select_related("user")}
    return match, by_seat


def state_of(match: Match) -> Any:
    match.refresh_from_db()
    return load_state(match)


def tiles_hidden_from(state: ExitMemoryState, seat: int | None) -> set[str]:
    """Emergency Exit tile ids ``seat`` may not see: the deck, the others' hands and, during a round,
    the covered pile (every tile but a face-up top)."""
    hidden = set(state.deck)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    if state.phase in (TURN, EXTRA, CHAIN):
        hidden |= {p.tile for p in state.pile[:-1]}
        if state.pile and state.pile[-1].face_down:
            hidden.add(state.pile[-1].tile)
    elif state.result:
        hidden -= {p["tile"] for p in state.result["pile"]}
    return hidden


def choose_all(match: Match, role: str = "THUG") -> None:
    """Every seat submits its secret choice in planning (one role each)."""
    rules = get_rules(match.game)
    for seat in range(match.seat_count):
        match.refresh_from_db()
        legal = rules.legal_actions(load_state(match), seat)
        action = next((a for a in legal if a["type"] == "choose" and a["roles"] == [role]), None)
        action = action or next(a for a in legal if a["type"] == "choose")
        services.do_submit_action(match.pk, seat, action)


@contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic garbage collector paused: what is freed meanwhile was freed by its reference count
    alone, not left in a cycle for the collector (whose passes pause every socket of a daphne)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def client_for(user: Any, language: str = "") -> Client:
    """A test client logged in as ``user``; with ``language``, the profile's language set to it first."""
    if language:
        user.profile.language = language
        user.profile.save()
    client = Client()
    client.force_login(user)
    return client


def count_calls(monkeypatch: Any, owner: Any, name: str) -> list[int]:
    """Each call of ``owner.<name>`` from now on appends a 1 to the list returned, and goes on as before."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def page_viewers(make_user: Callable[[], Any], users: dict[int, Any]) -> list[tuple[int | None, Client]]:
    """A logged-in client for every seat of ``users`` and, last, one for a spectator (seat ``None``)."""
    clients: list[tuple[int | None, Client]] = [(seat, client_for(user)) for seat, user in users.items()]
    clients.append((None, client_for(make_user())))
    return clients


def page_html(client: Client, match: Match) -> str:
    """The match page as ``client`` gets it (which must be a 200)."""
    response = client.get(reverse("match", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def sent_create_form(client: Client, game: str, seats: int, **fields: str) -> Any:
    """The answer to the create form sent by ``client``: ``game`` for ``seats`` at 60 s a decision,
    with the game's own ``fields`` (``<game>__<option>``)."""
    form = {"game": game, "seats": str(seats), "time_amount": "60", "time_unit": "seconds", **fields}
    return client.post(reverse("match_create"), form)


def page_for(user: Any, match: Match) -> str:
    """The match page as ``user``, logged in, gets it (which must be a 200)."""
    return page_html(client_for(user), match)


def play_bots(match: Match, rng: random.Random, steps: int, on_step: Callable[[Any], None] | None = None) -> Any:
    """Up to ``steps`` moves through the one write path, each the lowest acting seat's bot move (the
    server's own first legal step for SYSTEM); ``on_step(state)`` after each. The last state."""
    rules = rules_for(match)
    state = load_state(match)
    for _ in range(steps):
        actors = sorted(rules.actors(state))
        if not actors:
            break
        seat = actors[0]
        action = rules.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else rules.bot_action(state, seat, rng)
        services.do_submit_action(match.pk, seat, action)
        match.refresh_from_db()
        state = load_state(match)
        if on_step is not None:
            on_step(state)
    return state


def play_checking_pages(
    match: Match,
    clients: list[tuple[int | None, Client]],
    rng: random.Random,
    steps: int,
    check_page: Callable[[str, Any, int | None], None],
) -> tuple[Any, int]:
    """:func:`play_bots`, every client's match page fetched after each move and handed to
    ``check_page(html, state, seat)``; the last state and how many pages were checked."""
    checked = 0

    def check(state: Any) -> None:
        nonlocal checked
        for seat, client in clients:
            check_page(page_html(client, match), state, seat)
            checked += 1

    return play_bots(match, rng, steps, check), checked


def random_move(match_id: int, rng: random.Random) -> bool:
    """One random legal move (or the server's own step); False when the game is over."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        return False
    rules = rules_for(match)
    state = load_state(match)
    actors = sorted(rules.actors(state))
    if not actors:
        return False
    seat = SYSTEM if SYSTEM in actors else rng.choice(actors)
    legal = rules.legal_actions(state, seat)
    if not legal:
        deadline = min(rules.deadlines(state), key=lambda d: d.due)
        services.do_submit_action(match_id, SYSTEM, deadline.action, now=deadline.due)
        return True
    action = legal[0] if seat == SYSTEM else rng.choice(legal)
    with contextlib.suppress(services.ServiceError):  # a random pick may be refused; nothing changed
        services.do_submit_action(match_id, seat, action, expected_version=match.version)
    return True


def values(instance: Model | None) -> dict[str, Any] | None:
    """Every column's value; a time with its zone object too (equal times in two zones compare equal)."""
    if instance is None:
        return None
    out = {}
    for field in type(instance)._meta.concrete_fields:
        value = getattr(instance, field.attname)
        out[field.attname] = (value, value.tzinfo) if isinstance(value, datetime) else value
    return out


def as_orm_gives(seats: list[Seat]) -> list[Any]:
    """Every column of each seat, its user and the user's profile, and what the pages show of it."""
    out = []
    for seat in seats:
        user = seat.user
        profile = getattr(user, "profile", None) if user is not None else None
        out.append((values(seat), values(user), values(profile), seat.display_name, seat._state.adding))
    return out


def play_one(match: Match, rng: Any, pick: Any) -> None:
    """One step of a random heist: a move ``pick(rules, state, seat)`` chooses for a seat that may
    act (the server's own step for SYSTEM), or the time-out it waits for when nobody may act."""
    rules, state = rules_for(match), load_state(match)
    actors = sorted(rules.actors(state))
    if not actors:
        deadline = min(rules.deadlines(state), key=lambda d: d.due)
        services.do_submit_action(match.pk, SYSTEM, deadline.action, now=deadline.due)
        return
    seat = rng.choice(actors)
    action = rules.legal_actions(state, seat)[0] if seat == SYSTEM else pick(rules, state, seat)
    with contextlib.suppress(services.ServiceError):  # a random pick may be refused; nothing changed
        services.do_submit_action(match.pk, seat, action)


def moderators_group() -> Group:
    """The group as its migration made it (an earlier transactional test may have flushed it, and
    the permissions with it)."""
    migration = importlib.import_module("games.migrations.0001_squashed_0014_ratings")
    for app_config in django_apps.get_app_configs():
        create_permissions(app_config, verbosity=0)
    group, _ = Group.objects.get_or_create(name="moderators")
    for app_label, codename in migration.MODERATOR_PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    return group
