"""A turn-based game's socket: rendered boards sent as diffs, and moves through the write path.

A player's socket forwards the partials the process that changed the match rendered for its seat
(see :mod:`games.push.pushes`): that needs no database. A spectator's socket hears only "match N
is now at revision R" and renders its own public view; any socket renders for itself when it
connects or reconnects (catching up from ``?v=&c=``) or when a message is not for it. Either
way it sends its client only what changed since what it sent before (:mod:`games.sockets.frames`).
Moves go through the same services as the HTTP forms, and their sender gets an ``answer``
naming the move's key.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext_noop

from games.models import Match
from games.play import errors, latency_trace, payloads, write_paths, writers
from games.push import pushes
from games.push.speaking import speaking
from games.sockets.base_consumer import BaseMatchConsumer
from games.sockets.frames import json_once

DATABASE_AWAY = gettext_noop(
    "The server could not reach its database, so your move may not have been saved. Try it again."
)

log = logging.getLogger(__name__)

STALE_BOARD_WAIT = 0.3  # seconds a refused stale move's answer waits for the push of the board that made it stale


class TurnConsumer(BaseMatchConsumer):
    """A match socket that shows its client the rendered board and takes its moves.

    Every match's boards and moves go this way: a turn-based game's socket does only this, and a
    live game's (:class:`games.sockets.live_consumer.LiveConsumer`) forwards its events besides.
    """

    board_waiters: list[tuple[int, asyncio.Future[None]]]  # stale answers waiting for a revision's board
    answering: set[asyncio.Future[None]]  # those answers' tasks (see _after_board)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.board_waiters = []
        self.answering = set()

    async def disconnect(self, code: int) -> None:
        for task in self.answering:
            task.cancel()
        await super().disconnect(code)

    async def match_changed(self, event: dict[str, Any]) -> None:
        if event["revision"] > self.sent_frames.revision or event["chat_version"] > self.sent_frames.chat:
            await self.push(only_if_newer=True)

    def _my_part(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """My seat's part of a message for every connected seat (``games.push.pushes._to_players``); no other."""
        return next((part for part in event["seats"] if part["seat"] == self.seat), None)

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
        news = self.sent_frames.news_in(rendered)
        if news is None:  # a board my client cannot take as a diff: its whole board, rendered here
            await self.push(only_if_newer=True)
            return
        board_news, chat_news = news
        if board_news or chat_news:
            await self._deliver(rendered, board=board_news, chat=chat_news)

    async def push(self, only_if_newer: bool = False) -> None:
        frames = self.sent_frames
        rendered = await self._render(frames.revision, frames.chat, only_if_newer=only_if_newer)
        if rendered is None:
            return
        if self.seat is not None and not self.counted:
            # I joined after connecting: count me in before listening to my seat (the writer only
            # renders for seats with sockets), then render again, to miss nothing published meanwhile.
            await self._count_me_in()
            await self._listen()
            rendered = await self._render(frames.revision, frames.chat)
            if rendered is None:
                return
        await self._listen()  # rendering found out who I am (a seat once the match started)
        board_news = rendered.has_board and (rendered.revision > frames.revision or not only_if_newer)
        chat_news = bool(rendered.chat_html) and (rendered.chat_version > frames.chat or not only_if_newer)
        if only_if_newer and not (board_news or chat_news):
            return
        await self._deliver(rendered, board=rendered.has_board, chat=bool(rendered.chat_html), full=not only_if_newer)

    @database_sync_to_async
    def _render(self, have_revision: int, have_chat: int, *, only_if_newer: bool = False) -> pushes.Rendered | None:
        """This seat's partials that changed since what the client has (``None``: nothing to render)."""
        match = Match.objects.without_snapshot().filter(pk=self.match_id).first()
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

    async def _deliver(self, rendered: pushes.Rendered, *, board: bool, chat: bool, full: bool = False) -> None:
        """Send my client what it lacks (:meth:`games.sockets.frames.SentFrames.update_for`): a diff's
        large shared fragments first, compressed, in a message of their own, then the update,
        compressed only if it holds nothing secret."""
        part, update = self.sent_frames.update_for(rendered, board=board, chat=chat, full=full)
        if board:
            self._board_sent()
        if part is not None:
            await self._send_text(part, deflate=True)  # the shared fragments: nothing secret in them
        if rendered.public and "base" in update:
            await self._send_text(json_once(update), deflate=True)
        else:
            await self._send_update(update, deflate=rendered.public)

    def _board_sent(self) -> None:
        """Release the answers that waited for the board my client has now been sent (see _after_board)."""
        if not self.board_waiters:
            return
        waiting = []
        for revision, waiter in self.board_waiters:
            if revision <= self.sent_frames.revision:
                if not waiter.done():
                    waiter.set_result(None)
            elif not waiter.done():
                waiting.append((revision, waiter))
        self.board_waiters = waiting

    async def _act(self, content: dict[str, Any]) -> None:
        """A move sent over the socket: the same write path as the form POST, answered to me alone."""
        await self._act_now(content, None)

    async def _act_now(self, content: dict[str, Any], received: float | None) -> None:
        key = content.get("key") if isinstance(content.get("key"), str) else None
        latency_trace.mark("received", self.match_id, key, self.seat)
        answer: dict[str, Any] = {"type": "answer", "key": key if key and len(key) <= payloads.MAX_KEY_CHARS else None}
        stale: errors.StaleVersion | None = None
        try:
            sent = payloads.from_socket(content)
            result = await self._submit(sent, received)
        except payloads.BadPayload as exc:
            answer.update(status=400, message=exc.message)
        except errors.ServiceError as exc:
            stale = exc if isinstance(exc, errors.StaleVersion) else None
            answer.update(status=exc.status, message=exc.message)
            if exc.detail:
                answer["detail"] = json.loads(json.dumps(exc.detail, default=str))
        except Exception as exc:
            if not writers.lost_connection(exc):
                raise
            # The database stayed away through the retry (or a move without a key lost it): an
            # answer that says so, and the socket stays open for the move to be sent again.
            log.warning("a socket move of match %s was not written: %s", self.match_id, exc)
            with speaking(self._language()):
                answer.update(status=503, message=translation.gettext(DATABASE_AWAY))
        else:
            answer.update(
                status=200, revision=result.revision_for(self.seat), version=await self._version_shown(result.version)
            )
        if answer["status"] == errors.StaleVersion.status:
            # The fresh board first, then why. The move that made mine stale was published to my
            # seat too, so its push is usually on its way: wait for it (off this socket's message
            # loop, which must go on to receive it) rather than render the same board here.
            current = None if stale is None else stale.revision
            if current is None:
                await self.push(only_if_newer=True)
            elif current > self.sent_frames.revision:
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

    async def _version_shown(self, version: int) -> int:
        """The game version my client is told it moved the match to (a live game's may skip events)."""
        return version

    async def _submit(self, sent: payloads.Submission, received: float | None) -> write_paths.SubmitResult:
        # Written on the writer threads, which keep their connections: the process's one shared
        # database thread queued every match's moves behind each other (games.play.writers).
        move = (self.match_id, self.seat, self._user().pk, sent, received, self._language())
        try:
            return await writers.write(write_paths.do_submit_as_user, *move)
        except Exception as exc:
            if sent.key is None or not writers.lost_connection(exc):
                raise
            # The thread's kept connection was lost (PostgreSQL restarted or ended it, or it was
            # closed under the thread) and is dropped now: once more on a new one. The key answers
            # a move that was written before the loss as written, instead of applying it twice.
            return await writers.write(write_paths.do_submit_as_user, *move)
