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

With no context taken over, a message's compressed form depends on its bytes and the settings
alone. A move sends the same message to several sockets of a process (its shared fragments, to
every seat that showed the same board: ``games.sockets.frames.shared_part``): :func:`deflate` keeps
the latest large ones' compressed forms, so each is compressed once per process, not per socket.
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
from twisted.internet import tcp

WINDOW_BITS = 12  # a 4 KB window
MEM_LEVEL = 6
# zlib's fast strategy (levels 1-3) instead of autobahn's fixed default (6): on bridge_race's pushes
# (11 KB of HTML on average) 73 µs a message instead of 111, for 2.14 KB on the wire instead of 1.93.
COMPRESS_LEVEL = 3
DEFLATE = "hideout.deflate"  # in an ASGI websocket.send message: it holds nothing secret

# Compressed forms kept (:func:`deflate`): a move's shared part is sent to its sockets within a few
# milliseconds, so a few dozen cover every match moving at once; small messages are not kept.
DEFLATED_KEPT = 32
DEFLATED_KEPT_FROM = 1024  # bytes


_deflated: dict[tuple[int, int, bytes], bytes] = {}


def deflate(payload: bytes, window_bits: int = WINDOW_BITS, mem_level: int = MEM_LEVEL) -> bytes:
    """``payload`` as a permessage-deflate message compressed with no context takeover: the deflate
    data, flushed, without the flush's final 4 bytes (RFC 7692 7.2.1).

    A payload of at least ``DEFLATED_KEPT_FROM`` bytes is compressed once for the latest
    ``DEFLATED_KEPT`` such payloads, however many sockets it is sent to (the lookup hashes the
    payload, a few microseconds where compressing it takes tens). Only messages marked as holding
    nothing secret are compressed at all, so a kept form tells nothing a socket was not sent.
    """
    key = (window_bits, mem_level, payload)
    kept = _deflated.get(key)
    if kept is not None:
        return kept
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -window_bits, mem_level)
    deflated = (compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH))[:-4]
    if len(payload) >= DEFLATED_KEPT_FROM:
        if len(_deflated) >= DEFLATED_KEPT:
            _deflated.clear()  # simpler than an LRU: the latest messages are the ones sent again
        _deflated[key] = deflated
    return deflated


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
    """autobahn's permessage-deflate, compressing the server's messages at ``COMPRESS_LEVEL``, each
    through :func:`deflate` (compressed once however many sockets it goes to).

    The level is the sender's own choice (RFC 7692): nothing is announced and every client inflates
    the result alike. autobahn hands a message over as start, data, end: the data is gathered and
    the whole message compressed at its end.
    """

    _pending: list[bytes] | None = None  # the message being sent, while it is gathered

    def start_compress_message(self) -> None:
        if self._is_server and self.server_no_context_takeover:
            self._pending = []
            return
        self._pending = None
        if self._is_server and self._compressor is None:
            self._compressor = zlib.compressobj(
                COMPRESS_LEVEL, zlib.DEFLATED, -self.server_max_window_bits, self.mem_level
            )
            return
        super().start_compress_message()

    def compress_message_data(self, data: bytes) -> bytes:
        if self._pending is None:
            compressed: bytes = super().compress_message_data(data)
            return compressed
        self._pending.append(data)
        return b""

    def end_compress_message(self) -> bytes:
        pending, self._pending = self._pending, None
        if pending is None:
            ended: bytes = super().end_compress_message()
            return ended
        return deflate(b"".join(pending), self.server_max_window_bits, self.mem_level)


SERVER_GOING_CODES = frozenset({1001, 1012, 1013})  # going away, service restart, try again later


class SelectiveDeflateProtocol(WebSocketProtocol):
    """daphne's WebSocket protocol, compressing only the messages marked ``DEFLATE``, and sending
    a frame to an idle socket at once (:meth:`sendData`)."""

    _deflate_next = False

    def handle_reply(self, message: dict[str, Any]) -> None:
        self._deflate_next = message.get("type") == "websocket.send" and message.get(DEFLATE) is True
        try:
            super().handle_reply(message)
        finally:
            self._deflate_next = False

    def serverClose(self, code: int | None = None) -> None:
        """daphne's, also with the codes of a server going away or restarting (RFC 6455 section
        7.4.1, IANA's registry: 1001, 1012, 1013), which autobahn's ``sendClose`` refuses (it takes 1000
        and 3000-4999 only): a stopping daphne closes its sockets with 1012 (games.sockets.base_consumer)."""
        if code in SERVER_GOING_CODES:
            self.sendCloseFrame(code=code, isReply=False)
            return
        super().serverClose(code)

    def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:
        """autobahn's, with a frame for an idle socket sent to the kernel at once.

        Twisted buffers a write, registers the socket with the event loop's poller, writes it when
        the loop next finds the socket writable, and unregisters it: three system calls and a turn
        of the loop, each giving up the interpreter's lock. Beside a writer thread rendering a move,
        getting the lock back can take a switch interval (decisions 0013 and 0015, docs/decisions/). A
        socket with nothing buffered takes the frame with one send instead; what the kernel does not
        take is buffered as before, and so is every frame behind it, so frames keep their order.
        A connection that is closing, or broken, is left to the reactor, which reports and ends it.
        autobahn's own debug line is skipped too: its arguments were formatted on every frame with
        debug logging off.
        """
        transport = self.transport
        if chopsize or sync or self.send_queue or not _idle(transport):
            super().sendData(data, sync, chopsize)
            return
        try:
            sent = transport.socket.send(data)
        except OSError:  # the socket is full, or broken: the reactor's own write tells which
            sent = 0
        if sent < len(data):
            transport.write(data[sent:])
        if self.state == WebSocketProtocol.STATE_OPEN:
            self.trafficStats.outgoingOctetsWireLevel += len(data)
        elif self.state in (WebSocketProtocol.STATE_CONNECTING, WebSocketProtocol.STATE_PROXY_CONNECTING):
            self.trafficStats.preopenOutgoingOctetsWireLevel += len(data)
        if self.logOctets:
            self.logTxOctets(data, False)

    def sendMessage(
        self,
        payload: bytes,
        isBinary: bool = False,
        fragmentSize: int | None = None,
        sync: bool = False,
        doNotCompress: bool = False,
    ) -> None:
        super().sendMessage(payload, isBinary, fragmentSize, sync, doNotCompress or not self._deflate_next)


def _idle(transport: object) -> bool:
    """Whether ``transport`` is an open plain TCP connection with nothing waiting to be written."""
    return bool(
        isinstance(transport, tcp.Connection)
        and transport.connected
        and not transport.disconnecting
        and not transport._writeDisconnected
        and not transport.TLS
        and not transport._tempDataLen
        and transport.offset == len(transport.dataBuffer)
    )


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
