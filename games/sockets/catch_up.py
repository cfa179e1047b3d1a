"""After the channel layer has Redis back: which sockets missed something, found by one query.

Every socket of the process hears ``layer.resumed`` at once (:mod:`games.runtime.channel_layer`):
what was published while Redis was away never came. If each socket rendered its board to find out
whether it lacks anything, hundreds of renders would queue on the one database thread, and every
message behind them would wait seconds (a load run's saturated process lost its connection and
held its sockets' messages 4.8 s that way). Instead the sockets that ask within
:data:`BATCH_SECONDS` of each other share one query for their matches' revisions and chat
versions, and only a socket whose client is behind renders.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from games.models import Match

BATCH_SECONDS = 0.02
"""How long a read waits for the other sockets' questions (they all heard the news at once)."""

Versions = dict[int, tuple[int, int]]
"""Match id -> (revision, chat version), as the database has them."""


class _Batch:
    def __init__(self) -> None:
        self.match_ids: set[int] = set()
        self.read: asyncio.Future[Versions] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None


_gathering: _Batch | None = None


async def versions_of(match_id: int) -> tuple[int, int] | None:
    """The match's (revision, chat version) now (``None``: no such match), read in one query with
    those of the other matches asked for meanwhile. Raises what the query raised."""
    global _gathering
    batch = _gathering
    if batch is None or batch.read.get_loop() is not asyncio.get_running_loop():
        batch = _gathering = _Batch()
        batch.task = asyncio.ensure_future(_read(batch))
    batch.match_ids.add(match_id)
    return (await asyncio.shield(batch.read)).get(match_id)


async def _read(batch: _Batch) -> None:
    global _gathering
    await asyncio.sleep(BATCH_SECONDS)
    if _gathering is batch:
        _gathering = None  # whoever asks from now on waits for a read of its own, after this one's
    try:
        found = await database_sync_to_async(_versions)(sorted(batch.match_ids))
    except Exception as exc:
        batch.read.set_exception(exc)
        batch.read.exception()  # retrieved: each asker gets it from its own await
        return
    batch.read.set_result(found)


def _versions(match_ids: list[int]) -> Versions:
    rows = Match.objects.filter(pk__in=match_ids).values_list("pk", "revision", "chat_version")
    return {pk: (revision, chat) for pk, revision, chat in rows}
