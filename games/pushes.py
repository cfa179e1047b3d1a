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
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from threading import Lock
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html

from . import broadcaster
from .engines.base import Event
from .models import Match, Seat
from .presenter import can_chat, chat_rows, match_context, nothing_secret, prefetch_log
from .store import load_state, rules_for

log = logging.getLogger(__name__)

PARTIALS = ("board", "chat", "log")


def watch_group(match_id: int) -> str:
    return f"match_{match_id}"


def seat_group(match_id: int, seat: int) -> str:
    return f"match_{match_id}_seat_{seat}"


def user_language(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or "en"


# --- rendered partials, kept briefly --------------------------------------------------------------

_rendered: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_rendered_lock = Lock()
_RENDERED_SIZE = 512


def _keep(key: tuple[Any, ...], html: str) -> None:
    with _rendered_lock:
        _rendered[key] = html
        _rendered.move_to_end(key)
        while len(_rendered) > _RENDERED_SIZE:
            _rendered.popitem(last=False)


def rendered_board(match_id: int, revision: int, user_id: int, language: str) -> str | None:
    """The board partial this process rendered for ``user_id`` at ``revision``, if it still has it."""
    with _rendered_lock:
        return _rendered.get((match_id, revision, user_id, language, "board"))


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
    wanted = frozenset(parts)
    context = match_context(match, user, parts=wanted)
    chunks = []
    language = translation.get_language()
    for part in PARTIALS:
        if part in wanted:
            html = render_to_string(f"games/match.html#{part}", context)
            _keep((match.pk, match.revision, user.pk, language, part), html)
            chunks.append(html)
    return "".join(chunks), nothing_secret(context["rules"], context["seat"], context["chat"])


# --- publishing ------------------------------------------------------------------------------------


def publish(
    match: Match,
    *,
    events: Mapping[int, Event] | None = None,
    state_before: Any = None,
    chat_changed: bool = False,
    board: bool = True,
    actor: int | None = None,
    seats_changed: bool = False,
) -> None:
    """Send the committed change of ``match`` to its sockets (call after commit).

    ``events`` are the new events by ``seq`` (so logs need no query), ``state_before`` the state
    before them (a seat's chat box is re-sent only when chatting opened or closed for it), and
    ``actor`` the seat that moved: its board is rendered even without a socket, because the HTMX
    answer to its POST uses it. ``seats_changed`` tells every seat's sockets to look again who they
    are (a player replaced by a bot). ``board=False`` sends the chat box only (a chat message).
    """
    try:
        _publish(match, events or {}, state_before, chat_changed, board, actor, seats_changed)
    except Exception:  # the change is committed; a client that missed it catches up on reconnect
        log.exception("publishing match %s failed", match.pk)
    ping = {"type": "match.changed", "revision": match.revision, "chat_version": match.chat_version}
    try:
        broadcaster.send(watch_group(match.pk), ping)
    except Exception:
        log.exception("broadcast failed for match %s", match.pk)


def _publish(
    match: Match,
    events: Mapping[int, Event],
    state_before: Any,
    chat_changed: bool,
    board: bool,
    actor: int | None,
    seats_changed: bool,
) -> None:
    seats = list(Seat.objects.filter(match_id=match.pk).select_related("user__profile").order_by("number"))
    match._seat_cache = seats  # type: ignore[attr-defined]
    if match.status == Match.Status.LOBBY:
        return  # lobby pages listen on the watch group
    if seats_changed:
        ping = {"type": "match.changed", "revision": match.revision, "chat_version": match.chat_version}
        for seat in seats:
            broadcaster.send(seat_group(match.pk, seat.number), ping)
    audience = [s for s in seats if s.user is not None and (s.open_sockets > 0 or s.number == actor)]
    if not audience:
        return
    audience.sort(key=lambda s: s.number == actor)  # opponents first: they are the ones waiting
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
    for seat in audience:
        parts = ({"board", "log"} if board else set()) | ({"chat"} if seat.number in chat_for else set())
        if not parts:
            continue
        with translation.override(user_language(seat.user)):
            html, public = render_parts(match, seat.user, parts)
        if seat.open_sockets <= 0:
            continue
        broadcaster.send(
            seat_group(match.pk, seat.number),
            {
                "type": "seat.update",
                "user": seat.user_id,
                "revision": match.revision,
                "version": match.version,
                "chat_version": match.chat_version,
                "chat": "chat" in parts,
                "html": html,
                "deflate": public,
            },
        )
