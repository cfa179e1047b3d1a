"""When a decision's time runs out: the engine's due time, moved by what the platform knows of.

The engine stays the authority on *what* a decision is, when it falls due by its own reckoning
(``rules.deadlines``) and what its time-out does; the platform decides *when* the time-out is
submitted (decision 0024). Two things move that time, both kept in ``Match.clock`` (empty for a
match with neither, which is then timed by its engine alone at no cost):

* a **vacation**: the seat's player is away, so the decisions that wait on them are credited the
  time of the absence (``credit``: seconds per seat for its current decision key; ``away``: until
  when the seat's player is away, for decisions opened during the absence);
* a **time bank** (``reserve``, ``increment``, and per seat ``bank``: the current decision's key,
  when it opened and the reserve left then): a decision falls due when the seat's reserve runs out;
  each decision's time is drawn from the reserve and the increment is added when it is taken. The
  match's ``time_limit`` is the increment, and the reserve left when a decision opens is never less
  (at least the increment after the first one, the whole reserve before), so the engine's own due
  time comes no later than the bank's and it accepts the time-out the platform submits.

A decision is one waiting key (``games.play.decision.waiting_keys``): a new key is a new decision.
The time-out is the engine's action, recorded as its events like any move, so a replay never
consults a clock, a vacation or a bank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.engines.base import Deadline

DAY = 86400

# The time banks the create form offers: name -> (reserve, increment) in seconds, and its label.
BANKS: dict[str, tuple[int, int]] = {
    "3d+1d": (3 * DAY, DAY),
    "7d+1d": (7 * DAY, DAY),
    "2d+12h": (2 * DAY, DAY // 2),
}
BANK_LABELS: dict[str, str] = {
    "3d+1d": gettext_noop("A reserve of 3 days, plus 1 day a decision"),
    "7d+1d": gettext_noop("A reserve of 7 days, plus 1 day a decision"),
    "2d+12h": gettext_noop("A reserve of 2 days, plus 12 hours a decision"),
}
FIXED_LABEL = _("The same time for every decision")


def bank_clock(name: str, seat_count: int) -> dict[str, Any]:
    """The ``Match.clock`` of a new match on the time bank ``name`` (one of :data:`BANKS`)."""
    reserve, increment = BANKS[name]
    return {
        "reserve": reserve,
        "increment": increment,
        "bank": {str(seat): ["", 0.0, float(reserve)] for seat in range(seat_count)},
    }


def for_rematch(clock: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
    """A rematch's clock: the same time bank, every reserve full again (no vacation carried over)."""
    if "bank" not in clock:
        return {}
    reserve = float(clock["reserve"])
    return {
        "reserve": clock["reserve"],
        "increment": clock["increment"],
        "bank": {str(seat): ["", 0.0, reserve] for seat in range(seat_count)},
    }


def for_seats(clock: dict[str, Any], seat_count: int) -> dict[str, Any]:
    """``clock`` for a table of ``seat_count`` seats (a rematch starting short drops the others' reserves)."""
    bank = clock.get("bank")
    if bank is None or all(int(seat) < seat_count for seat in bank):
        return clock
    return {**clock, "bank": {seat: entry for seat, entry in bank.items() if int(seat) < seat_count}}


def has_bank(clock: Mapping[str, Any]) -> bool:
    return "bank" in clock


def _credit(clock: Mapping[str, Any], seat: int, key: str | None) -> float:
    """The vacation time credited to ``seat``'s decision ``key``."""
    entry = clock.get("credit", {}).get(str(seat))
    return float(entry[1]) if entry is not None and key and entry[0] == key else 0.0


def effective_due(clock: Mapping[str, Any], deadline: Deadline, keys: Mapping[int, str]) -> float:
    """When ``deadline``'s time-out is to be submitted, ``keys`` being each waited seat's decision key.

    A due time of 0 (a resigned seat's) stays 0. While any seat of a decision is credited vacation
    time, the decision waits by the longest such credit.
    """
    due = deadline.due
    if not clock or due <= 0:
        return due
    bank = clock.get("bank")
    if bank is not None and len(deadline.seats) == 1:
        seat = deadline.seats[0]
        entry = bank.get(str(seat))
        if entry is not None and entry[0] and entry[0] == keys.get(seat):
            due = max(due, float(entry[1]) + float(entry[2]))
    return due + max((_credit(clock, seat, keys.get(seat)) for seat in deadline.seats), default=0.0)


def effective_dues(clock: Mapping[str, Any], deadlines: Iterable[Deadline], keys: Mapping[int, str]) -> list[float]:
    if not clock:
        return [d.due for d in deadlines]
    return [effective_due(clock, d, keys) for d in deadlines]


def int_keys(waiting: Mapping[str, str]) -> dict[int, str]:
    """``Match.waiting`` (seat numbers as JSON's strings) by seat number."""
    return {int(seat): key for seat, key in waiting.items()}


def advance(
    clock: dict[str, Any], old_keys: Mapping[int, str], new_keys: Mapping[int, str], now: float
) -> dict[str, Any]:
    """``clock`` after a move at ``now`` that changed the decision keys from ``old_keys`` to ``new_keys``.

    Returns ``clock`` itself when nothing changes. A bank seat whose decision closed has its time
    (less the vacation credited to it) drawn from its reserve, floored at zero, and the increment
    added; one whose decision opened records when. A decision that opens while its player is away
    is credited the rest of the absence; a past absence is forgotten.
    """
    if not clock:
        return clock
    new = dict(clock)
    bank = clock.get("bank")
    if bank is not None:
        increment = float(clock["increment"])
        seats = {}
        for seat_text, entry in bank.items():
            seat = int(seat_text)
            key, start, left = entry[0], float(entry[1]), float(entry[2])
            new_key = new_keys.get(seat, "")
            if key and key != new_key:  # its decision was taken (or timed out)
                used = now - start - _credit(clock, seat, key)
                left = max(0.0, left - max(0.0, used)) + increment
                key, start = "", 0.0
            if new_key and new_key != key:
                key, start = new_key, now
            seats[seat_text] = [key, start, left]
        new["bank"] = seats
    away = {seat: until for seat, until in clock.get("away", {}).items() if float(until) > now}
    credit = {seat: entry for seat, entry in clock.get("credit", {}).items() if entry[0] == new_keys.get(int(seat), "")}
    for seat_text, until in away.items():
        key = new_keys.get(int(seat_text), "")
        if key and key != old_keys.get(int(seat_text), ""):
            credit[seat_text] = [key, float(until) - now]
    _put(new, "away", away)
    _put(new, "credit", credit)
    return new if new != clock else clock


def _put(clock: dict[str, Any], name: str, value: dict[str, Any]) -> None:
    if value:
        clock[name] = value
    else:
        clock.pop(name, None)


def go_away(clock: dict[str, Any], seat: int, key: str, start: float, until: float) -> dict[str, Any]:
    """``clock`` once ``seat``'s player is away from ``start`` until ``until``, ``key`` the decision
    the match waits on them for now ("" for none): that decision is credited the whole absence."""
    new = dict(clock)
    new["away"] = {**clock.get("away", {}), str(seat): until}
    if key:
        credit = dict(clock.get("credit", {}))
        credit[str(seat)] = [key, _credit(clock, seat, key) + (until - start)]
        new["credit"] = credit
    return new


def come_back(clock: dict[str, Any], seat: int, key: str, now: float) -> dict[str, Any]:
    """``clock`` once ``seat``'s player is back at ``now``, before the planned end: the rest of the
    absence is taken back from the credit of the decision waiting on them, whose clock runs again."""
    away = dict(clock.get("away", {}))
    until = away.pop(str(seat), None)
    new = dict(clock)
    _put(new, "away", away)
    if until is not None and key:
        credit = dict(clock.get("credit", {}))
        entry = credit.get(str(seat))
        if entry is not None and entry[0] == key:
            credit[str(seat)] = [key, max(0.0, float(entry[1]) - max(0.0, float(until) - now))]
        _put(new, "credit", credit)
    return new


def seconds_left(clock: Mapping[str, Any], seat: int) -> float | None:
    """A bank seat's reserve as it stood when its current decision opened (or now, between its
    decisions); ``None`` without a bank."""
    entry = clock.get("bank", {}).get(str(seat))
    return float(entry[2]) if entry is not None else None


def away_until(clock: Mapping[str, Any], now: float) -> dict[int, float]:
    """The seats whose player is on vacation at ``now``, and until when (epoch seconds)."""
    return {int(seat): float(until) for seat, until in clock.get("away", {}).items() if float(until) > now}


def bank_rows(
    clock: Mapping[str, Any], dues: Mapping[int, float], keys: Mapping[int, str]
) -> list[tuple[int, float, float]]:
    """Each bank seat's ``(seat, due, left)``: the due time of the decision it is taking now (0 if
    none), else the reserve it has left (``dues``: the effective due of each seat's decision)."""
    rows = []
    for seat_text, entry in sorted(clock.get("bank", {}).items(), key=lambda item: int(item[0])):
        seat = int(seat_text)
        deciding = bool(entry[0]) and entry[0] == keys.get(seat) and seat in dues
        rows.append((seat, dues[seat] if deciding else 0.0, float(entry[2])))
    return rows
