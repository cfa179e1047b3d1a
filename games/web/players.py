"""A player's page (``/u/<username>/``) and "My matches".

A player is named in the address by their username: display names may repeat, usernames are
unique and address-safe. Both pages read a player's seats with their matches in a few queries
whatever their number (the counts per game are grouped by the database; the lists are a page
at a time).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.engines.registry import available
from games.models import Match, Rating, Seat, player_name
from games.ratings import scale
from games.ratings.changes import of_player
from games.web.forms import MatchFilterForm
from games.web.records import replay_url, result_text, won
from games.web.views import signed_in

RECENT = 10
PER_PAGE = 20


def _game_name(slug: str) -> str:
    return Match(game=slug).game_name


def _results(seats: QuerySet[Seat]) -> list[tuple[str, int, list[int], int]]:
    """(game, seat number, winners, how many) of ``seats``' matches, counted by the database: a few
    rows for a thousand matches (the winners read as text, not each outcome decoded)."""
    grouped = (
        seats.annotate(winners=KeyTextTransform("winners", "match__outcome"))
        .values_list("match__game", "number", "winners")
        .annotate(count=Count("id"))
        .order_by()
    )
    return [(game, number, json.loads(winners or "[]"), count) for game, number, winners, count in grouped]


@login_required
@require_GET
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model().objects.select_related("profile"), username=username, is_active=True)
    profile = getattr(user, "profile", None)
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    finished = Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
    for game, number, winners, count in _results(finished):
        played[game] += count
        wins[game] += count if number in winners else 0
    ratings = {r.game: r for r in Rating.objects.filter(user=user, matches__gt=0)}
    games = [
        {
            "name": _game_name(slug),
            "slug": slug,
            "played": played[slug],
            "won": wins[slug],
            "rating": scale.shown((ratings[slug].mu, ratings[slug].sigma)) if slug in ratings else None,
            "provisional": slug in ratings and ratings[slug].matches < scale.PROVISIONAL_BELOW,
        }
        for slug in available()
    ]
    recent_seats = list(
        finished.select_related("match").defer("match__snapshot").order_by("-match__finished_at", "-match_id")[:RECENT]
    )
    changes = of_player(user.pk, (s.match_id for s in recent_seats))
    recent = [
        {
            "match": seat.match,
            "result": result_text(seat.match.status, seat.match.outcome, seat.number, False),
            "won": won(seat.match.outcome, seat.number),
            "change": changes.get(seat.match_id),
            "replay": replay_url(seat.match_id),
        }
        for seat in recent_seats
    ]
    context: dict[str, Any] = {
        "player": user,
        "name": player_name(user, profile.display_name if profile else ""),
        "games": games,
        "recent": recent,
        "is_me": user.pk == request.user.pk,
    }
    return render(request, "games/players/player.html", context)


@login_required
@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    form = MatchFilterForm(request.GET)
    form.is_valid()  # what it could not read is left unfiltered and shown as an error
    wanted = form.cleaned_data
    seats = Seat.objects.filter(user=user)
    if wanted.get("game"):
        seats = seats.filter(match__game=wanted["game"])
    if wanted.get("state") == "playing":
        seats = seats.filter(match__status__in=[Match.Status.LOBBY, Match.Status.ACTIVE])
    elif wanted.get("state") == "finished":
        seats = seats.filter(match__status=Match.Status.FINISHED)
    if wanted.get("my_turn"):
        seats = seats.filter(match__status=Match.Status.ACTIVE, waiting_since__isnull=False)
    ordered = seats.select_related("match").defer("match__snapshot").order_by("-match__created_at", "-match_id")
    page = Paginator(ordered, PER_PAGE).get_page(request.GET.get("page"))
    changes = of_player(user.pk, (s.match_id for s in page.object_list))
    rows = [
        {
            "match": seat.match,
            "result": result_text(seat.match.status, seat.match.outcome, seat.number, seat.waiting_since is not None),
            "my_turn": seat.match.status == Match.Status.ACTIVE and seat.waiting_since is not None,
            "change": changes.get(seat.match_id),
            "url": replay_url(seat.match_id)
            if seat.match.status == Match.Status.FINISHED
            else seat.match.get_absolute_url(),
        }
        for seat in page.object_list
    ]
    return render(request, "games/players/my_matches.html", {"form": form, "page": page, "rows": rows})
