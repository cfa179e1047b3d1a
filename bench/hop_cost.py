"""CPU of one hop from the event loop to a writer thread and back, with nothing to do there.

A move that arrives over a socket is written on a writer thread (``games.play.writers.write``), so that
the loop goes on serving the process's other sockets meanwhile. This prints the process's CPU per
hop (every thread, the kernel's work of waking them included) for that hop and for
``asgiref.sync.sync_to_async`` onto the same threads, which it replaced; run them alternately a few
times, the machine's noise is a few microseconds.

    .venv/bin/python bench/hop_cost.py [--hops 5000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from _common import django_setup, table


def nothing(value: int) -> int:
    return value + 1


async def through_writers(hops: int) -> None:
    from games.play import writers

    for i in range(hops):
        await writers.write(nothing, i)


async def through_sync_to_async(hops: int) -> None:
    from asgiref.sync import sync_to_async

    from games.play import writers

    for i in range(hops):
        await sync_to_async(nothing, thread_sensitive=False, executor=writers._threads())(i)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hops", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    django_setup()
    rows = []
    for round_ in range(1, args.rounds + 1):
        for label, hop in (("games.play.writers.write", through_writers), ("sync_to_async", through_sync_to_async)):
            started = time.process_time()
            asyncio.run(hop(args.hops))
            rows.append([round_, label, (time.process_time() - started) / args.hops * 1e6])
    print(table(["round", "hop", "µs of CPU per hop"], rows, title="a hop to a writer thread and back"))


if __name__ == "__main__":
    main()
