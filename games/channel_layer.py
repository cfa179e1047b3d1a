"""The Redis channel layer, with a group message decoded once per process instead of once per socket.

channels_redis's pub/sub layer hands the bytes of a group message to every member channel of the
process, and each consumer decodes them itself. A move's players' message (:mod:`games.pushes`)
carries every connected seat's part, so a table of four on one daphne decoded it four times
(3.5 % of a daphne's Python time in a flat-out run, docs/performance.md section 15). Here the
bytes object the layer fanned out is decoded once and its members share the result.

Sharing is safe because no handler changes the message it is given: the consumers read it,
take their part and send what they build from it.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

# Messages decoded recently, by the identity of their bytes; each entry holds the bytes too, so
# that an id is never reused while it is kept.
_KEPT = 64


class SharedDecodeChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: dict[int, tuple[bytes, Any]] = {}
        self._decoded_lock = Lock()

    def deserialize(self, message: bytes) -> Any:
        with self._decoded_lock:
            kept = self._decoded.get(id(message))
        if kept is not None and kept[0] is message:
            return kept[1]
        decoded = super().deserialize(message)
        with self._decoded_lock:
            if len(self._decoded) >= _KEPT:
                del self._decoded[next(iter(self._decoded))]  # the oldest
            self._decoded[id(message)] = (message, decoded)
        return decoded
