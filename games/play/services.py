"""The only code that writes matches, seats, events and chat (``do_*`` functions).

Every change to a running match goes through :func:`do_submit_action`, which lives with the stores
it writes to (:mod:`games.play.write_paths`) and is named here with the other writers: the move is
decided once (:mod:`games.play.decision`) and written by a guarded statement on PostgreSQL or the
row lock elsewhere, which publish and schedule follow-up work only once the write has committed
(:mod:`games.play.followups`).
"""

from __future__ import annotations

import contextlib
import logging
import random
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines.base import SYSTEM, Rules, reseat_options
from games.engines.registry import get_rules
from games.models import ChatMessage, Match, RematchInvite, Seat
from games.play import clock, clock_policy, payloads, rematches, vacations
from games.play.decision import bot_rng, waiting_keys
from games.play.errors import NotAllowed, ServiceError, StaleVersion, not_running
from games.play.followups import advance_after_commit, invite_after_commit
from games.play.store import load_state, rules_for
from games.play.write_paths import SubmitResult, do_submit_action
from games.push.pushes import publish_after_commit

log = logging.getLogger(__name__)

# --- lobby -------------------------------------------------------------------------------------


def do_create_match(
    user: Any, game: str, seat_count: int, options: dict[str, Any], time_limit: int, time_bank: str = ""
) -> Match:
    """A new match in its lobby, hosted by ``user``. ``time_bank``: one of ``clock_policy.BANKS``
    for a game that offers one, whose increment then is the time limit per decision."""
    rules = get_rules(game)
    timing: dict[str, Any] = {}
    if time_bank:
        if not rules.time_bank or time_bank not in clock_policy.BANKS:
            raise ServiceError(_("This game cannot be played with a time bank."))
        timing = clock_policy.bank_clock(time_bank, seat_count)
        time_limit = clock_policy.BANKS[time_bank][1]
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
            game=game, host=user, seat_count=seat_count, options=options, time_limit=time_limit, clock=timing
        )
        Seat.objects.create(match=match, number=0, user=user)
    return match


def _lobby_locked(match_id: int) -> Match:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.LOBBY:
        raise ServiceError(_("This match has already started."), status=409)
    return match


def _kept_numbers(match: Match) -> set[int]:
    """The lobby seats kept for invited players whose answer is awaited (a rematch's)."""
    return set(match.invites.filter(status=RematchInvite.Status.PENDING).values_list("number", flat=True))


def _free_number(match: Match) -> int:
    taken = set(match.seats.values_list("number", flat=True)) | _kept_numbers(match)
    for number in range(match.seat_count):
        if number not in taken:
            return number
    raise ServiceError(_("This match is full."), status=409)


def do_join_match(match_id: int, user: Any) -> Seat:
    if RematchInvite.objects.filter(match_id=match_id, user=user, status=RematchInvite.Status.PENDING).exists():
        seat = do_answer_rematch(match_id, user, accept=True)  # the seat kept for them
        assert seat is not None
        return seat
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
    publish_after_commit(match)
    return seat


def do_leave_match(match_id: int, user: Any) -> None:
    with transaction.atomic():
        match = _lobby_locked(match_id)
        if match.host_id == user.pk:
            match.status = Match.Status.ABORTED
            match.cancelled_by_host = True
            match.save(update_fields=["status", "cancelled_by_host"])
        match.seats.filter(user=user).delete()
        # A rematch's player who leaves its lobby has declined after all: the host sees it.
        match.invites.filter(user=user).update(status=RematchInvite.Status.DECLINED, answered_at=timezone.now())
        _touch(match)
    publish_after_commit(match)


def do_add_bot(match_id: int, user: Any) -> Seat:
    with transaction.atomic():
        match = _lobby_locked(match_id)
        if match.host_id != user.pk:
            raise NotAllowed(_("Only the host can fill seats with bots."))
        number = _free_number(match)
        seat = Seat.objects.create(match=match, number=number, is_bot=True, bot_number=number + 1)
        _touch(match)
    publish_after_commit(match)
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
            statuses = list(match.invites.values_list("status", flat=True))
            refusal = rematches.start_refusal(match, len(seats), statuses)
            if refusal is not None:
                raise ServiceError(refusal, status=409)
            _close_up(match, seats)
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
        match.clock = clock_policy.for_seats(match.clock, match.seat_count)
        match.clock = vacations.clock_at_start(match, seats)  # a player on vacation already: theirs wait
        match.save(update_fields=["options", "status", "started_at", "bot_seats", "seat_count", "clock"])
    # The deadline sweep may see the match active and waiting for its start, and make it first.
    with contextlib.suppress(StaleVersion):
        do_submit_action(match.pk, SYSTEM, {"type": "start"}, expected_version=0)
    match.refresh_from_db()
    return match


def _close_up(match: Match, seats: list[Seat]) -> None:
    """A rematch starting short: the seated players' lobby seats become 0..n-1 and the table n seats.

    Options that name a lobby seat follow their players; those of a seat nobody took are dropped
    (the game's default). ``seats`` are renumbered in memory only: the start saves their numbers.
    """
    rules = rules_for(match)
    kept = [seat.number for seat in seats]  # in lobby order
    dropped = [number for number in range(match.seat_count) if number not in kept]
    where = dict(zip(kept, range(len(kept)), strict=True))
    where.update(zip(dropped, range(len(kept), match.seat_count), strict=True))
    options = reseat_options(rules, match.options or {}, [where[number] for number in range(match.seat_count)])
    for number in range(len(kept), match.seat_count):
        for template in rules.per_seat_options:
            options.pop(template.format(seat=number), None)
    for name in rules.seat_options:
        raw = str(options.get(name, ""))
        if raw.isdigit() and int(raw) >= len(kept):
            options.pop(name)
    for seat in seats:
        seat.number = where[seat.number]
    match.options = options
    match.seat_count = len(kept)


def do_rematch(match_id: int, user: Any) -> Match:
    """A new match of the same game, options and players after this one ended (issue 10, item 5).

    Whoever asks first hosts it and is its only player seated, with the old table's bots; every
    other former player is invited (issue 54, item 9): a lobby seat is kept for each, taken only by
    accepting (:func:`do_answer_rematch`), and an e-mail brings the link. Asking again, from any
    seat, returns the same new match (unless it was cancelled: then a new one).
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.FINISHED:
            raise ServiceError(_("A rematch can be asked for once the match is over."), status=409)
        seats = list(match.seats.order_by("number"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(_("Only the players of this match can ask for a rematch."))
        if match.rematch_id is not None:
            existing = Match.objects.get(pk=match.rematch_id)
            if existing.status != Match.Status.ABORTED:
                return existing
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        lobby = [mine, *(seat for seat in seats if seat is not mine)]  # the new lobby's seats, in order
        # Options about seats were written for this match's seating: they follow their players.
        place = {seat.number: i for i, seat in enumerate(lobby)}
        options = reseat_options(rules_for(match), match.options or {}, [place[s.number] for s in seats])
        new = Match.objects.create(
            game=match.game,
            host=user,
            seat_count=match.seat_count,
            options=options,
            time_limit=match.time_limit,
            clock=clock_policy.for_rematch(match.clock, match.seat_count),
        )
        Seat.objects.create(match=new, number=0, user=user)
        invited = []
        for number, seat in enumerate(lobby[1:], start=1):
            if seat.is_bot:
                bot_number = seat.bot_number
                Seat.objects.create(match=new, number=number, user=seat.user, is_bot=True, bot_number=bot_number)
            elif seat.user_id is not None:
                RematchInvite.objects.create(match=new, user_id=seat.user_id, number=number)
                invited.append(seat.user_id)
        match.rematch = new
        match.save(update_fields=["rematch"])
        _touch(match)
    publish_after_commit(match)
    invite_after_commit(new.pk, invited)
    return new


def do_answer_rematch(match_id: int, user: Any, *, accept: bool) -> Seat | None:
    """``user``'s answer to the invitation to the rematch ``match_id``: accepting takes the lobby
    seat kept for them; declining frees it, and the host's lobby shows who declined."""
    with transaction.atomic():
        match = _lobby_locked(match_id)
        invite = match.invites.select_for_update().filter(user=user).first()
        if invite is None:
            raise NotAllowed(_("You were not invited to this rematch."))
        if invite.status != RematchInvite.Status.PENDING:
            raise ServiceError(_("You have already answered this invitation."), status=409)
        invite.status = RematchInvite.Status.ACCEPTED if accept else RematchInvite.Status.DECLINED
        invite.answered_at = timezone.now()
        invite.save(update_fields=["status", "answered_at"])
        seat = None
        if accept:
            seat = Seat.objects.create(match=match, number=invite.number, user=user)
        _touch(match)
        old = Match.objects.select_for_update().filter(rematch=match).first()
        if old is not None:
            _touch(old)  # its page offers the invitation: no longer
    publish_after_commit(match)
    if old is not None:
        publish_after_commit(old)
    return seat


# --- revisions ---------------------------------------------------------------------------------


def _touch(match: Match) -> None:
    """Record that what pages show of ``match`` changed (call with the row locked)."""
    match.revision += 1
    Match.objects.filter(pk=match.pk).update(revision=match.revision)


# --- automatic moves: SYSTEM steps, bots, due deadlines ------------------------------------------


def waiting_seats(rules: Rules[Any], state: Any) -> set[int]:
    """Whom the game waits on: the seats of pending deadlines, else the actors."""
    return set(waiting_keys(rules, state))


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
    plan = rules.bot_plan
    if plan is not None:  # a live game's bots act in time: each move when its plan says
        for seat in sorted(set(match.bot_seats) & set(actors)):
            planned = plan(state, seat, bot_rng(match, seat))
            if planned is not None and planned[1] <= now:
                return seat, planned[0]
    else:
        for seat in sorted(set(match.bot_seats) & waiting_seats(rules, state) & set(actors)):
            action = rules.bot_action(state, seat, bot_rng(match, seat))
            if action is not None:
                return seat, action
    deadlines = rules.deadlines(state)
    dues = clock_policy.effective_dues(match.clock, deadlines, clock_policy.int_keys(match.waiting))
    for due, deadline in sorted(zip(dues, deadlines, strict=True), key=lambda pair: pair[0]):
        if due <= now:
            return SYSTEM, deadline.action
    return None


def do_advance(match_id: int, *, limit: int = 500) -> int:
    """Make automatic moves until the game waits for a person; returns how many were made."""
    made = 0
    for _attempt in range(limit * 2):
        if made >= limit:
            break
        match = Match.objects.without_snapshot().get(pk=match_id)
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
            live = rules_for(match).live
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
            if not rules.chat_allowed(load_state(match), seat):
                raise ServiceError(_("You cannot chat right now."), status=422)
        if to_seat is not None and (to_seat == seat or not 0 <= to_seat < match.seat_count):
            raise ServiceError(_("Choose another player for a private message."))
        message = ChatMessage.objects.create(match=match, seat=seat, to_seat=to_seat, text=text)
        match.chat_version += 1
        match.save(update_fields=["chat_version"])
    publish_after_commit(match, chat_changed=True, board=False)
    return message


def do_hide_chat(message_id: int) -> None:
    with transaction.atomic():
        message = ChatMessage.objects.select_related("match").get(pk=message_id)
        message.hidden = True
        message.save(update_fields=["hidden"])
        match = Match.objects.select_for_update().get(pk=message.match_id)
        match.chat_version += 1
        match.save(update_fields=["chat_version"])
    publish_after_commit(match, chat_changed=True, board=False)


# --- leaving and moderation --------------------------------------------------------------------


def do_resign(match_id: int, seat: int) -> SubmitResult:
    with transaction.atomic():
        # The match row first, as every write takes it before its seats: two players resigning at
        # once would otherwise each hold their own seat and wait for the other's (a deadlock).
        Match.objects.select_for_update().filter(pk=match_id).values_list("pk").first()
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
    publish_after_commit(match)


def do_force_timeout(match_id: int) -> SubmitResult | None:
    """Apply the earliest pending deadline's default now (a moderator's action)."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        raise not_running()
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
    publish_after_commit(match, seats_changed=True)
    advance_after_commit(match.pk, match.version)
