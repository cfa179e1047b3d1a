"""Issue 10, item 2: heist shows each heist's result (R-29..R-44 as players read them), the log after
the game names each seat's secret choices by player, and final standings read "1. Bob — 23M, ★ winner"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engines.base import Event
from games.engines.registry import get_rules
from games.models import Match
from games.play import services
from games.push.presenter import event_for, score_text

from .helpers import page_for, started_match, state_of

pytestmark = pytest.mark.django_db

HEIST = get_rules("heist")


def play_first_heist(match: Match, roles: list[str], withdraw: set[int]) -> None:
    """Every seat chooses ``roles[seat]``; the seats in ``withdraw`` withdraw, the others commit."""
    for seat, role in enumerate(roles):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": [role]})
    for seat in range(len(roles)):
        kind = "withdraw" if seat in withdraw else "commit"
        action = next(a for a in HEIST.legal_actions(state_of(match), seat) if a["type"] == kind)
        services.do_submit_action(match.pk, seat, action)


def test_item2_result_panel_shows_who_was_what_the_split_and_every_change(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    names = {seat: user.profile.display_name for seat, user in by_seat.items()}
    loot = state_of(match).loot
    play_first_heist(match, ["THUG", "DRIVER", "GOON", "THUG"], withdraw={3})
    balances = state_of(match).balances
    html = page_for(by_seat[0], match)
    panel = html.split('class="heist-result"', 1)[1].split("</section>", 1)[0]
    assert "Result of heist 1" in panel
    assert f"<strong>{names[0]}</strong>: Thug" in panel and f"<strong>{names[1]}</strong>: Driver" in panel
    assert f"<strong>{names[2]}</strong>: Goon" in panel and "got away" in panel
    assert f"Withdrew: {names[3]}" in panel  # a withdrawn role stays secret
    assert "Thug" not in panel.split("Withdrew:", 1)[1].split("</p>", 1)[0]
    assert f"{names[0]} paid the Driver {names[1]} 1M." in panel
    assert f"The Goon {names[2]} took 2M from the Thug {names[0]}." in panel
    assert "gained a threat card" in panel
    if loot == "L01":
        assert f"{names[0]} got the Thug bonus: 1M." in panel
    # Every balance change shown is the real one (5M at the start, no offers were made).
    for seat, name in names.items():
        change = balances[seat] - 5
        text = f"+{change}M" if change > 0 else f"−{-change}M" if change < 0 else "0M"
        assert re.search(rf'<th scope="row">{name}</th><td class="[a-z]*">{re.escape(text)}</td>', panel), (name, text)
    # The panel is public: a spectator sees the same result, and it stays into the next heist's choice.
    spectator = page_for(make_user(), match)
    assert "Result of heist 1" in spectator
    assert state_of(match).heist == 2 and state_of(match).phase == "planning"


def test_item2_caught_hands_say_why(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    play_first_heist(match, ["DRIVER", "DRIVER", "GOON", "THUG"], withdraw=set())
    panel = page_for(by_seat[2], match).split('class="heist-result"', 1)[1].split("</section>", 1)[0]
    assert panel.count("caught: same role as another") == 2
    assert len(re.findall(r"stake [12]M lost", panel)) == 2  # both Drivers forfeit their stakes


def test_item2_after_the_game_the_log_names_whose_secret_it_was() -> None:
    chosen = Event("role_chosen", {"seat": 1}, {"roles": ["THUG"]}, (1,))
    looked = Event("threat_used", {"seat": 2, "target_seat": 0, "slot": 1}, {"role": "GOON"}, (2,))
    for event, mine, theirs in (
        (chosen, "You chose %(roles)s.", "%(seat)s chose %(roles)s."),
        (looked, "You saw: %(target_seat)s is the %(role)s.", "%(seat)s saw: %(target_seat)s is the %(role)s."),
    ):
        owner = event.visible_to[0]
        assert mine in [line.message for line in HEIST.log_lines(event_for(event, owner, finished=True))]
        other_lines = HEIST.log_lines(event_for(event, 0 if owner else 3, finished=True))
        assert theirs in [line.message for line in other_lines]
        assert all(not line.message.startswith("You") for line in other_lines)
        assert next(line for line in other_lines if line.message == theirs).params["seat"] == owner
    during = HEIST.log_lines(event_for(chosen, 0, finished=False))
    assert [line.message for line in during] == ["%(seat)s has chosen."]  # nothing secret before the end


def test_item2_dirty_money_revealed_draws_name_the_drawer_too() -> None:
    rules = get_rules("dirty_money")
    drew = Event("launder_drew", {"seat": 2}, {"card": "EUR-3C-1"}, (2,))
    lines = rules.log_lines(event_for(drew, 0, finished=True))
    assert [line.message for line in lines][-1] == "%(seat)s drew %(card)s." and lines[-1].params["seat"] == 2
    assert rules.log_lines(event_for(drew, 2, finished=True))[-1].message == "You drew %(card)s."


def test_item2_final_standings_read_rank_name_score_in_the_games_unit(make_user: Any) -> None:
    assert score_text("heist", 23) == "23M" and score_text("bridge_race", -300) == "−$300"
    assert score_text("bridge_race", 1200) == "$1,200" and score_text("dirty_money", 1) == "1 point"
    match, by_seat = started_match(make_user)
    names = {seat: user.profile.display_name for seat, user in by_seat.items()}
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        outcome={"scores": [23, 12, 23, 5], "ranks": [1, 3, 1, 4], "winners": [0, 2], "reason": "target"},
    )
    html = page_for(by_seat[1], match)
    standings = html.split('class="standings"', 1)[1].split("</ol>", 1)[0]
    standings = re.sub(r"</?a\b[^>]*>", "", standings)  # each name links to the player's page
    assert f"1. {names[0]} — 23M, ★ winner" in standings and f"1. {names[2]} — 23M, ★ winner" in standings
    assert f"3. {names[1]} — 12M</li>" in standings and f"4. {names[3]} — 5M</li>" in standings
