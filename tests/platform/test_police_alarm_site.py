"""police_alarm on the site: live inputs over the socket, JSON pushes, connections, secrets (issue 13).

The server's clock is a test clock here (``games.play.clock.now``), so that a countdown can pass without
waiting: the socket stamps each input with it on arrival (T-1).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.boards.police_alarm import context as board
from games.models import Match, MatchEvent
from games.play import services
from games.play.store import load_state
from games.sockets import livesocket

from .police_alarm_table import HIDDEN, running_match
from .socket_clients import answer_to, connect, messages

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_V3_W10_the_first_police_and_the_handicaps_follow_the_players_chosen_in_the_lobby(make_user: Any) -> None:
    """The lobby's "Seat 1" is whoever sits first there; the seats are shuffled at the start
    (services.seating_order), and the first police (V-3) and each handicap (W-10) go with the player."""
    moved = 0
    for _ in range(12):  # until the shuffle has moved the host at least once (each time 1 in 2)
        host, guest = make_user(), make_user()
        options = {"variant": "young", "first": "0", "step_ms_0": "300", "roll_ms_1": "2000"}
        match = services.do_create_match(host, "police_alarm", 2, options, 60)
        services.do_join_match(match.pk, guest)
        services.do_start_match(match.pk, host)
        match.refresh_from_db()
        seat_of = {seat.user_id: seat.number for seat in match.seats.all()}
        state = load_state(match)
        assert state.active == seat_of[host.pk]
        assert state.step_ms[seat_of[host.pk]] == 300 and state.step_ms[seat_of[guest.pk]] == 150
        assert state.roll_ms[seat_of[guest.pk]] == 2000
        moved += seat_of[host.pk] != 0
        if moved:
            break
    assert moved, "the shuffle never moved the host: the test proved nothing"


def test_V3_W10_the_lobby_names_the_player_each_seat_choice_follows(make_user: Any) -> None:
    """The lobby's options say who "Seat 2" and "seat 1's handicap" are now: the seats are shuffled
    at the start, and the choices follow those players (V-3, W-10)."""
    from django.utils import translation

    from games.play.store import rules_for
    from games.push.presenter import option_rows, seat_names

    host, guest = make_user(), make_user()
    options = {"variant": "young", "first": "1", "step_ms_0": "300"}
    match = services.do_create_match(host, "police_alarm", 2, options, 60)
    services.do_join_match(match.pk, guest)
    names = seat_names(Match.objects.get(pk=match.pk))
    client = Client()
    client.force_login(host)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert f"Seat 2 ({names[1]})" in page
    assert f"Handicap for seat 1: time per street cell as police ({names[0]})" in page
    assert f"Handicap for seat 2: time per street cell as police ({names[1]})" in page
    with translation.override("zh-hant"):
        rows = option_rows(Match.objects.get(pk=match.pk), rules_for(match))
    assert any(row["value"].endswith(f"（{names[1]}）") for row in rows), rows
    services.do_leave_match(match.pk, guest)
    rows = option_rows(Match.objects.get(pk=match.pk), rules_for(match))
    assert "Seat 2" in {row["value"] for row in rows}, "an empty seat names nobody"


def test_V3_W10_a_rematch_keeps_the_first_police_and_the_handicaps_with_their_players(make_user: Any) -> None:
    """The rematch's lobby seats the player who asks first at seat 1: the choices still follow the players."""
    host, guest = make_user(), make_user()
    options = {"variant": "young", "first": "0", "step_ms_0": "300"}
    for _ in range(12):  # a seating that kept the host on seat 1 (number 0): the rematch moves the host
        match = services.do_create_match(host, "police_alarm", 2, options, 60)
        services.do_join_match(match.pk, guest)
        services.do_start_match(match.pk, host)
        if match.seats.get(user=host).number == 0:
            break
    else:
        raise AssertionError("no seating kept the host on the first seat")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    rematch = services.do_rematch(match.pk, guest)  # the guest's lobby seat is now the first
    services.do_answer_rematch(rematch.pk, host, accept=True)  # the host takes the seat kept for them
    assert rematch.seats.get(user=guest).number == 0 and rematch.seats.get(user=host).number == 1
    assert rematch.options["first"] == "1" and rematch.options["step_ms_1"] == "300"
    assert "step_ms_0" not in rematch.options


async def table_sockets(make_user: Any, match: Match, by_seat: dict[int, Any]) -> list[WebsocketCommunicator]:
    """The thief's, the police's and a spectator's sockets, with what connecting sent them read."""
    sockets = [await connect(by_seat[0], match.pk), await connect(by_seat[1], match.pk)]
    sockets.append(await connect(await sync_to_async(make_user)(), match.pk))
    for socket in sockets:
        await messages(socket)
    return sockets


@contextlib.asynccontextmanager
async def running_table(
    make_user: Any, test_clock: list[float]
) -> AsyncIterator[tuple[Match, list[WebsocketCommunicator]]]:
    """A running match (``running_match``) with its thief's, police's and a spectator's sockets
    (``table_sockets``), disconnected once the test is through."""
    match, by_seat = await sync_to_async(running_match)(make_user, test_clock)
    sockets = await table_sockets(make_user, match, by_seat)
    yield match, sockets
    for socket in sockets:
        await socket.disconnect()


def events_of(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for m in received if m["type"] == "events" for e in m["events"]]


@pytest.mark.asyncio
async def test_T1_T2_a_move_goes_up_the_socket_without_a_version_and_reaches_the_thief_as_a_small_event(
    make_user: Any, test_clock: list[float]
) -> None:
    async with running_table(make_user, test_clock) as (match, (thief, police, spectator)):
        # No version at all, or an old one: live inputs are never stale (T-2).
        first = {"type": "move", "dir": "up", "from": [9, 9]}
        await police.send_json_to({"type": "act", "action": json.dumps(first), "key": "m1"})
        # The answer is awaited (a busy machine may take longer than messages()' quiet spell), then
        # the rest is read: one answer per move.
        assert (await answer_to(police))["status"] == 200
        assert not [m for m in await messages(police) if m["type"] == "answer"]
        sent = {"type": "move", "dir": "up", "from": [9, 8]}
        await police.send_json_to({"type": "act", "action": json.dumps(sent), "version": "1", "key": "m2"})
        assert (await answer_to(police))["status"] == 200
        assert not [m for m in await messages(police) if m["type"] == "answer"]
        for socket in (thief, spectator):
            arrived = [await socket.receive_json_from(timeout=5), *await messages(socket)]
            got = [m for m in arrived if m["type"] == "events"]
            moves = [e for e in events_of(got) if e["type"] == "car_moved"]
            assert [e["data"]["to"] for e in moves] == [[9, 8], [9, 7]]
            # The first message also starts the round (the countdown's end, T-3): it brings the new view.
            assert [e["type"] for e in events_of(got[:1])] == ["round_started", "card_drawn", "car_moved"]
            assert "view" in got[0] and got[0]["view"]["phase"] == "running"
            only_move = got[-1]
            assert [e["type"] for e in only_move["events"]] == ["car_moved"] and "view" not in only_move
            assert len(json.dumps(only_move)) < 160, "a car move is a few dozen bytes"
        state = await sync_to_async(lambda: load_state(Match.objects.get(pk=match.pk)))()
        # T-1: the first move was timed when it arrived, 3.5 s after the start; the countdown fired first (T-3).
        assert state.car == (9, 7) and state.phase == "running" and state.t == 3500


@pytest.mark.asyncio
async def test_T15_H2_a_refusal_reaches_only_its_sender_and_no_other_socket_holds_the_scenes(
    make_user: Any, test_clock: list[float]
) -> None:
    async with running_table(make_user, test_clock) as (_match, (thief, police, spectator)):
        await police.send_json_to({"type": "act", "action": json.dumps({"type": "siren", "circle": "A"}), "key": "s1"})
        answer = next(m for m in await messages(police) if m["type"] == "answer")
        assert answer["status"] == 422 and answer["message"] == "The car is not on that crime scene."
        assert await thief.receive_nothing(timeout=0.2) and await spectator.receive_nothing(timeout=0.1)
        # The thief rolls: every viewer gets the events with its own new view (a roll is not a car move).
        await thief.send_json_to({"type": "act", "action": json.dumps({"type": "roll"}), "key": "r1"})
        seen = {
            "thief": await messages(thief),
            "police": await messages(police),
            "spectator": await messages(spectator),
        }
        for name, received in seen.items():
            views = [m["view"] for m in received if m["type"] == "events"]
            assert views and views[-1]["dice"], name
            text = json.dumps(received)
            if name == "thief":
                assert views[-1]["placement"] == HIDDEN
            else:
                assert '"placement"' not in text and '"auto_escape"' not in text, f"H-2: {name} got a secret"


@pytest.mark.asyncio
async def test_T23_T25_T27_losing_the_last_socket_suspends_and_coming_back_resumes(
    make_user: Any, test_clock: list[float]
) -> None:
    match, by_seat = await sync_to_async(running_match)(make_user, test_clock)
    first_tab = await connect(by_seat[0], match.pk)
    second_tab = await connect(by_seat[0], match.pk)
    police = await connect(by_seat[1], match.pk)

    def phase() -> str:
        return str(load_state(Match.objects.get(pk=match.pk)).phase)

    await first_tab.disconnect()
    assert await sync_to_async(phase)() == "countdown", "T-27: the second tab keeps the thief connected"
    await second_tab.disconnect()
    assert await sync_to_async(phase)() == "suspended"
    types = [e["type"] for e in events_of(await messages(police))]
    assert types[-2:] == ["disconnected", "suspended"], types
    back = await connect(by_seat[0], match.pk)
    types = await sync_to_async(
        lambda: list(MatchEvent.objects.filter(match_id=match.pk).order_by("-seq").values_list("type", flat=True)[:2])
    )()
    assert types == ["resume_countdown", "reconnected"]
    await back.disconnect()
    await police.disconnect()


@pytest.mark.asyncio
async def test_T22_T16_pings_get_the_server_clock_and_a_flood_is_dropped(
    make_user: Any, test_clock: list[float]
) -> None:
    match, by_seat = await sync_to_async(running_match)(make_user, test_clock)
    socket = await connect(by_seat[1], match.pk)
    await messages(socket)
    await socket.send_json_to({"type": "ping", "c": 123})
    pong = await socket.receive_json_from(timeout=5)
    assert pong == {"type": "pong", "c": 123, "s": round(test_clock[0] * 1000)}
    for i in range(70):  # within one second of the test clock
        await socket.send_json_to({"type": "ping", "c": i})
    pongs = [m for m in await messages(socket) if m["type"] == "pong"]
    assert len(pongs) == 49, "50 messages a second at most, the first ping included; the rest dropped unread"
    test_clock[0] += 1.0
    await socket.send_json_to({"type": "ping", "c": 1})
    assert (await socket.receive_json_from(timeout=5))["type"] == "pong", "the next second is served again"
    await socket.disconnect()


def test_H2_pages_show_the_scenes_only_to_the_thief(make_user: Any, test_clock: list[float]) -> None:
    match, by_seat = running_match(make_user, test_clock)
    pages = {}
    for name, user in (("thief", by_seat[0]), ("police", by_seat[1]), ("spectator", make_user())):
        client = Client()
        client.force_login(user)
        response = client.get(reverse("match", args=[match.pk]))
        assert response.status_code == 200
        pages[name] = response.content.decode()
    assert '"placement": ["H", "I"]' in pages["thief"]
    for name in ("police", "spectator"):
        assert '"placement"' not in pages[name] and '"auto_escape"' not in pages[name], name
        assert 'id="pa-map"' in pages[name] and "pa-role-" in pages[name]


def test_W2_the_create_form_offers_live_play_only(make_user: Any) -> None:
    """D-23: relay mode is specified as an option only."""
    client = Client()
    client.force_login(make_user())
    html = client.get(reverse("match_create") + "?game=police_alarm").content.decode()
    assert 'name="police_alarm__variant"' in html and 'name="police_alarm__step_ms_0"' in html
    assert "police_alarm__mode" not in html and "police_alarm__relay_hours" not in html


def test_board_status_names_each_viewers_part() -> None:
    view: dict[str, Any] = {"phase": "setup", "role": "thief", "variant": "standard", "thief": 0, "police": 1}
    names = {0: "Ann", 1: "Bob"}
    assert board.status(view, names, 0).startswith("Choose two crime scenes")
    assert board.status({**view, "role": "police"}, names, 1).startswith("The thief is hiding")
    assert board.status({**view, "role": "spectator"}, names, None) == "Ann is hiding the thieves; Bob gets ready."
    running = {**view, "phase": "running", "role": "spectator"}
    assert board.status(running, names, None) == "Ann cracks safes while Bob drives."


def rtts_in(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in received if m["type"] == "rtt"]


@pytest.mark.asyncio
async def test_T21_a_players_round_trip_reaches_the_other_sockets_when_it_is_news(
    make_user: Any, test_clock: list[float]
) -> None:
    async with running_table(make_user, test_clock) as (match, (thief, police, spectator)):
        await police.send_json_to({"type": "ping", "c": 1, "r": 87.4})
        told = {"type": "rtt", "seat": 1, "ms": 87}
        for socket in (thief, police, spectator):
            assert rtts_in(await messages(socket)) == [told]
        await police.send_json_to({"type": "ping", "c": 2, "r": 90})  # 3 ms more: not news
        assert rtts_in(await messages(thief)) == []
        await police.send_json_to({"type": "ping", "c": 3, "r": 260})  # past the warning line
        assert rtts_in(await messages(thief)) == [{"type": "rtt", "seat": 1, "ms": 260}]
        for bad in ("fast", True, -5, 10**9, None):
            await police.send_json_to({"type": "ping", "c": 4, "r": bad})
        assert rtts_in(await messages(thief)) == [], "a round trip that is no number of ms is not told"
        await spectator.send_json_to({"type": "ping", "c": 5, "r": 999})
        assert rtts_in(await messages(thief)) == [], "a spectator's round trip is nobody's concern"
        late = await connect(await sync_to_async(make_user)(), match.pk)
        await police.send_json_to({"type": "ping", "c": 6, "r": 261})
        heard = rtts_in(await messages(late))
        assert heard == [{"type": "rtt", "seat": 1, "ms": 261}], "a newcomer hears it at the next ping"
        await late.disconnect()


def test_T21_round_trips_are_told_when_they_move_cross_the_line_or_are_old() -> None:
    assert livesocket.worth_telling(80, None, 0.0, 1.0)
    assert not livesocket.worth_telling(85, 80, 0.0, 1.0)
    assert not livesocket.worth_telling(95, 80, 0.0, 1.0)
    assert livesocket.worth_telling(96, 80, 0.0, 1.0), "a fifth more"
    assert not livesocket.worth_telling(230, 200, 0.0, 1.0)
    assert livesocket.worth_telling(240, 200, 0.0, 1.0)
    assert livesocket.worth_telling(251, 249, 0.0, 1.0), "crossing 250 ms changes the warning"
    assert livesocket.worth_telling(80, 80, 0.0, livesocket.RTT_RETELL_SECONDS)
    assert livesocket.reported_rtt(12.6) == 13 and livesocket.reported_rtt("12") is None


def test_T21_the_lobby_and_the_board_have_a_place_for_the_round_trips(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    live = services.do_create_match(host, "police_alarm", 2, {}, 60)
    turn_based = services.do_create_match(host, "heist", 3, {}, 60)
    client = Client()
    client.force_login(host)
    assert 'id="live-rtt"' in client.get(reverse("match", args=[live.pk])).content.decode()
    assert 'id="live-rtt"' not in client.get(reverse("match", args=[turn_based.pk])).content.decode()
    services.do_join_match(live.pk, guest)
    services.do_start_match(live.pk, host)
    html = client.get(reverse("match", args=[live.pk])).content.decode()
    assert 'id="pa-rtt-them"' in html and html.count('class="pa-ping"') == 2


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_W15_the_driving_school_is_a_board_of_its_own_with_no_thief_and_no_score(language: str) -> None:
    client = Client(headers={"accept-language": language})
    html = client.get(reverse("driving_school")).content.decode()
    data = json.loads(html.split('<script id="pa-data" type="application/json">')[1].split("</script>")[0])
    assert data["school"] is True and data["view"]["role"] == "police" and data["view"]["tiles"] == {}
    assert 'id="pa-map"' in html and 'id="pa-lap"' in html
    assert re.search(r'id="pa-safes"[^>]*hidden', html), "no safes: there is no thief"
    assert 'id="pa-scores"><' not in html or "pa-score" not in html.split('id="pa-scores"')[1].split("</ul>")[0]
    assert not re.search(r"\b[RTHNWDM]-\d+\b", html.split("<main")[1]), "no rule ids shown"
    heading = "駕駛練習場" if language == "zh-hant" else "Driving school"
    assert f"<h1>{heading}</h1>" in html
    guide = client.get(reverse("how_to_play", args=["police_alarm"])).content.decode()
    assert reverse("driving_school") in guide


@pytest.mark.asyncio
async def test_T23_H2_sockets_opened_in_the_lobby_get_their_seats_board_at_the_start_and_no_one_is_gone(
    make_user: Any,
) -> None:
    """Starting reloads no page, so the sockets opened in the lobby stay open: the game counts no
    player gone (T-23). Each gets its own seat's board at the start (not a spectator's events), and
    its seat's view with each event from then on; a spectator's socket gets the spectator's. The
    thief's hidden scenes then reach the thief's socket only (H-2)."""
    users = [await sync_to_async(make_user)() for _ in range(3)]
    host, guest, _spectator = users
    match = await sync_to_async(services.do_create_match)(host, "police_alarm", 2, {}, 60)
    await sync_to_async(services.do_join_match)(match.pk, guest)
    sockets = {user.pk: await connect(user, match.pk) for user in users}
    for socket in sockets.values():
        await messages(socket)
    await sync_to_async(services.do_start_match)(match.pk, host)
    started = await sync_to_async(Match.objects.get)(pk=match.pk)
    seat_of = {user.pk: number for number, user in (await sync_to_async(seats_of)(started)).items()}
    thief = await sync_to_async(lambda: load_state(Match.objects.get(pk=match.pk)).thief)()

    def role(user: Any) -> str:
        if user.pk not in seat_of:
            return "spectator"
        return "thief" if seat_of[user.pk] == thief else "police"

    for user in users:
        received = await messages(sockets[user.pk])
        boards = [m for m in received if m["type"] == "update" and 'id="board"' in m["html"]]
        assert boards and not events_of(received), received
        assert f"pa-role-{role(user)}" in boards[-1]["html"]
    police = next(seat_of[user.pk] for user in (host, guest) if role(user) == "police")
    await sync_to_async(services.do_submit_action)(match.pk, police, {"type": "ready"})
    for user in users:
        views = [m["view"] for m in await messages(sockets[user.pk]) if m["type"] == "events"]
        assert [view["role"] for view in views] == [role(user)]
    await sync_to_async(services.do_submit_action)(match.pk, thief, {"type": "place", "circles": HIDDEN})
    for user in users:
        received = await messages(sockets[user.pk])
        views = [m["view"] for m in received if m["type"] == "events"]
        assert views, role(user)
        if role(user) == "thief":
            assert views[-1]["placement"] == HIDDEN
        else:
            assert '"placement"' not in json.dumps(received), f"H-2: the {role(user)}'s socket got the scenes"
    kinds = await sync_to_async(
        lambda: set(MatchEvent.objects.filter(match_id=match.pk).values_list("type", flat=True))
    )()
    assert "disconnected" not in kinds and "suspended" not in kinds
    for socket in sockets.values():
        await socket.disconnect()


def seats_of(match: Match) -> dict[int, Any]:
    return {seat.number: seat.user for seat in match.seats.select_related("user")}


def _page_of(user: Any, match: Match) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("match", args=[match.pk]))
    assert response.status_code == 200
    # What changes with every request and says nothing of the game: the CSRF token, and the match's
    # revision (it counts every write, a seat's chat box and presence among them).
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    page = re.sub(r'"X-CSRFToken": "[^"]*"', "", page)
    page = re.sub(r'name="key" value="[^"]*"', "", page)  # each form's fresh idempotency key
    return re.sub(r'(<section id="(?:board|log|chat)"[^>]*?) data-version="[^"]*"', r"\1", page)


def _shown_revision_of(user: Any, match: Match) -> int:
    """The revision ``user``'s match page names on its board (``data-version``)."""
    client = Client()
    client.force_login(user)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    found = re.search(r'<section id="board"[^>]*? data-version="(\d+)"', page)
    assert found, "the board names its revision"
    return int(found.group(1))


def _game_version(page: str) -> int:
    found = re.search(r'data-game-version="(\d+)"', page)
    assert found, "the board names its game version"
    return int(found.group(1))


@pytest.mark.asyncio
async def test_T18_N10_H2_the_placement_and_the_auto_escape_reach_the_thief_only_and_move_nobody_elses_counters(
    make_user: Any, test_clock: list[float]
) -> None:
    """Issue 54, item 4: ``tiles_placed`` and ``auto_escape_set`` are the thief's alone while the round
    runs. The police's and a spectator's sockets get nothing at all for them (not an empty update
    whose version moved), their pages and logs read as before, and the next public event follows on
    from the version they were shown."""
    from .helpers import started_match

    match, by_seat = await sync_to_async(started_match)(make_user, "police_alarm", 2, {"first": "0"}, first_seat=0)
    watcher = await sync_to_async(make_user)()
    thief, police, spectator = await table_sockets(make_user, match, {0: by_seat[0], 1: by_seat[1]})
    viewers = {"police": (police, by_seat[1]), "spectator": (spectator, watcher)}
    before = {name: await sync_to_async(_page_of)(user, match) for name, (_, user) in viewers.items()}
    assert "hidden the thieves" not in before["police"]

    async def thief_does(action: dict[str, Any], key: str) -> None:
        await thief.send_json_to({"type": "act", "action": json.dumps(action), "key": key})
        got = await messages(thief)
        assert [m["status"] for m in got if m["type"] == "answer"] == [200], got
        assert any(
            e["type"] == action["type"].replace("place", "tiles_placed") or e["type"] == "auto_escape_set"
            for e in events_of(got)
        ), "the thief's own socket is told"

    shown_before = {name: await sync_to_async(_shown_revision_of)(user, match) for name, (_, user) in viewers.items()}
    thief_before = await sync_to_async(_shown_revision_of)(by_seat[0], match)
    await thief_does({"type": "place", "circles": HIDDEN}, "p1")
    await thief_does({"type": "auto_escape", "on": True}, "a1")
    assert await sync_to_async(_shown_revision_of)(by_seat[0], match) > thief_before, "the thief's own page moves"
    for name, (socket, user) in viewers.items():
        assert await socket.receive_nothing(timeout=0.3), f"{name}'s socket was sent something"
        after = await sync_to_async(_page_of)(user, match)
        assert after == before[name], f"{name}'s page changed"
        assert await sync_to_async(_shown_revision_of)(user, match) == shown_before[name], f"{name}'s revision moved"
        # A client that syncs with the revision it shows is up to date: nothing is sent.
        await socket.send_json_to({"type": "sync", "revision": shown_before[name], "chat_version": 0})
        assert await socket.receive_nothing(timeout=0.3), f"{name}'s sync brought something"
    # The police sounds the start siren: a public event, which follows on from what the others saw.
    await police.send_json_to({"type": "act", "action": json.dumps({"type": "ready"}), "key": "r1"})
    for name, (socket, user) in viewers.items():
        received = await messages(socket)
        live = [m for m in received if m["type"] == "events"]
        assert live and live[0]["after"] == _game_version(before[name]), (name, received)
        if name == "police":
            answer = next(m for m in received if m["type"] == "answer")
            assert answer["status"] == 200 and answer["version"] == live[-1]["version"], "its answer counts alike"
        assert [e["seq"] for e in events_of(live)] == list(range(live[0]["after"] + 1, live[-1]["version"] + 1))
        text = json.dumps(received)
        for trace in ("tiles_placed", "auto_escape", '"placed"', '"placement"'):
            assert trace not in text, f"{name}'s socket: {trace}"
        page = await sync_to_async(_page_of)(user, match)
        assert _game_version(page) == live[-1]["version"], name
        for trace in ("hidden the thieves", "Auto-escape", "&quot;placed&quot;", '"placed"', '"placement"'):
            assert trace not in page, f"{name}'s page: {trace}"
    assert await thief.receive_nothing(timeout=0.1) is False  # the thief is told of the countdown too
    for socket in (thief, police, spectator):
        await socket.disconnect()
