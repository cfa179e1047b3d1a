"""The consumer of ``/ws/match/<id>/``: a match socket of the kind its game needs.

A socket's job is split by kind: :mod:`games.sockets.base_consumer` is what every match socket
does (authenticate, find its seat, listen to its groups, count its presence, read its client's
frames, take its chat); :mod:`games.sockets.turn_consumer` sends rendered boards as diffs of what
the socket sent before (:mod:`games.sockets.frames`) and takes moves through the same services as
the HTTP forms; :mod:`games.sockets.live_consumer` adds a live game's events, heartbeats and
sequenced inputs (:mod:`games.sockets.livesocket`).
"""

from __future__ import annotations

from games.sockets.live_consumer import LiveConsumer
from games.sockets.turn_consumer import TurnConsumer


class MatchConsumer(TurnConsumer):
    """The consumer routed at ``/ws/match/<id>/`` (:mod:`games.sockets.routing`).

    Whether its match is live is known only once ``connect`` has looked the match up, which is
    when a socket of a live game becomes a :class:`LiveMatchConsumer`, before it joins any group.
    """

    def _become(self, live: bool) -> None:
        if live:
            self.__class__ = LiveMatchConsumer


class LiveMatchConsumer(LiveConsumer, MatchConsumer):
    """A routed socket of a live game: a :class:`LiveConsumer` that is still a :class:`MatchConsumer`."""
