"""What a live game's socket does besides forwarding events (police_alarm, spec section 9).

* Inputs are stamped with the server's clock when they arrive (T-1) and go, without an expected
  version, into the one write path (T-2): the match row's lock (or the guarded statement) is the
  match's sequencer, so inputs are processed in the order they reach it, whichever daphne holds
  the socket, and the engine never lets time run backwards.
* One sequencer per match in each process (:func:`sequencer`): a match's inputs that reach the
  same process are written one at a time in the order they arrived. The proxy routes a match's
  sockets to one daphne (by the match id in ``/ws/match/<id>/``), so that this is the match's only
  sequencer; if it does not, the row lock still keeps the log in one order (only slower).
* A per-connection flood limit (T-16): past 50 messages a second, messages are dropped unread.
* Heartbeats (T-22, T-23): the client pings every 2 s and gets the server's clock back; a socket
  silent for 6 s is closed. When a seat's last socket closes the game hears ``disconnected``, and
  ``reconnected`` when one opens again (the engine suspends and resumes, T-24, T-25).
* Round-trip times (T-21): a client's ping carries its last measured round trip; a seated socket
  tells the match's other sockets when it changed (:func:`worth_telling`), so that both active
  players see their own and their opponent's, with a warning above 250 ms.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from games.engines.base import SYSTEM
from games.models import Match, Seat
from games.play import clock, services
from games.play.store import load_state, rules_for

log = logging.getLogger(__name__)

FLOOD_PER_SECOND = 50  # T-16
DISCONNECT_SECONDS = 6.0  # T-5 DISCONNECT_MS
HEARTBEAT_SECONDS = 2.0  # T-5 HEARTBEAT_MS
REORDER_SECONDS = 0.25  # how long a socket holds a message for the ones before it (see games.sockets.live_consumer)
SLOW_RTT_MS = 250  # T-21: above this round trip, the lobby and the game warn
MAX_RTT_MS = 60_000
RTT_RETELL_SECONDS = 10.0


def rtt_group(match_id: int) -> str:
    """Every live socket of a match (players and spectators) hears the players' round trips here."""
    return f"match_{match_id}_rtt"


def reported_rtt(value: Any) -> int | None:
    """The round trip a ping reports, in whole ms, or None when it is not a plausible one."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_RTT_MS:
        return None
    return round(value)


def worth_telling(rtt: int, told: int | None, told_at: float, now: float) -> bool:
    """T-21: tell the others a seat's round trip when it moved by a fifth (10 ms at least), crossed
    the warning line, or was last told long ago; not at every ping (every 2 s per socket)."""
    if told is None or now - told_at >= RTT_RETELL_SECONDS:
        return True
    if (rtt > SLOW_RTT_MS) != (told > SLOW_RTT_MS):
        return True
    return abs(rtt - told) >= max(10, told // 5)


class FloodGate:
    """At most ``per_second`` messages in any one-second window of a connection (T-16)."""

    def __init__(self, per_second: int = FLOOD_PER_SECOND) -> None:
        self.per_second = per_second
        self.window_start = 0.0
        self.count = 0

    def admit(self, now: float) -> bool:
        if now - self.window_start >= 1.0:
            self.window_start, self.count = now, 0
        self.count += 1
        return self.count <= self.per_second


_sequencers: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def sequencer(match_id: int) -> asyncio.Lock:
    """T-2: the lock a match's inputs take in turn in this process (asyncio serves waiters in order).

    Held only while in use (weakly kept): an idle match costs nothing.
    """
    lock = _sequencers.get(match_id)
    if lock is None:
        lock = _sequencers[match_id] = asyncio.Lock()
    return lock


def report_connection(match_id: int, user_id: int, connected: bool) -> None:
    """Tell a running live game that a seat lost its last socket, or got one back (T-23, T-25).

    Called after the seat's socket count changed. A loss is reported only when no socket of the seat
    is left (a second tab keeps the player connected, T-27); a return only when the game has the seat
    as away. The engine decides what that means (a spectator's loss changes nothing, T-24).
    """
    match = Match.objects.without_snapshot().filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None or not rules_for(match).connection_events or match.version == 0:
        return
    seat = Seat.objects.filter(match_id=match_id, user_id=user_id, is_bot=False).values_list("number", "open_sockets")
    row = seat.first()
    if row is None:
        return
    number, sockets = row
    away = number in rules_for(match).view(load_state(match), None).get("away", ())
    if connected and away:
        _submit(match_id, {"type": "reconnected", "seat": number})
    elif not connected and not away and sockets <= 0:
        _submit(match_id, {"type": "disconnected", "seat": number})


def _submit(match_id: int, payload: dict[str, Any]) -> None:
    try:
        services.do_submit_action(match_id, SYSTEM, payload)
    except services.ServiceError as exc:  # a race with another socket of the seat: nothing to do
        log.info("live connection change of match %s not applied: %s", match_id, exc.message)


def server_ms() -> int:
    """The server's clock in epoch milliseconds, for the client's offset estimate (T-22)."""
    return round(clock.now() * 1000)
