"""A live game's socket (police_alarm): its events forwarded in order, its inputs sequenced.

What such a socket does besides a turn-based game's is described, and mostly done, in
:mod:`games.sockets.livesocket`: inputs timed on arrival and written in turn (T-1, T-2), a flood
limit (T-16), heartbeats and a silence watchdog (T-22, T-23), seats' round trips (T-21), and the
game told when a seat loses its last socket or gets one back (T-24, T-25).
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async

from games.play import clock
from games.push import presenter
from games.sockets import livesocket
from games.sockets.base_consumer import UNREADABLE, read_frame
from games.sockets.turn_consumer import TurnConsumer


class LiveConsumer(TurnConsumer):
    """A live game's socket: a :class:`TurnConsumer` (its board is rendered when it connects or
    a seat changes, and its moves go through the same write path) that forwards the game's events
    as JSON, answers pings, and closes when its client falls silent."""

    flood: livesocket.FloodGate
    acting: set[asyncio.Future[None]]  # my inputs on their way (see _act)
    last_heard = 0.0
    watchdog: asyncio.Future[None] | None = None
    held: dict[int, dict[str, Any]] | None = None  # messages waiting for the ones before them, by ``after``
    told_rtt: int | None = None  # the round trip this socket last told the match (T-21)
    told_rtt_at = 0.0
    releasing: asyncio.Future[None] | None = None

    async def _open(self, user: Any, seat: int | None) -> None:
        self.flood = livesocket.FloodGate()
        self.last_heard = clock.now()
        self.acting = set()
        rtt_group = livesocket.rtt_group(self.match_id)
        await self.channel_layer.group_add(rtt_group, self.channel_name)
        self.joined = (rtt_group,)
        await super()._open(user, seat)
        self.watchdog = asyncio.ensure_future(self._watch_silence())
        if self.counted:
            await database_sync_to_async(livesocket.report_connection)(self.match_id, user.pk, True)
        # The newcomer knows nobody's round trip yet: everyone tells theirs at their next ping.
        await self.channel_layer.group_send(rtt_group, {"type": "rtt.ask"})

    async def disconnect(self, code: int) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        counted = self.counted
        await super().disconnect(code)
        if counted:
            await database_sync_to_async(livesocket.report_connection)(self.match_id, self._user().pk, False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """As every match socket's, past a flood limit: beyond it, frames are dropped unread (T-16)."""
        if self.revoked:
            return
        self.last_heard = clock.now()
        if not self.flood.admit(self.last_heard):
            return  # never a game event
        content = read_frame(text_data)
        if content is None:
            await self._error(UNREADABLE)
            return
        await self.receive_json(content)

    async def _other(self, kind: Any, content: dict[str, Any]) -> None:
        if kind != "ping":
            await super()._other(kind, content)
            return
        # T-22: the client's own time comes back with the server's, for its clock offset and RTT.
        sent = content.get("c")
        sent = sent if isinstance(sent, int | float) and not isinstance(sent, bool) else None
        await self.send_json({"type": "pong", "c": sent, "s": livesocket.server_ms()})
        await self._tell_rtt(livesocket.reported_rtt(content.get("r")))

    async def _act(self, content: dict[str, Any]) -> None:
        """An input, timed when it arrived (T-1), not when its turn at the database came.

        It waits, off this socket's message loop (a ping is answered meanwhile), for the inputs of
        its match that reached this process before it (T-2, :func:`games.sockets.livesocket.sequencer`).
        """
        task = asyncio.ensure_future(self._act_in_turn(content, self.last_heard))
        self.acting.add(task)
        task.add_done_callback(self.acting.discard)

    async def _act_in_turn(self, content: dict[str, Any], received: float) -> None:
        async with livesocket.sequencer(self.match_id):
            await self._act_now(content, received)

    async def _version_shown(self, version: int) -> int:
        """As my seat is shown it: the others' private events are not counted (T-18, H-2)."""
        kept = presenter.kept_version_shown(self.match_id, self.seat, version)  # the push ran here: no query
        if kept is not None:
            return kept
        return await database_sync_to_async(presenter.version_shown)(self.match_id, self.seat, version)

    async def _revision_of_shown(self, shown: int) -> int:
        """T-18, H-2: the writes my seat was not told of are left out of the revision it is shown."""
        return await database_sync_to_async(presenter.revision_of_shown_now)(self.match_id, self.seat, shown)

    async def _tell_rtt(self, rtt: int | None) -> None:
        """T-21: my seat's round trip, to the match's live sockets, when it is news."""
        now = clock.now()
        if rtt is None or self.seat is None or not livesocket.worth_telling(rtt, self.told_rtt, self.told_rtt_at, now):
            return
        self.told_rtt, self.told_rtt_at = rtt, now
        await self.channel_layer.group_send(
            livesocket.rtt_group(self.match_id), {"type": "rtt.told", "seat": self.seat, "ms": rtt}
        )

    async def rtt_told(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "rtt", "seat": event["seat"], "ms": event["ms"]})

    async def rtt_ask(self, event: dict[str, Any]) -> None:
        self.told_rtt = None

    async def seats_live(self, event: dict[str, Any]) -> None:
        """A live move's events for every connected seat, in one message: I take my seat's part only."""
        if (mine := self._my_part(event)) is not None:
            await self.seat_live(mine)

    async def seat_live(self, event: dict[str, Any]) -> None:
        """A live game's events for my seat, as JSON (see :func:`games.push.pushes.publish_live`)."""
        if event["user"] != self._user().pk:
            await self.push()
            return
        await self._forward_live(event)

    async def match_live(self, event: dict[str, Any]) -> None:
        """A live game's public events, for spectators (players take their seat's part of ``seats.live``).

        The game's first events (``after`` 0: it has just started) reach the sockets opened in the
        lobby, whose users may be players now: each gets its whole board instead, and rendering it
        finds out its seat (so it listens to its seat's events from then on, never a spectator's).
        """
        if self.seat is not None:
            return
        if event["after"] == 0:
            await self.push(only_if_newer=True)
            return
        await self._forward_live(event)

    async def _forward_live(self, event: dict[str, Any]) -> None:
        """Forward a live message in version order.

        Moves are written on several threads and processes, so their messages may reach this socket
        out of order: one that does not follow what my client has waits (``REORDER_SECONDS`` at
        most) for the ones before it. If they never come, it goes anyway and my client, seeing the
        hole, asks for its board again.
        """
        frames = self.sent_frames
        if event["version"] <= frames.version:
            return
        if 0 <= frames.version < event["after"]:
            if self.held is None:
                self.held = {}
                asyncio.get_running_loop().call_later(livesocket.REORDER_SECONDS, self._release_held)
            self.held[event["after"]] = event
            return
        await self._send_live(event)
        while self.held and frames.version in self.held:
            await self._send_live(self.held.pop(frames.version))

    def _release_held(self) -> None:
        held, self.held = self.held or {}, None
        if held:
            self.releasing = asyncio.ensure_future(self._send_held(held))

    async def _send_held(self, held: dict[int, dict[str, Any]]) -> None:
        for after in sorted(held):
            if held[after]["version"] > self.sent_frames.version:
                await self._send_live(held[after])

    async def _send_live(self, event: dict[str, Any]) -> None:
        self.sent_frames.took_events(event["revision"], event["version"])
        # Never compressed: a seat's events may hold its secrets (BREACH, see _send_update).
        update = {"type": "events", "after": event["after"], "version": event["version"], "events": event["events"]}
        if "view" in event:
            update["view"] = event["view"]
        await self._send_update(update, deflate=False)

    async def _watch_silence(self) -> None:
        """T-23: a live game's socket that has said nothing (not even a ping) for 6 s is lost."""
        while True:
            await asyncio.sleep(livesocket.HEARTBEAT_SECONDS)
            if clock.now() - self.last_heard > livesocket.DISCONNECT_SECONDS:
                await self.close(code=4408)
                return
