"""Where a socket move's time goes on its way to the other sockets, for ``bench/load_bench.py --trace``.

Off unless ``HIDEOUT_TRACE_DIR`` names a folder: then each process appends a line per stage a move
passes (monotonic clock, shared by the processes of one machine) to a file of its own there, and
``bench/trace_report.py`` lines the stages up by match and revision. Off, a mark is one test.
"""

from __future__ import annotations

import os
import threading
import time

DIRECTORY = os.environ.get("HIDEOUT_TRACE_DIR") or None
_FLUSH_EVERY = 256
_lines: list[str] = []
_lock = threading.Lock()


def mark(stage: str, match_id: int, ref: object, seat: object = "-") -> None:
    """Record that ``stage`` was reached for ``ref`` (a move's key or a revision) in ``match_id``."""
    if DIRECTORY is None:
        return
    line = f"{time.monotonic_ns()} {stage} {match_id} {ref} {seat}"
    with _lock:  # held while writing too: the writer threads' lines must not interleave in the file
        _lines.append(line)
        if len(_lines) < _FLUSH_EVERY:
            return
        with open(os.path.join(DIRECTORY, f"{os.getpid()}.trace"), "a", encoding="ascii") as out:
            out.write("\n".join(_lines) + "\n")
        _lines.clear()
