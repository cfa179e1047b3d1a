#!/usr/bin/env python
"""The catch-up after Redis is back: every socket of a process hears ``layer.resumed`` at once.

A process has ``--tables`` heist matches with a socket per seat (``move_cost.py``'s consumers without
a socket). In ``--behind`` of them a move was written whose pushes were lost, as pub/sub loses what
is published while Redis is away. Every socket then gets ``layer.resumed`` at the same moment, as
``games.runtime.channel_layer`` hands it out, and the script times how long until every socket has
answered it (wall clock: they share the one database thread, as a daphne's do) and the process's
CPU, and counts the sockets that sent their client something. A socket whose client is behind must
be sent its update; one that is not should cost little.

    .venv/bin/python bench/resume_bench.py [--tables 200] [--behind 20] [--db sqlite|pg]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, table
from move_cost import Table, capture_broadcasts


async def every_socket_hears(sockets: list[Any]) -> None:
    """``layer.resumed`` to every socket at once, each answering on its own task as its consumer would."""
    await asyncio.gather(*(socket.consumer.layer_resumed({"type": "layer.resumed"}) for socket in sockets))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--behind", type=int, default=20, help="matches whose last move's pushes were lost")
    parser.add_argument("--db", choices=["sqlite", "pg"], default="pg")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    db = TempDatabase(args.db)
    try:
        django_setup()
        db.migrate()
        rows = catch_ups(args.tables, args.behind, args.runs)
    finally:
        db.close()
    headers = ["run", "sockets", "behind", "sent an update", "wall (ms)", "CPU (ms)"]
    print(table(headers, rows, title=f"layer.resumed to every socket; {db.describe()}"))


def catch_ups(tables_count: int, behind_count: int, runs: int) -> list[list[Any]]:
    """``runs`` times: a move in ``behind_count`` fresh matches whose pushes are lost, then every
    socket of the ``tables_count`` matches told at once that Redis is back."""
    from django.conf import settings

    from games.play.services import do_submit_action

    settings.ALLOWED_HOSTS = ["*"]
    lost: list[tuple[str, dict[str, Any]]] = []
    capture_broadcasts(lost)  # what a move publishes goes nowhere: Redis is away
    loop = asyncio.new_event_loop()
    tables = [Table(i, "heist", 4) for i in range(tables_count)]
    sockets = [socket for table_ in tables for socket in table_.sockets.values()]
    for socket in sockets:
        socket.connect(loop)
        socket.consumer.opened = True  # as its connect leaves a real consumer
    rng = random.Random(1)
    rows = []
    for run in range(runs):
        behind = tables[run * behind_count : (run + 1) * behind_count]
        for table_ in behind:
            move = table_.next_move(rng)
            assert move is not None
            seat, action, version = move
            do_submit_action(table_.match_id, seat, action, expected_version=version)
        for socket in sockets:
            socket.sent.clear()
        c0, t0 = time.process_time(), time.perf_counter()
        loop.run_until_complete(every_socket_hears(sockets))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        told = sum(1 for socket in sockets if socket.sent)
        behind_sockets = sum(len(table_.sockets) for table_ in behind)
        rows.append([run + 1, len(sockets), behind_sockets, told, wall * 1000, cpu * 1000])
    loop.close()
    return rows


if __name__ == "__main__":
    main()
