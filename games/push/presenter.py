"""What a seat sees: the context for a match page, its partials and WebSocket pushes.

Everything here starts from ``rules.view(state, seat)`` and the events as ``Event.for_seat``
returns them, so no template ever receives another seat's secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils import formats

from games import boards
from games.boards.contract import BoardInputs
from games.engines.base import SYSTEM, Event, Rules
from games.models import ChatMessage, Match, MatchEvent, Seat, player_name
from games.play import clock, clock_policy, rematches, seat_rows
from games.play.bounded_cache import BoundedCache
from games.play.store import events_between, kept_events, load_state, rules_for
from games.push.speaking import current_language, list_separator, ngettext
from games.push.speaking import gettext as _
from games.ratings import changes as ratings_shown

LOG_LINES = 60
CHAT_LINES = 80


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat number for a player, ``None`` for a spectator."""

    seat: int | None
    is_member: bool


def viewer_for(match: Match, user: Any) -> Viewer:
    if user is None or not user.is_authenticated:
        return Viewer(None, False)
    seat = next((s for s in _seats(match) if s.user_id == user.pk), None)
    if seat is None:
        return Viewer(None, False)
    if match.status == Match.Status.LOBBY:
        return Viewer(None, True)
    return Viewer(seat.number, True)


def _seats(match: Match) -> list[Seat]:
    cached = getattr(match, "_seat_cache", None)
    if cached is None:
        cached = seat_rows.seats_of(match.pk)
        match._seat_cache = cached  # type: ignore[attr-defined]
    return cached


def seat_names(match: Match) -> dict[int, str]:
    """Every seat's name, in the active language; read-only, as it is kept on ``match`` for its seats
    (a push asks once per viewer and again for each log)."""
    seats = _seats(match)
    language = current_language()
    kept = getattr(match, "_names_kept", None)
    if kept is not None and kept[0] is seats and kept[1] == language:
        names: dict[int, str] = kept[2]
        return names
    names = {s.number: s.display_name for s in seats}
    match._names_kept = (seats, language, names)  # type: ignore[attr-defined]
    return names


# --- what a viewer is not told of: a live game's private events (rules.is_private) ----------------

Privates = tuple[tuple[int, tuple[int, ...]], ...]
"""The (seq, visible_to) of a match's private events, oldest first."""

_privates: BoundedCache[int, tuple[str, int, Privates]] = BoundedCache(4096, revision_keyed=True)


def private_events(match: Match, known: Mapping[int, Event] | None = None) -> Privates:
    """The match's private events up to its version; ``known``: events the caller holds, by ``seq``
    (a push passes the move's, so the kept list grows without a query)."""
    rules = rules_for(match)
    if not rules.private_event_types or match.version <= 0:
        # Kept all the same, so that a move's answer finds its version here (kept_version_shown)
        # instead of asking the database.
        _privates.put(match.pk, (match.seed, match.version, ()))
        return ()
    kept = _privates.get(match.pk)
    if kept is not None and kept[0] == match.seed and kept[1] <= match.version:
        if kept[1] == match.version:
            return kept[2]
        seen = {**kept_events(match.pk), **(known or {})}
        new = range(kept[1] + 1, match.version + 1)
        if all(seq in seen for seq in new):
            found = kept[2] + tuple((seq, seen[seq].visible_to) for seq in new if rules.is_private(seen[seq]))
            _privates.put(match.pk, (match.seed, match.version, found))
            return found
    rows = MatchEvent.objects.filter(match_id=match.pk, seq__lte=match.version, type__in=rules.private_event_types)
    found = tuple((row.seq, tuple(row.visible_to)) for row in rows.order_by("seq") if rules.is_private(row.to_event()))
    _privates.put(match.pk, (match.seed, match.version, found))
    return found


def hidden_from(privates: Privates, seat: int | None, upto: int) -> int:
    """How many of the events up to ``upto`` ``seat`` (``None``: a spectator) is not told of."""
    return sum(1 for seq, audience in privates if seq <= upto and (seat is None or seat not in audience))


def viewer_version(match: Match, seat: int | None, privates: Privates | None = None) -> int:
    """The game version ``seat`` is shown: the match's, less the private events it is not told of
    while the game runs (T-18, H-2: so that they move nothing it sees). Once the game is over every
    event is public, and so is the version."""
    if match.status == Match.Status.FINISHED:
        return match.version
    privates = private_events(match) if privates is None else privates
    return match.version - hidden_from(privates, seat, match.version)


def _quiet_hidden(match: Match, seat: int | None) -> list[int]:
    """The revisions of the writes ``seat`` (``None``: a spectator) was not told of, while the game runs."""
    return hidden_writes(match.quiet_writes, match.status == Match.Status.FINISHED, seat)


def hidden_writes(quiet_writes: list[Any], finished: bool, seat: int | None) -> list[int]:
    """Of a match's ``quiet_writes``, the revisions of those ``seat`` was not told of (none once it is over)."""
    if not quiet_writes or finished:
        return []
    return [revision for revision, told in quiet_writes if seat is None or seat not in told]


def shown_revision(match: Match, seat: int | None) -> int:
    """The revision ``seat`` is shown: the match's, less the writes it was not told of (T-18, H-2:
    a write of private events alone moves nothing the others see, not even this counter). Once
    the game is over every event is public, and so is the revision."""
    return match.revision - sum(1 for revision in _quiet_hidden(match, seat) if revision <= match.revision)


def revision_of_shown(match: Match, seat: int | None, shown: int) -> int:
    """The match revision a client of ``seat`` showing ``shown`` is up to date with: the latest one
    shown to it as ``shown`` (the writes it was not told of after that change nothing it sees)."""
    hidden = set(_quiet_hidden(match, seat))
    if not hidden:
        return shown
    revision = shown + sum(1 for r in hidden if r <= shown)
    while revision - sum(1 for r in hidden if r <= revision) < shown:
        revision += 1
    while revision + 1 in hidden:
        revision += 1
    return min(revision, match.revision)


def revision_of_shown_now(match_id: int, seat: int | None, shown: int) -> int:
    """:func:`revision_of_shown` for the match as the database has it now."""
    match = Match.objects.filter(pk=match_id).only("revision", "status", "quiet_writes").first()
    return shown if match is None else revision_of_shown(match, seat, shown)


def kept_version_shown(match_id: int, seat: int | None, version: int) -> int | None:
    """:func:`version_shown` from what this process keeps, without the database (``None``: not kept)."""
    kept = _privates.get(match_id)
    if kept is not None and kept[1] >= version:
        return version - hidden_from(kept[2], seat, version) if kept[2] else version
    return None


def version_shown(match_id: int, seat: int | None, version: int) -> int:
    """The game version ``version`` as ``seat`` is shown it (the answer to its move says it)."""
    kept = kept_version_shown(match_id, seat, version)
    if kept is not None:
        return kept
    match = Match.objects.filter(pk=match_id).first()  # the push of that version ran elsewhere
    if match is None or match.status == Match.Status.FINISHED:
        return version
    return version - hidden_from(private_events(match), seat, version)


def event_for(event: Event, seat: int | None, finished: bool) -> dict[str, Any]:
    """The event as ``seat`` may see it; once the match is over players see every secret (R-68)."""
    if finished and seat is not None and event.secret is not None:
        shown: dict[str, Any] = {"type": event.type, "data": event.data, "secret": event.secret}
        if seat not in event.visible_to:
            shown["revealed"] = True  # somebody else's secret: its lines name the owner
        return shown
    return event.for_seat(seat)


def render_param(key: str, value: Any, names: dict[int, str], terms: Mapping[str, str]) -> Any:
    """A log param for people: seats become names, game ids and terms are translated."""
    if key.endswith("seat") and isinstance(value, int):
        return names.get(value, _("the server") if value == SYSTEM else str(value + 1))
    if isinstance(value, list | tuple):
        return list_separator().join(str(render_param("", v, names, terms)) for v in value)
    if isinstance(value, str):
        if value in terms:
            return _(terms[value])
        if value in terms.values():
            return _(value)
    return value


_log_cache: BoundedCache[tuple[Any, ...], tuple[int, list[dict[str, Any]]]] = BoundedCache(4096, revision_keyed=True)


def forget_log_cache() -> None:
    _log_cache.clear()
    _privates.clear()
    _chat_cache.clear()


def _log_key(match: Match, seat: int | None) -> tuple[Any, ...]:
    finished = match.status == Match.Status.FINISHED
    # In a game whose views are all public (R-89 for bridge_race) no seat sees more of an event than
    # a spectator until the end (an event's secret is nobody's: the piles' order), so the seats of
    # a push share one kept log while the match runs; once it is over, players see the secrets.
    public = not finished and rules_for(match).views_public
    reader = "any reader" if public else seat
    return (match.id, reader, current_language(), finished, tuple(match.bot_seats))


def prefetch_log(match: Match, seats: list[int], events: Mapping[int, Event]) -> None:
    """Make sure the log events the ``seats`` lack are at hand, with one query at most.

    ``events`` are events the caller already holds (by ``seq``); the pushes after a move pass the
    move's new events, so a warm cache needs no query at all.
    """
    needed_from = match.version
    for seat in seats:
        hit = _log_cache.get(_log_key(match, seat))
        cached = hit[0] if hit is not None and hit[0] <= match.version else -1
        if cached < 0 or match.version - cached > LOG_LINES * 2:
            cached = max(0, match.version - LOG_LINES * 2)
        needed_from = min(needed_from, cached)
    known = {**kept_events(match.pk), **events}  # kept: events another process wrote (store.keep_events)
    missing = [seq for seq in range(needed_from + 1, match.version + 1) if seq not in known]
    if missing:
        known.update(_events_between(match, missing[0] - 1, match.version))
    match._log_events = known  # type: ignore[attr-defined]


def _events_between(match: Match, after: int, upto: int) -> list[tuple[int, Event]]:
    """The match's events ``after`` < seq <= ``upto`` with their numbers, oldest first: the log
    numbers its events from 1 with no gap, so :func:`~games.play.store.events_between`'s are these."""
    return list(zip(range(after + 1, upto + 1), events_between(match, after, upto), strict=True))


def log_lines(match: Match, seat: int | None, limit: int = LOG_LINES) -> list[dict[str, Any]]:
    """The last ``limit`` readable lines of the log as ``seat`` may see them, in its language.

    Lines already rendered for this reader are kept per process, so a push renders only the
    events that are new since the last one (taken from :func:`prefetch_log` when it ran). Without
    them the events are read back from the newest until ``limit`` lines are found (many events
    have no line), so what a page shows never depends on what this process had kept.
    """
    key = _log_key(match, seat)
    hit = _log_cache.get(key)
    if hit is not None and hit[0] == match.version:
        return list(hit[1])  # kept for this version (another seat's, in a game without secrets)
    if hit is not None and hit[0] <= match.version and match.version - hit[0] <= limit * 2:
        lines = list(hit[1]) + _worded_lines(match, seat, hit[0], match.version)
    else:
        lines, newest, span = [], match.version, limit * 2
        while newest > 0 and len(lines) < limit:
            oldest = max(0, newest - span)
            lines = _worded_lines(match, seat, oldest, newest) + lines
            newest, span = oldest, span * 2
    lines = lines[-limit:]
    _log_cache.put(key, (match.version, lines))
    return lines


def _worded_lines(match: Match, seat: int | None, after: int, upto: int) -> list[dict[str, Any]]:
    """The lines of the events ``after`` < seq <= ``upto``, oldest first, as ``seat`` reads them."""
    finished = match.status == Match.Status.FINISHED
    rules = rules_for(match)
    names = seat_names(match)
    terms = rules.terms
    known: Mapping[int, Event] = getattr(match, "_log_events", {})
    if all(seq in known for seq in range(after + 1, upto + 1)):
        new = [(seq, known[seq]) for seq in range(after + 1, upto + 1)]
    else:
        new = _events_between(match, after, upto)
    # An event's lines read the same for every seat that sees it alike (all of them, unless it
    # holds a secret), so a push's seats word each new event once, on this match object (the row
    # that store.remember_row keeps goes without them).
    worded: dict[tuple[Any, ...], list[dict[str, Any]]] = match.__dict__.setdefault("_worded_events", {})
    language = current_language()
    lines: list[dict[str, Any]] = []
    for seq, event in new:
        alike = None if event.secret is None or seat is None else seat in event.visible_to
        word_key = (seq, language, finished, alike)
        event_lines = worded.get(word_key)
        if event_lines is None:
            event_lines = worded[word_key] = _event_lines(rules, event_for(event, seat, finished), seq, names, terms)
        lines.extend(event_lines)
    return lines


def _event_lines(
    rules: Rules[Any], event: dict[str, Any], seq: int, names: dict[int, str], terms: Mapping[str, str]
) -> list[dict[str, Any]]:
    out = []
    for line in rules.log_lines(event):
        params = {k: render_param(k, v, names, terms) for k, v in line.params.items()}
        try:
            text = _(line.message) % params if params else _(line.message)
        except (KeyError, ValueError, TypeError):
            text = line.message
        out.append({"seq": seq, "text": text})
    return out


# (match id, seed, chat version) -> the latest messages. Every change to a match's chat bumps its
# chat_version (posting, hiding, a moderator deleting: games.signals), so a kept list is never stale.
_chat_cache: BoundedCache[tuple[int, str, int], list[ChatMessage]] = BoundedCache(2048)


def chat_rows(match: Match) -> list[ChatMessage]:
    """The match's latest chat messages (every seat's), fetched once per chat version in a process.

    A move that opens or closes chatting for a seat re-sends its chat box, with no chat news: the
    rows are the ones the process already read (one query a move before, 2% of a daphne's time).
    """
    # The seed too: a reused primary key (a database flushed between tests, a restore) is another match.
    key = (match.id, match.seed, match.chat_version)
    rows = _chat_cache.get(key)
    if rows is None:
        latest = ChatMessage.objects.filter(match=match, hidden=False).order_by("-created_at", "-pk")
        rows = list(latest[: CHAT_LINES * 2])
        _chat_cache.put(key, rows)
    return rows


def nothing_secret(rules: Rules[Any], seat: int | None, chat: list[dict[str, Any]]) -> bool:
    """Whether the partials ``seat`` is shown, with these chat lines, hold nothing hidden from others.

    Only such a message may be compressed on the wire (games/runtime/wscompress.py): a secret compressed
    beside text somebody else chose can be guessed from the size. A spectator is shown nothing
    secret; a player is when the game's views are public (``views_public``) and no private chat
    line is among what is sent.
    """
    if seat is not None and not rules.views_public:
        return False
    return all(line.get("to") is None for line in chat)


def chat_lines(match: Match, seat: int | None) -> list[dict[str, Any]]:
    names = seat_names(match)
    out = []
    for message in reversed(chat_rows(match)):
        if not message.visible_to_seat(seat):
            continue
        out.append(
            {
                "author": names.get(message.seat, "?"),
                "to": names.get(message.to_seat) if message.to_seat is not None else None,
                "text": message.text,
                "mine": message.seat == seat,
                "at": message.created_at,
            }
        )
    return out[-CHAT_LINES:]


def can_chat(match: Match, rules: Rules[Any], state: Any, seat: int | None, *, active: bool | None = None) -> bool:
    """Whether ``seat`` may chat in ``state`` (``active``: whether the match is running, if not now)."""
    if seat is None:
        return False
    if active is None:
        if match.status == Match.Status.FINISHED:
            return True  # the table talks on after the end (issue 10, item 5)
        active = match.status == Match.Status.ACTIVE
    if not active:
        return False
    return rules.chat_allowed(state, seat)


ALL_PARTS = frozenset({"board", "log", "chat"})


def match_context(
    match: Match, user: Any, *, error: str | None = None, parts: frozenset[str] = ALL_PARTS
) -> dict[str, Any]:
    """The context of the match page; ``parts`` limits the work to the partials being rendered."""
    viewer = viewer_for(match, user)
    rules = rules_for(match)
    names = seat_names(match)
    seats = _seats(match)
    context: dict[str, Any] = {
        "match": match,
        "rules": rules,
        "seat": viewer.seat,
        "is_member": viewer.is_member,
        "is_host": user is not None and user.is_authenticated and match.host_id == user.pk,
        "names": names,
        "seats": seats,
        "version": viewer_version(match, viewer.seat),
        "revision": shown_revision(match, viewer.seat),
        "chat_version": match.chat_version,
        "error": error,
        **_match_constants(match, rules),
        "option_rows": option_rows(match, rules) if match.status == Match.Status.LOBBY else [],
        "live": rules.live,
        **_lobby_context(match, user, viewer, seats),
    }
    context["parts"] = parts
    # Read by every fragment of a push (games.templatetags.hideout): cheaper than asking the
    # translation machinery (a thread- and task-local) once per fragment.
    context["render_language"] = current_language()
    if match.status in (Match.Status.ACTIVE, Match.Status.FINISHED, Match.Status.ABORTED) and match.version > 0:
        state = load_state(match)
        seat = viewer.seat
        playing = match.status == Match.Status.ACTIVE
        shared = _every_viewers(match, rules, state, names, playing)
        context.update(
            view=_view_for(match, rules, state, seat, shared["actors"]),
            legal=rules.legal_actions(state, seat) if playing and seat is not None else [],
            actors=shared["actors"],
            deadlines=shared["deadlines"],
            away=shared["away"],
            bank=shared["bank"],
            log=log_lines(match, seat) if "log" in parts else [],
            chat=chat_lines(match, seat) if "chat" in parts else [],
            can_chat=can_chat(match, rules, state, seat),
            standings=shared["standings"],
        )
        board = boards.context_for(
            match.game,
            BoardInputs(
                view=context["view"],
                seat=seat,
                legal=context["legal"],
                names=names,
                finished=match.status == Match.Status.FINISHED,
                state_key=(match.id, match.seed, match.version),
            ),
        )
        if board is not None:
            context["board"] = board
    else:
        context.update(
            view=None,
            legal=[],
            actors=[],
            deadlines=[],
            log=[],
            chat=chat_lines(match, viewer.seat) if "chat" in parts else [],
            can_chat=False,
            standings=None,
        )
    if match.status == Match.Status.LOBBY:
        context.update(rematches.lobby_context(match, user, seats))
    elif match.status == Match.Status.FINISHED and viewer.seat is not None:
        context["rematch_answer"] = rematches.answer_of(match, user)
    mine = next((s for s in seats if viewer.seat is not None and s.number == viewer.seat), None)
    context["waiting_on_me"] = mine is not None and bool(mine.waiting_since)
    # When the viewer's decision began: the page's low-time notification is due at a tenth of its time.
    context["waiting_since"] = mine.waiting_since.timestamp() if mine is not None and mine.waiting_since else None
    return context


def _lobby_context(match: Match, user: Any, viewer: Viewer, seats: list[Seat]) -> dict[str, Any]:
    """What the waiting panel and the end of a cancelled match say, from the context alone: a push
    renders it without a request (no ``user`` or ``request`` in its template context)."""
    if match.status == Match.Status.LOBBY:
        return {
            "can_join": bool(user is not None and user.is_authenticated)
            and not viewer.is_member
            and len(seats) < match.seat_count,
            # The site's own address: a push has no request to take a host from.
            "invite_link": settings.SITE_URL.rstrip("/") + match.invite_url(),
        }
    if match.status == Match.Status.ABORTED:
        if match.cancelled_by_host:
            host = match.host
            profile = getattr(host, "profile", None)
            name = player_name(host, profile.display_name) if profile else host.get_username()
            return {"aborted_notice": _("%(host)s, the host, cancelled this match.") % {"host": name}}
        return {"aborted_notice": _("This match was aborted by a moderator.")}
    return {}


def _match_constants(match: Match, rules: Rules[Any]) -> dict[str, Any]:
    """What every viewer's context says of the match itself (addresses, names of the game and its
    time limit), worked out once per match object and language: a push renders every seat's board."""
    key = (match.id, match.game, match.time_limit, current_language())
    kept = getattr(match, "_match_constants", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    constants = {
        "action_url": match_url("match_action", match.pk),
        "resign_url": match_url("match_resign", match.pk),
        "board_template": f"games/{match.game}/board.html",
        "game_name": _(rules.name),
        "time_limit_text": duration_text(match.time_limit) if rules.uses_time_limit else "",
    }
    match._match_constants = (key, constants)  # type: ignore[attr-defined]
    return constants


def _view_for(match: Match, rules: Rules[Any], state: Any, seat: int | None, actors: list[int]) -> dict[str, Any]:
    """``rules.view(state, seat)``, where a spectator's is built once per match state and shared.

    In a game whose views are public (``views_public``: a seat's view differs from a spectator's
    only by its own options, R-89 for bridge_race), a seat that cannot act now sees exactly the
    spectator's view, so it gets that one too: the pushes after a move build the view once for
    the spectators' fragments and the seats that wait, not once per seat. The templates and board
    models only read it.
    """
    if seat is not None and (seat in actors or not rules.views_public):
        own: dict[str, Any] = rules.view(state, seat)
        return own
    kept = getattr(match, "_public_view", None)
    if kept is None or kept[0] != match.version:
        kept = (match.version, rules.view(state, None))
        match._public_view = kept  # type: ignore[attr-defined]
    view: dict[str, Any] = kept[1]
    return view


def _every_viewers(match: Match, rules: Rules[Any], state: Any, names: dict[int, str], playing: bool) -> dict[str, Any]:
    """The parts of the context that are the same for every viewer, worked out once per match state
    (the pushes after a move build every seat's context from the same match object)."""
    key = (match.version, match.revision, match.status, current_language())  # standings are worded
    kept = getattr(match, "_every_viewers", None)
    if kept is not None and kept[0] == key:
        return dict(kept[1])
    deadlines = rules.deadlines(state) if playing else []
    keys = clock_policy.int_keys(match.waiting)
    # The due times the platform keeps (a vacation's credit, a time bank: games.play.clock_policy).
    dues = clock_policy.effective_dues(match.clock, deadlines, keys)
    shared = {
        "actors": sorted(rules.actors(state)) if playing else [],
        "deadlines": [
            {"seats": list(d.seats), "due": due, "kind": d.kind} for d, due in zip(deadlines, dues, strict=True)
        ],
        "standings": standings(match, names),
        "away": (),
        "bank": (),
    }
    if match.clock and playing:
        shared["away"] = tuple(
            (seat, vacation_until_text(until))
            for seat, until in sorted(clock_policy.away_until(match.clock, clock.now()).items())
        )
        seat_dues = {seat: due for d, due in zip(deadlines, dues, strict=True) if len(d.seats) == 1 for seat in d.seats}
        shared["bank"] = tuple(
            (seat, due, clock_text(left)) for seat, due, left in clock_policy.bank_rows(match.clock, seat_dues, keys)
        )
    match._every_viewers = (key, shared)  # type: ignore[attr-defined]
    return dict(shared)


def match_url(name: str, match_id: int) -> str:
    """``reverse(name, args=[match_id])``, kept: every viewer's board asks for the same few per move."""
    return _match_url(get_script_prefix(), name, match_id)


@lru_cache(maxsize=4096)
def _player_url(prefix: str, username: str) -> str:
    return reverse("player", args=[username])


@lru_cache(maxsize=4096)
def _match_url(prefix: str, name: str, match_id: int) -> str:
    return reverse(name, args=[match_id])


def duration_text(seconds: int) -> str:
    """A time limit for people: "2 days", "5 minutes", "45 seconds"."""
    if seconds % 86400 == 0:
        n = seconds // 86400
        return ngettext("%(n)s day", "%(n)s days", n) % {"n": n}
    if seconds % 3600 == 0:
        n = seconds // 3600
        return ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n}
    if seconds % 60 == 0:
        n = seconds // 60
        return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n}
    return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}


def clock_text(seconds: float) -> str:
    """Time left written as the page's countdowns write it (``tick`` in static/js/match.js), so that a
    reserve at rest reads like the one running: "2d 5h", "1:05:09", "4:07"."""
    left = max(0, round(seconds))
    days, hours = left // 86400, left % 86400 // 3600
    minutes, secs = left % 3600 // 60, left % 60
    if days > 0:
        return f"{days}d {hours}h"
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours > 0 else f"{minutes}:{secs:02d}"


def vacation_until_text(until: float) -> str:
    """The end of a player's vacation (epoch seconds) as the page's language writes a date and time (UTC)."""
    return formats.date_format(datetime.fromtimestamp(until, tz=UTC), "DATETIME_FORMAT")


def option_rows(match: Match, rules: Rules[Any]) -> list[dict[str, str]]:
    """The match's options as the create form named them: translated label and value.

    An option that names a lobby seat (``seat_options``: its value, police_alarm's first thief) or
    belongs to one (``per_seat_options``: its label, a seat's handicap) also names the player who
    sits there now: the seats are shuffled at the start and the choice follows that player.
    """
    rows = []
    hidden = rules.site_hidden_options
    seat_valued = rules.seat_options
    per_seat = rules.per_seat_options
    names = seat_names(match) if seat_valued or per_seat else {}
    seat_of_option = {pattern.format(seat=n): n for pattern in per_seat for n in range(rules.max_players)}
    for option in rules.options:
        if option.name in hidden or seat_of_option.get(option.name, 0) >= match.seat_count:
            continue  # hidden, or a handicap of a seat the match does not have
        value = match.options.get(option.name, option.default)
        if option.kind == "bool":
            shown = _("on") if value else _("off")
        else:
            shown = next((_(label) for key, label in option.choices if key == value), str(value))
        label = _(option.label)
        if option.name in seat_valued and str(value).isdigit():
            shown = _with_player(shown, names.get(int(value)))
        if option.name in seat_of_option:
            label = _with_player(label, names.get(seat_of_option[option.name]))
        rows.append({"label": label, "value": shown})
    return rows


def _with_player(text: str, player: str | None) -> str:
    """``text`` about a lobby seat, with the name of the player who sits there (if anyone does)."""
    return text if not player else _("%(text)s (%(player)s)") % {"text": text, "player": player}


def public_context(match: Match) -> dict[str, Any]:
    """The board context of a spectator: what every viewer may see (for shared fragments)."""
    # In the current language: the context holds worded values (the game's name, a result panel).
    key = (match.revision, current_language())
    cached = getattr(match, "_public_context", None)
    if cached is None or cached[0] != key:
        context = match_context(match, None, parts=frozenset({"board"}))
        # Kept without the match itself: a match holding a context that holds the match is a
        # cycle, which only the collector frees, with everything the context holds.
        cached = (key, {name: value for name, value in context.items() if name != "match"})
        match._public_context = cached  # type: ignore[attr-defined]
    return {**cached[1], "match": match}


def score_text(game: str, score: int) -> str:
    """A final score in the game's own unit: 23M (heist), $1,200 (bridge_race), 41 points."""
    if game == "heist":
        return f"{score}M"
    if game == "bridge_race":
        return f"−${-score:,}" if score < 0 else f"${score:,}"
    return ngettext("%(n)s point", "%(n)s points", abs(score)) % {"n": score}


def standings(match: Match, names: dict[int, str]) -> list[dict[str, Any]] | None:
    """The final standings, each row with the player's page and the change of their rating."""
    if not match.outcome:
        return None
    outcome = match.outcome
    changes = ratings_shown.of_match(match)
    pages = {
        s.number: _player_url(get_script_prefix(), s.user.get_username())
        for s in _seats(match)
        if s.user is not None and not s.is_bot
    }
    rows = [
        {
            "seat": seat,
            "name": names.get(seat, str(seat + 1)),
            "score": outcome["scores"][seat],
            "score_text": score_text(match.game, outcome["scores"][seat]),
            "rank": outcome["ranks"][seat],
            "winner": seat in outcome["winners"],
            "rating_change": changes.get(seat),
            "url": pages.get(seat),
        }
        for seat in range(len(outcome["scores"]))
    ]
    return sorted(rows, key=lambda r: (r["rank"], r["seat"]))
