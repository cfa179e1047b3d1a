"""What every stored-position generator here shares: the match document import_match reads, checked
to replay to the position it was played to, and writing it (or, with --check, comparing it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.engines.base import Event, replay


def stored_match(rules: Any, start: Any, state: Any, events: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """The document of a game played from ``start`` to ``state``; ``fields``: game, seat_count,
    options, time_limit, seed."""
    assert replay(rules, start, [Event.from_json(e) for e in events]) == state  # as import_match replays it
    return {"format": 1, **fields, "events": events}


def write_or_check(out: Path, document: dict[str, Any], script: str) -> None:
    text = json.dumps(document, indent=None, separators=(",", ":"), sort_keys=True) + "\n"
    if "--check" in sys.argv[1:]:
        if not out.exists() or out.read_text() != text:
            raise SystemExit(f"{out} is out of date: run {Path(script).name}")
        print(f"{out.name} is up to date")
        return
    out.write_text(text)
    print(f"wrote {out} ({len(document['events'])} events)")
