"""What every match socket does, whatever its game: who it is, what it listens to, what it reads.

:class:`BaseMatchConsumer` authenticates the socket, finds its match and its seat, listens on its
seat's groups (or the spectators'), counts itself in its seat's presence, reads its client's
frames and takes its chat. What it sends its client, and how it takes moves, is its game's kind's
(:mod:`games.sockets.turn_consumer`, :mod:`games.sockets.live_consumer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext_noop

from games.models import Match
from games.play import payloads
from games.play.store import rules_for
from games.push.presenter import viewer_for
from games.push.pushes import players_group, seat_group, watch_group
from games.push.speaking import speaking
from games.runtime.channels_dispatch import InTurnConsumer
from games.runtime.wscompress import DEFLATE
from games.sockets import catch_up, chat, presence
from games.sockets.frames import SentFrames
from games.web import ratelimit

log = logging.getLogger(__name__)

MAX_FRAME = 16_000  # characters: far more than any move or chat line
SERVICE_RESTART = 1012  # the close code of a server that is stopping: the page reconnects at once
STOPPING_SECONDS = 5.0  # how long a stopping server's socket may take to count itself out

UNREADABLE = gettext_noop("That message could not be read.")
UNKNOWN = gettext_noop("Unknown message.")


class BaseMatchConsumer(InTurnConsumer):
    """A socket of one match: the connection, its groups, its presence, its client's frames and chat.

    A player's socket listens on its seat's group and the players' group, a spectator's on the
    match's watch group (:meth:`_listen`). Its kind sends the client its board (:meth:`push`) and
    takes its moves (:meth:`_act`).
    """

    match_id: int
    seat: int | None
    sent_frames: SentFrames  # what my client has been sent (see games.sockets.frames)
    listening: tuple[str, ...] = ()  # the groups I listen on for my match (see _listen)
    joined: tuple[str, ...] = ()  # other groups of my match I joined at connect (a live game's)
    user_group: str | None = None
    revoked = False  # the user was deactivated or logged out: nothing more is taken from this socket
    counted = False  # whether my user's seat row counts this socket in ``open_sockets``
    opened = False  # accepted and not refused: a stopping server closes me with 1012 (see __call__)
    move_limit: ratelimit.SocketLimit | None = None  # my moves, counted here (see receive_json)

    async def _send_update(self, update: dict[str, Any], *, deflate: bool) -> None:
        """Send an update; compressed on the wire only if it holds nothing secret (BREACH)."""
        await self._send_text(json.dumps(update), deflate=deflate)

    async def _send_text(self, text: str, *, deflate: bool) -> None:
        message: Any = {"type": "websocket.send", "text": text, DEFLATE: deflate}
        await self.base_send(message)  # DEFLATE (games.runtime.wscompress) is unknown to the ASGI event types

    async def _server_stopping(self) -> None:
        """Daphne cancels every socket's task when it is stopped (SIGTERM): my client is told the
        server restarts (1012, and reconnects to another at once, rather than seeing the connection
        drop), and I count myself out (presence, groups) as a closing socket does, instead of
        leaving my user counted as present until the sweep."""
        if not self.opened:
            return
        self.opened = False
        with contextlib.suppress(Exception):
            closing: Any = {"type": "websocket.close", "code": SERVICE_RESTART}
            await self.base_send(closing)
        try:
            await asyncio.wait_for(self.disconnect(SERVICE_RESTART), STOPPING_SECONDS)
        except Exception:
            log.warning("a stopping socket of match %s did not count itself out", self.match_id, exc_info=True)

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
        found = await database_sync_to_async(find_seat)(self.match_id, user)
        if found is None:
            await self._refuse(4404)
            return
        seat, live = found
        self._become(live)
        await self._open(user, seat)
        await self.push(only_if_newer=True)

    def _become(self, live: bool) -> None:
        """Take the class of socket a match that is (or is not) ``live`` needs (see games.sockets.consumers)."""

    async def _open(self, user: Any, seat: int | None) -> None:
        """Join my groups, accept the socket, and count it in; my board is pushed next."""
        # Every socket of a user hears when the user is deactivated or logs out (games.signals).
        self.user_group = user_group(user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        self.seat = seat
        # A reconnecting client says which versions it already shows (?v=&c=); it gets only news.
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.sent_frames = SentFrames(_int((query.get("v") or [""])[0], -1), _int((query.get("c") or [""])[0], -1))
        await self._listen()
        await self.accept()
        self.opened = True
        await self._count_me_in()

    async def push(self, only_if_newer: bool = False) -> None:
        """Send my client its board and chat box (only what is newer than it has, if ``only_if_newer``)."""
        raise NotImplementedError

    async def _act(self, content: dict[str, Any]) -> None:
        """A move sent over the socket (``{"type": "act", ...}``, see games.play.payloads)."""
        raise NotImplementedError

    async def _refuse(self, code: int) -> None:
        await self.accept()
        await self.close(code=code)

    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """The channel layer lost Redis for a while and has it back (games.runtime.channel_layer):
        what was published meanwhile never came, so my client gets whatever it now lacks. Whether
        it lacks anything is read with every other socket's question, in one query
        (:mod:`games.sockets.catch_up`): only a socket that is behind renders."""
        if self.opened and not self.revoked and await self._missed_something():
            await self.push(only_if_newer=True)

    async def _missed_something(self) -> bool:
        try:
            now = await catch_up.versions_of(self.match_id)
        except DatabaseError:
            return True  # the render that follows answers as any render does without a database
        frames = self.sent_frames
        return now is None or now[0] > frames.revision or now[1] > frames.chat

    async def user_revoked(self, event: dict[str, Any]) -> None:
        """My user was deactivated, or logged out of the session this socket was opened with."""
        session = event.get("session")
        own = getattr(self.scope.get("session"), "session_key", None)
        if session is None or session == own:
            self.revoked = True
            await self.close(code=4401)

    async def disconnect(self, code: int) -> None:
        presence.heartbeats().discard(self.channel_name)
        if self.user_group is not None:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
            self.user_group = None
        for group in self.listening:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.listening = ()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined = ()
        if self.counted:
            self.counted = False
            await self._presence(-1)

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
        content = read_frame(text_data)
        if content is None:
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
            shown = payloads.small_number(content.get("revision"))
            self.sent_frames.shown = shown
            self.sent_frames.revision = await self._revision_of_shown(shown)
            self.sent_frames.chat = payloads.small_number(content.get("chat_version"))
            await self.push(only_if_newer=True)
        elif kind == "act":
            if (wait := self._moves_limited()) is not None:
                await self.send_json(wait | {"key": _key(content)})
                return
            await self._act(content)
        elif kind == "chat":
            await self._chat(content)
        else:
            await self._other(kind, content)

    async def _revision_of_shown(self, shown: int) -> int:
        """The match revision my client, showing revision ``shown``, is up to date with: the same
        in a game without private events (a live game's socket reads it from the match)."""
        return shown

    def _moves_limited(self) -> dict[str, Any] | None:
        """The answer to a move past my socket's limit (``None``: within it). Counted in this
        socket's memory, on the loop: a flood of moves is answered without a write path's work."""
        if self.move_limit is None:
            self.move_limit = ratelimit.SocketLimit("move")
        wait = self.move_limit.wait()
        if not wait:
            return None
        with speaking(self._language()):
            return {"type": "answer", "status": 429, "message": ratelimit.refusal("move", wait)}

    async def _other(self, kind: Any, content: dict[str, Any]) -> None:
        """A message of a ``kind`` no match socket takes (a live game's socket takes pings)."""
        await self._error(UNKNOWN)

    async def _chat(self, content: dict[str, Any]) -> None:
        refusal = await chat.take(self.match_id, self.seat, self._user().pk, self._language(), content)
        if refusal is not None:
            await self.send_json({"type": "error", "message": refusal})

    async def _count_me_in(self) -> None:
        """Count this socket in its seat's ``open_sockets`` and keep its presence record beating."""
        self.counted = await self._presence(+1)
        if self.counted:
            presence.heartbeats().add(self.channel_name)

    @database_sync_to_async
    def _presence(self, delta: int) -> bool:
        return presence.count_socket(self.match_id, self._user(), self.channel_name, delta)

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


def find_seat(match_id: int, user: Any) -> tuple[int | None, bool] | None:
    """``user``'s seat in the match (``None``: a spectator) and whether the match is live; ``None``
    if there is no such match."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    live = rules_for(match).live
    seat = viewer_for(match, user).seat
    return (seat if isinstance(seat, int) and not isinstance(seat, bool) else None), live


def read_frame(text: str | None) -> dict[str, Any] | None:
    """A client's frame as the one small JSON object it must be, else ``None``."""
    if text is None or len(text) > MAX_FRAME:
        return None
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, nested too deep, or an over-long number
        return None
    return content if isinstance(content, dict) else None


def _key(content: dict[str, Any]) -> str | None:
    """A move's idempotency key, to answer it by (as the write path's answer names it)."""
    key = content.get("key")
    return key if isinstance(key, str) and 0 < len(key) <= payloads.MAX_KEY_CHARS else None


def user_group(user_id: int) -> str:
    return f"user_{user_id}"


def _int(value: Any, default: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
