"""Views: status codes and messages for bad input, lobby, pages and partials."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Match, MatchEvent
from games.play import services

from .helpers import choose_all, client_for, started_match

pytestmark = pytest.mark.django_db(transaction=True)


def post_action(client: Client, match: Match, payload: dict[str, Any], version: int | None = None, **extra: Any) -> Any:
    data = {"action": json.dumps(payload), "version": "" if version is None else str(version), **extra}
    return client.post(reverse("match_action", args=[match.pk]), data, HTTP_HX_REQUEST="true")


def test_anonymous_users_are_sent_to_log_in(make_user: Any) -> None:
    match, _ = started_match(make_user)
    for url in (reverse("match", args=[match.pk]), reverse("match_create"), reverse("profile")):
        response = Client().get(url)
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]
    response = Client().post(reverse("match_action", args=[match.pk]), {"action": "{}"})
    assert response.status_code == 302


def test_lobby_lists_my_matches_with_my_turn_first(make_user: Any) -> None:
    me = make_user()

    def my_started_match() -> Match:
        match = services.do_create_match(me, "heist", 3, {}, 60)
        for _ in range(2):
            services.do_join_match(match.pk, make_user())
        return services.do_start_match(match.pk, me)

    done = my_started_match()
    my_seat = done.seats.get(user=me).number
    services.do_submit_action(done.pk, my_seat, {"type": "choose", "roles": ["THUG", "GOON"]})  # I have chosen
    waiting_for_me = my_started_match()
    others, _ = started_match(make_user)
    page = client_for(me).get(reverse("lobby")).content.decode()
    mine = page.split('id="mine"')[1].split("</section>")[0]
    assert mine.index(f"#{waiting_for_me.pk}<") < mine.index(f"#{done.pk}<")
    assert "Your turn" in mine.split(f"#{done.pk}<")[0]
    assert f"#{others.pk}<" not in page


def test_create_match_validates_and_redirects(make_user: Any) -> None:
    client = client_for(make_user())
    bad = client.post(reverse("match_create"), {"game": "heist", "seats": 2, "time_amount": 1, "time_unit": "minutes"})
    assert bad.status_code == 400
    assert "needs 3 to 8 players" in bad.content.decode()
    good = client.post(
        reverse("match_create"),
        {"game": "heist", "seats": 4, "time_amount": 2, "time_unit": "days", "heist__quick": "on"},
    )
    assert good.status_code == 302
    match = Match.objects.get()
    assert match.time_limit == 2 * 86400 and match.options == {"no_repeat": False, "quick": True}
    assert not match.is_live


def test_invite_link_join_and_start(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "heist", 3, {}, 60)
    guests = [make_user(), make_user()]
    for guest in guests:
        client = client_for(guest)
        response = client.get(match.invite_url())
        assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
        page = client.get(match.get_absolute_url()).content.decode()
        assert "Join this match" in page
        assert client.post(reverse("match_join", args=[match.pk])).status_code == 302
    page = client_for(host).get(match.get_absolute_url()).content.decode()
    assert "Start the match" in page and 'hx-target="#board" hx-swap="outerHTML"' in page
    response = client_for(host).post(reverse("match_start", args=[match.pk]), HTTP_HX_REQUEST="true")
    # The started board takes the lobby's place: no reload, so a live game's socket stays open (T-23).
    assert response.status_code == 200 and "HX-Redirect" not in response
    board = response.content.decode()
    assert board.lstrip().startswith('<section id="board"') and "Choose your role in secret" in board
    assert "Start the match" not in board
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_a_refused_start_reloads_the_page_to_say_why(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "heist", 3, {}, 60)
    response = client_for(host).post(reverse("match_start", args=[match.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == Match.Status.LOBBY


def test_a_guest_cannot_start(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    match = services.do_create_match(host, "heist", 3, {}, 60)
    services.do_join_match(match.pk, guest)
    services.do_add_bot(match.pk, host)
    client = client_for(guest)
    client.post(reverse("match_start", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.LOBBY
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Only the host can start the match." in page


def test_match_page_and_partials_render_for_players_and_spectators(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    page = client_for(by_seat[0]).get(match.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="board"' in html and 'id="log"' in html and 'id="chat"' in html
    assert "Choose your role in secret" in html
    partial = client_for(by_seat[1]).get(match.get_absolute_url() + "?partial=board", HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and partial.content.decode().lstrip().startswith("<section")
    spectator = client_for(make_user()).get(match.get_absolute_url()).content.decode()
    assert "You are watching this match." in spectator
    assert "Choose your role in secret" not in spectator


def test_action_post_applies_and_returns_the_board(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    response = post_action(client_for(by_seat[0]), match, {"type": "choose", "roles": ["DRIVER"]}, match.version)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your role:" in html and "Driver" in html
    assert MatchEvent.objects.filter(match=match, type="role_chosen").count() == 1


@pytest.mark.parametrize(
    ("payload", "status", "message"),
    [
        ("not json", 400, "That action could not be read."),
        ('{"type": "fly"}', 400, ""),
        ('{"type": "commit"}', 422, ""),
    ],
)
def test_bad_action_posts_show_a_message_and_change_nothing(
    make_user: Any, payload: str, status: int, message: str
) -> None:
    match, by_seat = started_match(make_user)
    version = match.version
    response = client_for(by_seat[0]).post(
        reverse("match_action", args=[match.pk]), {"action": payload, "version": version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == status
    html = response.content.decode()
    assert 'class="error" role="alert"' in html
    assert message in html
    match.refresh_from_db()
    assert match.version == version


def test_stale_post_gets_409_and_a_fresh_board(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    old = match.version
    services.do_submit_action(match.pk, 1, {"type": "commit"})
    response = post_action(client_for(by_seat[0]), match, {"type": "commit"}, old)
    assert response.status_code == 409
    match.refresh_from_db()
    html = response.content.decode()
    assert f'data-version="{match.revision}"' in html and f'name="version" value="{match.version}"' in html
    assert "The board changed before your action arrived" in html
    assert MatchEvent.objects.filter(match=match, type="hands_committed").count() == 1


def test_duplicate_post_is_answered_once(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    client = client_for(by_seat[0])
    first = post_action(client, match, {"type": "choose", "roles": ["GOON"]}, match.version, key="abc")
    again = post_action(client, match, {"type": "choose", "roles": ["GOON"]}, match.version, key="abc")
    assert first.status_code == again.status_code == 200
    assert MatchEvent.objects.filter(match=match, type="role_chosen").count() == 1


def test_non_member_cannot_act(make_user: Any) -> None:
    match, _ = started_match(make_user)
    response = post_action(client_for(make_user()), match, {"type": "choose", "roles": ["THUG"]}, match.version)
    assert response.status_code == 403
    assert "Only the players of this match can act in it." in response.content.decode()


def test_form_fields_merge_into_the_payload_r75_offer(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    response = post_action(
        client_for(by_seat[0]),
        match,
        {"type": "offer"},
        match.version,
        to_seat="1",
        direction="pay",
        amount="2",
        clause_slot="",
    )
    assert response.status_code == 200, response.content.decode()
    assert MatchEvent.objects.filter(match=match, type="offer_created").count() == 1


def test_chat_post_and_private_messages_stay_private(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    url = reverse("match_chat", args=[match.pk])
    client_for(by_seat[0]).post(url, {"text": "hello table", "to": ""}, HTTP_HX_REQUEST="true")
    client_for(by_seat[0]).post(url, {"text": "secret-whisper-123", "to": "1"}, HTTP_HX_REQUEST="true")
    seen_by_1 = client_for(by_seat[1]).get(match.get_absolute_url()).content.decode()
    seen_by_2 = client_for(by_seat[2]).get(match.get_absolute_url()).content.decode()
    spectator = client_for(make_user()).get(match.get_absolute_url()).content.decode()
    assert "hello table" in seen_by_2 and "hello table" in spectator
    assert "secret-whisper-123" in seen_by_1
    assert "secret-whisper-123" not in seen_by_2 and "secret-whisper-123" not in spectator
    empty = client_for(by_seat[0]).post(url, {"text": " "}, HTTP_HX_REQUEST="true")
    assert empty.status_code == 400 and "Write a message first." in empty.content.decode()


def test_chat_post_with_a_control_character_is_refused(make_user: Any) -> None:
    """A NUL could not be typed, and PostgreSQL would refuse to store it: a clear 400, nothing kept."""
    match, by_seat = started_match(make_user)
    url = reverse("match_chat", args=[match.pk])
    refused = client_for(by_seat[0]).post(url, {"text": "hi\x00there", "to": ""}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "A message can hold only text you can type." in refused.content.decode()
    assert not ChatMessage.objects.filter(match=match).exists()


def test_secret_roles_do_not_reach_other_pages(make_user: Any) -> None:
    """Hidden information (R-65/R-66): a chosen role is on its owner's page only."""
    match, by_seat = started_match(make_user, players=4)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    for seat in (1, 2, 3):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": ["THUG"]})
    own = client_for(by_seat[0]).get(match.get_absolute_url()).content.decode()
    assert "role-goon mine" in own.split('class="my-roles"', 1)[1].split("</p>", 1)[0]
    for seat in (1, 2, 3):
        other = client_for(by_seat[seat]).get(match.get_absolute_url()).content.decode()
        assert "You chose Goon" not in other
        mine = other.split('class="my-roles"', 1)[1].split("</p>", 1)[0]
        assert "Goon" not in mine and "role-goon" not in mine  # the other panel holds its own role only
        seat0 = other.split('<li id="heist-seat-0" class="seat-panel" data-seat="0">', 1)[1].split("</li>", 1)[0]
        assert "role-" not in seat0 and "Goon" not in seat0  # seat 0's hand lies face down
    spectator = client_for(make_user()).get(match.get_absolute_url()).content.decode()
    assert "You chose" not in spectator and "Your role" not in spectator


def test_resign_hands_decisions_to_defaults_r79(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    response = client_for(by_seat[2]).post(reverse("match_resign", args=[match.pk]))
    assert response.status_code == 302
    assert MatchEvent.objects.filter(match=match, type__icontains="resign").exists()


def test_profile_saves_language_and_reminder_preference(make_user: Any) -> None:
    user = make_user()
    client = client_for(user)
    response = client.post(reverse("profile"), {"display_name": "Ana", "language": "zh-hant", "email_reminders": ""})
    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.display_name == "Ana" and user.profile.language == "zh-hant"
    assert not user.profile.email_reminders


def test_issue54_item12_profile_saved_is_said_in_the_language_just_chosen(make_user: Any) -> None:
    user = make_user()
    client = client_for(user)
    form = {"display_name": "Ana", "language": "zh-hant", "email_reminders": "on"}
    page = client.post(reverse("profile"), form, follow=True).content.decode()
    assert "個人檔案已儲存。" in page and "Profile saved." not in page
    page = client.post(reverse("profile"), form | {"language": "en"}, follow=True).content.decode()
    assert "Profile saved." in page and "個人檔案已儲存。" not in page


def test_issue10_item6_turn_sound_and_notification_are_off_by_default_and_set_in_the_profile(
    make_user: Any,
) -> None:
    match, by_seat = started_match(make_user)
    user = by_seat[0]
    assert not user.profile.turn_sound and not user.profile.turn_notification
    client = client_for(user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "data-turn-sound" not in page and "data-turn-notify" not in page
    form = {"display_name": "Ana", "language": "en", "email_reminders": "on", "turn_sound": "on"}
    assert client.post(reverse("profile"), form).status_code == 302
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'data-turn-sound="1"' in page and "data-turn-notify" not in page
    assert client.post(reverse("profile"), form | {"turn_notification": "on"}).status_code == 302
    assert 'data-turn-notify="1"' in client.get(match.get_absolute_url()).content.decode()
    profile_page = client.get(reverse("profile")).content.decode()
    assert 'id="id_turn_sound"' in profile_page and 'id="id_turn_notification"' in profile_page


def test_log_terms_are_translated_for_the_reader(make_user: Any) -> None:
    """A role id or name inside a log line appears in the reader's language (zh-Hant)."""
    match, by_seat = started_match(make_user)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["THUG"]})
    by_seat[0].profile.language = "zh-hant"
    by_seat[0].profile.save()
    html = client_for(by_seat[0]).get(match.get_absolute_url()).content.decode()
    log = html.split('id="log"')[1].split("</section>")[0]
    assert "暴徒" in log and "Thug" not in log


def test_htmx_answer_is_the_board_rendered_once_for_the_push(make_user: Any, monkeypatch: Any) -> None:
    """The mover's board is rendered once, by the write path, and answers the POST as it is."""
    from games.push import pushes
    from games.web import views

    match, by_seat = started_match(make_user)
    renders: list[tuple[int, frozenset[str]]] = []
    real_render_seat = pushes.render_seat

    def counting(match: Match, user: Any, parts: Any, **kwargs: Any) -> Any:
        renders.append((user.pk, frozenset(parts)))
        return real_render_seat(match, user, parts, **kwargs)

    monkeypatch.setattr(pushes, "render_seat", counting)
    monkeypatch.setattr(views, "match_context", lambda *a, **k: pytest.fail("the view rendered the board again"))
    response = post_action(client_for(by_seat[0]), match, {"type": "choose", "roles": ["DRIVER"]}, match.version)
    assert response.status_code == 200
    assert "Your role:" in response.content.decode()
    # Nobody has a socket open: only the mover's board is rendered (for the answer).
    assert renders == [(by_seat[0].pk, frozenset({"board", "log"}))]


def test_shared_board_fragments_are_the_spectators_view_for_everyone(make_user: Any) -> None:
    """The players table is rendered once per move from the spectator's context (R-64/R-65):
    every seat gets the same bytes, and a player's own secret role is only in their own panel."""
    from django.template.loader import render_to_string

    from games.push.presenter import match_context

    match, by_seat = started_match(make_user)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["DRIVER"]})
    match.refresh_from_db()
    boards = {s: render_to_string("games/match.html#board", match_context(match, u)) for s, u in by_seat.items()}
    spectator = render_to_string("games/match.html#board", match_context(match, make_user()))

    def table(html: str) -> str:
        return html.split('<ul class="heist-seats"')[1].split("</ul>")[0]

    assert {table(html) for html in boards.values()} == {table(spectator)}
    assert "Driver" not in table(boards[0]) and "Driver" in boards[0].split('id="heist-me"')[1]
    assert 'data-me="0"' in boards[0] and 'data-me=""' in spectator
    services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["THUG"]})
    match.refresh_from_db()
    after = render_to_string("games/match.html#board", match_context(match, by_seat[2]))
    assert table(after) != table(boards[2])  # a new revision renders afresh ("has chosen" for seat 1)


def test_a_refused_post_reuses_the_pushed_board_with_the_message(make_user: Any) -> None:
    """A stale POST is answered with the board the last push rendered for this player (if this
    process has it), with the message on top: the same page as a fresh render."""
    from games.models import Seat
    from games.push import pushes

    match, by_seat = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    old = match.version
    Seat.objects.filter(match=match, number=0).update(open_sockets=1)  # seat 0 has a page open
    services.do_submit_action(match.pk, 1, {"type": "commit"})
    client = client_for(by_seat[0])
    cached = post_action(client, match, {"type": "commit"}, old)
    pushes.forget_rendered()
    fresh = post_action(client, match, {"type": "commit"}, old)

    def normal(html: str) -> str:
        html = re.sub(r'<input type="hidden" name="(key|version)" value="[0-9a-f]+">', "", html)  # JS sends those
        # HTMX sends the CSRF token as a header (<body hx-headers>); pushed boards carry none.
        html = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', "", html)
        return re.sub(r">\s+<", "><", html).strip()

    assert cached.status_code == fresh.status_code == 409
    assert "The board changed before your action arrived" in cached.content.decode()
    assert normal(cached.content.decode()) == normal(fresh.content.decode())


def test_issue54_item11_the_header_language_menu_sets_a_signed_in_readers_profile(make_user: Any) -> None:
    user = make_user()
    client = client_for(user)
    assert 'action="/i18n/setlang/"' in client.get(reverse("lobby")).content.decode()
    response = client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/how-to-play/"})
    assert response.status_code == 302 and response["Location"] == "/how-to-play/"
    user.profile.refresh_from_db()
    assert user.profile.language == "zh-hant"
    assert '<html lang="zh-hant">' in client.get("/how-to-play/").content.decode()
    client.post("/i18n/setlang/", {"language": "klingon", "next": "/"})  # not a language of the site
    user.profile.refresh_from_db()
    assert user.profile.language == "zh-hant"
    anonymous = Client()
    anonymous.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    assert '<html lang="zh-hant">' in anonymous.get("/how-to-play/").content.decode()
