"""A thin WebSocket adapter: authenticate, listen to my seat's group, forward what arrives.

A player's socket listens on ``match_<id>_seat_<n>``, where the process that changed the match
sends that seat's partials, already rendered (see :mod:`games.pushes`): forwarding them needs no
database. Spectators (and everybody in the lobby) listen on ``match_<id>``, which carries only
"match N is now at revision R", and render their own public view. Any socket renders for itself
when it connects or reconnects (catching up from ``?v=&c=``) or when a message is not for it.
Chat messages from the client go through the same service as the HTTP form. Moves do not come
over the socket: they are HTMX POSTs.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone, translation

from config.wscompress import DEFLATE

from . import services
from .models import Match, Seat
from .presenter import match_context, nothing_secret, viewer_for
from .pushes import seat_group, watch_group


class MatchConsumer(AsyncJsonWebsocketConsumer):
    match_id: int
    seat: int | None
    sent_revision: int
    sent_chat: int
    listening: str | None = None
    counted = False  # whether my user's seat row counts this socket in ``open_sockets``

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        seat = await self._seat(user)
        if seat is False:
            await self.close(code=4404)
            return
        self.seat = seat  # type: ignore[assignment]
        # A reconnecting client says which versions it already shows (?v=&c=); it gets only news.
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.sent_revision = _int((query.get("v") or [None])[0], -1)
        self.sent_chat = _int((query.get("c") or [None])[0], -1)
        await self._listen()
        await self.accept()
        self.counted = await self._presence(+1)
        await self.push(only_if_newer=True)

    async def disconnect(self, code: int) -> None:
        if self.listening is not None:
            await self.channel_layer.group_discard(self.listening, self.channel_name)
            self.listening = None
        if self.counted:
            self.counted = False
            await self._presence(-1)

    async def _listen(self) -> None:
        """Listen on my seat's group as a player, else on the match's watch group."""
        wanted = watch_group(self.match_id) if self.seat is None else seat_group(self.match_id, self.seat)
        if wanted == self.listening:
            return
        await self.channel_layer.group_add(wanted, self.channel_name)
        if self.listening is not None:
            await self.channel_layer.group_discard(self.listening, self.channel_name)
        self.listening = wanted

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            # A reconnecting client tells us what it has; anything newer is pushed at once.
            self.sent_revision = _int(content.get("revision"), -1)
            self.sent_chat = _int(content.get("chat_version"), -1)
            await self.push(only_if_newer=True)
        elif kind == "chat":
            await self._chat(content)
        else:
            await self.send_json({"type": "error", "message": await self._gettext("Unknown message.")})

    async def match_changed(self, event: dict[str, Any]) -> None:
        if event["revision"] > self.sent_revision or event["chat_version"] > self.sent_chat:
            await self.push()

    async def seat_update(self, event: dict[str, Any]) -> None:
        """My seat's partials, rendered by the writer; forwarded if they are news and for my user."""
        if event["user"] != self.scope["user"].pk:
            await self.push()  # the seat changed hands: render for whoever I am now
            return
        board_news = event["revision"] > self.sent_revision
        chat_news = event["chat"] and event["chat_version"] > self.sent_chat
        if not (board_news or chat_news):
            return
        self.sent_revision = max(self.sent_revision, event["revision"])
        if event["chat"]:
            self.sent_chat = max(self.sent_chat, event["chat_version"])
        update = {
            "type": "update",
            "revision": event["revision"],
            "version": event["version"],
            "chat_version": event["chat_version"],
            "html": event["html"],
        }
        await self._send_update(update, deflate=event.get("deflate") is True)

    async def push(self, only_if_newer: bool = False) -> None:
        payload = await self._render(self.sent_revision, self.sent_chat)
        if payload is None:
            return
        if self.seat is not None and not self.counted:
            # I joined after connecting: count me in before listening to my seat (the writer only
            # renders for seats with sockets), then render again, to miss nothing published meanwhile.
            self.counted = await self._presence(+1)
            await self._listen()
            payload = await self._render(self.sent_revision, self.sent_chat)
            if payload is None:
                return
        await self._listen()  # rendering found out who I am (a seat once the match started)
        if only_if_newer and payload["revision"] <= self.sent_revision and payload["chat_version"] <= self.sent_chat:
            return
        self.sent_revision = payload["revision"]
        self.sent_chat = payload["chat_version"]
        deflate = payload.pop("deflate", False)
        await self._send_update(payload, deflate=deflate)

    async def _send_update(self, update: dict[str, Any], *, deflate: bool) -> None:
        """Send an update; compressed on the wire only if it holds nothing secret (BREACH)."""
        await self.base_send({"type": "websocket.send", "text": json.dumps(update), DEFLATE: deflate})

    async def _chat(self, content: dict[str, Any]) -> None:
        if self.seat is None:
            await self.send_json({"type": "error", "message": await self._gettext("Spectators cannot chat.")})
            return
        to_seat = content.get("to")
        try:
            await database_sync_to_async(services.do_post_chat)(
                self.match_id,
                self.seat,
                str(content.get("text", "")),
                _int(to_seat, None) if to_seat not in (None, "") else None,
            )
        except services.ServiceError as exc:
            await self.send_json({"type": "error", "message": exc.message})

    @database_sync_to_async
    def _seat(self, user: Any) -> int | bool | None:
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return False
        return viewer_for(match, user).seat

    @database_sync_to_async
    def _presence(self, delta: int) -> bool:
        # By user, not seat number: seats are renumbered when the match starts.
        return bool(
            Seat.objects.filter(match_id=self.match_id, user=self.scope["user"]).update(
                open_sockets=F("open_sockets") + delta, last_seen=timezone.now()
            )
        )

    @database_sync_to_async
    def _gettext(self, message: str) -> str:
        with translation.override(self._language()):
            return translation.gettext(message)

    def _language(self) -> str:
        profile = getattr(self.scope.get("user"), "profile", None)
        return getattr(profile, "language", None) or "en"

    @database_sync_to_async
    def _render(self, have_revision: int, have_chat: int) -> dict[str, Any] | None:
        """This seat's partials that changed since what the client has."""
        match = Match.objects.defer("snapshot").filter(pk=self.match_id).first()
        if match is None:
            return None
        parts = set()
        if match.revision != have_revision:
            parts |= {"board", "log"}
        if match.chat_version != have_chat or match.revision != have_revision:
            parts.add("chat")  # who may chat can change with the game
        if not parts:
            return {"type": "update", "revision": match.revision, "chat_version": match.chat_version, "html": ""}
        with translation.override(self._language()):
            context = match_context(match, self.scope["user"], parts=frozenset(parts))
            html = "".join(render_to_string(f"games/match.html#{part}", context) for part in sorted(parts))
        self.seat = context["seat"]
        return {
            "type": "update",
            "revision": match.revision,
            "version": match.version,
            "chat_version": match.chat_version,
            "html": html,
            "deflate": nothing_secret(context["rules"], context["seat"], context["chat"]),
        }


def _int(value: Any, default: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
