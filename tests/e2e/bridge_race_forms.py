"""A stored bridge_race late in the race, and how the browser tests pick the next control to click on
its board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

POSITION = Path(__file__).parent / "data" / "bridge_race_late.json"
# The controls a player clicks, by the action type in the form's hidden ``action`` input, in order.
PRIORITY = ("CHOOSE", "CHOOSE_CAR", "PLACE_ADVENTURE", "ROLL", "FINALIZE_DICE", "RESOLVE_DICE", "STEP", "END_TURN")
ACTION_FORMS = "#board form:has(input[name=action])"


def action_forms(page: Any) -> list[dict[str, Any]]:
    """Every action form on the board: its index among ACTION_FORMS and its parsed payload."""
    values = page.locator(ACTION_FORMS).evaluate_all(
        "forms => forms.map(f => f.querySelector('input[name=action]').value)"
    )
    out = []
    for index, raw in enumerate(values):
        try:
            payload = json.loads(raw)
        except ValueError:
            continue
        if isinstance(payload, dict):
            out.append({"index": index, "payload": payload})
    return out


def pick(forms: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The form to submit: the first by PRIORITY; the fastest RESOLVE_DICE, STEP straight ahead."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for form in forms:
        by_type.setdefault(str(form["payload"].get("type")), []).append(form)
    for kind in PRIORITY:
        candidates = by_type.get(kind)
        if not candidates:
            continue
        if kind == "RESOLVE_DICE":  # the quick buttons and the form: most speed, then most repair
            return max(
                candidates,
                key=lambda f: (
                    sum(int(a[1]) for a in f["payload"].get("adjust") or []),
                    len(f["payload"].get("repair") or []),
                ),
            )
        if kind == "STEP":
            return next((f for f in candidates if f["payload"].get("dir") == "STRAIGHT"), candidates[0])
        return candidates[0]
    return None
