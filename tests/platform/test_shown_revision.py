"""T-18, N-10, H-2 (issue 54, item 4): a write of private events alone moves nothing the others see,
not even the revision their page names. These check the arithmetic; test_police_alarm_site plays it."""

from __future__ import annotations

from games.models import Match
from games.push.presenter import revision_of_shown, shown_revision
from games.push.pushes import Rendered
from games.sockets.frames import SentFrames

# Revisions 4 and 6 were the thief's (seat 0) alone; revision 7 was told to both seats.
QUIET = [[4, [0]], [6, [0]], [7, [0, 1]]]


def match_at(revision: int, status: str = Match.Status.ACTIVE) -> Match:
    return Match(game="police_alarm", seat_count=2, revision=revision, status=status, quiet_writes=QUIET)


def test_the_seats_not_told_are_shown_a_revision_without_the_quiet_writes() -> None:
    match = match_at(8)
    assert shown_revision(match, 0) == 8, "the thief was told of every write"
    assert shown_revision(match, 1) == 6, "the police was not told of revisions 4 and 6"
    assert shown_revision(match, None) == 5, "a spectator is told of no private write"
    assert shown_revision(match_at(8, Match.Status.FINISHED), 1) == 8, "once over, every event is public"


def test_a_shown_revision_maps_back_to_the_latest_revision_it_stands_for() -> None:
    match = match_at(8)
    assert [shown_revision(match_at(r), 1) for r in range(1, 9)] == [1, 2, 3, 3, 4, 4, 5, 6]
    assert revision_of_shown(match, 1, 3) == 4, "revision 4 changed nothing the police sees"
    assert revision_of_shown(match, 1, 4) == 6
    assert revision_of_shown(match, 1, 6) == 8
    assert revision_of_shown(match, 0, 5) == 5, "the thief's numbers are the match's"
    assert revision_of_shown(match, None, 4) == 7, "a spectator saw neither 6 nor 7"


def test_a_diff_names_the_base_and_revision_as_the_seat_is_shown_them() -> None:
    sent = SentFrames()
    first = Rendered(revision=5, shown=4, version=9, chat_version=0, public=False, shell="<b>", shell_digest="s")
    _, update = sent.update_for(first, board=True, chat=False)
    assert update["revision"] == 4 and (sent.revision, sent.shown) == (5, 4)
    after = Rendered(revision=8, shown=6, version=12, chat_version=0, public=False, shell="<b>", shell_digest="s")
    _, update = sent.update_for(after, board=True, chat=False)
    assert (update["base"], update["revision"]) == (4, 6)
