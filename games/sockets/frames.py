"""What a match socket has sent its client, so that it sends only what changed.

A socket's client shows the board of the last revision the socket sent it, split into named
fragments. When the writer sends a move's fragments (:class:`games.push.pushes.Rendered`), the
socket sends on only those whose digest changed since that board (a diff), as long as its client
shows exactly the board the diff applies to: the same revision, board shell and fragment names.
Otherwise the whole board goes. :class:`SentFrames` keeps that record and builds each update from
it; it knows nothing of sockets, so the diff can be tested on its own.
"""

from __future__ import annotations

import json
from typing import Any

from games.play.bounded_cache import BoundedCache
from games.push.pushes import Rendered

# Shared fragments smaller than this go with the rest of a diff: a second message costs its own
# envelope and frame, and deflate gains little on a few hundred characters.
SHARED_PART_AT = 512  # characters


class SentFrames:
    """The versions a socket's client has been sent, and the board it shows.

    ``revision`` and ``chat`` are the match's revision and chat version the client shows (-1: none
    yet; a reconnecting client says which it has, ``?v=&c=``); ``version`` the game version its
    board and log end at; ``frame`` that board: its revision, shell digest and fragment digests by
    name (``None`` when the client draws its board itself, from a live game's events). ``shown``
    is the revision as the client was told it: the match's, less the writes its seat is not told of
    (:func:`games.push.presenter.shown_revision`); the client's board names that one.
    """

    __slots__ = ("chat", "frame", "revision", "shown", "version")

    def __init__(self, revision: int = -1, chat: int = -1) -> None:
        self.revision = revision
        self.shown = revision
        self.chat = chat
        self.version = -1
        self.frame: tuple[int, str, dict[str, str]] | None = None

    def can_diff(self, rendered: Rendered) -> bool:
        """Whether the client shows the board ``rendered``'s fragments can be laid on."""
        frame = self.frame
        return (
            frame is not None
            and frame[0] == self.revision
            and frame[1] == rendered.shell_digest
            and frame[2].keys() == rendered.digests.keys()
        )

    def log_follows(self, rendered: Rendered) -> bool:
        """Whether ``rendered`` brings the client's log up to date: the whole log, or the lines after its."""
        return bool(rendered.log_html) or rendered.log_after == self.version

    def news_in(self, rendered: Rendered) -> tuple[bool, bool] | None:
        """Whether the writer's ``rendered`` brings the client a board and a chat box it lacks;
        ``None`` when it brings a board the client cannot take as it is.

        The writer sends fragments, no shell, and the log's new lines: a client that cannot take
        them as a diff (it just connected, the board's shell changed, or it missed the version
        before) needs its whole board and log rendered. The writer sends a chat box only when it
        changed for that seat (a message, or chat opening or closing).
        """
        board = rendered.has_board and rendered.revision > self.revision
        chat = bool(rendered.chat_html) and (rendered.chat_version > self.chat or board)
        if board and not (self.can_diff(rendered) and self.log_follows(rendered)):
            return None
        return board, chat

    def update_for(
        self, rendered: Rendered, *, board: bool, chat: bool, full: bool = False
    ) -> tuple[str | None, dict[str, Any]]:
        """The ``update`` that brings the client ``rendered``'s board (if ``board``) and chat box (if
        ``chat``), recorded here as sent; and the JSON text of a diff's shared part, which goes
        first (:func:`shared_part`), or ``None``.

        A diff names its ``base`` (the revision it applies to) and holds only the fragments whose
        digest changed; it is made when the client shows that board (:meth:`can_diff`) unless
        ``full``, otherwise the whole board goes. The log's new lines are appended when the client
        shows the version before, else the whole log goes.
        """
        update: dict[str, Any] = {
            "type": "update",
            "revision": rendered.shown_revision,
            "version": rendered.version,
            "chat_version": rendered.chat_version,
        }
        chunks: list[str] = []
        part: str | None = None
        if board:
            frame = self.frame
            if not full and self.can_diff(rendered):
                assert frame is not None
                update["base"] = self.shown
                old = frame[2]
                changed = [n for n, digest in rendered.digests.items() if old[n] != digest]
                part, changed = shared_part(rendered, changed, self.shown)
                # Each fragment apart: the client parses an SVG layer in an SVG context.
                update["frags"] = [rendered.frags[n] for n in changed]
                if rendered.log_after is not None and rendered.log_after == self.version:
                    update["log"] = rendered.log_add
                else:
                    chunks.append(rendered.log_html)
            else:
                chunks += [rendered.board_html(), rendered.log_html]
            self.frame = (rendered.revision, rendered.shell_digest, rendered.digests)
            self.revision = max(self.revision, rendered.revision)
            self.shown = max(self.shown, rendered.shown_revision)
            self.version = rendered.version
        if chat:
            chunks.append(rendered.chat_html)
            self.chat = max(self.chat, rendered.chat_version)
        update["html"] = "".join(chunks)
        return part, update

    def took_events(self, revision: int, version: int) -> None:
        """The client was sent a live game's events up to ``version``: it draws its board from them,
        so no diff applies to it until a whole board is sent again."""
        self.version = version
        self.revision = max(self.revision, revision)
        self.frame = None


def shared_part(rendered: Rendered, changed: list[str], base: int) -> tuple[str | None, list[str]]:
    """A diff's changed shared fragments as a message of their own (its JSON text), and the
    fragments left for the rest.

    Shared fragments (heist's table, bridge_race's bridge and dashboards, every seat's public
    panel) are rendered from the spectator's context, so they hold no secret and are the same for
    every seat, and they are most of a move's bytes. They go first in a ``part`` message:

    - a game with secrets sends its players' diffs uncompressed (BREACH: a secret beside text
      another player chose); the part can be compressed on its own (each message is deflated with
      no context taken over, so no secret shares a compressor with it);
    - the part is the same message, byte for byte, for every seat whose client showed the same
      board: each process writes its JSON once (:func:`json_once`) and compresses it once
      (``games.runtime.wscompress.deflate``) for all of them.

    The client lays the part on the board without taking the new revision; the ``update`` that
    follows at once carries the rest and the revision (static/js/match.js).
    """
    shared = [name for name in changed if name in rendered.shared]
    if sum(len(rendered.frags[name]) for name in shared) < SHARED_PART_AT:
        return None, changed
    frags = [rendered.frags[name] for name in shared]
    text = json_once({"type": "part", "revision": rendered.shown_revision, "base": base, "frags": frags})
    return text, [name for name in changed if name not in rendered.shared]


def json_once(message: dict[str, Any]) -> str:
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
