"""The deploy test's helper process, run with the stack's environment (its database and Redis).

One JSON command per line on stdin, one JSON answer per line on stdout:
``{"cmd": "setup"}`` -> a started 4-player heist match and each seat's session key;
``{"cmd": "decide", "match": id}`` -> the move each waiting seat makes now (the bots' choice);
``{"cmd": "final", "match": id}`` -> status, version, revision, event count and receipt keys.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import django


def setup() -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.utils.crypto import get_random_string
    from django.utils.module_loading import import_string

    from games.models import Seat
    from games.play import services

    prefix = get_random_string(6).lower()
    users = []
    for n in range(4):
        user = get_user_model().objects.create_user(username=f"{prefix}{n}", email=f"{prefix}{n}@deploy.invalid")
        users.append(user)
    match = services.do_create_match(users[0], "heist", 4, {}, 3600)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    sessions = {}
    for seat in Seat.objects.filter(match=match).select_related("user"):
        assert seat.user is not None
        store = store_class()
        store[SESSION_KEY] = str(seat.user.pk)
        store[BACKEND_SESSION_KEY] = "games.web.auth.ProfileModelBackend"
        store[HASH_SESSION_KEY] = seat.user.get_session_auth_hash()
        store.create()
        sessions[seat.number] = store.session_key
    return {"match": match.pk, "sessions": sessions}


def decide(match_id: int) -> dict[str, Any]:
    from games.models import Match
    from games.play.services import waiting_seats
    from games.play.store import load_state, rules_for

    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        return {"version": match.version, "over": True, "actions": {}}
    rules = rules_for(match)
    state = load_state(match)
    seats = waiting_seats(rules, state) & set(rules.actors(state))
    actions = {
        seat: rules.bot_action(state, seat, random.Random(f"deploy:{match_id}:{match.version}:{seat}"))
        for seat in sorted(seats)
        if seat >= 0
    }
    return {"version": match.version, "over": False, "actions": actions}


def final(match_id: int) -> dict[str, Any]:
    from games.models import ActionReceipt, Match, MatchEvent

    match = Match.objects.get(pk=match_id)
    return {
        "status": match.status,
        "version": match.version,
        "revision": match.revision,
        "events": MatchEvent.objects.filter(match=match).count(),
        "keys": list(ActionReceipt.objects.filter(match=match).values_list("key", flat=True)),
    }


def presence(match_id: int) -> dict[str, Any]:
    """Each seat's open-socket count, before and after a presence sweep run as if the records left by
    sockets that stopped beating had gone stale (issue 9, item 5)."""
    from games.models import Seat
    from games.play import clock
    from games.sockets import presence as presence_module

    def counts() -> dict[int, int]:
        return dict(Seat.objects.filter(match_id=match_id).values_list("number", "open_sockets"))

    before = counts()
    real = clock.now
    clock.now = lambda: real() + presence_module.STALE_SECONDS + 1  # as if 90 s passed
    try:
        presence_module.sweep()
    finally:
        clock.now = real
    return {"before": before, "after": counts()}


def main() -> None:
    django.setup()
    for line in sys.stdin:
        command = json.loads(line)
        if command["cmd"] == "setup":
            answer = setup()
        elif command["cmd"] == "decide":
            answer = decide(command["match"])
        elif command["cmd"] == "presence":
            answer = presence(command["match"])
        else:
            answer = final(command["match"])
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
