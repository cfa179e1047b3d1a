"""The cyclic garbage collector tuned for a long-running server process.

CPython's defaults (a collection every 700 new container objects, a full collection after every
hundred) suit a small script. A Hideout process holds a large heap that lives as long as it does
(Django, the templates, the engines, the kept boards and fragments): every full collection walks
all of it. Measured on ``bench/move_cost.py --game bridge_race --moves 300`` (docs/performance.md
§29), the collector took 521 ms of CPU after start-up, 389 ms of it in four full collections of up to
88 ms each, paid by whichever move happened to allocate at that moment.

Two changes, both standard for Python servers: what exists once the app is loaded is frozen
(``gc.freeze``: moved out of every collection's reach; it is never freed anyway, and a forked
Celery worker then shares those pages with its parent instead of copying them when the collector
writes to them), and the youngest generation is collected every 10,000 new objects instead of 700,
so that the short-lived objects of a render die before a collection has to look at them. The same
run then spends 66 ms in the collector and no collection takes more than a few milliseconds.
Cycles are still collected; memory held by cyclic garbage grows by at most the 10,000 objects
between collections.

``HIDEOUT_GC_TUNING=0`` keeps CPython's defaults (to measure the difference).
"""

from __future__ import annotations

import gc

YOUNGEST = 10_000  # new container objects between two collections of the youngest generation
OLDER = 10  # collections of a generation between two of the next (CPython's own ratio)


def tune(enabled: bool) -> None:
    """Freeze what exists and space out the young collections (once the app is loaded)."""
    if not enabled:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNGEST, OLDER, OLDER)
