"""Where a socket move's time went, stage by stage: the lines ``games.play.latency_trace`` wrote.

``bench/load_bench.py --trace`` sets ``HIDEOUT_TRACE_DIR`` for its servers and prints this table
after the run; ``python bench/trace_report.py DIR`` prints it for a folder of ``*.trace`` files.
A move is followed from its frame's arrival at the mover's consumer to the last opponent's consumer
handing its update to daphne; moves without every stage (a stale one, the tail of a file that a
stopped process did not write) are left out.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from _common import pct, table

# (row, from mark, to mark). A move is reported when it has every mark but "statement" and "ahead",
# the guarded statement's split, which a move the guard sent to the ORM path lacks.
SEGMENTS = [
    ("frame read -> on a writer thread", "received", "writing"),
    # The pushes are rendered while the statement runs (pushes.render_ahead), else after it.
    ("decided and written (the guarded statement)", "writing", "written"),
    ("  of which: decided on the cache, statement sent", "writing", "statement"),
    ("  of which: the pushes rendered while it runs", "statement", "ahead"),
    ("  of which: then waiting for its answer", "ahead", "written"),
    ("written -> every connected seat's push ready", "written", "rendered"),
    ("rendered -> the first opponent's consumer has it", "rendered", "heard"),
    ("first opponent heard -> last opponent's update sent", "heard", "sent"),
    ("frame read -> the mover's answer sent", "received", "answered"),
    ("frame read -> the last opponent's update sent", "received", "sent"),
]
OPTIONAL = frozenset({"statement", "ahead"})


def moves(directory: Path) -> list[dict[str, float]]:
    """Each traced move's stages, in ms of the monotonic clock; an opponent's first "heard" and last "sent"."""
    by_key: dict[tuple[str, str], dict[str, float]] = {}
    mover: dict[tuple[str, str], str] = {}
    by_revision: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    heard: dict[tuple[str, str], list[tuple[float, str, str]]] = defaultdict(list)
    answered: list[tuple[str, str, str, float]] = []
    for path in directory.glob("*.trace"):
        for line in path.read_text(encoding="ascii").splitlines():
            at, stage, match, ref, seat = line.split()
            ms = int(at) / 1e6
            if stage in ("received", "writing", "statement", "ahead"):
                by_key.setdefault((match, ref), {})[stage] = ms
                if stage == "received":
                    mover[(match, ref)] = seat
            elif stage == "answered":
                answered.append((match, ref, seat, ms))  # seat holds the revision here
            elif stage in ("written", "rendered"):
                by_revision[(match, ref)][stage] = ms
            else:
                heard[(match, ref)].append((ms, stage, seat))
    found: list[dict[str, float]] = []
    for match, key, revision, answered_at in answered:
        stages = {**by_key.get((match, key), {}), **by_revision.get((match, revision), {}), "answered": answered_at}
        moved = mover.get((match, key))
        others = [(ms, stage) for ms, stage, seat in heard.get((match, revision), []) if seat != moved]
        firsts = [ms for ms, stage in others if stage == "heard"]
        lasts = [ms for ms, stage in others if stage == "sent"]
        if firsts and lasts:
            stages.update(heard=min(firsts), sent=max(lasts))
        if all(stage in stages or stage in OPTIONAL for _, start, end in SEGMENTS for stage in (start, end)):
            found.append(stages)
    return found


def report(directory: Path) -> None:
    found = moves(directory)
    rows = []
    for name, start, end in SEGMENTS:
        spans = [stages[end] - stages[start] for stages in found if start in stages and end in stages]
        if spans:
            rows.append([name, len(spans), *(pct(spans, p) for p in (50, 90, 99))])
    print(table(["where a socket move's time went (ms, server clock)", "n", "p50", "p90", "p99"], rows))


if __name__ == "__main__":
    report(Path(sys.argv[1]))
