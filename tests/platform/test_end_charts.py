"""The end-of-game chart of every game (``games.boards.chart_for``, ``games.boards.charts``): one point
per round (heist), each point the engine's own numbers, the last the final result; nothing of it
while a match runs; on the finished match page with its table, all of it in Chinese for a reader of
Chinese."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.boards import chart_for, context_for
from games.boards.contract import BoardInputs
from games.engines.heist.constants import START_BALANCE
from games.engines.registry import get_rules
from games.models import Match
from games.play.archive import import_match
from games.play.store import load_state
from tests.engines.random_play import play
from tests.platform.helpers import client_for, play_bots, started_match
from tests.platform.page_text import LATIN_PHRASE, visible_text

NAMES = {0: "ana", 1: "ben", 2: "cho", 3: "dan", 4: "eve"}
STORED = Path(__file__).resolve().parents[1] / "e2e" / "data"
GAMES = ("heist", "bridge_race", "dirty_money", "exit_memory", "police_alarm")


def finished(game: str, players: int, seed: int, **options: Any) -> tuple[Any, Any]:
    """The rules and the final state of a random game of ``game`` played to its end."""
    rules = get_rules(game)
    _initial, state, _log = play(rules, players, {**{o.name: o.default for o in rules.options}, **options}, seed)
    assert rules.outcome(state) is not None, "the random game did not end"
    return rules, state


def drawn(rules: Any, state: Any, seat: int | None = 0) -> dict[str, Any]:
    chart = chart_for(rules.slug, rules.view(state, seat), NAMES)
    assert chart is not None
    return chart


def cells(chart: dict[str, Any]) -> list[list[int]]:
    return [row["cells"] for row in chart["rows"]]


@pytest.mark.parametrize("seed", [1, 2])
def test_heist_one_point_at_the_start_and_one_after_each_heist_ending_on_the_final_money(seed: int) -> None:
    rules, state = finished("heist", 4, seed)
    chart = drawn(rules, state)
    assert len(chart["rows"]) == state.heist + 1
    assert cells(chart)[0] == [START_BALANCE] * 4
    assert cells(chart)[-1] == list(state.balances) == list(rules.outcome(state).scores)
    heists = [f"Heist {n}" for n in range(1, state.heist + 1)]
    assert [r["label"] for r in chart["rows"]] == ["Before the first heist", *heists]
    assert [line["last"] for line in chart["lines"]] == list(state.balances)
    assert len(chart["lines"][0]["points"].split()) == state.heist + 1


@pytest.mark.parametrize(("seed", "mode"), [(1, "standard"), (2, "closed_border")])
def test_bridge_race_one_point_per_round_ending_on_the_final_places(seed: int, mode: str) -> None:
    rules, state = finished("bridge_race", 3, seed, mode=mode)
    chart = drawn(rules, state)
    assert [r["label"] for r in chart["rows"]] == [f"Round {n}" for n in range(1, state.round + 1)]
    assert cells(chart)[-1] == list(rules.outcome(state).ranks)  # the places the result ranks
    assert all(sorted(row) == [1, 2, 3] for row in cells(chart))
    tops = {t["label"]: t["y"] for t in chart["y_ticks"]}
    assert tops["1"] < tops["3"]  # 1st drawn at the top


@pytest.mark.parametrize("seed", [1, 2])
def test_exit_memory_one_point_per_round_ending_on_the_final_scores(seed: int) -> None:
    rules, state = finished("exit_memory", 3, seed)
    chart = drawn(rules, state)
    assert [r["label"] for r in chart["rows"]] == [f"Round {n}" for n in range(1, state.round + 1)]
    assert cells(chart)[-1] == list(state.scores) == list(rules.outcome(state).scores)
    rows = cells(chart)
    assert all(x <= y for a, b in pairwise(rows) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("seed", [1, 2])
def test_police_alarm_one_point_per_round_with_the_safes_cracked(seed: int) -> None:
    rules, state = finished("police_alarm", 3, seed)
    chart = drawn(rules, state)
    assert [r["label"] for r in chart["rows"]] == [f"Round {n}" for n in range(1, 2 * 3 + 1)]
    assert chart["columns"] == ["ana", "ben", "cho", "Safes cracked"]
    assert [row[:3] for row in cells(chart)][-1] == list(state.scores) == list(rules.outcome(state).scores)
    previous = [0, 0, 0]
    for row in cells(chart):  # the thief gains the cracks (all six once all are cracked)
        gains = [now - before for now, before in zip(row[:3], previous, strict=True)]
        escaped = {row[3], 6 - row[3]} <= set(gains)
        assert 0 <= row[3] <= 6 and sum(gains) == 6 and (escaped or sorted(gains)[-1] == 6)
        previous = row[:3]
    assert len(chart["bars"]) == 6


def test_police_alarm_young_one_point_per_turn_ending_on_the_cards() -> None:
    rules, state = finished("police_alarm", 3, 4, variant="young")
    chart = drawn(rules, state)
    assert [r["label"] for r in chart["rows"]] == [f"Turn {n}" for n in range(1, state.turn + 1)]
    assert cells(chart)[-1] == list(state.scores) and max(state.scores) == 3
    assert not chart["bars"]


@pytest.mark.parametrize("seed", [1, 2])
def test_dirty_money_one_point_per_round_start_and_at_the_end(seed: int) -> None:
    rules, state = finished("dirty_money", 3, seed)
    chart = drawn(rules, state)
    assert len(chart["rows"]) == state.round + 1
    assert [r["label"] for r in chart["rows"]][-1] == "End of the game"
    assert cells(chart) == [list(h) for h in state.history]


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_and_a_spectator_get_the_same_chart_and_only_once_the_game_is_over(game: str) -> None:
    players = 4 if game == "heist" else 3
    rules = get_rules(game)
    options = {o.name: o.default for o in rules.options}
    initial, state, log = play(rules, players, options, 5)
    charts = [chart_for(game, rules.view(state, seat), NAMES) for seat in (None, *range(players))]
    assert charts[0] is not None and all(c == charts[0] for c in charts)
    mid = initial
    for event in log[: len(log) // 2]:
        mid = rules.evolve(mid, event)
    assert rules.outcome(mid) is None
    for seat in (None, *range(players)):
        view = rules.view(mid, seat)
        assert chart_for(game, view, NAMES) is None
        assert not any(view.get(k) for k in ("money_history", "place_history", "score_history", "round_history"))
        board = context_for(game, BoardInputs(view=view, seat=seat, legal=[], names=NAMES, finished=False))
        assert board is not None and board.get("chart") is None


def test_a_chart_survives_a_snapshot_and_a_replay() -> None:
    rules = get_rules("heist")
    initial, state, log = play(rules, 3, {}, 8)
    again = initial
    for event in log:
        again = rules.evolve(again, event)
    assert again.money_history == state.money_history
    assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(state)))) == state
    old = rules.state_to_json(state)
    del old["money_history"]  # a snapshot kept before the series existed still loads
    assert rules.state_from_json(old).money_history == ()


def test_the_chart_fits_its_box_and_thins_its_ticks_on_a_long_game() -> None:
    rules, state = finished("bridge_race", 3, 1)
    chart = drawn(rules, state)
    assert len(chart["rows"]) > 10 >= len(chart["x_ticks"])
    assert chart["x_ticks"][-1]["label"] == str(state.round)
    for line in chart["lines"]:
        for point in line["points"].split():
            x, y = map(float, point.split(","))
            assert chart["plot"]["left"] <= x <= chart["plot"]["right"]
            assert chart["plot"]["top"] <= y <= chart["plot"]["bottom"]


# -- the match page -------------------------------------------------------------------------------


class _ChartPart(HTMLParser):
    """The inside of ``<div id="match-chart">`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.found = False
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
            self.parts.append(self.get_starttag_text() or "")
        elif tag == "div" and ("id", "match-chart") in attrs:
            self.depth, self.found = 1, True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.parts.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
            if self.depth:
                self.parts.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def chart_part(html: str) -> str:
    parser = _ChartPart()
    parser.feed(html)
    assert parser.found, "the page has no #match-chart"
    return "".join(parser.parts)


def stored_finished(make_user: Any, game: str, language: str = "en") -> tuple[Match, list[Any]]:
    document = json.loads((STORED / f"{game}_over.json").read_text())
    users = [make_user() for _ in range(document["seat_count"])]
    for number, user in enumerate(users):
        user.profile.language = language
        user.profile.display_name = "甲乙丙丁戊"[number] + "仔"
        user.profile.save()
    match = import_match(document, users)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, users


def page(client: Client, match: Match, language: str = "en") -> str:
    if language != "en":
        client.cookies["django_language"] = language
    response = client.get(reverse("match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_finished_match_page_draws_the_chart_and_its_table(make_user: Any, game: str) -> None:
    match, users = stored_finished(make_user, game)
    rules = get_rules(game)
    state = load_state(match)
    names = {n: "甲乙丙丁戊"[n] + "仔" for n in range(match.seat_count)}
    with translation.override("en"):
        expected = chart_for(game, rules.view(state, None), names)
    assert expected is not None
    for client in [client_for(users[0]), client_for(make_user())]:  # a player and a spectator
        part = chart_part(page(client, match))
        assert part.count("<polyline") == match.seat_count  # one line per seat
        assert part.count("<tr>") == len(expected["rows"]) + 1  # the header and one row per point
        for row in expected["rows"]:
            assert f'<th scope="row">{row["label"]}</th>' + "".join(f"<td>{v}</td>" for v in row["cells"]) in part
        assert "<details" in part and "<table" in part and 'role="img"' in part


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_chart_of_a_chinese_page_has_no_english(make_user: Any, game: str) -> None:
    match, users = stored_finished(make_user, game, "zh-hant")
    client = client_for(users[1])
    part = chart_part(page(client, match, "zh-hant"))
    text = visible_text(part)
    assert text, "no chart on the page"
    assert not LATIN_PHRASE.findall(text), text
    words = re.findall(r"[A-Za-z]{2,}", text)
    assert not words, words


@pytest.mark.django_db
def test_while_a_heist_runs_no_page_carries_a_chart_or_its_series(make_user: Any) -> None:
    match, users = started_match(make_user, "heist", 4, seed="chart-secrets")
    clients = [client_for(u) for u in users.values()] + [client_for(make_user())]
    rng = random.Random(2)
    for _ in range(6):
        play_bots(match, rng, 5)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        for client in clients:
            html = page(client, match)
            assert chart_part(html) == ""
            assert "money_history" not in html and "chart-svg" not in html
        state = load_state(match)
        assert all(get_rules("heist").view(state, s)["money_history"] is None for s in (None, 0, 1, 2, 3))
