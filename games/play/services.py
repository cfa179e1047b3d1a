"""The only code that writes matches, seats, events and chat (``do_*`` functions).

Every change to a running match goes through :func:`do_submit_action`: one transaction that locks
the match row, checks the version, decides with the engine, appends events with consecutive
``seq``, and broadcasts/schedules follow-up work only once the transaction has committed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.background import livetimers
from games.engines.base import (
    SYSTEM,
    DecideContext,
    EngineError,
    Event,
    IllegalAction,
    InvalidAction,
    replay,
    reseat_options,
    rng_for,
)
from games.engines.registry import get_rules
from games.models import ActionReceipt, ChatMessage, Match, MatchEvent, Seat
from games.play import clock, guarded, latency_trace, payloads
from games.play.store import (
    cached_move_base,
    cached_state,
    keep_events,
    load_state,
    quoted_columns,
    remember,
    remember_row,
    rules_for,
    snapshot_due,
    snapshot_state,
    to_datetime,
)
from games.push import pushes

log = logging.getLogger(__name__)


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status, ``message`` is shown to the user."""

    status = 400

    def __init__(self, message: str, status: int | None = None, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or {}  # an engine refusal's params (e.g. a reason code), for the sender only
        if status is not None:
            self.status = status


class StaleVersion(ServiceError):
    status = 409
    revision: int | None = None  # the match's revision when it was refused: a board the sender lacks


class NotAllowed(ServiceError):
    status = 403


@dataclass
class SubmitResult:
    version: int
    events: list[Event] = field(default_factory=list)
    duplicate: bool = False
    revision: int | None = None  # what pages show after this action (None for a duplicate)


# --- lobby -------------------------------------------------------------------------------------


def do_create_match(user: Any, game: str, seat_count: int, options: dict[str, Any], time_limit: int) -> Match:
    rules = get_rules(game)
    if not rules.min_players <= seat_count <= rules.max_players:
        raise ServiceError(
            _("This game needs %(min)s to %(max)s players.") % {"min": rules.min_players, "max": rules.max_players}
        )
    if time_limit < 10:
        raise ServiceError(_("The time limit must be at least 10 seconds."))
    if time_limit > 365 * 86400:
        raise ServiceError(_("The time limit can be at most 365 days."))
    with transaction.atomic():
        match = Match.objects.create(
            game=game, host=user, seat_count=seat_count, options=options, time_limit=time_limit
        )
        Seat.objects.create(match=match, number=0, user=user)
    return match


def _lobby_locked(match_id: int) -> Match:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.LOBBY:
        raise ServiceError(_("This match has already started."), status=409)
    return match


def _free_number(match: Match) -> int:
    taken = set(match.seats.values_list("number", flat=True))
    for number in range(match.seat_count):
        if number not in taken:
            return number
    raise ServiceError(_("This match is full."), status=409)


def do_join_match(match_id: int, user: Any) -> Seat:
    with transaction.atomic():
        match = _lobby_locked(match_id)
        existing = match.seats.filter(user=user).first()
        if existing is not None:
            return existing
        try:
            seat = Seat.objects.create(match=match, number=_free_number(match), user=user)
        except IntegrityError as exc:  # pragma: no cover - guarded by the row lock
            raise ServiceError(_("This match is full."), status=409) from exc
        _touch(match)
    _publish_after_commit(match)
    return seat


def do_leave_match(match_id: int, user: Any) -> None:
    with transaction.atomic():
        match = _lobby_locked(match_id)
        if match.host_id == user.pk:
            match.status = Match.Status.ABORTED
            match.save(update_fields=["status"])
        match.seats.filter(user=user).delete()
        _touch(match)
    _publish_after_commit(match)


def do_add_bot(match_id: int, user: Any) -> Seat:
    with transaction.atomic():
        match = _lobby_locked(match_id)
        if match.host_id != user.pk:
            raise NotAllowed(_("Only the host can fill seats with bots."))
        number = _free_number(match)
        seat = Seat.objects.create(match=match, number=number, is_bot=True, bot_number=number + 1)
        _touch(match)
    _publish_after_commit(match)
    return seat


def seating_order(match: Match) -> list[int]:
    """``order[i]``: the seat the player of lobby seat ``i`` takes when the match starts (seeded)."""
    order = list(range(match.seat_count))
    random.Random(f"{match.seed}:seating").shuffle(order)
    return order


def do_start_match(match_id: int, user: Any | None) -> Match:
    """Seat the players in a random (seeded) order and submit the engine's start action."""
    with transaction.atomic():
        match = _lobby_locked(match_id)
        if user is not None and match.host_id != user.pk:
            raise NotAllowed(_("Only the host can start the match."))
        seats = list(match.seats.order_by("number"))
        if len(seats) != match.seat_count:
            raise ServiceError(_("Every seat must be filled before the match can start."), status=409)
        order = seating_order(match)
        for seat in seats:  # two passes keep (match, number) unique at every step
            seat.number += 100
            seat.save(update_fields=["number"])
        for seat, number in zip(seats, order, strict=True):
            seat.number = number
            seat.save(update_fields=["number"])
        # Options chosen for a lobby seat (a first player, a handicap) follow its player.
        match.options = reseat_options(rules_for(match), match.options or {}, order)
        match.status = Match.Status.ACTIVE
        match.started_at = timezone.now()
        match.bot_seats = sorted(seat.number for seat in seats if seat.is_bot)
        match.save(update_fields=["options", "status", "started_at", "bot_seats"])
    do_submit_action(match.pk, SYSTEM, {"type": "start"}, expected_version=0)
    match.refresh_from_db()
    return match


def do_rematch(match_id: int, user: Any) -> Match:
    """A new match of the same game, options and players after this one ended (issue 10, item 5).

    Whoever asks first hosts it; everyone else from the old table is seated in it (bots as bots)
    and gets an e-mail with the link. Asking again, from any seat, returns the same new match.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.FINISHED:
            raise ServiceError(_("A rematch can be asked for once the match is over."), status=409)
        seats = list(match.seats.order_by("number"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(_("Only the players of this match can ask for a rematch."))
        if match.rematch_id is not None:
            return Match.objects.get(pk=match.rematch_id)
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        lobby = [mine, *(seat for seat in seats if seat is not mine)]  # the new lobby's seats, in order
        # Options about seats were written for this match's seating: they follow their players.
        place = {seat.number: i for i, seat in enumerate(lobby)}
        options = reseat_options(rules_for(match), match.options or {}, [place[s.number] for s in seats])
        new = Match.objects.create(
            game=match.game, host=user, seat_count=match.seat_count, options=options, time_limit=match.time_limit
        )
        Seat.objects.create(match=new, number=0, user=user)
        others = []
        for number, seat in enumerate(lobby[1:], start=1):
            bot_number = seat.bot_number if seat.is_bot else 0
            Seat.objects.create(match=new, number=number, user=seat.user, is_bot=seat.is_bot, bot_number=bot_number)
            if seat.user is not None and not seat.is_bot:
                others.append(seat.user)
        match.rematch = new
        match.save(update_fields=["rematch"])
        _touch(match)
    _publish_after_commit(match)
    from games.background.tasks import send_rematch_invites

    transaction.on_commit(lambda: send_rematch_invites.delay(new.pk, [u.pk for u in others]))
    return new


# --- the write path ----------------------------------------------------------------------------


def do_submit_action(
    match_id: int,
    seat: int,
    payload: dict[str, Any],
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    now: float | None = None,
    user_id: int | None = None,
) -> SubmitResult:
    """Validate ``payload`` for ``seat`` with the engine and append the resulting events.

    ``user_id``: the seat must still be that active user's, checked in the same write (a socket's
    move: its seat is what the socket last saw, with no query first). A resubmission (same
    ``idempotency_key``) is answered with the first one's result. Receipts are looked up only when
    something goes wrong (the receipt's unique key refuses the second insert, or the resubmission
    is stale or no longer legal), so a normal move costs no extra query.
    """
    digest = action_digest(payload)
    try:
        if guarded.enabled():
            written = _submit_guarded(match_id, seat, payload, expected_version, idempotency_key, now, user_id)
            if written is None and _refresh_cache(match_id):
                # Another process wrote since this one cached the match: decide again on the news.
                written = _submit_guarded(match_id, seat, payload, expected_version, idempotency_key, now, user_id)
            if written is not None:
                return written
        return _submit(match_id, seat, payload, expected_version, idempotency_key, now, user_id)
    except (IntegrityError, ServiceError):
        if idempotency_key:
            receipt = _receipt(match_id, seat, idempotency_key)
            if receipt is not None:
                action, version = receipt
                if action and action != digest:
                    raise ServiceError(
                        _("This key was already used for another action. Reload the board and try again."), status=409
                    ) from None
                return SubmitResult(version=version, duplicate=True)
        raise


@cache
def _receipt_sql(vendor: str) -> str:
    column = quoted_columns(ActionReceipt)
    table = connection.ops.quote_name(ActionReceipt._meta.db_table)
    return (
        f"SELECT {column['action']}, {column['version']} FROM {table}"
        f" WHERE {column['match']} = %s AND {column['seat']} = %s AND {column['key']} = %s"
    )


def _receipt(match_id: int, seat: int, key: str) -> tuple[str, int] | None:
    """(action digest, version) of the receipt of ``key``, if any: a plain query, since every move
    refused for an old board looks for one (the unique key makes it one row at most)."""
    with connection.cursor() as cursor:
        cursor.execute(_receipt_sql(connection.vendor), [match_id, seat, key])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def _refresh_cache(match_id: int) -> bool:
    """Bring this process's cached row and state of a running match up to the database's version,
    in one round trip (:func:`games.play.guarded.catch_up`: the row, the events after the cached state,
    the seats). False when there is nothing newer to decide on (the locking path then answers).
    """
    base = cached_move_base(match_id)
    held = cached_state(match_id)  # may be cached alone: another thread caches a state, then its row
    caught = guarded.catch_up(match_id, None if held is None else held[0])
    if caught is None or (base is not None and base[0].version == caught.match.version):
        return False
    match = caught.match
    if held is None:
        version, state = snapshot_state(match)
        del match.snapshot  # deferred again: the cached row goes without it, as a written one does
    elif held[0] <= match.version:
        version, state = held
    else:
        return False  # a state newer than the row read: another thread's write, not yet committed
    events = [caught.events[seq] for seq in range(version + 1, match.version + 1)]
    remember(match.pk, match.version, replay(rules_for(match), state, events))
    remember_row(match)
    keep_events(match.pk, caught.events)  # the next move's log lines need them (presenter.prefetch_log)
    return True


def _check_player(match_id: int, seat: int, user_id: int | None) -> None:
    if (
        user_id is not None
        and not Seat.objects.filter(match_id=match_id, number=seat, user_id=user_id, user__is_active=True).exists()
    ):
        raise NotAllowed(_("Only the players of this match can act in it."))


def _parse(rules: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """The engine's reading of ``payload``; any error it raises doing so is an unreadable action.

    An engine is to refuse bad input with InvalidAction. Anything else it raises while reading a
    payload is its own slip, but the payload is still what caused it: logged, and answered 400.
    """
    try:
        action: dict[str, Any] = rules.parse_action(payload)
    except InvalidAction:
        raise
    except Exception as exc:
        log.exception("%s could not read the action payload %.300r", rules.slug, payload)
        raise InvalidAction(gettext_noop("That action could not be read.")) from exc
    return action


def _refusal(exc: EngineError) -> ServiceError:
    if isinstance(exc, InvalidAction):
        return ServiceError(engine_message(exc), status=400)
    return ServiceError(engine_message(exc), status=422, detail=exc.params)


def _submit(
    match_id: int,
    seat: int,
    payload: dict[str, Any],
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None,
    user_id: int | None = None,
) -> SubmitResult:
    with transaction.atomic():
        match = Match.objects.select_for_update().defer("snapshot").get(pk=match_id)
        _check_player(match_id, seat, user_id)
        if match.status != Match.Status.ACTIVE:
            raise ServiceError(_("This match is not in progress."), status=409)
        rules = rules_for(match)
        try:
            action = _parse(rules, payload)
        except InvalidAction as exc:
            raise _refusal(exc) from exc
        stale = expected_version is not None and expected_version != match.version
        if stale and action.get("type") not in getattr(rules, "blind_actions", ()):
            raise _stale(match)
        state = load_state(match)
        try:
            if seat != SYSTEM and not _judges_itself(rules) and seat not in rules.actors(state):
                raise IllegalAction(gettext_noop("It is not your turn to act."))
            now = now if now is not None else clock.now()
            ctx = DecideContext(rng=rng_for(match.seed, match.version), now=now)
            events = rules.decide(state, seat, action, ctx)
        except EngineError as exc:
            raise _refusal(exc) from exc
        new_state = replay(rules, state, events)
        old_version = match.version
        _append_events(match, seat, events)
        automatic = _after_state_change(match, rules, new_state, old_version, now)
        if idempotency_key:
            ActionReceipt.objects.create(
                match=match, seat=seat, key=idempotency_key, action=action_digest(payload), version=match.version
            )
        remember(match.pk, match.version, new_state)
        remember_row(match)
    _publish_after_commit(
        match,
        events={old_version + i: event for i, event in enumerate(events, start=1)},
        state_before=state,
        actor=seat if seat != SYSTEM else None,
    )
    _arm_live_after_commit(match, rules, new_state)
    if automatic:
        _schedule_followups_after_commit(match.pk, match.version)
    return SubmitResult(version=match.version, events=events, revision=match.revision)


def _submit_guarded(
    match_id: int,
    seat: int,
    payload: dict[str, Any],
    expected_version: int | None,
    idempotency_key: str | None,
    now: float | None,
    user_id: int | None = None,
) -> SubmitResult | None:
    """The move decided on this process's cached row and state, written in one statement.

    ``None`` sends the caller to the locking ORM path: nothing cached, a version newer than the
    cache, or the guard finding the match moved on (or the seat no longer the user's). A version
    older than the cache is refused here (:class:`StaleVersion`), unless the action is one of the
    game's ``blind_actions``, which are decided on the cached state like any other. An engine refusal is
    answered here when one query confirms the state it was judged on is the match's current one
    and the seat the user's; otherwise it is judged again there on the fresh state.
    """
    base = cached_move_base(match_id)
    if base is None:
        return None
    match, state = base
    if match.status != Match.Status.ACTIVE:
        return None
    rules = rules_for(match)
    try:
        action = _parse(rules, payload)
        # A blind action (a secret choice, an offer) does not depend on the board its sender saw: it
        # is decided on the cached state like any other, and the guard refuses it if that is not current.
        blind = action.get("type") in getattr(rules, "blind_actions", ())
        if expected_version is not None and expected_version > match.version:
            # The sender saw a version this process has not cached yet (another process wrote it:
            # a timed step the worker wrote). Decided here, even a blind action would only be
            # refused by the guard, after its statement and its pushes: catch up first.
            return None
        if expected_version is not None and expected_version < match.version and not blind:
            # Versions only grow and this cache holds a committed one: the sender's board is
            # out of date whatever the database holds now, so no lock is needed to say so.
            raise _stale(match)
        if seat != SYSTEM and not _judges_itself(rules) and seat not in rules.actors(state):
            return None
        now = now if now is not None else clock.now()
        events = rules.decide(state, seat, action, DecideContext(rng=rng_for(match.seed, match.version), now=now))
    except EngineError as exc:
        if _still_current(match, seat, user_id):
            raise _refusal(exc) from exc
        return None
    new_state = replay(rules, state, events)
    old_version = match.version
    changes = state_changes(match, rules, new_state, old_version, old_version + len(events), now)
    by_seq = {old_version + i: event for i, event in enumerate(events, start=1)}
    actor = seat if seat != SYSTEM else None
    pending = guarded.send(
        match,
        seat=seat,
        events=[event.to_json() for event in events],
        fields=changes.fields,
        waiting=changes.waiting,
        key=idempotency_key,
        action=action_digest(payload),
        at=clock.now_datetime(),
        user=user_id,
        with_seats=not getattr(rules, "live", False),  # a live game's pushes render nothing
    )
    latency_trace.mark("statement", match.pk, idempotency_key)
    foreseen, ahead = None, None
    try:
        seats = pending.foreseen_seats() if not connection.in_atomic_block else None
        if seats is not None:
            # The statement is PostgreSQL's work now: render the pushes meanwhile, for the row as
            # the write is foreseen to leave it (kept only if it does: games.play.render_ahead).
            foreseen = copy.copy(match)
            _as_after(
                foreseen, changes, old_version + len(events), match.revision + 1, match.chat_version, match.bot_seats
            )
            ahead = pushes.render_ahead(
                foreseen, new_state, events=by_seq, state_before=state, actor=actor, seats=seats
            )
    finally:
        latency_trace.mark("ahead", match.pk, idempotency_key)
        written = pending.finish()
    if written is None:
        return None
    latency_trace.mark("written", match.pk, written.revision)
    if (
        ahead is not None
        and foreseen is not None
        and written.foreseen
        and (written.revision, written.chat_version, written.bot_seats)
        == (foreseen.revision, foreseen.chat_version, foreseen.bot_seats)
    ):
        match = foreseen  # the write left the row and seats as the pushes were rendered for
    else:
        ahead = None
        _as_after(match, changes, old_version + len(events), written.revision, written.chat_version, written.bot_seats)
    remember(match.pk, match.version, new_state)
    remember_row(match)
    _publish_after_commit(
        match,
        events=by_seq,
        state_before=state,
        actor=actor,
        audience=written.audience,
        seats=written.seats,
        ahead=ahead,
    )
    _arm_live_after_commit(match, rules, new_state)
    if changes.automatic or set(written.bot_seats) & set(changes.waiting):
        _schedule_followups_after_commit(match.pk, match.version)
    return SubmitResult(version=match.version, events=events, revision=match.revision)


def _as_after(
    match: Match, changes: Changes, version: int, revision: int, chat_version: int, bot_seats: list[int]
) -> None:
    """``match`` (the cached row) as the guarded write leaves it."""
    for name, value in changes.fields.items():
        setattr(match, name, value)
    match.version = version
    match.revision, match.chat_version, match.bot_seats = revision, chat_version, bot_seats
    match.waiting = {str(n): k for n, k in changes.waiting.items()}


def _stale(match: Match) -> StaleVersion:
    refusal = StaleVersion(_("The board changed before your action arrived; here is the current board."))
    refusal.revision = match.revision
    return refusal


def _still_current(match: Match, seat: int, user_id: int | None) -> bool:
    """The match is still running at ``match.version`` (and, with a user, the seat is still theirs)."""
    if seat == SYSTEM or user_id is None:
        rows = Match.objects.filter(pk=match.pk, version=match.version, status=Match.Status.ACTIVE)
        return bool(rows.exists())
    return bool(
        Seat.objects.filter(
            match_id=match.pk,
            match__version=match.version,
            match__status=Match.Status.ACTIVE,
            number=seat,
            user_id=user_id,
            user__is_active=True,
        ).exists()
    )


def _judges_itself(rules: Any) -> bool:
    """A live game decides who may act at the input's own time, after the timers due before it
    (T-3, T-14): the state on hand may be a countdown that has just ended, so it is not asked first."""
    return bool(getattr(rules, "live", False))


def action_digest(payload: dict[str, Any]) -> str:
    """What a receipt remembers of the action, to tell a resubmission from a reused key."""
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def engine_message(exc: EngineError) -> str:
    """Translate an engine error (English msgid with %(name)s params)."""
    text = _(exc.message)
    return text % exc.params if exc.params else text


def _append_events(match: Match, actor: int, events: list[Event]) -> None:
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=match.version + i,
            actor=actor,
            type=event.type,
            data=event.data,
            secret=event.secret,
            visible_to=list(event.visible_to),
        )
        for i, event in enumerate(events, start=1)
    )
    match.version += len(events)
    match.revision += 1


@dataclass
class Changes:
    """What a new state changes in the match row (besides version and revision) and in its seats."""

    fields: dict[str, Any]
    waiting: dict[int, str]  # seat -> key of the decision it is waited on for ("" = none)
    automatic: bool  # the server has a move to make at once (a SYSTEM step, a bot, a due time-out)


def state_changes(match: Match, rules: Any, state: Any, old_version: int, new_version: int, now: float) -> Changes:
    """Denormalised fields (status, deadline, who is waited on) and the snapshot, for ``state``."""
    outcome = rules.outcome(state)
    deadlines = rules.deadlines(state) if outcome is None else []
    fields: dict[str, Any] = {}
    if outcome is not None:
        fields["status"] = Match.Status.FINISHED
        fields["finished_at"] = clock.now_datetime()
        fields["outcome"] = {
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            "winners": list(outcome.winners),
            "reason": outcome.reason,
        }
        fields["next_deadline"] = None
    else:
        fields["next_deadline"] = to_datetime(min((d.due for d in deadlines), default=None))
    if snapshot_due(old_version, new_version):
        fields["snapshot"] = rules.state_to_json(state)
        fields["snapshot_version"] = new_version
    if outcome is not None:
        return Changes(fields, {}, False)
    actors = rules.actors(state)
    keys = _waiting_keys(deadlines, actors)
    plan = getattr(rules, "bot_plan", None)
    if plan is None:
        bots_due = bool(set(match.bot_seats) & set(keys) & actors)
    else:  # a live game's bot moves when its plan says (an on-time timer wakes it otherwise)
        plans = [plan(state, seat, _bot_rng(match, seat, new_version)) for seat in set(match.bot_seats) & actors]
        bots_due = any(p is not None and p[1] <= now for p in plans)
    automatic = SYSTEM in actors or bots_due or any(d.due <= now for d in deadlines)
    return Changes(fields, keys, automatic)


def _after_state_change(match: Match, rules: Any, state: Any, old_version: int, now: float) -> bool:
    """Save :func:`state_changes` through the ORM; returns whether a move is due at once."""
    changes = state_changes(match, rules, state, old_version, match.version, now)
    for name, value in changes.fields.items():
        setattr(match, name, value)
    fields = ["version", "revision", *changes.fields]
    _update_waiting(match, changes.waiting, fields)
    match.save(update_fields=fields)
    return changes.automatic


def waiting_seats(rules: Any, state: Any) -> set[int]:
    """Whom the game waits on: the seats of pending deadlines, else the actors."""
    return set(waiting_keys(rules, state))


def waiting_keys(rules: Any, state: Any) -> dict[int, str]:
    """For each seat the game waits on, a key naming the decision (a new key is a new turn)."""
    return _waiting_keys(rules.deadlines(state), rules.actors(state))


def _waiting_keys(deadlines: list[Any], actors: frozenset[int]) -> dict[int, str]:
    keys: dict[int, str] = {}
    for deadline in sorted(deadlines, key=lambda d: d.due):
        for seat in deadline.seats:
            keys.setdefault(seat, f"{deadline.kind}:{deadline.due}")
    if not keys:
        keys = {seat: "act" for seat in actors}
    keys.pop(SYSTEM, None)
    return keys


def _update_waiting(match: Match, keys: dict[int, str], fields: list[str]) -> None:
    """Mark who is waited on (for "your turn" and reminders); touches only seats that changed."""
    old = {int(seat): key for seat, key in match.waiting.items()}
    if old == keys:
        return
    now = clock.now_datetime()
    for number in set(old) | set(keys):
        key = keys.get(number, "")
        if key != old.get(number, ""):
            Seat.objects.filter(match=match, number=number).update(
                waiting_key=key, waiting_since=now if key else None, reminded_at=None
            )
    match.waiting = {str(seat): key for seat, key in keys.items()}
    fields.append("waiting")


# --- after commit ------------------------------------------------------------------------------


def _touch(match: Match) -> None:
    """Record that what pages show of ``match`` changed (call with the row locked)."""
    match.revision += 1
    Match.objects.filter(pk=match.pk).update(revision=match.revision)


def _publish_after_commit(match: Match, **hints: Any) -> None:
    """Once committed, push the change to the match's sockets (see :mod:`games.push.pushes`)."""
    transaction.on_commit(lambda: pushes.publish(match, **hints))


def _schedule_followups_after_commit(match_id: int, version: int) -> None:
    from games.background.tasks import advance_match

    transaction.on_commit(lambda: advance_match.delay(match_id, version))


# --- automatic moves: SYSTEM steps, bots, due deadlines ------------------------------------------


def next_automatic_move(match: Match, now: float | None = None) -> tuple[int, dict[str, Any]] | None:
    """The move the server makes on its own now, if any: a SYSTEM step, a bot's move or a time-out."""
    if match.status != Match.Status.ACTIVE:
        return None
    rules = rules_for(match)
    state = load_state(match)
    actors = rules.actors(state)
    if SYSTEM in actors:
        return SYSTEM, rules.legal_actions(state, SYSTEM)[0]
    now = clock.now() if now is None else now
    plan = getattr(rules, "bot_plan", None)
    if plan is not None:  # a live game's bots act in time: each move when its plan says
        for seat in sorted(set(match.bot_seats) & set(actors)):
            planned = plan(state, seat, _bot_rng(match, seat))
            if planned is not None and planned[1] <= now:
                return seat, planned[0]
    else:
        for seat in sorted(set(match.bot_seats) & waiting_seats(rules, state) & set(actors)):
            action = rules.bot_action(state, seat, _bot_rng(match, seat))
            if action is not None:
                return seat, action
    for deadline in sorted(rules.deadlines(state), key=lambda d: d.due):
        if deadline.due <= now:
            return SYSTEM, deadline.action
    return None


def _bot_rng(match: Match, seat: int, version: int | None = None) -> random.Random:
    return random.Random(f"{match.seed}:bot:{match.version if version is None else version}:{seat}")


def next_wake(match: Match, rules: Any, state: Any) -> float | None:
    """When a live match next has something due: its earliest deadline or a bot's planned move."""
    if rules.outcome(state) is not None:
        return None
    times = [deadline.due for deadline in rules.deadlines(state)]
    plan = getattr(rules, "bot_plan", None)
    if plan is not None:
        for seat in set(match.bot_seats) & rules.actors(state):
            planned = plan(state, seat, _bot_rng(match, seat))
            if planned is not None:
                times.append(planned[1])
    return min(times, default=None)


def _arm_live_after_commit(match: Match, rules: Any, state: Any) -> None:
    """A live game's next due time fires on time (:mod:`games.background.livetimers`)."""
    if getattr(rules, "live", False):
        wake = next_wake(match, rules, state)
        transaction.on_commit(lambda: livetimers.arm(match.pk, wake))


def do_advance(match_id: int, *, limit: int = 500) -> int:
    """Make automatic moves until the game waits for a person; returns how many were made."""
    made = 0
    for _attempt in range(limit * 2):
        if made >= limit:
            break
        match = Match.objects.defer("snapshot").get(pk=match_id)
        move = next_automatic_move(match)
        if move is None:
            break
        seat, payload = move
        try:
            do_submit_action(match_id, seat, payload, expected_version=match.version)
        except StaleVersion:
            continue  # somebody moved first; look again
        except ServiceError as exc:
            # In a live game a bot's move is planned on the state as stored, and a timed event due
            # before it (an alarm's pause, R-31) can overtake it: refused for now, it is planned
            # again when the timer armed for that event wakes. Anywhere else a refusal is a fault.
            live = getattr(rules_for(match), "live", False)
            log.log(
                logging.INFO if live else logging.ERROR,
                "automatic move %s by seat %s refused in match %s: %s",
                payload,
                seat,
                match_id,
                exc.message,
            )
            break
        made += 1
    return made


# --- chat --------------------------------------------------------------------------------------


def do_post_chat(match_id: int, seat: int, text: str, to_seat: int | None = None) -> ChatMessage:
    text = text.strip()
    if not text:
        raise ServiceError(_("Write a message first."))
    if len(text) > 500:
        raise ServiceError(_("A message can be at most 500 characters."))
    if not payloads.typeable(text):  # PostgreSQL would refuse a NUL outright
        raise ServiceError(_("A message can hold only text you can type."))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status in (Match.Status.ACTIVE,):
            rules = rules_for(match)
            allowed = getattr(rules, "chat_allowed", None)
            if allowed is not None and not allowed(load_state(match), seat):
                raise ServiceError(_("You cannot chat right now."), status=422)
        if to_seat is not None and (to_seat == seat or not 0 <= to_seat < match.seat_count):
            raise ServiceError(_("Choose another player for a private message."))
        message = ChatMessage.objects.create(match=match, seat=seat, to_seat=to_seat, text=text)
        match.chat_version += 1
        match.save(update_fields=["chat_version"])
    _publish_after_commit(match, chat_changed=True, board=False)
    return message


def do_hide_chat(message_id: int) -> None:
    with transaction.atomic():
        message = ChatMessage.objects.select_related("match").get(pk=message_id)
        message.hidden = True
        message.save(update_fields=["hidden"])
        match = Match.objects.select_for_update().get(pk=message.match_id)
        match.chat_version += 1
        match.save(update_fields=["chat_version"])
    _publish_after_commit(match, chat_changed=True, board=False)


# --- leaving and moderation --------------------------------------------------------------------


def do_resign(match_id: int, seat: int) -> SubmitResult:
    with transaction.atomic():
        Seat.objects.filter(match_id=match_id, number=seat).update(resigned=True)
        return do_submit_action(match_id, SYSTEM, {"type": "resign", "seat": seat})


def do_abort_match(match_id: int) -> None:
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
            return
        match.status = Match.Status.ABORTED
        match.next_deadline = None
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "next_deadline", "finished_at"])
        Seat.objects.filter(match=match).update(waiting_since=None, waiting_key="")
        match.waiting = {}
        match.save(update_fields=["waiting"])
        _touch(match)
    _publish_after_commit(match)


def do_force_timeout(match_id: int) -> SubmitResult | None:
    """Apply the earliest pending deadline's default now (a moderator's action)."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        raise ServiceError(_("This match is not in progress."), status=409)
    rules = rules_for(match)
    # Someone's decision first: a deadline that waits on no seat (a timer) is not a time-out.
    deadlines = sorted(rules.deadlines(load_state(match)), key=lambda d: (not d.seats, d.due))
    if not deadlines:
        raise ServiceError(_("Nothing is waiting for a time-out."), status=409)
    first = deadlines[0]
    return do_submit_action(
        match_id, SYSTEM, first.action, expected_version=match.version, now=max(clock.now(), first.due)
    )


def do_replace_with_bot(match_id: int, seat: int) -> None:
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        taken = set(match.seats.filter(is_bot=True).values_list("bot_number", flat=True))
        name = next(n for n in range(1, match.seat_count + 2) if n not in taken)  # no bot of this table has it
        Seat.objects.filter(match=match, number=seat).update(is_bot=True, user=None, bot_number=name)
        if match.status != Match.Status.LOBBY and seat not in match.bot_seats:
            match.bot_seats = sorted([*match.bot_seats, seat])
            match.save(update_fields=["bot_seats"])
        _touch(match)
    _publish_after_commit(match, seats_changed=True)
    _schedule_followups_after_commit(match.pk, match.version)
