"""Moderators in the Django admin: the group, read-only log, actions that leave events."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Match, MatchEvent, Seat
from games.play import services

from .helpers import started_match

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def moderator(make_user: Any) -> Client:
    user = make_user("moderator", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    client = Client()
    client.force_login(user)
    return client


def admin_action(client: Client, model: str, action: str, ids: list[int]) -> Any:
    return client.post(
        reverse(f"admin:games_{model}_changelist"),
        {"action": action, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


def test_moderators_group_exists_with_its_permissions() -> None:
    group = Group.objects.get(name="moderators")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"change_match", "view_matchevent", "change_chatmessage", "change_user"} <= codenames
    assert "delete_matchevent" not in codenames and "change_matchevent" not in codenames


def test_match_list_filters_and_read_only_event_log(moderator: Client, make_user: Any) -> None:
    match, _ = started_match(make_user)
    listing = moderator.get(reverse("admin:games_match_changelist") + "?game=heist&status=active")
    assert listing.status_code == 200 and f">{match.pk}<" in listing.content.decode()
    detail = moderator.get(reverse("admin:games_match_change", args=[match.pk]))
    assert detail.status_code == 200 and 'class="event-log"' in detail.content.decode()
    event = MatchEvent.objects.filter(match=match).first()
    assert event is not None
    response = moderator.post(reverse("admin:games_matchevent_change", args=[event.pk]), {"type": "forged"})
    assert response.status_code == 403
    assert MatchEvent.objects.get(pk=event.pk).type == "game_started"


def test_abort_action(moderator: Client, make_user: Any) -> None:
    match, _ = started_match(make_user)
    admin_action(moderator, "match", "abort_matches", [match.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_force_timeout_goes_through_the_services_and_leaves_events(moderator: Client, make_user: Any) -> None:
    match, _ = started_match(make_user)
    before = match.version
    admin_action(moderator, "match", "force_timeouts", [match.pk])
    match.refresh_from_db()
    assert match.version > before
    assert MatchEvent.objects.filter(match=match, type="choice_timed_out").count() == 4


def test_replace_with_bot(moderator: Client, make_user: Any) -> None:
    match, _ = started_match(make_user)
    seat = Seat.objects.get(match=match, number=2)
    admin_action(moderator, "seat", "replace_with_bot", [seat.pk])
    seat.refresh_from_db()
    assert seat.is_bot and seat.user is None
    # The bot acted at once: seat 2's secret choice is in the log.
    assert MatchEvent.objects.filter(match=match, type="role_chosen", data__seat=2).exists()


def test_hide_chat_message(moderator: Client, make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    message = services.do_post_chat(match.pk, 0, "rude words")
    admin_action(moderator, "chatmessage", "hide_messages", [message.pk])
    assert ChatMessage.objects.get(pk=message.pk).hidden
    client = Client()
    client.force_login(by_seat[1])
    assert "rude words" not in client.get(match.get_absolute_url()).content.decode()


def test_a_message_deleted_in_the_admin_leaves_the_chat_every_process_keeps(make_user: Any) -> None:
    """The chat rows a process keeps are keyed by the chat version: deleting a message bumps it."""
    match, by_seat = started_match(make_user)
    message = services.do_post_chat(match.pk, 0, "rude words")
    client = Client()
    client.force_login(by_seat[1])
    assert "rude words" in client.get(match.get_absolute_url()).content.decode()  # now kept by this process
    before = Match.objects.get(pk=match.pk).chat_version
    ChatMessage.objects.filter(pk=message.pk).delete()  # as the admin's delete does
    assert Match.objects.get(pk=match.pk).chat_version == before + 1
    assert "rude words" not in client.get(match.get_absolute_url()).content.decode()


def test_deactivate_user(moderator: Client, make_user: Any) -> None:
    user = make_user()
    response = moderator.post(
        reverse("admin:auth_user_changelist"),
        {"action": "deactivate_users", "_selected_action": [str(user.pk)]},
        follow=True,
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert not user.is_active


def test_non_staff_cannot_open_the_admin(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user())
    response = client.get(reverse("admin:games_match_changelist"))
    assert response.status_code == 302


def test_item10_the_match_page_shows_the_log_readable_and_a_page_at_a_time(moderator: Client, make_user: Any) -> None:
    import html
    import random

    from games.engines.base import SYSTEM
    from games.moderation.event_log import EVENTS_PER_PAGE, readable_lines
    from games.play.store import load_state, rules_for

    match, _ = started_match(make_user, "bridge_race", 3)
    rules, rng = rules_for(match), random.Random(3)
    while match.version <= EVENTS_PER_PAGE + 5:
        state = load_state(match)
        seat = min(rules.actors(state))
        action = rules.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else rules.bot_action(state, seat, rng)
        services.do_submit_action(match.pk, seat, action)
        match.refresh_from_db()
    url = reverse("admin:games_match_change", args=[match.pk])
    first = html.unescape(moderator.get(url).content.decode())
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    lines = readable_lines(match, events)
    assert lines[0][1] in first and "<tr><td>1</td>" in first
    assert f"<tr><td>{EVENTS_PER_PAGE + 1}</td>" not in first
    assert '"visible_to"' not in first and '"secret"' not in first  # no raw JSON inline
    pages = -(-len(events) // EVENTS_PER_PAGE)
    assert f"page 1 of {pages}" in first
    second = html.unescape(moderator.get(url + "?log_page=2").content.decode())
    assert f"<tr><td>{EVENTS_PER_PAGE + 1}</td>" in second and "<tr><td>1</td>" not in second
    assert lines[EVENTS_PER_PAGE][1] in second and f"page 2 of {pages}" in second


def test_item10_a_running_matchs_event_shows_no_raw_json(moderator: Client, make_user: Any) -> None:
    match, _ = started_match(make_user)
    event = MatchEvent.objects.filter(match=match).order_by("seq").first()
    assert event is not None
    page = moderator.get(reverse("admin:games_matchevent_change", args=[event.pk])).content.decode()
    assert "field-data" not in page and "field-secret" not in page
    services.do_abort_match(match.pk)
    page = moderator.get(reverse("admin:games_matchevent_change", args=[event.pk])).content.decode()
    assert "field-data" in page


def _played(make_user: Any, game: str, players: int, actions: int) -> Match:
    """A started match of ``game`` whose seats bots played for ``actions`` actions (or to its end)."""
    import random

    from games.engines.base import SYSTEM
    from games.play.store import load_state, rules_for

    match, _ = started_match(make_user, game, players, seed=f"admin-{game}")
    rules, rng = rules_for(match), random.Random(5)
    for _n in range(actions):
        state = load_state(match)
        actors = rules.actors(state)
        if not actors:
            break
        seat = min(actors)
        action = rules.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else rules.bot_action(state, seat, rng)
        services.do_submit_action(match.pk, seat, action)
        match.refresh_from_db()
    return match


def test_item54_19_the_match_list_names_the_game_and_its_players(moderator: Client, make_user: Any) -> None:
    match, users = started_match(make_user, "dirty_money", 3)
    listing = moderator.get(reverse("admin:games_match_changelist")).content.decode()
    row = listing[listing.index(f">{match.pk}<") :]
    row = row[: row.index("</tr>")]
    assert match.game_name in row and ">dirty_money<" not in row
    for user in users.values():
        assert user.profile.display_name in row
    sidebar = listing[listing.index('id="changelist-filter"') :]
    assert "?game=dirty_money" in sidebar and ">Dirty Money<" in sidebar and ">dirty_money<" not in sidebar


def test_item54_19_a_match_page_reads_and_edits_nothing(moderator: Client, make_user: Any) -> None:
    import html
    import re

    match, users = started_match(make_user, "dirty_money", 3, options={"quick": True})
    page = html.unescape(moderator.get(reverse("admin:games_match_change", args=[match.pk])).content.decode())
    form = page[page.index('id="match_form"') :]
    fields = set(re.findall(r'<(?:input|textarea|select)[^>]*\bname="([^"]+)"', form))
    model_fields = {f.name for f in Match._meta.get_fields()}
    assert not fields & model_fields, fields & model_fields  # "Revision" and the rest are read-only
    assert "Dirty Money" in form and all(u.profile.display_name in form for u in users.values())
    assert '"quick"' not in form and "Quick Mode" in form  # options as the create form names them


def test_item54_19_the_event_log_is_sentences_in_every_game(moderator: Client, make_user: Any) -> None:
    import html

    from games.moderation.event_log import readable_lines

    for game, players in (("dirty_money", 3), ("exit_memory", 3), ("bridge_race", 3), ("police_alarm", 3)):
        match = _played(make_user, game, players, 40)
        events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        types = {e.type for e in events}
        for row, text in readable_lines(match, events):
            assert text not in types and "_" not in text, (game, row.type, text)
        page = html.unescape(moderator.get(reverse("admin:games_match_change", args=[match.pk])).content.decode())
        log = page[page.index('class="event-log"') :]
        for kind in types:
            assert f"<td>{kind}</td>" not in log, (game, kind)


def test_moderators_read_vacations_ratings_and_devices_and_end_a_vacation(moderator: Client, make_user: Any) -> None:
    """The models a player's records are made of are in the admin: a vacation can be ended (its
    clocks run again, through games.play.vacations), ratings are read only, and a device's push
    subscription shows its push service, never its keys."""
    from games.models import PushSubscription, Rating, Vacation
    from games.play import vacations

    player = make_user("traveller")
    vacation = vacations.start(player, 5)
    Rating.objects.create(user=player, game="heist", mu=25.0, sigma=8.0, ordinal=1.0, matches=1)
    device = PushSubscription.objects.create(
        user=player, endpoint="https://push.example.com/send/abc", p256dh="secret-p256dh", auth="secret-auth"
    )
    for model in ("vacation", "rating", "ratingchange", "pushsubscription"):
        assert moderator.get(reverse(f"admin:games_{model}_changelist")).status_code == 200, model
    assert moderator.get(reverse("admin:games_rating_add")).status_code == 403
    rating = Rating.objects.get(user=player)
    edited = moderator.post(reverse("admin:games_rating_change", args=[rating.pk]), {"mu": "99"})
    assert edited.status_code == 403 and Rating.objects.get(pk=rating.pk).mu == 25.0
    page = moderator.get(reverse("admin:games_pushsubscription_change", args=[device.pk])).content.decode()
    assert "push.example.com" in page and "secret-p256dh" not in page and "secret-auth" not in page

    admin_action(moderator, "vacation", "end_now", [vacation.pk])
    assert vacations.current(player) is None
    assert Vacation.objects.get(pk=vacation.pk).days == 1  # only the day begun is taken
    admin_action(moderator, "pushsubscription", "delete_selected", [device.pk])
    response = moderator.post(
        reverse("admin:games_pushsubscription_changelist"),
        {"action": "delete_selected", "_selected_action": [str(device.pk)], "post": "yes"},
    )
    assert response.status_code in (200, 302) and not PushSubscription.objects.filter(pk=device.pk).exists()
