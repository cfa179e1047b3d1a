"""Compressed WebSocket messages from daphne (permessage-deflate, RFC 7692).

Every push carries rendered HTML. A bridge_race board is about 58 KB, and a race pushes it to every
player some 500 times: tens of megabytes per race on a phone. Browsers offer permessage-deflate on
every WebSocket; daphne's WebSocket layer (autobahn) can accept it but daphne never asks it to.
Deflated, a bridge_race push is about 9 KB (6x smaller), for about 0.65 ms of CPU per message at
zlib's default level (a faster one is used, ``COMPRESS_LEVEL``).

Only messages the application marks as holding nothing secret are compressed (the ASGI
``websocket.send`` message carries ``DEFLATE: True``); everything else goes out as plain frames.
Compressing a secret together with text somebody else chose (a chat line, a display name) lets that
somebody guess the secret from the compressed size, if they can see the sizes on the network (the
BREACH attack). A heist board holds its player's role, so heist pushes are never compressed; a
bridge_race board holds nothing hidden (R-89), so it is.

Each message is compressed on its own (no context takeover: successive boards are far larger than
the window, so keeping it would buy nothing, and no message shares a context with another) with a
4 KB window and a small memory level. An open socket then keeps about 50 KB of zlib state, instead
of about 300 KB with zlib's defaults, so a thousand sockets still fit comfortably in one process.
"""

from __future__ import annotations

import zlib
from typing import Any

from autobahn.websocket.compress import (
    PERMESSAGE_COMPRESSION_EXTENSION,
    PerMessageDeflate,
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

WINDOW_BITS = 12  # a 4 KB window
MEM_LEVEL = 6
# zlib's fast strategy (levels 1-3) instead of autobahn's fixed default (6): on bridge_race's pushes
# (11 KB of HTML on average) 73 µs a message instead of 111, for 2.14 KB on the wire instead of 1.93.
COMPRESS_LEVEL = 3
DEFLATE = "hideout.deflate"  # in an ASGI websocket.send message: it holds nothing secret


def accept(offers: list[Any]) -> PerMessageDeflateOfferAccept | None:
    """Accept the client's permessage-deflate offer, if it made one, with our small-memory settings."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(
                offer,
                request_max_window_bits=WINDOW_BITS if offer.accept_max_window_bits else 0,
                no_context_takeover=True,
                window_bits=WINDOW_BITS,
                mem_level=MEM_LEVEL,
            )
    return None


class FastDeflate(PerMessageDeflate):
    """autobahn's permessage-deflate, compressing the server's messages at ``COMPRESS_LEVEL``.

    The level is the sender's own choice (RFC 7692): nothing is announced and every client inflates
    the result alike.
    """

    def start_compress_message(self) -> None:
        if self._is_server and (self._compressor is None or self.server_no_context_takeover):
            self._compressor = zlib.compressobj(
                COMPRESS_LEVEL, zlib.DEFLATED, -self.server_max_window_bits, self.mem_level
            )
            return
        super().start_compress_message()


class SelectiveDeflateProtocol(WebSocketProtocol):
    """daphne's WebSocket protocol, compressing only the messages marked ``DEFLATE``."""

    _deflate_next = False

    def handle_reply(self, message: dict[str, Any]) -> None:
        self._deflate_next = message.get("type") == "websocket.send" and message.get(DEFLATE) is True
        try:
            super().handle_reply(message)
        finally:
            self._deflate_next = False

    def sendMessage(
        self,
        payload: bytes,
        isBinary: bool = False,
        fragmentSize: int | None = None,
        sync: bool = False,
        doNotCompress: bool = False,
    ) -> None:
        super().sendMessage(payload, isBinary, fragmentSize, sync, doNotCompress or not self._deflate_next)


class CompressingWebSocketFactory(WebSocketFactory):
    """daphne's WebSocket factory, accepting permessage-deflate for the messages marked ``DEFLATE``."""

    protocol = SelectiveDeflateProtocol

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept)


def install() -> None:
    """Have daphne build its WebSocket factory with compression (call before the server runs).

    daphne offers no setting for it, and builds the factory inside ``Server.run`` from the name
    ``WebSocketFactory`` in its ``server`` module; the daphne command imports the application (and
    so this project's ``config.asgi``) before it starts the server.
    """
    import daphne.server

    daphne.server.WebSocketFactory = CompressingWebSocketFactory
    # autobahn builds the accepted extension from its registry, by name.
    PERMESSAGE_COMPRESSION_EXTENSION[PerMessageDeflate.EXTENSION_NAME]["PMCE"] = FastDeflate
