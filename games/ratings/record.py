"""The ratings a finishing move changes, written in that move's transaction.

:func:`rate_finished` is called by the locking write path (:func:`games.play.write_paths.write_locked`)
with the match row locked, for a move whose new state has an outcome; the guarded statement never
finishes a match. It adds a few queries to that one move only: the seats, the players' ratings
(made if missing, then locked in user order, so that two matches with a player in common wait for
each other and never deadlock), the rating changes and the new ratings. The unique ``(match, user)``
of :class:`~games.models.RatingChange` refuses a second count of the same match.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import Match, Rating, RatingChange, Seat
from games.ratings import scale
from games.ratings.rated import ranks_of, rated_players, resigned_seats


def rate_finished(match: Match, outcome: dict[str, Any]) -> list[RatingChange]:
    """Rate ``match`` (finishing now with ``outcome``) if it is rated; its changes, else ``[]``."""
    if match.bot_seats:
        return []  # no query for a bot's match
    seats = list(Seat.objects.filter(match_id=match.pk).values_list("number", "user_id", "is_bot", "resigned"))
    players = rated_players(match.seat_count, match.bot_seats, seats, outcome)
    if players is None:
        return []
    user_ids = sorted(user for _seat, user in players)
    mu, sigma = scale.initial()
    start = scale.ordinal((mu, sigma))
    fresh = [Rating(user_id=u, game=match.game, mu=mu, sigma=sigma, ordinal=start) for u in user_ids]
    Rating.objects.bulk_create(fresh, ignore_conflicts=True)
    held = Rating.objects.select_for_update().filter(game=match.game, user_id__in=user_ids).order_by("user_id")
    ratings = {rating.user_id: rating for rating in held}
    before = [(ratings[user].mu, ratings[user].sigma) for _seat, user in players]
    after = scale.rate(before, ranks_of(outcome, players, resigned_seats(seats)))
    changes = [
        RatingChange(
            match_id=match.pk,
            user_id=user,
            seat=seat,
            game=match.game,
            mu_before=old[0],
            sigma_before=old[1],
            mu_after=new[0],
            sigma_after=new[1],
        )
        for (seat, user), old, new in zip(players, before, after, strict=True)
    ]
    RatingChange.objects.bulk_create(changes)  # first: a second count of the match stops here
    now = timezone.now()
    for (_seat, user), new in zip(players, after, strict=True):
        rating = ratings[user]
        rating.updated_at = now
        rating.mu, rating.sigma, rating.ordinal = new[0], new[1], scale.ordinal(new)
        rating.matches += 1
    for rating in ratings.values():
        Rating.objects.filter(pk=rating.pk).update(
            mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal, matches=rating.matches, updated_at=now
        )
    return changes
