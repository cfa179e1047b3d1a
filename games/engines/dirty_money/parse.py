"""``parse_action``: untrusted JSON -> a canonical action, or InvalidAction (10.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Action, InvalidAction, whole_number
from ..base import gettext_noop as _
from .cards import LOCATION_ORDER, MONEY_SET, PLACEMENTS, REGIONS

MAX_LIST = 20


def _int(payload: Mapping[str, Any], key: str) -> int:
    """Whole numbers, also as decimal strings (HTML forms); an empty form field is a missing one."""
    value = payload.get(key)
    return whole_number(None if value == "" else value, key)


def _opt_int(payload: Mapping[str, Any], key: str) -> int | None:
    if payload.get(key) in (None, ""):
        return None
    return _int(payload, key)


def _bool(payload: Mapping[str, Any], key: str) -> bool:
    value = payload.get(key)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "on", "yes"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "0", "off", "no"):
        return False
    if value is None:
        raise InvalidAction(_("Field %(field)s is missing."), field=key)
    raise InvalidAction(_("Field %(field)s must be true or false."), field=key)


def _money(value: Any, key: str) -> str:
    if not isinstance(value, str) or value not in MONEY_SET:
        raise InvalidAction(_("Field %(field)s must name a money card."), field=key)
    return value


def _placement(value: Any, key: str) -> str:
    if not isinstance(value, str) or value not in PLACEMENTS:
        raise InvalidAction(_("Field %(field)s must name a placement card."), field=key)
    return value


def _list(payload: Mapping[str, Any], key: str, allow_empty: bool = True) -> list[Any]:
    value = payload.get(key)
    if value is None:
        if allow_empty:
            return []
        raise InvalidAction(_("Field %(field)s is missing."), field=key)
    if isinstance(value, str):  # a form field: comma-separated ids
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list | tuple) or len(value) > MAX_LIST:
        raise InvalidAction(_("Field %(field)s must be a list of cards."), field=key)
    if not value and not allow_empty:
        raise InvalidAction(_("Field %(field)s must not be empty."), field=key)
    return list(value)


def parse_action(payload: Mapping[str, Any]) -> Action:
    if not isinstance(payload, Mapping):
        raise InvalidAction(_("An action must be an object."))
    t = payload.get("type")
    if not isinstance(t, str):
        raise InvalidAction(_("Unknown action type."))
    if t in ("start", "banana_republic", "end_location_action"):
        return {"type": t}
    if t in ("resign", "timeout"):
        return {"type": t, "seat": _int(payload, "seat")}
    if t == "choose_bear_stock":
        counts = payload.get("counts")
        source = counts if isinstance(counts, Mapping) else payload
        return {"type": t, **{r: _int(source, r) for r in REGIONS}}
    if t == "choose_location":
        loc = payload.get("location")
        if not isinstance(loc, str) or loc not in LOCATION_ORDER:
            raise InvalidAction(_("Unknown location."))
        return {"type": t, "location": loc}
    if t == "blacklist_cards":
        return {"type": t, "cards": [_money(c, "cards") for c in _list(payload, "cards")]}
    if t == "resolve_action":
        return {"type": t, "card": _money(payload.get("card"), "card"), "target": _opt_int(payload, "target")}
    if t == "trade_swap":
        return {"type": t, "take": _money(payload.get("take"), "take"), "give": _money(payload.get("give"), "give")}
    if t == "buy":
        cards = [_placement(c, "cards") for c in _list(payload, "cards", allow_empty=False)]
        if len(cards) > 2:
            raise InvalidAction(_("Buy one or two placements at a time."))
        mode = payload.get("mode")
        if mode in (None, ""):
            mode = "separate"
        if mode not in ("combined", "separate"):
            raise InvalidAction(_("The payment mode is either combined or separate."))
        if len(cards) == 1:
            mode = "separate"
        shark = payload.get("shark_card")
        return {
            "type": t,
            "cards": cards,
            "mode": mode,
            "payment": [_money(c, "payment") for c in _list(payload, "payment")],
            "shark_card": None if shark in (None, "") else _money(shark, "shark_card"),
        }
    if t == "gallery_draw":
        return {"type": t, "draw": _bool(payload, "draw")}
    if t == "launder":
        return {"type": t, "use": _bool(payload, "use")}
    if t == "launder_discard":
        return {"type": t, "card": _money(payload.get("card"), "card")}
    raise InvalidAction(_("Unknown action type."))
