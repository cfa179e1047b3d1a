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
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games.background import autoplay
from games.models import Match, Seat
from games.play import clock, services, vacations
from games.push.speaking import speaking

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
    """E-mail players whose turn has waited with no open socket, unless they are on vacation; one
    e-mail per turn at most."""
    sweep_presence()  # who has a page open, counting only sockets that still beat
    cutoff = clock.now_datetime() - settings.REMINDER_AFTER
    due = Seat.objects.filter(
        match__status=Match.Status.ACTIVE,
        is_bot=False,
        user__isnull=False,
        user__is_active=True,
        user__profile__email_reminders=True,
        waiting_since__lte=cutoff,
        reminded_at__isnull=True,
        open_sockets__lte=0,
    ).exclude(user_id__in=vacations.away_user_ids())  # nobody is reminded while on vacation
    due = due.select_related("match", "user", "user__profile")
    sent = 0
    for seat in due:
        if seat.last_seen is not None and seat.last_seen > cutoff:
            continue
        # Claim the reminder first, so two sweeps never send it twice.
        claimed = Seat.objects.filter(pk=seat.pk, reminded_at__isnull=True).update(reminded_at=clock.now_datetime())
        if claimed:
            send_turn_reminder(seat)
            sent += 1
    return sent


def send_turn_reminder(seat: Seat) -> None:
    user = seat.user
    assert user is not None
    language = getattr(getattr(user, "profile", None), "language", None) or settings.LANGUAGE_CODE
    with speaking(language):
        link = settings.SITE_URL.rstrip("/") + reverse("match", args=[seat.match_id])
        context = {"seat": seat, "match": seat.match, "link": link}
        subject = _("Hideout: it is your turn in %(game)s #%(id)s") % {
            "game": seat.match.game_name,
            "id": seat.match_id,
        }
        body = render_to_string("games/email/turn_reminder.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])


@shared_task(ignore_result=True)
def send_rematch_invites(match_id: int, user_ids: list[int]) -> int:
    """E-mail the invitation to the rematch to the other players of the old table, each in their language."""
    from django.contrib.auth import get_user_model

    match = Match.objects.select_related("host").get(pk=match_id)
    sent = 0
    for user in get_user_model().objects.filter(pk__in=user_ids).select_related("profile"):
        if not user.email:
            continue
        language = getattr(getattr(user, "profile", None), "language", None) or settings.LANGUAGE_CODE
        with speaking(language):
            link = settings.SITE_URL.rstrip("/") + reverse("match", args=[match.pk])
            profile = getattr(match.host, "profile", None)
            host = profile.name if profile is not None else match.host.get_username()
            subject = _("Hideout: %(host)s asks for a rematch of %(game)s") % {"host": host, "game": match.game_name}
            body = _(
                "%(host)s wants to play %(game)s again with you. Accept or decline the invitation here:\n\n%(link)s\n"
            ) % {
                "host": host,
                "game": match.game_name,
                "link": link,
            }
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
        sent += 1
    return sent
