"""A match as a JSON document (game, options, seed, seats, event log), to save and load.

Loading replays the log through the engine exactly as any stored match is loaded, so a stored
position (a bug report, a test fixture) becomes a live match players can continue.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engines.base import Event, replay
from games.models import Match, MatchEvent, Seat
from games.play.errors import ServiceError
from games.play.store import initial_state, remember, rules_for
from games.play.write_paths import save_state

FORMAT = 1


def export_match(match: Match) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": match.game,
        "seat_count": match.seat_count,
        "options": match.options,
        "time_limit": match.time_limit,
        "seed": match.seed,
        "events": [
            {"actor": e.actor, **e.to_event().to_json()} for e in MatchEvent.objects.filter(match=match).order_by("seq")
        ],
    }


def import_match(
    document: dict[str, Any], users: list[Any], host: Any | None = None, time_limit: int | None = None
) -> Match:
    """Create an active match from ``document``; ``users[i]`` takes seat i (``None``: a bot).

    Deadlines run from the times recorded in the log; ``time_limit`` (seconds) may lengthen them
    so that an old stored position does not time out the moment it is loaded.
    """
    if document.get("format") != FORMAT:
        raise ServiceError("Unknown match document format.")
    if len(users) != document["seat_count"]:
        raise ServiceError("One user (or None for a bot) is needed per seat.")
    host = host or next(u for u in users if u is not None)
    with transaction.atomic():
        match = Match.objects.create(
            game=document["game"],
            host=host,
            seat_count=document["seat_count"],
            options=document["options"],
            time_limit=time_limit or document["time_limit"],
            seed=document["seed"],
            status=Match.Status.ACTIVE,
            started_at=timezone.now(),
            bot_seats=[i for i, u in enumerate(users) if u is None],
        )
        for number, user in enumerate(users):
            bot_number = number + 1 if user is None else 0
            Seat.objects.create(match=match, number=number, user=user, is_bot=user is None, bot_number=bot_number)
        rules = rules_for(match)
        events = [Event.from_json(raw) for raw in document["events"]]
        state = replay(rules, initial_state(match), events)
        MatchEvent.objects.bulk_create(
            MatchEvent(
                match=match,
                seq=i,
                actor=raw.get("actor", -1),
                type=e.type,
                data=e.data,
                secret=e.secret,
                visible_to=list(e.visible_to),
            )
            for i, (raw, e) in enumerate(zip(document["events"], events, strict=True), start=1)
        )
        match.version = len(events)
        match.revision = 1
        save_state(match, rules, state, 0, now=0.0)
        remember(match.pk, match.version, state)
    return match
