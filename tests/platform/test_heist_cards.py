"""Issue 10, item 3: heist drawn as a table of cards: hands face down until revealed (R-4, R-65),
the pool as cards (R-17), the loot card as what it says (R-13), threat cards (section 2.6) and the
boss card (section 2.5); the same art on the board and the How to play page."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.boards.heist.words import loot_names
from games.engines.heist.constants import LOOT
from games.models import Match
from games.play import services
from games.push.presenter import log_lines

from .helpers import play_one, started_match, state_of

pytestmark = pytest.mark.django_db


def board_of(user: Any, match: Match) -> str:
    client = Client()
    client.force_login(user)
    return client.get(match.get_absolute_url()).content.decode()


def seat_panel(html: str, seat: int) -> str:
    return html.split(f'<li id="heist-seat-{seat}" class="seat-panel" data-seat="{seat}">', 1)[1].split("</li>", 1)[0]


def test_item3_hands_are_cards_face_down_for_everyone_but_in_my_own_panel(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    for seat, role in enumerate(["THUG", "DRIVER", "GOON", "THUG"]):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})
    html = board_of(by_seat[1], match)
    for seat in range(4):
        panel = seat_panel(html, seat)
        assert panel.count('class="hcard back hand undecided"') == 1 and 'data-face="down"' in panel
        assert "role-" not in panel and "secret role" in panel  # nobody's role on the table
    mine = html.split('class="my-roles"', 1)[1].split("</p>", 1)[0]
    assert 'class="hcard role role-driver mine"' in mine and 'href="#hc-driver"' in mine
    assert '<symbol id="hc-driver"' in html  # the art is on the page once
    assert html.count('<symbol id="hc-driver"') == 1


def test_item3_pool_is_drawn_as_face_up_cards_and_one_set_aside(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    roles = ["THUG", "DRIVER", "GOON", "THUG"]
    for seat, role in enumerate(roles):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})
    state = state_of(match)
    html = board_of(by_seat[0], match)
    pool = html.split('<div class="pool">', 1)[1].split('id="heist-result"', 1)[0]
    face_up = re.findall(r'class="hcard role role-(\w+) pool-card"', pool)
    assert sorted(face_up) == sorted(r.lower() for r in state.pool)  # the face-up cards, as they are
    assert len(face_up) == len(roles) - 1 and pool.count('class="hcard back set-aside"') == 1


def test_item3_loot_threat_and_boss_cards(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    state = state_of(match)
    loot = LOOT[state.loot]
    html = board_of(by_seat[0], match)
    card = html.split('class="hcard loot tip"', 1)[1].split("</span></span>", 1)[0]
    assert f'<span class="hcard-name">{loot.total}M</span>' in card and f"stake {loot.stake}M per hand" in card
    assert state.loot not in card  # the card is what it says, not its id
    boss = seat_panel(html, state.boss)
    assert 'class="hcard boss small tip"' in boss and ">Boss<" in boss
    assert all('class="hcard boss' not in seat_panel(html, s) for s in range(4) if s != state.boss)
    assert "0 threat cards" in seat_panel(html, 0) and 'class="hcard threat mini"' not in html


def test_item3_a_lone_thug_shows_its_threat_card_and_the_result_panel_draws_the_roles(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    for seat, role in enumerate(["THUG", "DRIVER", "GOON", "THUG"]):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})
    services.do_submit_action(match.pk, 3, {"type": "withdraw", "slot": 1})
    for seat in (0, 1, 2):
        services.do_submit_action(match.pk, seat, {"type": "commit"})
    assert state_of(match).threats[0] == 1  # the lone Thug earned one
    html = board_of(by_seat[2], match)
    thug = seat_panel(html, 0)
    assert thug.count('class="hcard threat mini"') == 1 and "1 threat card<" in thug
    result = html.split('class="heist-result" data-heist="1"', 1)[1].split("</section>", 1)[0]
    for role in ("thug", "driver", "goon"):
        assert f'class="role-icon role-{role}"' in result
    assert 'style="--i: 2"' in result  # the hands are dealt in one after another


def test_item3_the_log_names_the_loot_card_by_what_it_says(make_user: Any) -> None:
    match, _ = started_match(make_user)
    state = state_of(match)
    loot = LOOT[state.loot]
    lines = [line["text"] for line in log_lines(match, 0)]
    started = next(line for line in lines if line.startswith("Heist 1:"))
    assert f"worth {loot.total}M, stake {loot.stake}M per hand" in started and state.loot not in started
    assert loot_names(["L01", "L10"]) == "8M (stake 1M), 12M (stake 2M)"


def test_item3_board_script_and_reduced_motion(make_user: Any) -> None:
    from django.contrib.staticfiles import finders

    match, by_seat = started_match(make_user)
    html = board_of(by_seat[0], match)
    assert "js/heist.js" in html and "css/heist.css" in html
    css_path = finders.find("css/heist.css")
    assert isinstance(css_path, str)
    with open(css_path, encoding="utf-8") as css:
        reduced = css.read().split("@media (prefers-reduced-motion: reduce)", 1)[1]
    assert ".hcard.flip" in reduced.split("}", 1)[0] and "animation: none" in reduced


def test_item1_after_a_roll_call_the_undecided_players_see_what_is_asked_and_in_which_order(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    for seat, role in enumerate(["THUG", "DRIVER", "GOON", "THUG"]):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})
    boss = state_of(match).boss
    committed = (boss + 2) % 4
    services.do_submit_action(match.pk, committed, {"type": "commit"})
    services.do_submit_action(match.pk, boss, {"type": "roll_call"})  # R-76 a
    names = {s: u.profile.display_name for s, u in by_seat.items()}
    order = ", ".join(names[(boss + k) % 4] for k in (1, 3, 4))  # clockwise from the boss, undecided only
    for seat, user in by_seat.items():
        panel = board_of(user, match).split('id="heist-me"', 1)[1].split('id="heist-actions"', 1)[0]
        if seat == committed:
            assert "boss-notice" not in panel  # nothing is asked of a decided player
        else:
            assert f"say their role in the chat, in this order: {order}." in panel, panel


def test_item1_a_prompted_player_and_a_called_heist_show_their_countdowns() -> None:
    from games.boards.heist.context import boss_notices

    view = {
        "phase": "negotiation",
        "players": 4,
        "hands": [{"seat": s, "status": "committed" if s == 3 else "undecided"} for s in range(4)],
        "boss": {"seat": 0, "roll_call_used": False, "prompts": [{"seat": 2, "due": 1234.0}], "call_due": 1300.0},
    }
    names = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
    prompted = boss_notices(view, 2, names)
    assert [n["due"] for n in prompted] == [1234.0, 1300.0]  # R-76 b for Cat, R-76 c for everyone undecided
    assert "prompted you" in str(prompted[0]["text"]) and "called the heist" in str(prompted[1]["text"])
    assert [n["due"] for n in boss_notices(view, 1, names)] == [1300.0]
    assert boss_notices(view, 3, names) == []  # Dan has decided: nothing is asked of him
    assert boss_notices({**view, "phase": "planning"}, 2, names) == []


def test_a_secret_events_line_is_worded_for_its_owner_alone(make_user: Any) -> None:
    """A push words each new event once per way of seeing it, on the one match object every seat's
    board is rendered from: the chooser's line names the role, the others' lines do not."""
    from games.models import Match
    from games.push.presenter import prefetch_log

    match, _ = started_match(make_user)
    chosen = services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}).version
    after = Match.objects.get(pk=match.pk)
    prefetch_log(after, [0, 1, 2], {})
    # The choice's own lines: an earlier line may name the Goon by chance (a loot card's bonus).
    lines = {seat: [line["text"] for line in log_lines(after, seat) if line["seq"] == chosen] for seat in (0, 1, 2)}
    assert lines[0] and any("Goon" in text for text in lines[0]), lines[0]
    assert lines[1] and not any("Goon" in text for text in lines[1] + lines[2]), lines[1]
    assert lines[1] == lines[2]


def test_the_offer_form_is_a_fragment_of_its_own_that_a_commit_leaves_alone(make_user: Any) -> None:
    """A commit changes the committing player's actions (no more "stay or withdraw") but not the
    offer form, which stands for every offer (R-22, R-24: only a fully withdrawn player stops making
    them): the push after it re-sends the actions panel and not the form."""
    from games.push import pushes

    match, by_seat = started_match(make_user)
    for seat, role in enumerate(["THUG", "DRIVER", "GOON", "THUG"]):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})

    def fragments() -> dict[str, str]:
        return pushes.render_seat(Match.objects.get(pk=match.pk), by_seat[2], {"board"}).frags

    before = fragments()
    assert "Stay or withdraw" in before["heist-actions"] and "offer-form" not in before["heist-actions"]
    assert "Make a binding offer" in before["heist-offer-form"]
    services.do_submit_action(match.pk, 2, {"type": "commit"})
    after = fragments()
    assert "Stay or withdraw" not in after["heist-actions"]
    assert after["heist-offer-form"] == before["heist-offer-form"]
    assert "Your actions" not in after["heist-actions"], "no empty actions panel beside the offer form"


def test_cards_are_drawn_once_per_language_and_what_they_show() -> None:
    """The heist cards module keeps each card it draws per language and what the card shows: a kept card is the
    one a fresh drawing gives, in the language asked, and a change of what it shows draws it again."""
    from games.boards.heist import cards as heist_cards
    from games.push import speaking

    heist_cards._drawn.clear()
    hand = {"seat": 1, "slot": 1, "status": "undecided", "stake": 2, "result": None, "role": None}
    revealed = {**hand, "status": "committed", "role": "DRIVER", "result": "survived"}
    drawn: dict[str, list[Any]] = {}
    for language in ("en", "zh-hant", "en"):
        with speaking.speaking(language):
            draws: list[tuple[Callable[..., Any], Callable[..., Any], tuple[Any, ...]]] = [
                (heist_cards.hand_card, heist_cards._hand_card, (hand, 1, 1)),
                (heist_cards.hand_card, heist_cards._hand_card, (revealed, 1, 2)),
                (heist_cards.threat_cards, heist_cards._threat_cards, (0,)),
                (heist_cards.threat_cards, heist_cards._threat_cards, (2,)),
                (heist_cards.boss_card, heist_cards._boss_card, ()),
                (heist_cards.role_tip, heist_cards._role_tip, ("GOON",)),
            ]
            cards = [kept(*args) for kept, _fresh, args in draws]
            assert cards == [fresh(*args) for _kept, fresh, args in draws]
            drawn.setdefault(language, cards)
            assert drawn[language] == cards
    assert drawn["en"] != drawn["zh-hant"], "each language its own cards"
    assert "secret role" in drawn["en"][0] and 'data-face="up"' in drawn["en"][1] and "#1" in drawn["en"][1]


# The seat panel as board.html drew it before games.boards.heist.panels.seat_panel: the Python panel must
# give the same HTML, byte for byte.
_TEMPLATE_SEAT_PANELS = (Path(__file__).parent / "heist_seat_panel_before.html").read_text()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_seat_panels_written_in_python_are_the_templates_byte_for_byte(make_user: Any, language: str) -> None:
    """Over a random game (choices, negotiation, reveals, the next heists), every seat's public panel
    drawn by games.boards.heist.panels.seat_panel equals what the template drew, in both languages."""
    import random

    from django.template import Context, Template

    from games.boards.heist.panels import seat_panel
    from games.push.presenter import match_context
    from games.push.speaking import speaking
    from games.templatetags import hideout

    # "Not fooled again": a later heist's panels show the roles each seat played in the one before.
    match, _users = started_match(make_user, "heist", 4, options={"no_repeat": True})
    rng = random.Random(f"seats-{language}")
    template = Template(_TEMPLATE_SEAT_PANELS)
    hideout._compact(template.nodelist)  # as the fragment tag compacts its own nodes
    phases: set[str] = set()
    compared = later_heists = 0
    for _move in range(240):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        with speaking(language):
            context = match_context(match, None)
            # Without the match, the fragment tag draws from this context as it is, nothing kept.
            expected = template.render(Context({k: v for k, v in context.items() if k != "match"}))
            drawn = "".join(seat_panel(context, s.number) for s in context["seats"])
        assert expected.strip() == drawn, context["view"]["phase"]
        phases.add(context["view"]["phase"])
        compared += 1
        later_heists += "seat-last" in drawn
        play_one(match, rng, lambda rules, state, seat: rules.bot_action(state, seat, rng))
    assert compared > 25 and {"planning", "negotiation"} <= phases, phases
    assert later_heists > 0, "a later heist shows the roles played in the one before"


_TEMPLATE_ACTION_PANEL = (Path(__file__).parent / "heist_action_panel_before.html").read_text()


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "language"), [(3, "en"), (4, "zh-hant"), (3, "zh-hant"), (5, "en")])
def test_the_action_panels_written_in_python_are_the_templates_byte_for_byte(
    make_user: Any, players: int, language: str
) -> None:
    """Over a random game (two hands each with three players, R-52), every seat's own action panel
    drawn by games.boards.heist.panels.action_panel equals what the template drew, in both languages."""
    import random

    from django.template import Context, Template

    from games.boards.heist.panels import action_panel
    from games.push.presenter import match_context
    from games.push.speaking import speaking
    from games.templatetags import hideout

    match, users = started_match(make_user, "heist", players, options={"no_repeat": True})
    rng = random.Random(f"actions-{players}-{language}")
    template = Template(_TEMPLATE_ACTION_PANEL)
    hideout._compact(template.nodelist)
    kinds: set[str] = set()
    compared = 0
    for _move in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        for user in users.values():
            with speaking(language):
                context = match_context(match, user)
                expected = template.render(Context({k: v for k, v in context.items() if k != "match"}))
                assert expected.strip() == action_panel(context), (context["seat"], context["view"]["phase"])
            kinds |= {a["type"] for a in context["legal"]}
            compared += 1
        play_one(match, rng, lambda rules, state, seat: rng.choice(rules.legal_actions(state, seat)))
    assert compared > 60 and {"choose", "withdraw", "commit", "roll_call"} <= kinds, kinds


@pytest.mark.parametrize("two_hands", [False, True])
def test_the_boss_powers_and_looks_in_python_are_the_templates_byte_for_byte(two_hands: bool) -> None:
    """The boss's prompt and call (R-76), the looks and the lone informant's naming (R-31), which a
    random game may not reach, with a player's name that must be escaped."""
    from django.template import Context, Template

    from games.boards.heist.panels import action_panel
    from games.templatetags import hideout

    legal = [
        {"type": "name", "role": "DRIVER"},
        {"type": "roll_call"},
        {"type": "prompt", "target_seat": 1},
        {"type": "prompt", "target_seat": 2},
        {"type": "call"},
        {"type": "look", "target_seat": 1, "slot": 2},
        {"type": "withdraw", "slot": 1},
        {"type": "commit"},
    ]
    context = {
        "legal": legal,
        "view": {"hands_per_player": 2 if two_hands else 1, "me": {"allowed_roles": ["GOON", "THUG"]}},
        "board": {"acts": True},
        "names": {1: '<Bob & "Eve">', 2: "阿明"},
        "action_url": "/m/1/action/",
    }
    template = Template(_TEMPLATE_ACTION_PANEL)
    hideout._compact(template.nodelist)
    drawn = action_panel(context)
    assert template.render(Context(context)).strip() == drawn
    assert "&lt;Bob &amp; &quot;Eve&quot;&gt;" in drawn and "<Bob" not in drawn
