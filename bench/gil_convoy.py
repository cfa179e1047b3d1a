"""What a busy thread costs an event loop's turns: the interpreter lock's convoy (decision 0015).

A daphne's event loop shares the interpreter lock with its writer threads (``games.play.writers``). The
loop lets go of the lock at every turn (its ``epoll`` call, each socket send), and while another
thread is running Python it gets the lock back only when that thread lets go: at the switch
interval (5 ms by default) if it is computing. A push reaches an opponent's socket in a few turns.

This times a hop from another thread onto the loop followed by three more turns (about what a
move's push to a consumer takes), with 0, 1 and 2 threads computing beside it. No Django, no
database: only the interpreter.

    .venv/bin/python bench/gil_convoy.py [--hops 200] [--switch-interval 0.005]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time

from _common import pct, table

TURNS = 3


def compute(stop: threading.Event) -> None:
    total = 0
    while not stop.is_set():
        for i in range(1000):
            total += i


async def hops_beside(busy_threads: int, hops: int) -> list[float]:
    stop = threading.Event()
    busy = [threading.Thread(target=compute, args=(stop,)) for _ in range(busy_threads)]
    for thread in busy:
        thread.start()
    loop = asyncio.get_running_loop()
    took: list[float] = []
    try:
        for _ in range(hops):
            started = time.perf_counter()
            arrived: asyncio.Future[None] = loop.create_future()
            threading.Thread(target=loop.call_soon_threadsafe, args=(arrived.set_result, None)).start()
            await arrived
            for _ in range(TURNS):
                await asyncio.sleep(0)
            took.append((time.perf_counter() - started) * 1e3)
            await asyncio.sleep(0.002)  # as paced moves: the loop idle between them
    finally:
        stop.set()
        for thread in busy:
            thread.join()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hops", type=int, default=200)
    parser.add_argument("--switch-interval", type=float, default=sys.getswitchinterval())
    args = parser.parse_args()
    sys.setswitchinterval(args.switch_interval)
    rows = []
    for busy_threads in (0, 1, 2):
        took = asyncio.run(hops_beside(busy_threads, args.hops))
        rows.append([busy_threads, len(took), *(pct(took, p) for p in (50, 90, 99))])
    print(
        table(
            ["threads computing beside the loop", "hops", "p50 (ms)", "p90 (ms)", "p99 (ms)"],
            rows,
            title=f"a hop onto the loop and {TURNS} turns, switch interval {args.switch_interval * 1e3:g} ms",
        )
    )


if __name__ == "__main__":
    main()
