"""A thin WebSocket adapter: authenticate, listen to my seat's group, forward what arrives.

A player's socket listens on ``match_<id>_seat_<n>``, where the process that changed the match
sends that seat's partials, already rendered (see :mod:`games.push.pushes`): forwarding them needs no
database. Spectators (and everybody in the lobby) listen on ``match_<id>``, which carries only
"match N is now at revision R", and render their own public view. Any socket renders for itself
when it connects or reconnects (catching up from ``?v=&c=``) or when a message is not for it.
Moves (``{"type": "act", ...}``, see :mod:`games.play.payloads`) and chat messages from the client go
through the same services as the HTTP forms; the sender gets an ``answer`` naming the move's key.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import InterfaceError, OperationalError
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from games.models import Match, Presence, Seat
from games.play import clock, latency_trace, payloads, services, writers
from games.play.bounded_cache import BoundedCache
from games.play.store import rules_for
from games.push import pushes
from games.push.presenter import viewer_for
from games.push.pushes import players_group, seat_group, watch_group
from games.push.speaking import speaking
from games.runtime.wscompress import DEFLATE
from games.sockets import livesocket, presence
from games.sockets.socket_turns import serve_in_turn
from games.web import ratelimit


class MatchConsumer(AsyncJsonWebsocketConsumer):
    match_id: int
    seat: int | None
    sent_revision: int
    sent_chat: int
    sent_version = -1  # the game version of the board my client shows (its log ends there)
    frame: tuple[int, str, dict[str, str]] | None = None  # that board: revision, shell and fragment digests
    listening: tuple[str, ...] = ()  # the groups I listen on for my match (see _listen)
    user_group: str | None = None
    revoked = False  # the user was deactivated or logged out: nothing more is taken from this socket
    counted = False  # whether my user's seat row counts this socket in ``open_sockets``
    live = False  # the match is a live game (police_alarm): see games.sockets.livesocket
    flood: livesocket.FloodGate | None = None
    acting: set[asyncio.Future[None]]  # a live socket's inputs on their way (see _act)
    last_heard = 0.0
    watchdog: asyncio.Future[None] | None = None
    held: dict[int, dict[str, Any]] | None = None  # live messages waiting for the ones before them, by ``after``
    told_rtt: int | None = None  # the round trip this socket last told the match (T-21)
    told_rtt_at = 0.0
    releasing: asyncio.Future[None] | None = None
    board_waiters: list[tuple[int, asyncio.Future[None]]]  # stale answers waiting for a revision's board
    answering: set[asyncio.Future[None]]  # those answers' tasks (see _after_board)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.board_waiters = []
        self.answering = set()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As Channels' own, with my messages handled in fewer loop turns (games.sockets.socket_turns)."""
        self.scope = scope
        layer = get_channel_layer(self.channel_layer_alias)
        if layer is None:
            raise ImproperlyConfigured("a match socket needs a channel layer (CHANNEL_LAYERS)")
        self.channel_layer = layer
        self.channel_name = await layer.new_channel()
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await serve_in_turn([receive, functools.partial(layer.receive, self.channel_name)], self.dispatch)

    async def connect(self) -> None:
        # A refusal is sent after accepting, so that the page sees the code (a refused handshake is
        # only an HTTP 403 to it) and stops retrying: 4401 sign in, 4404 no such match, 4429 too many.
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or not user.is_active:
            await self._refuse(4401)
            return
        if await ratelimit.ahit("socket", user) is not None:
            await self._refuse(4429)
            return
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        seat = await self._seat(user)
        if seat is False:
            await self._refuse(4404)
            return
        if self.live:
            self.flood = livesocket.FloodGate()
            self.last_heard = clock.now()
            self.acting = set()
            await self.channel_layer.group_add(livesocket.rtt_group(self.match_id), self.channel_name)
        # Every socket of a user hears when the user is deactivated or logs out (games.signals).
        self.user_group = user_group(user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        self.seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        # A reconnecting client says which versions it already shows (?v=&c=); it gets only news.
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.sent_revision = _int((query.get("v") or [""])[0], -1)
        self.sent_chat = _int((query.get("c") or [""])[0], -1)
        await self._listen()
        await self.accept()
        await self._count_me_in()
        if self.live:
            self.watchdog = asyncio.ensure_future(self._watch_silence())
            if self.counted:
                await database_sync_to_async(livesocket.report_connection)(self.match_id, user.pk, True)
            # The newcomer knows nobody's round trip yet: everyone tells theirs at their next ping.
            await self.channel_layer.group_send(livesocket.rtt_group(self.match_id), {"type": "rtt.ask"})
        await self.push(only_if_newer=True)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels' own, without its ``close_old_connections`` before every message.

        That call hops onto the process's one shared database thread, so every ping and every push
        of every socket would queue there. Nothing here touches the database on the event loop: each
        query runs through ``database_sync_to_async``, which closes old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _refuse(self, code: int) -> None:
        await self.accept()
        await self.close(code=code)

    async def user_revoked(self, event: dict[str, Any]) -> None:
        """My user was deactivated, or logged out of the session this socket was opened with."""
        session = event.get("session")
        own = getattr(self.scope.get("session"), "session_key", None)
        if session is None or session == own:
            self.revoked = True
            await self.close(code=4401)

    async def disconnect(self, code: int) -> None:
        for task in self.answering:
            task.cancel()
        presence.heartbeats().discard(self.channel_name)
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        if self.user_group is not None:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
            self.user_group = None
        for group in self.listening:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.listening = ()
        if self.flood is not None:  # a live socket that got connected
            await self.channel_layer.group_discard(livesocket.rtt_group(self.match_id), self.channel_name)
        if self.counted:
            self.counted = False
            await self._presence(-1)
            if self.live:
                await database_sync_to_async(livesocket.report_connection)(self.match_id, self._user().pk, False)

    async def _listen(self) -> None:
        """Listen on my seat's group and the players' group as a player (a move's partials come on the
        players' group, pings for my seat on its own), else on the match's watch group."""
        if self.seat is None:
            wanted: tuple[str, ...] = (watch_group(self.match_id),)
        else:
            wanted = (seat_group(self.match_id, self.seat), players_group(self.match_id))
        if wanted == self.listening:
            return
        for group in wanted:
            if group not in self.listening:
                await self.channel_layer.group_add(group, self.channel_name)
        for group in self.listening:
            if group not in wanted:
                await self.channel_layer.group_discard(group, self.channel_name)
        self.listening = wanted

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Frames that are not one small JSON object get a clear error, and the socket stays open."""
        if self.revoked:
            return
        if self.flood is not None:  # a live game's socket
            self.last_heard = clock.now()
            if not self.flood.admit(self.last_heard):
                return  # T-16: dropped unread, never a game event
        if text_data is None or len(text_data) > MAX_FRAME:
            await self._error(UNREADABLE)
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):  # not JSON, nested too deep, or an over-long number
            await self._error(UNREADABLE)
            return
        if not isinstance(content, dict):
            await self._error(UNREADABLE)
            return
        await self.receive_json(content)

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": await self._gettext(message)})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in ("sync", "chat") and (refusal := await ratelimit.ahit(kind, self._user())) is not None:
            await self.send_json({"type": "error", "message": refusal})
            return
        if kind == "sync":
            # A reconnecting client tells us what it has; anything newer is pushed at once.
            self.sent_revision = _bounded(content.get("revision"))
            self.sent_chat = _bounded(content.get("chat_version"))
            await self.push(only_if_newer=True)
        elif kind == "act":
            await self._act(content)
        elif kind == "ping" and self.live:
            # T-22: the client's own time comes back with the server's, for its clock offset and RTT.
            sent = content.get("c")
            sent = sent if isinstance(sent, int | float) and not isinstance(sent, bool) else None
            await self.send_json({"type": "pong", "c": sent, "s": livesocket.server_ms()})
            await self._tell_rtt(livesocket.reported_rtt(content.get("r")))
        elif kind == "chat":
            await self._chat(content)
        else:
            await self._error(UNKNOWN)

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

    async def match_changed(self, event: dict[str, Any]) -> None:
        if event["revision"] > self.sent_revision or event["chat_version"] > self.sent_chat:
            await self.push(only_if_newer=True)

    def _my_part(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """My seat's part of a message for every connected seat (``games.push.pushes._to_players``); no other."""
        return next((part for part in event["seats"] if part["seat"] == self.seat), None)

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
        if event["version"] <= self.sent_version:
            return
        if 0 <= self.sent_version < event["after"]:
            if self.held is None:
                self.held = {}
                asyncio.get_running_loop().call_later(livesocket.REORDER_SECONDS, self._release_held)
            self.held[event["after"]] = event
            return
        await self._send_live(event)
        while self.held and self.sent_version in self.held:
            await self._send_live(self.held.pop(self.sent_version))

    def _release_held(self) -> None:
        held, self.held = self.held or {}, None
        if held:
            self.releasing = asyncio.ensure_future(self._send_held(held))

    async def _send_held(self, held: dict[int, dict[str, Any]]) -> None:
        for after in sorted(held):
            if held[after]["version"] > self.sent_version:
                await self._send_live(held[after])

    async def _send_live(self, event: dict[str, Any]) -> None:
        self.sent_version = event["version"]
        self.sent_revision = max(self.sent_revision, event["revision"])
        self.frame = None  # the board my client shows is now its own, drawn from the events
        # Never compressed: a seat's events may hold its secrets (BREACH, see _send_update).
        update = {"type": "events", "after": event["after"], "version": event["version"], "events": event["events"]}
        if "view" in event:
            update["view"] = event["view"]
        await self._send_update(update, deflate=False)

    async def seats_update(self, event: dict[str, Any]) -> None:
        """A move's partials for every connected seat, in one message: I take my seat's part, no other."""
        if (mine := self._my_part(event)) is not None:
            latency_trace.mark("heard", self.match_id, mine["revision"], self.seat)
            await self.seat_update(mine)
            latency_trace.mark("sent", self.match_id, mine["revision"], self.seat)

    async def seat_update(self, event: dict[str, Any]) -> None:
        """My seat's partials, rendered by the writer; forwarded if they are news and for my user."""
        if event["user"] != self._user().pk:
            await self.push()  # the seat changed hands: render for whoever I am now
            return
        rendered = pushes.Rendered.from_message(event)
        board_news = rendered.has_board and rendered.revision > self.sent_revision
        # The writer sends a chat box only when it changed for me (a message, or chat opening/closing).
        chat_news = bool(rendered.chat_html) and (rendered.chat_version > self.sent_chat or board_news)
        if board_news and not (self._can_diff(rendered) and self._log_follows(rendered)):
            # The writer sends fragments, no shell, and the log's new lines: a client that cannot
            # take them as a diff (it just connected, the board's shell changed, or it missed the
            # version before) gets its whole board and log rendered here.
            await self.push(only_if_newer=True)
            return
        if board_news or chat_news:
            await self._deliver(rendered, board=board_news, chat=chat_news)

    async def push(self, only_if_newer: bool = False) -> None:
        rendered = await self._render(self.sent_revision, self.sent_chat, only_if_newer=only_if_newer)
        if rendered is None:
            return
        if self.seat is not None and not self.counted:
            # I joined after connecting: count me in before listening to my seat (the writer only
            # renders for seats with sockets), then render again, to miss nothing published meanwhile.
            await self._count_me_in()
            await self._listen()
            rendered = await self._render(self.sent_revision, self.sent_chat)
            if rendered is None:
                return
        await self._listen()  # rendering found out who I am (a seat once the match started)
        board_news = rendered.has_board and (rendered.revision > self.sent_revision or not only_if_newer)
        chat_news = bool(rendered.chat_html) and (rendered.chat_version > self.sent_chat or not only_if_newer)
        if only_if_newer and not (board_news or chat_news):
            return
        await self._deliver(rendered, board=rendered.has_board, chat=bool(rendered.chat_html), full=not only_if_newer)

    def _can_diff(self, rendered: pushes.Rendered) -> bool:
        """Whether my client shows the board ``rendered``'s fragments can be laid on."""
        frame = self.frame
        return (
            frame is not None
            and frame[0] == self.sent_revision
            and frame[1] == rendered.shell_digest
            and frame[2].keys() == rendered.digests.keys()
        )

    def _log_follows(self, rendered: pushes.Rendered) -> bool:
        """Whether ``rendered`` brings my client's log up to date: the whole log, or the lines after mine."""
        return bool(rendered.log_html) or rendered.log_after == self.sent_version

    async def _deliver(self, rendered: pushes.Rendered, *, board: bool, chat: bool, full: bool = False) -> None:
        """Send my client what it lacks: only the fragments that changed since the board it shows.

        A diff names its ``base`` (the revision it applies to) and is sent only when this socket
        last sent exactly that revision, with the same board shell and fragment names; otherwise
        the whole board goes. The log is appended when my client shows the version before. A
        diff's large shared fragments go first, compressed, in a message of their own
        (:func:`_shared_part`).
        """
        update: dict[str, Any] = {
            "type": "update",
            "revision": rendered.revision,
            "version": rendered.version,
            "chat_version": rendered.chat_version,
        }
        chunks: list[str] = []
        part: str | None = None
        if board:
            frame = self.frame
            if not full and self._can_diff(rendered):
                assert frame is not None
                update["base"] = self.sent_revision
                old = frame[2]
                changed = [n for n, digest in rendered.digests.items() if old[n] != digest]
                part, changed = _shared_part(rendered, changed, self.sent_revision)
                # Each fragment apart: the client parses an SVG layer in an SVG context.
                update["frags"] = [rendered.frags[n] for n in changed]
                if rendered.log_after is not None and rendered.log_after == self.sent_version:
                    update["log"] = rendered.log_add
                else:
                    chunks.append(rendered.log_html)
            else:
                chunks += [rendered.board_html(), rendered.log_html]
            self.frame = (rendered.revision, rendered.shell_digest, rendered.digests)
            self.sent_revision = max(self.sent_revision, rendered.revision)
            self.sent_version = rendered.version
            self._board_sent()
        if chat:
            chunks.append(rendered.chat_html)
            self.sent_chat = max(self.sent_chat, rendered.chat_version)
        update["html"] = "".join(chunks)
        if part is not None:
            await self._send_text(part, deflate=True)  # the shared fragments: nothing secret in them
        if rendered.public and "base" in update:
            await self._send_text(_json_once(update), deflate=True)
        else:
            await self._send_update(update, deflate=rendered.public)

    def _board_sent(self) -> None:
        """Release the answers that waited for the board my client has now been sent (see _after_board)."""
        if not self.board_waiters:
            return
        waiting = []
        for revision, waiter in self.board_waiters:
            if revision <= self.sent_revision:
                if not waiter.done():
                    waiter.set_result(None)
            elif not waiter.done():
                waiting.append((revision, waiter))
        self.board_waiters = waiting

    async def _send_update(self, update: dict[str, Any], *, deflate: bool) -> None:
        """Send an update; compressed on the wire only if it holds nothing secret (BREACH)."""
        await self._send_text(json.dumps(update), deflate=deflate)

    async def _send_text(self, text: str, *, deflate: bool) -> None:
        message: Any = {"type": "websocket.send", "text": text, DEFLATE: deflate}
        await self.base_send(message)  # DEFLATE is our own key, unknown to the ASGI event types

    async def _act(self, content: dict[str, Any]) -> None:
        """A move sent over the socket: the same write path as the form POST, answered to me alone.

        A live game's input is timed when it arrived (T-1), not when its turn at the database came,
        and waits, off this socket's message loop (a ping is answered meanwhile), for the inputs of
        its match that reached this process before it (T-2, :func:`games.sockets.livesocket.sequencer`).
        """
        if self.live:
            task = asyncio.ensure_future(self._act_in_turn(content, self.last_heard))
            self.acting.add(task)
            task.add_done_callback(self.acting.discard)
            return
        await self._act_now(content, None)

    async def _act_in_turn(self, content: dict[str, Any], received: float) -> None:
        async with livesocket.sequencer(self.match_id):
            await self._act_now(content, received)

    async def _act_now(self, content: dict[str, Any], received: float | None) -> None:
        key = content.get("key") if isinstance(content.get("key"), str) else None
        latency_trace.mark("received", self.match_id, key, self.seat)
        answer: dict[str, Any] = {"type": "answer", "key": key if key and len(key) <= payloads.MAX_KEY_CHARS else None}
        stale: services.StaleVersion | None = None
        try:
            sent = payloads.from_socket(content)
            result = await self._submit(sent, received)
        except payloads.BadPayload as exc:
            answer.update(status=400, message=exc.message)
        except services.ServiceError as exc:
            stale = exc if isinstance(exc, services.StaleVersion) else None
            answer.update(status=exc.status, message=exc.message)
            if exc.detail:
                answer["detail"] = json.loads(json.dumps(exc.detail, default=str))
        else:
            answer.update(status=200, revision=result.revision, version=result.version)
        if answer["status"] == services.StaleVersion.status:
            # The fresh board first, then why. The move that made mine stale was published to my
            # seat too, so its push is usually on its way: wait for it (off this socket's message
            # loop, which must go on to receive it) rather than render the same board here.
            current = None if stale is None else stale.revision
            if current is None:
                await self.push(only_if_newer=True)
            elif current > self.sent_revision:
                self._after_board(current, answer)
                return
        latency_trace.mark("answered", self.match_id, key, answer.get("revision"))
        await self.send_json(answer)

    def _after_board(self, revision: int, answer: dict[str, Any]) -> None:
        """Send ``answer`` once my client has been sent ``revision`` (rendered here if no push brings it)."""
        waiter = asyncio.get_running_loop().create_future()
        self.board_waiters.append((revision, waiter))

        async def answer_after_board() -> None:
            try:
                await asyncio.wait_for(waiter, STALE_BOARD_WAIT)
            except TimeoutError:
                await self.push(only_if_newer=True)
            await self.send_json(answer)

        task = asyncio.ensure_future(answer_after_board())
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    async def _submit(self, sent: payloads.Submission, received: float | None) -> services.SubmitResult:
        # Written on the writer threads, which keep their connections: the process's one shared
        # database thread queued every match's moves behind each other (games.play.writers).
        try:
            return await writers.write(self._submit_now, sent, received)
        except (OperationalError, InterfaceError):
            if sent.key is None:
                raise
            # The thread's kept connection was lost (PostgreSQL restarted or ended it) and is closed
            # now: once more on a new one. The key answers a move that was written before the loss
            # as written, instead of applying it twice.
            return await writers.write(self._submit_now, sent, received)

    def _submit_now(self, sent: payloads.Submission, received: float | None) -> services.SubmitResult:
        # The write checks that my seat is still my active user's (seats are renumbered at the start
        # and a moderator may hand one to a bot while this socket stays open); only when it is not
        # is my seat looked up again, and the move tried once more under the seat I hold now.
        user = self._user()
        seat = self.seat
        latency_trace.mark("writing", self.match_id, sent.key)
        with speaking(self._language()):
            for attempt in range(2):
                if seat is None:
                    raise services.NotAllowed(translation.gettext("Only the players of this match can act in it."))
                try:
                    return services.do_submit_action(
                        self.match_id,
                        seat,
                        sent.payload,
                        expected_version=sent.expected_version,
                        idempotency_key=sent.key,
                        now=received,
                        user_id=user.pk,
                    )
                except services.NotAllowed:
                    fresh = self._seat_now(user)
                    if attempt or fresh == seat:
                        raise
                    seat = fresh
            raise AssertionError("unreachable")

    def _seat_now(self, user: Any) -> int | None:
        seat = (
            Seat.objects.filter(match_id=self.match_id, user=user, user__is_active=True)
            .values_list("number", flat=True)
            .first()
        )
        return None if seat is None else int(seat)

    async def _chat(self, content: dict[str, Any]) -> None:
        if self.seat is None:
            await self._error(SPECTATORS_CANNOT_CHAT)
            return
        to_raw, text = content.get("to"), content.get("text", "")
        to_seat = None if to_raw in (None, "") else _bounded(to_raw, None)
        try:
            if (to_raw not in (None, "") and to_seat is None) or not isinstance(text, str):
                # As the form: a private message to nobody is refused, never posted to everyone.
                raise services.ServiceError(await self._gettext("Choose another player for a private message."))
            payloads.clean_text(text, 2000)
            await self._post_chat(to_seat, text)
        except payloads.BadPayload:
            await self._error(UNREADABLE)
        except services.ServiceError as exc:
            await self.send_json({"type": "error", "message": exc.message})

    @database_sync_to_async
    def _post_chat(self, to_seat: int | None, text: str) -> None:
        with speaking(self._language()):
            if not self._still_allowed():
                raise services.NotAllowed(translation.gettext("Your account cannot act any more."))
            services.do_post_chat(self.match_id, self.seat or 0, text, to_seat)

    def _still_allowed(self) -> bool:
        """The user is still active (checked against the database before anything is written)."""
        return bool(get_user_model().objects.filter(pk=self._user().pk, is_active=True).exists())

    @database_sync_to_async
    def _seat(self, user: Any) -> int | bool | None:
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return False
        self.live = rules_for(match).live
        return viewer_for(match, user).seat

    async def _watch_silence(self) -> None:
        """T-23: a live game's socket that has said nothing (not even a ping) for 6 s is lost."""
        while True:
            await asyncio.sleep(livesocket.HEARTBEAT_SECONDS)
            if clock.now() - self.last_heard > livesocket.DISCONNECT_SECONDS:
                await self.close(code=4408)
                return

    async def _count_me_in(self) -> None:
        """Count this socket in its seat's ``open_sockets`` and keep its presence record beating."""
        self.counted = await self._presence(+1)
        if self.counted:
            presence.heartbeats().add(self.channel_name)

    @database_sync_to_async
    def _presence(self, delta: int) -> bool:
        # By user, not seat number: seats are renumbered when the match starts.
        user = self._user()
        counted = bool(
            Seat.objects.filter(match_id=self.match_id, user=user).update(
                open_sockets=F("open_sockets") + delta, last_seen=timezone.now()
            )
        )
        if delta > 0 and counted:
            Presence.objects.update_or_create(
                channel_name=self.channel_name,
                defaults={"match_id": self.match_id, "user": user, "seen_at": timezone.now()},
            )
        elif delta < 0:
            Presence.objects.filter(channel_name=self.channel_name).delete()
        return counted

    @database_sync_to_async
    def _gettext(self, message: str) -> str:
        with speaking(self._language()):
            return translation.gettext(message)

    def _user(self) -> Any:
        """The signed-in user of this socket (``connect`` closed it for anybody else)."""
        return self.scope["user"]

    def _language(self) -> str:
        profile = getattr(self.scope.get("user"), "profile", None)
        return getattr(profile, "language", None) or "en"

    @database_sync_to_async
    def _render(self, have_revision: int, have_chat: int, *, only_if_newer: bool = False) -> pushes.Rendered | None:
        """This seat's partials that changed since what the client has (``None``: nothing to render)."""
        match = Match.objects.defer("snapshot").filter(pk=self.match_id).first()
        if match is None:
            return None
        parts = set()
        if match.revision != have_revision:
            parts |= {"board", "log"}
        if match.chat_version != have_chat or match.revision != have_revision:
            parts.add("chat")  # who may chat can change with the game
        if not parts and only_if_newer:
            return None  # a push already brought my client this revision (a refused stale move, say)
        with speaking(self._language()):
            rendered = pushes.render_seat(match, self.scope["user"], parts)
        self.seat = rendered.seat
        return rendered


STALE_BOARD_WAIT = 0.3  # seconds a refused stale move's answer waits for the push of the board that made it stale
MAX_FRAME = 16_000  # characters: far more than any move or chat line
# Shared fragments smaller than this go with the rest of a diff: a second message costs its own
# envelope and frame, and deflate gains little on a few hundred characters.
SHARED_PART_AT = 512  # characters


UNREADABLE = gettext_noop("That message could not be read.")
UNKNOWN = gettext_noop("Unknown message.")
SPECTATORS_CANNOT_CHAT = gettext_noop("Spectators cannot chat.")


def _shared_part(rendered: pushes.Rendered, changed: list[str], base: int) -> tuple[str | None, list[str]]:
    """A diff's changed shared fragments as a message of their own (its JSON text), and the
    fragments left for the rest.

    Shared fragments (heist's table, bridge_race's bridge and dashboards, every seat's public
    panel) are rendered from the spectator's context, so they hold no secret and are the same for
    every seat, and they are most of a move's bytes. They go first in a ``part`` message:

    - a game with secrets sends its players' diffs uncompressed (BREACH: a secret beside text
      another player chose); the part can be compressed on its own (each message is deflated with
      no context taken over, so no secret shares a compressor with it);
    - the part is the same message, byte for byte, for every seat whose client showed the same
      board: each process writes its JSON once (:func:`_json_once`) and compresses it once
      (``games.runtime.wscompress.deflate``) for all of them.

    The client lays the part on the board without taking the new revision; the ``update`` that
    follows at once carries the rest and the revision (static/js/match.js).
    """
    shared = [name for name in changed if name in rendered.shared]
    if sum(len(rendered.frags[name]) for name in shared) < SHARED_PART_AT:
        return None, changed
    frags = [rendered.frags[name] for name in shared]
    text = _json_once({"type": "part", "revision": rendered.revision, "base": base, "frags": frags})
    return text, [name for name in changed if name not in rendered.shared]


def _json_once(message: dict[str, Any]) -> str:
    """``message``, which holds nothing secret, as JSON written once per process for the sockets it
    goes to alike: a diff's shared part for every seat, and in a game whose views are all public
    (bridge_race, R-89) the rest of the diff for the seats that wait. Found by its content: its
    fragments are the same strings for each socket, hashed once."""
    key = tuple((name, tuple(v) if isinstance(v, list) else v) for name, v in message.items())
    text = _json_texts.get(key)
    if text is None:
        text = json.dumps(message)
        _json_texts.put(key, text)
    return text


# The latest public messages' JSON (a move's part and public diff: a few per match), by their content.
_json_texts: BoundedCache[tuple[Any, ...], str] = BoundedCache(128)


def user_group(user_id: int) -> str:
    return f"user_{user_id}"


def _bounded(value: Any, default: Any = -1) -> Any:
    """A small non-negative int from untrusted input (a version, a seat), else ``default``."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value if 0 <= value < 2**31 else default
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    return default


def _int(value: Any, default: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
