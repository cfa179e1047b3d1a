"""``log_lines``: readable lines for one (possibly redacted) event, English with %(name)s params.

Works on the event as a seat receives it: secret parts may be missing (``auto_escape_set``,
``tiles_placed`` and ``layout`` then give a neutral line).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import LogLine, gettext_noop

_ = gettext_noop

_OUTCOME = {
    "escaped": _("Round %(round)s: the thief got away. Thief +%(thief_gain)s, police +%(police_gain)s."),
    "all_cracked": _("Round %(round)s: the thief cracked all six safes. Thief +%(thief_gain)s."),
    "caught": _("Round %(round)s: the thief was caught. Police +%(police_gain)s."),
    "forfeited": _("Round %(round)s: the thief gave up. Police +%(police_gain)s."),
}


_SESSION = {
    "found": _("The police found both thieves: the drive is recorded."),
    "stopped": _("The police ended the drive: it is recorded."),
    "time": _("The police's drive time is over: it is recorded."),
    "missed": _("The police did not drive in time: nothing is recorded."),
    "resigned": _("The police resigned: nothing more is recorded."),
}


# Where the two thieves hide: one sentence naming both (a list of another length, never written by
# the rules, is joined as the web layer joins lists).
_PAIRS = {
    _("The thief hid the thieves at %(circles)s."): _("The thief hid the thieves at %(a)s and %(b)s."),
    _("The thieves were hidden at random at %(circles)s."): _("The thieves were hidden at random at %(a)s and %(b)s."),
    _("The thieves were hidden at %(circles)s."): _("The thieves were hidden at %(a)s and %(b)s."),
}


# Events told by one fixed line.
_FIXED = {
    "thief_ready": _("The thief is ready."),
    "countdown": _("Get ready: 3, 2, 1 ..."),
    "round_started": _("Go!"),
    "alarm_ended": _("Next!"),
    "layout": _("The tiles are laid out anew."),
    "suspended": _("The game is suspended until every active player is back."),
    "resume_countdown": _("Everybody is back: the game resumes in 3 seconds."),
    "resumed": _("The game goes on."),
    "abandon_offered": _("The suspension has lasted two minutes: the game may now be abandoned."),
    "abandoned": _("The game was abandoned. Nobody wins."),
}

# Events told by one line naming their seat.
_OF_SEAT = {
    "card_awarded": _("%(seat)s takes a safe card."),
    "turn_start": _("%(seat)s is the police now."),
    "disconnected": _("%(seat)s lost the connection."),
    "reconnected": _("%(seat)s is back."),
    "resigned": _("%(seat)s resigned."),
}


def _circles(message: str, value: Any) -> LogLine:
    circles = [str(v) for v in value] if isinstance(value, list | tuple) else []
    if len(circles) == 2:
        return LogLine(_PAIRS[message], {"a": circles[0], "b": circles[1]})
    return LogLine(message, {"circles": circles})


def log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    kind = event.get("type")
    d: Mapping[str, Any] = event.get("data") or {}
    secret: Mapping[str, Any] = event.get("secret") or {}
    L = LogLine
    if not d and not secret:
        return []  # a private event as somebody else receives it
    if kind in _FIXED:
        return [L(_FIXED[kind])]
    if kind in _OF_SEAT:
        return [L(_OF_SEAT[kind], {"seat": d.get("seat")})]
    if kind == "session_ended":
        return [L(_SESSION.get(str(d.get("reason")), _("The police's drive is over.")))]
    if kind == "game_created":
        return [
            L(_("The game begins. Seed commitment (SHA-256): %(commitment)s."), {"commitment": d.get("commitment")})
        ]
    if kind == "round_setup":
        return [
            L(
                _("Round %(round)s: %(thief_seat)s is the thief, %(police_seat)s the police. Safes: %(codes)s."),
                {
                    "round": d.get("round"),
                    "thief_seat": d.get("thief"),
                    "police_seat": d.get("police"),
                    "codes": [str(c) for c in d.get("codes") or ()],  # joined as the reader's language joins lists
                },
            )
        ]
    if kind == "tiles_placed":
        if "circles" in secret:
            msg = _("The thief hid the thieves at %(circles)s.")
            if secret.get("random"):
                msg = _("The thieves were hidden at random at %(circles)s.")
            return [_circles(msg, secret.get("circles"))]
        return []  # T-18: the thief's alone while the round runs
    if kind == "police_ready":
        if d.get("auto"):
            return [L(_("The police was made ready automatically."))]
        return [L(_("The police sounds the start siren."))]
    if kind == "card_drawn":
        return [L(_("Safe %(pos)s of 6: code %(code)s."), {"pos": d.get("pos"), "code": d.get("code")})]
    if kind == "dice_rolled":
        values = ", ".join(str(v) for v in d.get("values") or ())
        return [L(_("Dice: %(values)s (%(open)s still open)."), {"values": values, "open": d.get("open")})]
    if kind == "card_cracked":
        return [
            L(_("Safe %(code)s cracked (%(cracked)s so far)."), {"code": d.get("code"), "cracked": d.get("cracked")})
        ]
    if kind == "auto_escape_set":
        if "on" in secret:
            if secret.get("on"):
                return [L(_("Auto-escape on: you will get out right after the next safe."))]
            return [L(_("Auto-escape off."))]
        return []
    if kind == "car_moved":
        return []  # too many to list; the board shows the car
    if kind == "siren":
        return [L(_("Siren at %(circle)s!"), {"circle": d.get("circle")})]
    if kind == "tile_revealed":
        if d.get("tile") == "thief":
            return [L(_("A thief at %(circle)s!"), {"circle": d.get("circle")})]
        return [L(_("Green light at %(circle)s: no thief here."), {"circle": d.get("circle")})]
    if kind == "tile_hidden":
        return [L(_("The tile at %(circle)s is turned face down again."), {"circle": d.get("circle")})]
    if kind == "thief_escaped":
        if d.get("auto"):
            return [L(_("I'm out! The thief gets away at once (auto-escape)."))]
        return [L(_("I'm out! The thief gets away."))]
    if kind == "thief_caught":
        if d.get("missed"):
            return [L(_("The thief did not play in time and counts as caught."))]
        return [L(_("Both thieves found: the thief is caught!"))]
    if kind == "round_ended":
        msg = _OUTCOME.get(str(d.get("outcome")), _("Round %(round)s is over."))
        return [
            L(
                msg,
                {
                    "round": d.get("round"),
                    "thief_gain": d.get("thief_gain"),
                    "police_gain": d.get("police_gain"),
                },
            )
        ]
    if kind == "placement_revealed":
        return [_circles(_("The thieves were hidden at %(circles)s."), d.get("circles"))]
    if kind == "game_ended":
        winners = d.get("winners") or []
        lines = [L(_("The game is over. The seed was %(seed)s."), {"seed": d.get("seed")})]
        lines.extend(L(_("%(seat)s wins."), {"seat": w}) for w in winners)
        return lines
    return []
