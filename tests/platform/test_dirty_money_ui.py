"""dirty_money on the site: the table, the payment picker and what each seat is sent (issue 11).

Pages of real matches driven through ``services.do_submit_action`` are searched for the id of every
card the viewer may not see at that moment (section 8.2: other hands, blacklists, token piles, the
money deck and the placement decks), and the picker's forms are checked against the engine's legal
payments (R-61 to R-63, R-89).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.urls import reverse

from games.engines.base import SYSTEM
from games.engines.dirty_money import RULES
from games.engines.dirty_money.cards import PLACEMENTS
from games.engines.dirty_money.state import State
from games.models import Match
from games.play import services
from games.play.store import load_state

from .helpers import client_for, page_html, page_viewers, play_bots, play_checking_pages, started_match
from .page_text import dirty_money_english_terms
from .watch import bots_watched

pytestmark = pytest.mark.django_db(transaction=True)

CARD_ID = re.compile(r"\b(?:EUR|USD|YEN|CRY)-\d[CD]-\d\b|\bACT-[A-Z0-9]+-\d\b|\b(?:EU|US|JP)-\d\d\b")


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Section 8.2: the card ids ``seat`` (None: a spectator) may not see now."""
    hidden: set[str] = set(state.deck)
    over = state.phase == "over"
    for deck in state.pdecks:
        hidden.update(deck)
    for other, hand in enumerate(state.hands):
        if other == seat or over:  # every hand is shown at the end
            continue
        if seat is not None and seat == state.active and other == state.trade_target:
            continue  # the Trade's actor looks at the target's hand
        hidden.update(hand)
    for blacklist in state.blacklists:
        hidden.update(c for c in blacklist if c != "*")
    for pile in state.tokens:
        hidden.update(c for _holder, c in pile if c != "*")
    return hidden


def leaked(html: str, state: State, seat: int | None) -> set[str]:
    return hidden_from(state, seat) & set(CARD_ID.findall(html))


@pytest.mark.parametrize(
    ("players", "options", "seed", "steps"), [(3, {}, 1, 400), (5, {"quick": True, "choice": True}, 2, 150)]
)
def test_no_page_shows_a_card_its_viewer_may_not_see_section_8_2(
    make_user: Any, players: int, options: dict[str, Any], seed: int, steps: int
) -> None:
    match, users = started_match(make_user, "dirty_money", players, options)
    clients = page_viewers(make_user, users)

    def check(html: str, state: State, seat: int | None) -> None:
        assert not leaked(html, state, seat), f"seat {seat} was shown hidden cards"
        if seat is not None and state.phase != "over":
            for card in state.hands[seat]:  # my own hand is on my page
                assert f'data-card="{card}"' in html

    final, checked = play_checking_pages(match, clients, random.Random(seed), steps, check)
    assert checked >= 20 * len(clients)
    if players == 3:
        assert final.phase == "over", "the bots did not finish the game"


def until(match: Match, rng: random.Random, wanted: Any, limit: int = 600) -> State:
    """Play bots' moves until ``wanted(state)`` holds."""
    state = load_state(match)
    for _ in range(limit):
        if wanted(state):
            return state
        state = play_bots(match, rng, 1)
    raise AssertionError("the position never came up")


def can_buy(state: State) -> bool:
    seats = RULES.actors(state)
    return len(seats) == 1 and any(a["type"] == "buy" for a in RULES.legal_actions(state, min(seats)))


FORM = re.compile(r'<form method="post" action="[^"]+" data-act class="dm-pay".*?</form>', re.S)
INPUT = re.compile(r"<input ([^>]*)>")
SELECTED = re.compile(r'<select name="shark_card">.*?</select>', re.S)


def submitted_fields(form: str) -> list[tuple[str, str]]:
    """What a browser posts for this form as it is shown: hidden inputs, checked boxes, the selection."""
    out = []
    for attrs in INPUT.findall(form):
        name = re.search(r'name="([^"]+)"', attrs)
        value = re.search(r'value="([^"]*)"', attrs)
        if not name or not value:
            continue
        if 'type="checkbox"' in attrs and " checked" not in attrs:
            continue
        out.append((name.group(1), html_unescape(value.group(1))))
    select = SELECTED.search(form)
    if select:
        chosen = re.search(r'<option value="([^"]*)" selected>', select.group(0))
        out.append(("shark_card", chosen.group(1) if chosen else ""))
    return out


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_R61_R63_the_picker_posts_a_legal_payment_and_the_placement_is_bought(make_user: Any) -> None:
    match, users = started_match(make_user, "dirty_money", 3)
    state = until(match, random.Random(5), can_buy)
    seat = min(RULES.actors(state))
    page = page_html(client_for(users[seat]), match)
    forms = FORM.findall(page)
    assert forms, "no payment form for a player who can buy"
    fields = submitted_fields(forms[0])
    payment = [v for k, v in fields if k == "payment[]"]
    action = json.loads(next(v for k, v in fields if k == "action"))
    legal = [a for a in RULES.legal_actions(state, seat) if a["type"] == "buy" and a["cards"] == action["cards"]]
    assert any(sorted(a["payment"]) == sorted(payment) for a in legal), "the picker's first payment is not legal"
    response = client_for(users[seat]).post(reverse("match_action", args=[match.pk]), dict_of(fields))
    assert response.status_code == 302  # a plain form post: back to the page
    match.refresh_from_db()
    after = load_state(match)
    assert set(action["cards"]) <= set(after.tableaux[seat])
    for card in payment:
        assert card not in after.hands[seat]


def dict_of(fields: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in fields:
        if name.endswith("[]"):
            out.setdefault(name, []).append(value)
        else:
            out[name] = value
    return out


def surplus_buy(state: State) -> tuple[int, dict[str, Any], str] | None:
    """A legal buy of the seat to act and a spare card of an eligible currency to add to its payment."""
    if not can_buy(state):
        return None
    seat = min(RULES.actors(state))
    currencies = {"EU": "EUR", "US": "USD", "JP": "YEN"}
    for buy in RULES.legal_actions(state, seat):
        if buy["type"] != "buy" or not buy["payment"]:
            continue
        paying = ("CRY", currencies[PLACEMENTS[buy["cards"][0]].region])
        spare = [c for c in state.hands[seat] if c not in buy["payment"] and c.split("-")[0] in paying]
        if spare:
            return seat, buy, spare[0]
    return None


def test_R63_a_surplus_payment_is_refused_with_a_clear_message_and_changes_nothing(make_user: Any) -> None:
    match, users = started_match(make_user, "dirty_money", 3)
    state = until(match, random.Random(5), lambda s: surplus_buy(s) is not None)
    found = surplus_buy(state)
    assert found is not None
    seat, buy, spare = found
    version = match.version
    posted = {"action": json.dumps({**buy, "payment": [*buy["payment"], spare]}), "version": str(version)}
    response = client_for(users[seat]).post(reverse("match_action", args=[match.pk]), posted, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    message = re.search(r"<div class=\"error\" role=\"alert\">([^<]*)<", response.content.decode())
    assert message, "no error shown"
    assert "surplus" in message.group(1)
    match.refresh_from_db()
    assert match.version == version


@pytest.mark.asyncio
async def test_no_socket_message_carries_a_card_its_seat_may_not_see_section_8_2(make_user: Any) -> None:

    def check(text: str, seen: State, seat: int | None) -> None:
        assert not leaked(text, seen, seat), f"seat {seat} was sent hidden cards"

    assert await bots_watched(make_user, "dirty_money", 7, check) > 60


def test_bot_seats_play_their_turns_and_a_timed_out_decision_takes_its_default_10_3(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "dirty_money", 3, {"quick": True}, 3600)
    services.do_add_bot(match.pk, host)
    services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)  # eager Celery: the bots move until the person is asked
    match.refresh_from_db()
    state = load_state(match)
    human = next(s.number for s in match.seats.all() if s.user_id == host.pk)
    assert RULES.actors(state) == frozenset({human}), "the bots did not play up to the person's decision"
    bot_moves = match.events.exclude(actor__in=[human, SYSTEM]).count()
    for _ in range(200):  # the person never answers: each deadline passes and its default applies
        if match.status != Match.Status.ACTIVE:
            break
        deadline = min(RULES.deadlines(load_state(match)), key=lambda d: d.due)
        assert human in deadline.seats
        assert services.do_force_timeout(match.pk) is not None
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, "a game of time-outs and bots did not end"
    assert match.events.exclude(actor__in=[human, SYSTEM]).count() > bot_moves
    timed_out = match.events.filter(actor=SYSTEM, type="timed_out")
    assert timed_out.exists() and all(e.data["seat"] == human for e in timed_out)


def test_a_chinese_page_has_no_english_game_term_left(make_user: Any) -> None:
    """Issue 11 / issue 10 item 8: the board, the log and the end table in zh-Hant name everything in Chinese."""
    match, users = started_match(make_user, "dirty_money", 3)
    terms = dirty_money_english_terms()
    clients = []
    for seat, user in users.items():
        user.profile.language = "zh-hant"
        user.profile.save()
        clients.append((seat, client_for(user)))

    def check(state: State) -> None:
        if state.round % 2 and state.phase != "over":
            return
        for _seat, client in clients:
            html = page_html(client, match)
            assert 'lang="zh-hant"' in html
            # whole words only: a random CSRF token may well contain "USA"
            shown = {term for term in terms if re.search(rf"(?<![A-Za-z0-9]){re.escape(term)}(?![A-Za-z0-9])", html)}
            assert not shown, f"English terms on a Chinese page: {sorted(shown)[:8]}"

    final = play_bots(match, random.Random(4), 400, check)
    assert final.phase == "over"
