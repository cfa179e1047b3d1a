"""A newcomer's screens (issue 10): readable match settings, the invite's Copy button, game names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.play import services
from games.push.presenter import duration_text

pytestmark = pytest.mark.django_db


def test_item5_the_waiting_page_shows_options_and_time_limit_in_words(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "dirty_money", 3, {"quick": True, "choice": False}, 7200)
    client = Client()
    client.force_login(host)
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Quick Mode: the end comes at 8 placements: <strong>on</strong>" in html
    assert "Choice Mode: 3 face-up placements per region: <strong>off</strong>" in html
    # Issue 54, item 6: dirty_money keeps its own clock (its pace); the time limit in words is that of
    # a game that runs on it.
    timed = services.do_create_match(host, "heist", 3, {}, 7200)
    assert "2 hours" in client.get(reverse("match", args=[timed.pk])).content.decode()
    assert "quick=" not in html and not re.search(r"(?<![A-Za-z0-9])True(?![A-Za-z0-9])", html)  # not in a token
    assert 'data-copy="invite"' in html and ">Copy<" in html


def test_item8_game_names_not_slugs_in_the_lobby(make_user: Any) -> None:
    host = make_user()
    services.do_create_match(host, "bridge_race", 3, {}, 60)
    client = Client()
    client.force_login(host)
    html = client.get(reverse("lobby")).content.decode()
    assert "Bridge Race #" in html and "bridge_race #" not in html


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(45, "45 seconds"), (60, "1 minute"), (5400, "90 minutes"), (3600, "1 hour"), (172800, "2 days")],
)
def test_item5_durations_read_as_words(seconds: int, text: str) -> None:
    assert duration_text(seconds) == text


def test_item9_the_site_is_named_hideout_and_follows_site_url(settings: Any) -> None:
    from django.contrib.sites.models import Site

    from games.web.sitename import sync_site

    settings.SITE_URL = "http://127.0.0.1:8101"
    sync_site()
    site = Site.objects.get_current()
    assert (site.name, site.domain) == ("Hideout", "127.0.0.1:8101")


def test_item9_make_run_port_moves_the_server_and_site_url() -> None:
    import subprocess

    from django.conf import settings as django_settings

    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8101"], cwd=django_settings.BASE_DIR, capture_output=True, text=True, env=env
    )
    lines = dry.stdout.splitlines()
    assert any("daphne -b 127.0.0.1 -p 8101 " in line and "http://127.0.0.1:8101" in line for line in lines)
    assert any("migrate" in line and "http://127.0.0.1:8101" in line for line in lines)


def finished_heist(make_user: Any) -> tuple[Any, dict[int, Any]]:
    from .helpers import started_match

    match, users = started_match(make_user, "heist", 3)
    for seat in range(3):
        match.refresh_from_db()
        if match.status == match.Status.ACTIVE:
            services.do_resign(match.pk, seat)
    match.refresh_from_db()
    assert match.status == match.Status.FINISHED
    return match, users


@pytest.mark.django_db(transaction=True)
def test_item5_rematch_seats_the_same_players_in_a_new_match_and_mails_them(
    make_user: Any, mailoutbox: list[Any]
) -> None:
    match, users = finished_heist(make_user)
    asker = Client()
    asker.force_login(users[1])
    page = asker.get(reverse("match", args=[match.pk])).content.decode()
    assert ">Rematch<" in page and ">Back to lobby<" in page
    response = asker.post(reverse("match_rematch", args=[match.pk]))
    match.refresh_from_db()
    new = match.rematch
    assert new is not None and response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert new.game == "heist" and new.status == new.Status.LOBBY and new.host_id == users[1].pk
    for n in (0, 2):  # issue 54, item 9: the others are invited and seated once they accept
        services.do_answer_rematch(new.pk, users[n], accept=True)
    assert sorted(s.user_id for s in new.seats.all()) == sorted(u.pk for u in users.values())
    assert (new.options, new.time_limit, new.seat_count) == (match.options, match.time_limit, match.seat_count)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for n, u in users.items() if n != 1)
    assert all(new.get_absolute_url() in m.body for m in mailoutbox)
    other = Client()
    other.force_login(users[2])  # asking again finds the same rematch, where they are seated already
    assert ">Go to the rematch<" in other.get(reverse("match", args=[match.pk])).content.decode()
    other.post(reverse("match_rematch", args=[match.pk]))
    match.refresh_from_db()
    assert match.rematch_id == new.pk


def test_item5_no_rematch_before_the_end_nor_for_a_stranger(make_user: Any) -> None:
    from .helpers import started_match

    match, users = started_match(make_user, "heist", 3)
    client = Client()
    client.force_login(users[0])
    client.post(reverse("match_rematch", args=[match.pk]))
    match.refresh_from_db()
    assert match.rematch_id is None
    match, users = finished_heist(make_user)
    stranger = Client()
    stranger.force_login(make_user())
    stranger.post(reverse("match_rematch", args=[match.pk]))
    match.refresh_from_db()
    assert match.rematch_id is None


def test_item5_chat_stays_open_after_the_end(make_user: Any) -> None:
    match, users = finished_heist(make_user)
    client = Client()
    client.force_login(users[0])
    assert 'id="chat-form"' in client.get(reverse("match", args=[match.pk])).content.decode()
    client.post(reverse("match_chat", args=[match.pk]), {"text": "good game"})
    assert "good game" in client.get(reverse("match", args=[match.pk])).content.decode()


def test_item5_bot_names_stay_the_same_from_lobby_to_game_to_rematch(make_user: Any) -> None:
    from games.models import Match

    host = make_user()
    for _ in range(20):  # a table whose seating shuffle moves the bots to other seats
        match = services.do_create_match(host, "heist", 4, {}, 60)
        bots = [services.do_add_bot(match.pk, host) for _ in range(3)]
        lobby = {bot.pk: bot.display_name for bot in bots}
        assert sorted(lobby.values()) == ["Bot 2", "Bot 3", "Bot 4"]
        services.do_start_match(match.pk, host)
        if any(seat.number + 1 != int(lobby[seat.pk][-1]) for seat in match.seats.filter(is_bot=True)):
            break
    else:
        raise AssertionError("no seating moved a bot")
    assert {seat.pk: seat.display_name for seat in match.seats.filter(is_bot=True)} == lobby
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    new = services.do_rematch(match.pk, host)
    assert sorted(s.display_name for s in new.seats.filter(is_bot=True)) == sorted(lobby.values())
    other = services.do_create_match(make_user(), "heist", 4, {}, 60)
    services.do_add_bot(other.pk, other.host)  # Bot 2
    services.do_replace_with_bot(other.pk, 0)  # a player who left: a bot with a name of its own
    assert sorted(s.display_name for s in other.seats.filter(is_bot=True)) == ["Bot 1", "Bot 2"]
