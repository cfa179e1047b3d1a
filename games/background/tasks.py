"""Celery tasks. Each takes a match id (and the version it was queued for) and goes through services.

A task that finds nothing to do (the version moved on, the deadline was met) does nothing, so
duplicates and late deliveries are harmless. The beat sweeps make overdue work durable: a worker
that was down catches up on its next sweep.
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.signals import after_task_publish, worker_ready
from django.conf import settings
from django.db.models import F, Q

from games.background import autoplay
from games.engines.registry import available, get_rules
from games.models import Match, PushSubscription, Seat
from games.notify import webpush
from games.play import clock, services

log = logging.getLogger(__name__)

_local = threading.local()
ADVANCE_BATCH = 200


after_task_publish.connect(autoplay.on_task_published, weak=False)
worker_ready.connect(lambda **_: autoplay.note_worker_started(), weak=False)


# Acknowledged only once done, and given back if its worker dies, so a broker that can redeliver
# does; the sweep below covers the rest (a Redis broker redelivers only after its visibility timeout).
@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def advance_match(match_id: int, version: int) -> int:
    """Run SYSTEM steps, bot moves and due time-outs of a match, one submitted action each.

    ``version`` is the match's version when queued (-1: whatever it is now); if the match moved
    on since, whoever moved it queued its own follow-up, so a duplicate or late task does nothing.
    In eager mode this runs inside the commit of the action that queued it; the thread-local guard
    turns that recursion into the loop of the outermost call.
    """
    running: set[int] = getattr(_local, "running", set())
    _local.running = running
    if match_id in running:
        return 0
    running.add(match_id)
    try:
        active = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE)
        current = active.values_list("version", flat=True).first()
        if current is None or (version >= 0 and current != version):
            return 0
        made = services.do_advance(match_id, limit=ADVANCE_BATCH)
    finally:
        running.discard(match_id)
    if made == ADVANCE_BATCH:  # more to do: let other matches have the worker first
        advance_match.delay(match_id, -1)
    return made


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Queue the overdue decisions, and the bot and SYSTEM moves no task is on its way for.

    Run by beat every few seconds; returns how many tasks it queued.
    """
    overdue = Match.objects.filter(status=Match.Status.ACTIVE, next_deadline__lte=clock.now_datetime())
    queued = dict(overdue.values_list("pk", "version")[:500])
    for match_id, version in autoplay.stalled():
        queued.setdefault(match_id, version)
    for match_id, version in queued.items():
        advance_match.delay(match_id, version)
    return len(queued)


@shared_task(ignore_result=True)
def sweep_presence() -> int:
    """Forget sockets that stopped beating and recount each seat's open sockets (games.sockets.presence)."""
    from games.sockets import presence

    return presence.sweep()


@shared_task(ignore_result=True)
def sweep_reminders() -> int:
    """E-mail players whose turn has waited with no open socket; one e-mail per turn at most (games.notify.turns)."""
    from games.notify import turns

    sweep_presence()  # who has a page open, counting only sockets that still beat
    return turns.send_reminders()


@shared_task(ignore_result=True)
def sweep_low_time() -> int:
    """E-mail the players whose waiting decision is about to run out, once per decision (games.notify.lowtime)."""
    from games.notify import lowtime

    sweep_presence()
    return lowtime.send_alarms()


@shared_task(ignore_result=True)
def sweep_digests() -> int:
    """Send the hourly and daily digests due now, once per player and period (games.notify.digest)."""
    from games.notify import digest

    sweep_presence()
    return digest.send_digests()


@shared_task(ignore_result=True)
def sweep_replay_indexes() -> int:
    """Store the replay index of finished matches that have none, so that even a match's first
    replay is quick (games.replay.timeline)."""
    from games.replay.timeline import index_finished_matches

    return index_finished_matches()


@shared_task(ignore_result=True)
def send_rematch_invites(match_id: int, user_ids: list[int]) -> int:
    """E-mail the invitation to the rematch to the other players of the old table, each in their language."""
    from django.contrib.auth import get_user_model

    from games.notify import preferences
    from games.notify.send import notify

    match = Match.objects.select_related("host", "host__profile").get(pk=match_id)
    profile = getattr(match.host, "profile", None)
    host = profile.name if profile is not None else match.host.get_username()
    users = get_user_model().objects.filter(pk__in=user_ids).select_related("profile")
    return sum(notify(user, preferences.INVITATIONS, match, host=host) for user in users)


# --- browser pushes (games.notify.webpush) ---------------------------------------------------------


@shared_task(ignore_result=True)
def sweep_turn_pushes() -> int:
    """Queue a "your turn" push for each player waited on who had no page of the match open when
    the turn began, and has notifications on a device; one push a turn at most.

    Run by beat every few seconds, so a move's own path does no work for it. A turn counts as
    unseen when no socket of the seat is open and none was since the turn began (``last_seen``
    is when one last opened or closed): a player who watched the turn start has the page's own
    signal. Only turns begun within ``WEBPUSH_TURN_WINDOW``. Returns how many it queued.
    """
    if not webpush.enabled():
        return 0
    now = clock.now_datetime()
    not_yet = Q(turn_pushed_at__isnull=True) | Q(turn_pushed_at__lt=F("waiting_since"))
    due = (
        Seat.objects.filter(
            match__status=Match.Status.ACTIVE,
            is_bot=False,
            user__is_active=True,
            user_id__in=PushSubscription.objects.values("user_id"),
            waiting_since__gte=now - settings.WEBPUSH_TURN_WINDOW,
            open_sockets__lte=0,
        )
        .filter(not_yet)
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=F("waiting_since")))
        .exclude(match__game__in=[slug for slug in available() if get_rules(slug).live])
        .values_list("pk", "user_id", "match_id", "waiting_since")
    )
    queued = 0
    for seat_id, user_id, match_id, since in due[:500]:
        # Claim the turn first (the turn it was found at), so two sweeps never push it twice.
        if Seat.objects.filter(not_yet, pk=seat_id, waiting_since=since).update(turn_pushed_at=now):
            push_to_user.delay(user_id, "turn", match_id)
            queued += 1
    return queued


@shared_task(ignore_result=True)
def push_to_user(user_id: int, kind: webpush.Kind, match_id: int, seconds_left: int | None = None) -> int:
    """Push a ``kind`` notification ("turn", "low_time", "invitation") about a match to each device
    of the user's (:func:`games.notify.webpush.send_push`); returns how many push services took it."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id, is_active=True).select_related("profile").first()
    match = Match.objects.select_related("host__profile").filter(pk=match_id).first()
    if user is None or match is None:
        return 0
    return webpush.send_push(user, kind, match, seconds_left=seconds_left)


@shared_task(ignore_result=True)
def push_rematch_invites(match_id: int, user_ids: list[int]) -> int:
    """Push the invitation to the rematch to each invited player's devices."""
    return sum(push_to_user(user_id, "invitation", match_id) for user_id in user_ids)
