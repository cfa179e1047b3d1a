"""A match saved as a document and loaded again replays to the same state and stays playable."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.models import Match
from games.play import services, store
from games.play.archive import export_match, import_match

from .helpers import choose_all, started_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_export_then_import_rebuilds_the_same_state_and_play_continues(make_user: Any) -> None:
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    document = json.loads(json.dumps(export_match(match)))
    copy = import_match(document, [make_user() for _ in range(4)], time_limit=3600)
    assert copy.status == Match.Status.ACTIVE and copy.version == match.version
    assert store.rebuild_from_log(copy) == dataclasses.replace(store.rebuild_from_log(match), time_limit=3600)
    services.do_submit_action(copy.pk, 0, {"type": "commit"})
    copy.refresh_from_db()
    assert copy.version == match.version + 1


def test_bots_in_an_imported_match_play_on(make_user: Any) -> None:
    match, _ = started_match(make_user, game="bridge_race", players=3)
    document = export_match(match)
    copy = import_match(document, [None, None, None], host=make_user())
    services.do_advance(copy.pk)
    copy.refresh_from_db()
    assert copy.status == Match.Status.FINISHED
