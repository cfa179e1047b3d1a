"""A number no form writes, or any error an engine raises while reading a payload, is a 400, never a 500."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.heist.rules import HeistRules
from games.models import MatchEvent

from .helpers import started_match

HOSTILE_NUMBERS = ("²", "٣", "--1")


def post_action(user: Any, match_id: int, action: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(reverse("match_action", args=[match_id]), {"action": json.dumps(action)})


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("game", "players", "action", "field"),
    [
        ("heist", 3, {"type": "withdraw", "slot": 1}, "slot"),
        ("heist", 3, {"type": "accept", "offer": 1}, "offer"),
        ("heist", 3, {"type": "look", "target_seat": 1, "slot": 1}, "target_seat"),
        ("heist", 3, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"}, "amount"),
        ("bridge_race", 3, {"type": "BUY", "slot": 0}, "slot"),
        ("bridge_race", 3, {"type": "END_TURN", "sell": [0]}, "sell"),
        ("bridge_race", 3, {"type": "PLACE_RAMP", "cell": [0, 1], "dir": 1}, "dir"),
    ],
)
def test_numbers_no_form_writes_are_answered_400(
    make_user: Any, game: str, players: int, action: dict[str, Any], field: str
) -> None:
    match, by_seat = started_match(make_user, game=game, players=players)
    events = MatchEvent.objects.filter(match=match).count()
    for value in HOSTILE_NUMBERS:
        response = post_action(by_seat[0], match.pk, {**action, field: value})
        assert response.status_code == 400, (action, field, value, response.status_code)
    assert MatchEvent.objects.filter(match=match).count() == events


@pytest.mark.django_db(transaction=True)
def test_any_error_an_engine_raises_reading_a_payload_is_a_logged_400(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match, by_seat = started_match(make_user, game="heist", players=3)

    def slip(self: HeistRules, payload: Any) -> Any:
        return {"type": payload["no such field"]}  # a KeyError: an engine's bug, not the player's

    monkeypatch.setattr(HeistRules, "parse_action", slip)
    with caplog.at_level(logging.ERROR, logger="games.play.decision"):
        response = post_action(by_seat[0], match.pk, {"type": "commit"})
    assert response.status_code == 400
    assert any(record.exc_info and record.exc_info[0] is KeyError for record in caplog.records)
