"""What a change to a match sends to its sockets: each player's partials, rendered once, by the writer.

The process that committed a change already holds the match, its new state and the new events, so
it renders every connected seat's partials right there (in that seat user's language) and sends
each to the seat's own group, ``match_<id>_seat_<n>``: a player's consumer only forwards what
arrives, without touching the database. A payload names the user it was rendered for, and a
consumer drops any that is not for its own user, so a seat that changed hands leaks nothing.

Spectators and lobby pages listen on ``match_<id>`` and get only "match N changed"; they render
their own (public) view, as does every socket when it connects or falls behind.

Rendered HTML is also kept for a moment per (match, revision, user, language), so the HTMX answer
to the player who moved is the board already rendered for that player's sockets.

:func:`send_many` hands the messages to the channel layer from synchronous code (a writer thread,
a request's thread, a Celery worker): on the consumers' own loop when this process has them, else
from one background loop per process.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import threading
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.template.loader import render_to_string
from django.utils.html import format_html

from games.engines.base import Event
from games.engines.kept import KeptByIdentity
from games.models import Match, Seat
from games.play import latency_trace, seat_rows
from games.play import render_ahead as speculation
from games.play.bounded_cache import BoundedCache
from games.play.store import load_state, remember, rules_for
from games.push import shell_memo
from games.push.presenter import (
    Privates,
    can_chat,
    chat_rows,
    event_for,
    hidden_from,
    match_context,
    nothing_secret,
    prefetch_log,
    private_events,
)
from games.push.speaking import current_language, speaking
from games.runtime.channel_layer import LoopInMemoryChannelLayer, SharedDecodeChannelLayer
from games.templatetags.hideout import log_items, placeholder

log = logging.getLogger(__name__)


def watch_group(match_id: int) -> str:
    return f"match_{match_id}"


def seat_group(match_id: int, seat: int) -> str:
    return f"match_{match_id}_seat_{seat}"


def players_group(match_id: int) -> str:
    """Every seated socket of a match: a move's partials reach them as one message (see ``publish``)."""
    return f"match_{match_id}_players"


def user_language(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or "en"


# --- rendered partials, kept briefly --------------------------------------------------------------

_rendered: BoundedCache[tuple[Any, ...], Rendered] = BoundedCache(512, revision_keyed=True)


def _keep(key: tuple[Any, ...], rendered: Rendered) -> None:
    _rendered.put(key, rendered)


def forget_rendered() -> None:
    """Drop every board this process kept (tests start from nothing: their match ids repeat)."""
    _rendered.clear()
    shell_memo.forget()


def rendered_board(match_id: int, revision: int, user_id: int, language: str) -> str | None:
    """The board partial this process rendered for ``user_id`` at ``revision``, if it still has it."""
    kept = _rendered.get((match_id, revision, user_id, language, "board"))
    return None if kept is None else kept.board_html()


def board_with_error(board_html: str, error: str | None) -> str:
    """A rendered board partial with ``error`` shown at its top, as the template would put it."""
    if not error:
        return board_html
    head, _, rest = board_html.partition(">")  # the end of the opening <section id="board" …> tag
    return head + ">" + format_html('<div class="error" role="alert">{}</div>', error) + rest


def render_parts(match: Match, user: Any, parts: Iterable[str]) -> tuple[str, bool]:
    """Render ``parts`` of ``user``'s match page in the current language.

    Returns the HTML and whether it holds nothing secret (so it may be compressed on the wire).
    """
    rendered = render_seat(match, user, parts)
    return rendered.html(), rendered.public


def _digest(text: str) -> str:
    # The same in every process (unlike hash()): sockets compare digests made by other writers.
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


_fragment_digests: dict[str, str] = {}
_FRAGMENT_DIGESTS = 4096
_KEPT_DIGEST_CHARS = 8192  # at most 32 MB held here: bridge_race's drawing layers are new every move
_large_digests: KeptByIdentity[str] = KeptByIdentity(64)


def _fragment_digest(html: str) -> str:
    """``_digest(html)``, kept for a panel-sized fragment: one reused from games.push.fragment_memo is the
    very string it was, and Python keeps a string's hash, so finding it again hashes nothing. A
    larger one is kept by identity for the few latest: a shared fragment is the same string object
    in every seat's board of a move (bridge_race's layers, five seats)."""
    if len(html) > _KEPT_DIGEST_CHARS:
        return _large_digests.get(html, _digest)
    found = _fragment_digests.get(html)
    if found is None:
        if len(_fragment_digests) >= _FRAGMENT_DIGESTS:
            _fragment_digests.clear()  # simpler than an LRU, and rare: a dict operation is atomic
        found = _fragment_digests[html] = _digest(html)
    return found


@dataclass
class Rendered:
    """A seat's partials at one revision, the board split into its named fragments.

    ``shell`` is the board with each fragment replaced by a placeholder; ``shell_digest`` covers
    it without its opening tag (which carries the revision), so two revisions of a board with the
    same shell differ only in fragments. ``log_add`` holds the log's lines for the events after
    ``log_after`` (a socket that showed that version appends them), ``log_html`` the whole log
    (only when there is no ``log_after``).
    """

    revision: int
    version: int
    chat_version: int
    public: bool
    shell: str = ""
    shell_digest: str = ""
    frags: dict[str, str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    shared: frozenset[str] = frozenset()  # the fragments every viewer sees alike (no secret in them)
    log_html: str = ""
    log_add: str = ""
    log_after: int | None = None
    chat_html: str = ""
    seat: int | None = None  # whom it was rendered for (not sent: the socket knows)
    # The revision as that seat is shown it (games.push.presenter.shown_revision); None: ``revision``.
    shown: int | None = None

    @property
    def shown_revision(self) -> int:
        return self.revision if self.shown is None else self.shown

    @property
    def has_board(self) -> bool:
        return bool(self.shell_digest)

    def board_html(self) -> str:
        html = self.shell
        for name, frag in self.frags.items():
            html = html.replace(placeholder(name), frag, 1)
        return html

    def html(self) -> str:
        return (self.board_html() if self.has_board else "") + self.log_html + self.chat_html

    def to_message(self, *, shell: bool = True) -> dict[str, Any]:
        """The message for a seat's sockets; without the ``shell`` they can only lay fragments on a board."""
        return {
            "revision": self.revision,
            "shown": self.shown,
            "version": self.version,
            "chat_version": self.chat_version,
            "deflate": self.public,
            "shell": self.shell if shell else "",
            "shell_digest": self.shell_digest,
            "frags": self.frags,
            "digests": self.digests,
            "shared": sorted(self.shared),
            "log_html": self.log_html,
            "log_add": self.log_add,
            "log_after": self.log_after,
            "chat_html": self.chat_html,
        }

    @classmethod
    def from_message(cls, message: Mapping[str, Any]) -> Rendered:
        return cls(
            revision=message["revision"],
            shown=message.get("shown"),
            version=message["version"],
            chat_version=message["chat_version"],
            public=message.get("deflate") is True,
            shell=message.get("shell", ""),
            shell_digest=message.get("shell_digest", ""),
            frags=dict(message.get("frags") or {}),
            digests=dict(message.get("digests") or {}),
            shared=frozenset(message.get("shared") or ()),
            log_html=message.get("log_html", ""),
            log_add=message.get("log_add", ""),
            log_after=message.get("log_after"),
            chat_html=message.get("chat_html", ""),
        )


def render_seat(match: Match, user: Any, parts: Iterable[str], *, log_after: int | None = None) -> Rendered:
    """Render ``parts`` of what ``user`` sees of ``match`` (``None``: a spectator), in the current language."""
    wanted = frozenset(parts)
    context = match_context(match, user, parts=wanted)
    language = current_language()
    user_id = getattr(user, "pk", None)
    out = Rendered(
        revision=match.revision,
        shown=context["revision"],
        version=context["version"],
        chat_version=match.chat_version,
        public=nothing_secret(context["rules"], context["seat"], context["chat"]),
        seat=context["seat"],
    )
    if "board" in wanted:
        board = shell_memo.render_board(context, _digest)
        out.shell, out.shell_digest, out.frags, out.shared = board.shell, board.body_digest, board.frags, board.shared
        out.digests = {name: _fragment_digest(frag) for name, frag in board.frags.items()}
        _keep((match.id, match.revision, user_id, language, "board"), out)
    if "log" in wanted:
        if log_after is None:
            out.log_html = render_to_string("games/match.html#log", context)
        else:
            # Only the new lines: the whole log is most of a push's rendering once fragments are
            # kept. A socket whose client lacks the version before (moves by two processes crossed)
            # renders its own board and log (consumers.MatchConsumer.seat_update).
            out.log_after = log_after
            out.log_add = _new_lines(context["log"], log_after)
    if "chat" in wanted:
        out.chat_html = render_to_string("games/match.html#chat", context)
    return out


def _new_lines(log: list[dict[str, Any]], after: int) -> str:
    """``log``'s lines after ``after`` as ``<li>`` items. The log is oldest first: the new lines are
    found from its end, not by reading the whole window (most moves add a line or two to fifty)."""
    start = len(log)
    while start and log[start - 1]["seq"] > after:
        start -= 1
    return log_items(log[start:])


# --- publishing ------------------------------------------------------------------------------------


def publish_after_commit(match: Match, **hints: Any) -> None:
    """Once committed, :func:`publish` the change (at once when no transaction is open). The commit
    calls ``publish`` itself: a move goes from the write path to here with no stop on the way
    (docs/architecture.md, the walk)."""
    transaction.on_commit(functools.partial(publish, match, **hints))


def publish(
    match: Match,
    *,
    events: Mapping[int, Event] | None = None,
    state_before: Any = None,
    chat_changed: bool = False,
    board: bool = True,
    actor: int | None = None,
    seats_changed: bool = False,
    audience: list[tuple[int, int]] | None = None,
    seats: list[Seat] | None = None,
    ahead: RenderedAhead | None = None,
) -> None:
    """Send the committed change of ``match`` to its sockets (call after commit).

    ``events`` are the new events by ``seq`` (so logs need no query), ``state_before`` the state
    before them (a seat's chat box is re-sent only when chatting opened or closed for it), and
    ``actor`` the seat that moved: its board is rendered even without a socket, because the HTMX
    answer to its POST uses it. ``seats_changed`` tells every seat's sockets to look again who they
    are (a player replaced by a bot). ``board=False`` sends the chat box only (a chat message).
    ``audience``: (seat, user) of the seats with sockets, and ``seats`` every seat with its player
    (:func:`games.play.seat_rows.seats_of`), where the write already read them. ``ahead``: the
    messages, rendered while the write was on the wire for the revision and seats it confirmed:
    what that render stored is kept (first, so that the HTMX answer to the mover finds its board,
    :func:`rendered_board`) and they are sent as they are.
    """
    if ahead is not None:
        ahead.held.commit()
        _send(match, ahead.messages)
        return
    if events and board and not seats_changed and rules_for(match).live:
        try:
            publish_live(match, events, audience)
        except Exception:  # as below: a client that missed events catches up on reconnect
            log.exception("publishing live events of match %s failed", match.pk)
        return
    messages: list[tuple[str, dict[str, Any]]] = []
    try:
        messages = _publish(match, events or {}, state_before, chat_changed, board, actor, seats_changed, seats)
    except Exception:  # the change is committed; a client that missed it catches up on reconnect
        log.exception("publishing match %s failed", match.pk)
    _send(match, messages)


def _send(match: Match, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """The seats' ``messages`` and the spectators' ping, in one hop to the channel layer."""
    ping = {"type": "match.changed", "revision": match.revision, "chat_version": match.chat_version}
    latency_trace.mark("rendered", match.pk, match.revision)
    try:
        send_many([*messages, (watch_group(match.pk), ping)])
    except Exception:
        log.exception("broadcast failed for match %s", match.pk)


class QueryBeforeWrite(Exception):
    """A render ahead of its write asked the database, whose connection waits for the write."""


def _refuse_queries(*args: Any) -> Any:
    ahead = speculation.current()
    if ahead is not None:
        ahead.refused = True
    raise QueryBeforeWrite("rendered ahead of the write")


@dataclass
class RenderedAhead:
    """A move's pushes rendered while its write was on the wire (:func:`render_ahead`)."""

    held: speculation.Ahead
    messages: list[tuple[str, dict[str, Any]]]


def render_ahead(
    match: Match, state: Any, *, events: Mapping[int, Event], state_before: Any, actor: int | None, seats: list[Seat]
) -> RenderedAhead | None:
    """What :func:`publish` would send for a move whose write is still on the wire (:mod:`games.play.render_ahead`).

    ``match`` is the row as the write is foreseen to leave it, ``state`` the state after the move,
    ``seats`` the seats as foreseen. ``None`` if the render needed the database (its connection is
    busy with the write) or failed: the caller publishes after the write, as without this.
    """
    db = connections[DEFAULT_DB_ALIAS]  # found once: each use of the ``connection`` proxy looks it up
    logged = len(db.queries_log)
    with speculation.rendering() as held, db.execute_wrapper(_refuse_queries):
        remember(match.pk, match.version, state)  # held: the state of a version the write has yet to confirm
        try:
            messages = _publish(match, events, state_before, False, True, actor, False, seats)
        except Exception:
            held.refused = True
    if held.refused:
        # A debug cursor (DEBUG, CaptureQueriesContext) logged the query it refused: none was sent.
        while len(db.queries_log) > logged and db.queries_log[-1]["sql"] is None:
            db.queries_log.pop()
        return None
    return RenderedAhead(held, messages)


Secret = Mapping[int, tuple[int, ...]]
"""Of a write's events, the ``seq`` and ``visible_to`` of those left out for the other viewers."""


def live_events(
    match: Match, events: Mapping[int, Event], seat: int | None, privates: Privates, secret: Secret
) -> tuple[int, int, list[dict[str, Any]]]:
    """The new events as ``seat`` may see them (``None``: a spectator), with the game versions it
    is shown before and after them: ``(after, version, events)``.

    An event the game calls private (``rules.is_private``: nothing in it is public, so that it
    happened at all is the secret, e.g. police_alarm's placement and auto-escape flag) is left out
    for everyone outside its ``visible_to`` while the game runs, and moves nothing they are shown:
    their versions and the events' ``seq``s skip it (``privates``: the match's private events,
    :func:`games.push.presenter.private_events`; ``secret``: those of ``events``, as
    :func:`secret_events` finds them once for every viewer).
    """
    finished = match.status == Match.Status.FINISHED
    first = min(events)
    after = first - 1 - hidden_from(privates, seat, first - 1) if privates else first - 1
    out = []
    shown = after
    for seq in sorted(events):
        if seq in secret and (seat is None or seat not in secret[seq]):
            continue
        shown += 1
        out.append({"seq": shown, **event_for(events[seq], seat, finished)})
    return after, match.version if finished else shown, out


def secret_events(match: Match, events: Mapping[int, Event]) -> Secret:
    """The events of ``events`` that only their ``visible_to`` are told of: private ones while the
    game runs (none for a game that has no private event types)."""
    rules = rules_for(match)
    if not rules.private_event_types or match.status == Match.Status.FINISHED:
        return {}
    return {seq: event.visible_to for seq, event in events.items() if rules.is_private(event)}


def publish_live(match: Match, events: Mapping[int, Event], audience: list[tuple[int, int]] | None = None) -> None:
    """A live game's pushes: its new events as small JSON messages, nothing rendered.

    The players' group gets one message with each connected seat's part, the events as that seat
    may see them (each socket takes its own); the watch group (spectators) the public part. A game
    that names ``quiet_events`` (the events its client applies by itself, a car move: a few dozen
    bytes) gets, with any other event, the viewer's new ``view``, the same JSON its board is drawn
    from, so that no client has to replay the rules. A client whose version is not the message's
    ``after`` asks for the board again. A viewer told of none of the events (they were all
    private, :func:`live_events`) is sent nothing at all.
    """
    rules = rules_for(match)
    seats = audience
    if seats is None:
        rows = Seat.objects.filter(match_id=match.pk, user__isnull=False, open_sockets__gt=0)
        seats = list(rows.values_list("number", "user_id"))
    privates = private_events(match, events)
    secret = secret_events(match, events)
    head = {"revision": match.revision, "chat_version": match.chat_version}
    quiet = rules.quiet_events  # None: the game's client wants events only
    state = None if quiet is None or all(e.type in quiet for e in events.values()) else load_state(match)
    parts = []
    for number, user_id in seats:
        after, version, shown = live_events(match, events, number, privates, secret)
        if not shown:
            continue
        part = {"seat": number, "user": user_id, **head, "after": after, "version": version, "events": shown}
        if state is not None:
            part["view"] = rules.view(state, number)
        parts.append(part)
    messages = _to_players(match.pk, "seats.live", parts)
    after, version, shown = live_events(match, events, None, privates, secret)
    if shown:
        public = {"type": "match.live", **head, "after": after, "version": version, "events": shown}
        if state is not None:
            public["view"] = rules.view(state, None)
        messages.append((watch_group(match.pk), public))
    if messages:
        send_many(messages)


def _to_players(match_id: int, kind: str, parts: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every connected seat's part in one message to the players' group (none without parts): one
    publish per move, not one per seat. Each socket takes its own seat's part and no other
    (``MatchConsumer.seats_update`` / ``seats_live``)."""
    return [(players_group(match_id), {"type": kind, "seats": parts})] if parts else []


def _publish(
    match: Match,
    events: Mapping[int, Event],
    state_before: Any,
    chat_changed: bool,
    board: bool,
    actor: int | None,
    seats_changed: bool,
    seats: list[Seat] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Render every seat's news; returns the messages for the seats' sockets."""
    if seats is None:
        seats = seat_rows.seats_of(match.pk)
    match._seat_cache = seats  # type: ignore[attr-defined]
    messages: list[tuple[str, dict[str, Any]]] = []
    if match.status == Match.Status.LOBBY:
        return messages  # lobby pages listen on the watch group
    if seats_changed:
        ping = {"type": "match.changed", "revision": match.revision, "chat_version": match.chat_version}
        messages.extend((seat_group(match.pk, seat.number), ping) for seat in seats)
    audience = [s for s in seats if s.user is not None and (s.open_sockets > 0 or s.number == actor)]
    if not audience:
        return messages
    rules = rules_for(match)
    state = load_state(match) if match.version > 0 else None
    chat_for: set[int] = set()
    if chat_changed or state_before is None or state is None:
        chat_for = {s.number for s in audience}
    else:
        chat_for = {
            s.number
            for s in audience
            # A move is only ever accepted while the match runs: chat was open then if the rules said so.
            if can_chat(match, rules, state_before, s.number, active=True) != can_chat(match, rules, state, s.number)
        }
    if board:
        prefetch_log(match, [s.number for s in audience], events)
    if chat_for:
        chat_rows(match)  # one query for every seat's chat box
    log_after = min(events) - 1 if events else None
    parts: list[dict[str, Any]] = []
    for seat in audience:
        wanted = ({"board", "log"} if board else set()) | ({"chat"} if seat.number in chat_for else set())
        if not wanted:
            continue
        with speaking(user_language(seat.user)):
            rendered = render_seat(match, seat.user, wanted, log_after=log_after)
        if seat.open_sockets <= 0:
            continue
        # No shell: a socket that cannot lay the fragments on the board it shows (its shell
        # changed) renders its whole board itself (consumers.MatchConsumer.seat_update).
        parts.append({"seat": seat.number, "user": seat.user_id, **rendered.to_message(shell=False)})
    return messages + _to_players(match.pk, "seats.update", parts)


# --- delivery: from synchronous code to the channel layer ---------------------------------------
#
# Under daphne a sync view runs in a thread of daphne's event loop, and ``async_to_sync`` hops onto
# that loop, where the in-memory layer's queues live. Elsewhere (Celery workers, scripts) there is
# no such loop: a Redis layer is then driven from one long-lived background loop per process, so
# its connection is reused instead of being opened for every message. With Redis, the process's own
# sockets are handed their messages directly and only the other processes' go through Redis.

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="hideout-broadcast", daemon=True).start()
        return _loop


def _report(future: Future[Any]) -> None:
    if future.exception() is not None:
        log.error("channel layer send failed: %r", future.exception())


def _running(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether ``loop`` is the one running in this thread."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


async def _group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:  # in order
        await layer.group_send(group, message)


def send(group: str, message: dict[str, Any]) -> None:
    send_many([(group, message)])


def send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)``; on Redis, a move's messages cost the sending loop one wake-up."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        wanted = [(group, message) for group, message in messages if layer.groups.get(group)]  # else nobody listens
        loop = layer.loop if isinstance(layer, LoopInMemoryChannelLayer) else None  # the consumers' loop
        if wanted and loop is not None and loop.is_running() and not _running(loop):
            # On the consumers' loop, which this wakes (fire and forget, in order, as on Redis below).
            # From a thread that is not one of that loop's (a live game's timer), async_to_sync would
            # fill their queues from a loop of its own, and daphne's would go on sleeping: the sockets
            # forwarded the message only when something else woke it.
            asyncio.run_coroutine_threadsafe(_group_send_all(layer, wanted), loop).add_done_callback(_report)
            return
        for group, message in wanted:
            async_to_sync(layer.group_send)(group, message)
        return

    if isinstance(layer, SharedDecodeChannelLayer):
        # This process's sockets (usually the match's, behind a proxy that routes by match) first,
        # on their own loop, then the other processes' through Redis, from that loop too
        # (games.runtime.channel_layer). A process with no sockets publishes from the background loop.
        if layer.hand_over(messages):
            return
        group_send = layer.group_send_elsewhere
    else:
        group_send = layer.group_send

    async def publish() -> None:
        await asyncio.gather(*(group_send(group, message) for group, message in messages))

    # Fire and forget, in order: the version in the message lets clients detect anything missed.
    future = asyncio.run_coroutine_threadsafe(publish(), _background_loop())
    future.add_done_callback(_report)
