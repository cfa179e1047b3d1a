"""Every rating worked out again from the finished matches, in the order they finished.

The same model, the same rated matches (:mod:`games.ratings.rated`) and the same order as the
updates written by finishing moves (:mod:`games.ratings.record`), so a recomputation equals what
is stored; ``recompute_ratings --check`` says where it does not, ``recompute_ratings`` replaces
what is stored with it. Two queries whatever the number of matches: the finished matches, their seats.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from games.models import Match, Rating, RatingChange, Seat
from games.ratings import scale
from games.ratings.rated import SeatRow, ranks_of, rated_players, resigned_seats

Key = tuple[int, str]  # (user id, game)


@dataclass
class Recomputed:
    ratings: dict[Key, tuple[scale.Skill, int]] = field(default_factory=dict)  # -> (skill, rated matches)
    changes: dict[tuple[int, int], tuple[str, int, scale.Skill, scale.Skill]] = field(default_factory=dict)
    # (match id, user id) -> (game, seat, before, after)


def recompute() -> Recomputed:
    """The ratings as the finished matches give them, computed in memory."""
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    seats: dict[int, list[SeatRow]] = defaultdict(list)
    for match_id, number, user_id, is_bot, resigned in Seat.objects.filter(match__in=finished).values_list(
        "match_id", "number", "user_id", "is_bot", "resigned"
    ):
        seats[match_id].append((number, user_id, is_bot, resigned))
    out = Recomputed()
    rows = finished.order_by("finished_at", "pk").values_list("pk", "game", "seat_count", "bot_seats", "outcome")
    for match_id, game, seat_count, bot_seats, outcome in rows.iterator():
        players = rated_players(seat_count, bot_seats, seats.get(match_id, []), outcome)
        if players is None or outcome is None:
            continue
        before = [out.ratings.get((user, game), (scale.initial(), 0))[0] for _seat, user in players]
        after = scale.rate(before, ranks_of(outcome, players, resigned_seats(seats.get(match_id, []))))
        for (seat, user), old, new in zip(players, before, after, strict=True):
            out.ratings[(user, game)] = (new, out.ratings.get((user, game), (new, 0))[1] + 1)
            out.changes[(match_id, user)] = (game, seat, old, new)
    return out


def _same(a: scale.Skill, b: scale.Skill) -> bool:
    return all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12) for x, y in zip(a, b, strict=True))


def differences(recomputed: Recomputed) -> list[str]:
    """Where the stored ratings and rating changes differ from ``recomputed`` (empty: they agree)."""
    out: list[str] = []
    stored = {
        (r.user_id, r.game): ((r.mu, r.sigma), r.matches)
        for r in Rating.objects.filter(matches__gt=0).only("user_id", "game", "mu", "sigma", "matches")
    }
    for key in sorted(set(stored) | set(recomputed.ratings)):
        mine, theirs = stored.get(key), recomputed.ratings.get(key)
        if mine is None or theirs is None or mine[1] != theirs[1] or not _same(mine[0], theirs[0]):
            out.append(f"rating of user {key[0]} in {key[1]}: stored {mine}, recomputed {theirs}")
    kept = {
        (c.match_id, c.user_id): (c.game, c.seat, (c.mu_before, c.sigma_before), (c.mu_after, c.sigma_after))
        for c in RatingChange.objects.all()
    }
    for pair in sorted(set(kept) | set(recomputed.changes)):
        mine_change, theirs_change = kept.get(pair), recomputed.changes.get(pair)
        if (
            mine_change is None
            or theirs_change is None
            or mine_change[:2] != theirs_change[:2]
            or not _same(mine_change[2], theirs_change[2])
            or not _same(mine_change[3], theirs_change[3])
        ):
            out.append(f"match {pair[0]}, user {pair[1]}: stored {mine_change}, recomputed {theirs_change}")
    return out


def store(recomputed: Recomputed) -> None:
    """Replace every stored rating and rating change with ``recomputed`` (run it with no match
    finishing meanwhile: a match rated during it would be counted by neither)."""
    now = timezone.now()
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Rating.objects.bulk_create(
            Rating(
                user_id=user,
                game=game,
                mu=skill[0],
                sigma=skill[1],
                ordinal=scale.ordinal(skill),
                matches=matches,
                updated_at=now,
            )
            for (user, game), (skill, matches) in recomputed.ratings.items()
        )
        RatingChange.objects.bulk_create(
            RatingChange(
                match_id=match_id,
                user_id=user,
                game=game,
                seat=seat,
                mu_before=old[0],
                sigma_before=old[1],
                mu_after=new[0],
                sigma_after=new[1],
            )
            for (match_id, user), (game, seat, old, new) in recomputed.changes.items()
        )
