"""The cyclic garbage collector tuned for a long-running server process (daphne: config/asgi.py).

CPython's defaults (a young collection every 700 new container objects, a full one after every
hundred) suit a small script. A Hideout process holds a large heap that lives as long as it does
(Django, the templates, the engines, the kept boards and fragments), and every full collection walks
all of it, pausing every socket of the process. So, once the app is loaded, what exists is frozen
(``gc.freeze``: out of every collection's reach; it is never freed anyway), and the young
generation is collected every 10,000 new objects, so that the short-lived objects of a render die
before a collection looks at them instead of being moved into the older generations mid-render
(docs/decisions/0016-gc-tuning.md). Cycles are still collected; the cyclic garbage waiting for a
collection is at most those 10,000 objects.

``bench/move_cost.py`` runs a server's code in its own process: it tunes it the same way, so that
it measures what daphne runs (decision 0016: 521 ms in the collector after start-up with
CPython's defaults, 389 ms of it in four full collections of up to 88 ms each; about 60 ms tuned).
``HIDEOUT_GC_TUNING=0`` keeps CPython's defaults, to measure the difference.
"""

from __future__ import annotations

import gc

YOUNGEST = 10_000  # new container objects between two collections of the youngest generation
OLDER = 20  # collections of a generation between two of the next


def tune(enabled: bool) -> None:
    """Freeze what exists and space out the collections (call once the app is loaded)."""
    if not enabled:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNGEST, OLDER, OLDER)
