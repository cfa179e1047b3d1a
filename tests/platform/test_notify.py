"""E-mails away from the match page (games.notify): settings per kind, unsubscribe, digest, low-time alarm."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.background import tasks
from games.engines.registry import get_rules
from games.models import Match, NotificationClaim, Presence, Seat
from games.notify import digest, emails, lowtime, preferences
from games.notify.send import notify
from games.notify.unsubscribe import make_token, read_token
from games.notify.waiting import due_of
from games.play import clock, services

from .helpers import client_for, started_match

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


def _heist_name(language: str) -> str:
    with translation.override(language):
        return translation.gettext(get_rules("heist").name)


def _html(message: Any) -> str:
    (html, kind) = message.alternatives[0]
    assert kind == "text/html"
    return str(html)


# --- every e-mail: language, real name, link, headers ---


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize("kind", preferences.KINDS)
def test_every_kind_names_the_game_links_the_match_and_carries_both_unsubscribe_headers(
    make_user: Any, language: str, kind: str
) -> None:
    match, by_seat = started_match(make_user, time_limit=DAY)
    user = by_seat[0]
    user.profile.language = language
    user.profile.email_digest = "daily"
    user.profile.save()
    seat = Seat.objects.get(match=match, user=user)
    link = f"http://127.0.0.1:8000/m/{match.pk}/"
    contexts: dict[str, dict[str, Any]] = {
        preferences.TURN: {"seat": seat, "due": due_of(seat.waiting_key)},
        preferences.LOW_TIME: {"seat": seat, "due": due_of(seat.waiting_key)},
        preferences.INVITATIONS: {"host": "Ada"},
        preferences.DIGEST: {"waiting": [{"match": match, "link": link, "due": due_of(seat.waiting_key)}]},
    }
    context = contexts[kind]
    message = emails.build(user, kind, None if kind == preferences.DIGEST else match, **context)
    name = _heist_name(language)
    assert name != "heist"
    html = _html(message)
    for text in (message.body, html):
        assert f"{name} #{match.pk}" in text or (kind == preferences.INVITATIONS and name in text)
        assert link in text
        assert "heist #" not in text
        assert "/notifications/unsubscribe/" in text and "/profile/#notifications" in text
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<http://127.0.0.1:8000/notifications/unsubscribe/") and header.endswith("/>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = header[1:-2].rsplit("/", 1)[1]
    asked = read_token(token)
    assert asked is not None and asked.user_id == user.pk and asked.kind == kind
    # The player's language, not the site's: the settings link's words are translated.
    if language == "zh-hant":
        assert "Notification settings" not in html and "Hello" not in message.body
        assert kind == preferences.DIGEST or name in message.subject
        assert "在等你" in message.subject if kind == preferences.DIGEST else True
    else:
        assert "Notification settings" in html


def test_each_kind_goes_only_to_who_wants_it(make_user: Any) -> None:
    match, by_seat = started_match(make_user, time_limit=DAY)
    user = by_seat[0]
    for field, value, kind in [
        ("email_reminders", False, preferences.TURN),
        ("email_low_time", False, preferences.LOW_TIME),
        ("email_invitations", False, preferences.INVITATIONS),
    ]:
        assert notify(user, kind, match, host="Ada", due=None)
        setattr(user.profile, field, value)
        user.profile.save()
        assert not notify(user, kind, match, host="Ada", due=None)
    assert not notify(user, preferences.DIGEST, waiting=[])  # off by default
    assert len(mail.outbox) == 3


def test_a_digest_replaces_the_turn_e_mails(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    _, by_seat = started_match(make_user, time_limit=DAY)
    by_seat[0].profile.email_digest = "hourly"
    by_seat[0].profile.save()
    later(11 * 60)
    assert tasks.sweep_reminders() == 3
    assert by_seat[0].email not in {m.to[0] for m in mail.outbox}


def test_the_rematch_invitation_follows_its_setting(make_user: Any) -> None:
    match, users = started_match(make_user, "heist", 4)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    users[2].profile.email_invitations = False
    users[2].profile.save()
    new = services.do_rematch(match.pk, users[0])
    assert sorted(m.to[0] for m in mail.outbox) == sorted(users[n].email for n in (1, 3))
    for message in mail.outbox:
        assert new.get_absolute_url() in message.body and "List-Unsubscribe" in message.extra_headers


# --- unsubscribe ---


def test_the_one_click_post_unsubscribes_without_a_session(make_user: Any) -> None:
    user = make_user()
    client = Client(enforce_csrf_checks=True)  # as a mail client: no session, no CSRF token
    url = reverse("notify_unsubscribe", args=[make_token(user, preferences.LOW_TIME)])
    assert client.get(url).status_code == 200  # a GET (a link checker) changes nothing
    user.profile.refresh_from_db()
    assert user.profile.email_low_time
    response = client.post(url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    user.profile.refresh_from_db()
    assert not user.profile.email_low_time
    assert user.profile.email_reminders and user.profile.email_invitations  # only that kind


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # signature altered
        lambda token: "eyJ1IjoxLCJrIjoidHVybiJ9:1vQ0aa:" + token.rsplit(":", 1)[1],  # payload swapped
        lambda token: __import__("django.core.signing").core.signing.dumps({"u": 1, "k": "turn"}),  # other salt
        lambda token: "nonsense",
    ],
)
def test_a_forged_token_unsubscribes_nobody(make_user: Any, forge: Any) -> None:
    user = make_user()
    token = forge(make_token(user, preferences.TURN))
    response = Client().post(
        reverse("notify_unsubscribe", args=[token]),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert "not valid" in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.email_reminders


def test_the_unsubscribe_page_speaks_the_players_language(make_user: Any) -> None:
    user = make_user()
    user.profile.language = "zh-hant"
    user.profile.save()
    url = reverse("notify_unsubscribe", args=[make_token(user, preferences.DIGEST)])
    page = Client().get(url).content.decode()
    assert "Unsubscribe" not in page.split("<main", 1)[-1]


# --- digest ---


def _waiting_on(user: Any, match: Match) -> Seat:
    return Seat.objects.get(match=match, user=user)


def test_the_digest_lists_exactly_the_matches_waiting_and_goes_once_a_period_under_racing_workers(
    make_user: Any, later: Any, settings: Any
) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    reader = make_user()
    reader.profile.email_digest = "hourly"
    reader.profile.save()
    waiting = []
    for _ in range(3):
        match, _by_seat = started_match(make_user, time_limit=DAY)
        # Put the reader in seat 0 of each match (heist waits on every seat at its start).
        Seat.objects.filter(match=match, number=0).update(user=reader)
        waiting.append(match)
    opened, finished = waiting[1], waiting[2]
    later(11 * 60)
    # Opened since the decision began: left out. Finished: not waiting any more.
    Seat.objects.filter(match=opened, user=reader).update(last_seen=clock.now_datetime())
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    now = clock.now_datetime()
    # Two workers sweep at once: both find the digest due, then each tries to send it.
    first, second = digest.due_digests(now), digest.due_digests(now)
    mine = [d for d in first if d.user.pk == reader.pk]
    assert len(mine) == 1 and [row["match"].pk for row in mine[0].rows] == [waiting[0].pk]
    sent = [digest.deliver(d, now) for d in second] + [digest.deliver(d, now) for d in first]
    to_reader = [m for m in mail.outbox if m.to == [reader.email]]
    assert len(to_reader) == 1 and sent.count(True) == 1
    body = to_reader[0].body
    assert f"/m/{waiting[0].pk}/" in body and f"/m/{opened.pk}/" not in body and f"/m/{finished.pk}/" not in body
    assert "left" in body
    assert NotificationClaim.objects.filter(user=reader, kind="digest").count() == 1
    assert tasks.sweep_digests() == 0  # the same hour again
    later(11 * 60 + 3600)
    assert tasks.sweep_digests() == 1  # the next hour
    assert len([m for m in mail.outbox if m.to == [reader.email]]) == 2


def test_no_digest_without_a_waiting_match_and_the_day_is_one_period(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    _match, by_seat = started_match(make_user, time_limit=7 * DAY)
    for user in by_seat.values():
        user.profile.email_digest = "daily"
        user.profile.save()
    assert tasks.sweep_digests() == 0  # waited less than REMINDER_AFTER
    later(11 * 60)
    assert tasks.sweep_digests() == 4
    assert digest.period_key("daily", clock.now_datetime()) in set(
        NotificationClaim.objects.values_list("key", flat=True)
    )
    later(11 * 60 + 3600)
    same_day = clock.now_datetime().date() == (clock.now_datetime() - timedelta(hours=1)).date()
    assert tasks.sweep_digests() == (0 if same_day else 4)


# --- low-time alarm ---


def test_the_low_time_alarm_fires_once_when_a_tenth_is_left(make_user: Any, later: Any) -> None:
    match, _by_seat = started_match(make_user, time_limit=DAY)
    seat = Seat.objects.filter(match=match).first()
    assert seat is not None
    due = due_of(seat.waiting_key)
    assert due is not None and seat.waiting_since is not None
    allowed = (due - seat.waiting_since).total_seconds()
    started = clock.now()
    later(due.timestamp() - started - 3700)  # 1 hour 1 minute left: not yet (an hour is less than a tenth)
    assert tasks.sweep_low_time() == 0
    later(due.timestamp() - started - 3500)
    assert tasks.sweep_low_time() == 4
    assert tasks.sweep_low_time() == 0  # not repeated
    assert allowed * lowtime.FRACTION > 3600
    name = _heist_name("en")
    for message in mail.outbox:
        assert f"{name} #{match.pk}" in message.subject and "running out" in message.body
        body = message.body.replace("\xa0", " ")
        assert "58 minutes left" in body or "59 minutes left" in body


def test_the_low_time_alarm_waits_for_a_tenth_of_a_short_turn_and_skips_an_open_page(
    make_user: Any, later: Any
) -> None:
    match, by_seat = started_match(make_user, time_limit=DAY)
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    # A decision given 2 hours (it began 2 hours before its deadline): the alarm is at 12 minutes left.
    due = due_of(seats[0].waiting_key)
    assert due is not None
    Seat.objects.filter(match=match).update(waiting_since=due - timedelta(hours=2))
    Seat.objects.filter(pk=seats[2].pk).update(user=None)
    started = clock.now()
    later(due.timestamp() - started - 13 * 60)
    assert tasks.sweep_low_time() == 0
    later(due.timestamp() - started - 11 * 60)
    # Seat 1 has the page open: a socket that still beats (the sweep recounts them from these).
    Presence.objects.create(channel_name="page-1", match=match, user=by_seat[1], seen_at=clock.now_datetime())
    Seat.objects.filter(pk=seats[1].pk).update(open_sockets=1)
    sent = tasks.sweep_low_time()
    assert sent == 2
    sent_to = {m.to[0] for m in mail.outbox}
    assert sent_to == {by_seat[0].email, by_seat[3].email}


def test_a_new_decision_has_its_own_alarm(make_user: Any, later: Any) -> None:
    match, _by_seat = started_match(make_user, time_limit=DAY)
    seat = Seat.objects.get(match=match, number=0)
    due = due_of(seat.waiting_key)
    assert due is not None
    started = clock.now()
    later(due.timestamp() - started - 600)
    assert lowtime.send_alarms() == 4
    assert lowtime.send_alarms() == 0
    # The seat's next decision (the write path gives it a new key): a day, from the old deadline.
    Seat.objects.filter(pk=seat.pk).update(waiting_key=f"next:{due.timestamp() + DAY}", waiting_since=due)
    later(due.timestamp() + DAY - started - 600)
    assert lowtime.send_alarms() == 1
    assert lowtime.send_alarms() == 0


def test_the_claim_is_held_by_the_database_not_by_a_read_first(make_user: Any) -> None:
    """Two workers that both got past every read still cannot both claim: the unique constraint refuses."""
    from django.db import IntegrityError, transaction

    from games.notify import claims

    user = make_user()
    NotificationClaim.objects.create(user=user, kind="digest", key="hourly:2026-12-02T01")
    with pytest.raises(IntegrityError), transaction.atomic():
        NotificationClaim.objects.create(user=user, kind="digest", key="hourly:2026-12-02T01")
    assert not claims.claim(user, "digest", "hourly:2026-12-02T01")
    assert claims.claim(user, "digest", "hourly:2026-12-02T02")


# --- the profile's settings ---


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_profile_shows_and_saves_the_notification_settings(make_user: Any, language: str) -> None:
    user = make_user()
    client = client_for(user, language)
    page = client.get(reverse("profile")).content.decode()
    assert 'id="notifications"' in page
    legend = "Notifications" if language == "en" else "通知"
    assert f"<legend>{legend}</legend>" in page
    for name in ("email_reminders", "email_digest", "email_low_time", "email_invitations"):
        assert f'name="{name}"' in page
    data = {"display_name": "Ada", "language": language, "email_digest": "daily", "email_invitations": "on"}
    assert client.post(reverse("profile"), data).status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.email_digest == "daily" and user.profile.email_invitations
    assert not user.profile.email_reminders and not user.profile.email_low_time
    bad = client.post(reverse("profile"), {**data, "email_digest": "weekly", "email_low_time": "on"})
    assert bad.status_code == 200 and "weekly" in bad.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.email_digest == "daily" and not user.profile.email_low_time


def test_the_players_own_clock_says_when_their_decision_began(make_user: Any) -> None:
    """The page's low-time notification (static/js/match.js) reads when the decision began from the clock."""
    match, by_seat = started_match(make_user, time_limit=DAY)
    seat = Seat.objects.get(match=match, number=0)
    assert seat.waiting_since is not None
    client = client_for(by_seat[0])
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    turn = page[page.index('<div id="turn">') :]
    turn = turn[: turn.index("</div>")]
    assert f'data-since="{seat.waiting_since.timestamp()}"' in turn and "your-turn" in turn
    assert 'data-low-time="Your time is running out"' in page


def test_two_worker_threads_racing_send_one_digest(make_user: Any, later: Any, settings: Any) -> None:
    """Two threads, each with its own database connection, find the same digests and send together."""
    import threading

    from django.db import connection

    settings.REMINDER_AFTER = timedelta(minutes=10)
    _match, by_seat = started_match(make_user, time_limit=DAY)
    for user in by_seat.values():
        user.profile.email_digest = "hourly"
        user.profile.save()
    later(11 * 60)
    now = clock.now_datetime()
    both_found = threading.Barrier(2)
    sent: list[int] = []
    failed: list[BaseException] = []

    def worker() -> None:
        try:
            found = digest.due_digests(now)
            both_found.wait(timeout=30)  # neither sends before both have found every digest due
            sent.append(sum(digest.deliver(d, now) for d in found))
        except BaseException as error:  # reported below, from the test's thread
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failed, failed
    assert sum(sent) == 4
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in by_seat.values())


def test_the_text_part_is_plain_and_the_html_part_escaped(make_user: Any) -> None:
    match, by_seat = started_match(make_user, time_limit=DAY)
    user = by_seat[0]
    user.profile.display_name = "Bonnie & <Clyde>"
    user.profile.save()
    message = emails.build(user, preferences.TURN, match, due=None)
    assert "Bonnie & <Clyde>" in message.body
    assert "Bonnie &amp; &lt;Clyde&gt;" in _html(message) and "<Clyde>" not in _html(message)


def test_a_player_on_vacation_gets_no_digest_and_no_low_time_alarm_and_spends_no_claim(
    make_user: Any, later: Any, settings: Any
) -> None:
    """Issue 56, item 5: the digest and the low-time alarm respect a vacation (games.play.vacations)."""
    from games.play import vacations

    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, by_seat = started_match(make_user, time_limit=DAY)
    for user in by_seat.values():
        user.profile.email_digest = "hourly"
        user.profile.save()
    away = by_seat[0]
    vacations.start(away, 3)
    later(11 * 60)
    assert tasks.sweep_digests() == 3
    assert away.email not in {m.to[0] for m in mail.outbox}
    mail.outbox.clear()
    seat = Seat.objects.get(match=match, user=away)
    due = due_of(seat.waiting_key)
    assert due is not None
    later(due.timestamp() - clock.now() + 11 * 60 - 600)  # ten minutes before the seat's deadline
    lowtime.send_alarms()
    assert away.email not in {m.to[0] for m in mail.outbox}
    assert not NotificationClaim.objects.filter(user=away).exists(), "nothing claimed while away"
