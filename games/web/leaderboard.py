"""The leaderboard of each game: its rated players by rating, fewest-match ratings marked provisional."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engines.registry import available
from games.models import Match, Rating, player_name
from games.ratings import scale
from games.web.records import player_url

PER_PAGE = 50


@login_required
@require_GET
def leaderboard(request: HttpRequest, game: str | None = None) -> HttpResponse:
    games = available()
    game = game or games[0]
    if game not in games:
        raise Http404
    ratings = (
        Rating.objects.filter(game=game, matches__gt=0, user__is_active=True)
        .select_related("user__profile")
        .order_by("-ordinal", "user_id")
    )
    page = Paginator(ratings, PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for place, rating in enumerate(page.object_list, start=page.start_index()):
        profile = getattr(rating.user, "profile", None)
        rows.append(
            {
                "place": place,
                "name": player_name(rating.user, profile.display_name if profile else ""),
                "url": player_url(rating.user.get_username()),
                "rating": scale.shown((rating.mu, rating.sigma)),
                "matches": rating.matches,
                "provisional": rating.matches < scale.PROVISIONAL_BELOW,
                "me": rating.user_id == request.user.pk,
            }
        )
    tabs = [{"slug": slug, "name": Match(game=slug).game_name, "current": slug == game} for slug in games]
    context = {
        "game_name": Match(game=game).game_name,
        "tabs": tabs,
        "page": page,
        "rows": rows,
        "provisional_below": scale.PROVISIONAL_BELOW,
    }
    return render(request, "games/players/leaderboard.html", context)
