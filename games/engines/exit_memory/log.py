"""Readable log lines. In a round they never name a placed tile nor a danger trigger (R-58)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import LogLine
from ..base import gettext_noop as _

# A move the server made when its player's time ran out is told by a whole sentence of its
# own, so that each language words it in one piece (a suffix glued on would stay untranslated).
AUTO = {
    _("%(seat)s placed a tile (#%(index)s)."): _("%(seat)s placed a tile (#%(index)s) (time ran out)."),
    _("%(seat)s passed."): _("%(seat)s passed (time ran out)."),
    _("%(seat)s joined the chain."): _("%(seat)s joined the chain (time ran out)."),
    _("%(seat)s kept their lost tile."): _("%(seat)s kept their lost tile (time ran out)."),
}


def _auto(line: LogLine, data: Mapping[str, Any]) -> LogLine:
    if data.get("auto"):
        return LogLine(AUTO[line.message], line.params)
    return line


def _round_started(data: Mapping[str, Any]) -> list[LogLine]:
    lines = [LogLine(_("Round %(round)s begins; %(seat)s starts."), {"round": data["round"], "seat": data["start"]})]
    lines += [LogLine(_("Floor card revealed: %(card)s."), {"card": c}) for c in data.get("floors", ())]
    lines += [LogLine(_("Danger card revealed: %(card)s."), {"card": c}) for c in data.get("dangers", ())]
    return lines


def _resolved(data: Mapping[str, Any]) -> list[LogLine]:
    if data["outcome"] == "ESCAPED":
        return [LogLine(_("The route was walked to the end: the team escaped!"))]
    params = {"index": data["lost_at"], "reason": list(data["reasons"])}  # the web layer names each reason
    return [LogLine(_("The route got lost at tile #%(index)s (%(reason)s)."), params)]


def _scored(data: Mapping[str, Any]) -> list[LogLine]:
    if not data["scorers"]:
        return [LogLine(_("Nobody scores this round."))]
    return [LogLine(_("%(seat)s scores a point."), {"seat": s}) for s in data["scorers"]]


def log_lines(event: Mapping[str, Any]) -> list[LogLine]:
    kind, data = event["type"], event.get("data") or {}
    if kind == "round_started":
        return _round_started(data)
    if kind == "tile_placed":
        return [
            _auto(
                LogLine(_("%(seat)s placed a tile (#%(index)s)."), {"seat": data["seat"], "index": data["index"]}), data
            )
        ]
    if kind == "passed":
        return [_auto(LogLine(_("%(seat)s passed."), {"seat": data["seat"]}), data)]
    if kind == "lost_declared":
        return [LogLine(_("%(seat)s declared lost (chain %(chain)s)."), {"seat": data["seat"], "chain": data["chain"]})]
    if kind == "chain_reply":
        message = _("%(seat)s joined the chain.") if data["join"] else _("%(seat)s kept their lost tile.")
        return [_auto(LogLine(message, {"seat": data["seat"]}), data)]
    if kind == "round_ended":
        if data["reason"] == "one_holder":
            return [LogLine(_("The round is over: only one player still holds a lost tile."))]
        return [LogLine(_("The round is over: every direction tile has been played."))]
    if kind == "resolved":
        return _resolved(data)
    if kind == "scored":
        return _scored(data)
    if kind == "game_ended":
        return [LogLine(_("%(seat)s wins the game."), {"seat": s}) for s in data["winners"]]
    if kind == "resigned":
        return [LogLine(_("%(seat)s left the game."), {"seat": data["seat"]})]
    return []  # dealt, drew, shuffles, turns, danger triggers, prompts: nothing in the feed
