"""Process-level plumbing: the HTTP concurrency cap and the shared Redis cache client."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, cast

import pytest

from config.limits import HttpConcurrencyLimit
from games.runtime.redis_cache import SharedRedisCache
from tests.own_loop import run_on_its_own_loop

from .helpers import count_calls

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends


def test_http_requests_over_the_cap_wait_their_turn() -> None:
    run_on_its_own_loop(_requests_over_the_cap_wait)


async def _requests_over_the_cap_wait() -> None:
    running = 0
    peak = 0

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1

    limited = HttpConcurrencyLimit(app, 3)
    await asyncio.gather(*(limited({"type": "http"}, None, None) for _ in range(12)))
    peak_http = peak
    await asyncio.gather(*(limited({"type": "websocket"}, None, None) for _ in range(6)))
    assert peak_http == 3 and peak == 6  # sockets are not counted


@pytest.mark.parametrize("location", ["redis://127.0.0.1:6379/9"])
def test_cache_objects_share_one_redis_client(location: str) -> None:
    first, second = SharedRedisCache(location, {}), SharedRedisCache(location, {})
    assert first._cache is second._cache
    assert SharedRedisCache("redis://127.0.0.1:6379/8", {})._cache is not first._cache


def test_websocket_pushes_are_deflated_with_small_per_socket_memory() -> None:
    from autobahn.websocket.compress import PerMessageDeflateOffer

    from games.runtime import wscompress

    offer = PerMessageDeflateOffer(accept_no_context_takeover=True, accept_max_window_bits=True)
    accepted = wscompress.accept([offer])
    assert accepted is not None
    extension = accepted.get_extension_string()
    assert extension.startswith("permessage-deflate")
    assert f"client_max_window_bits={wscompress.WINDOW_BITS}" in extension  # the browser's window, asked
    # How the server compresses is its own choice (RFC 7692 7.1.1.1, 7.1.2.1): not announced.
    assert accepted.no_context_takeover is True
    assert accepted.window_bits == wscompress.WINDOW_BITS < 15
    assert accepted.mem_level == wscompress.MEM_LEVEL < 8
    assert wscompress.accept([]) is None  # a client that offers nothing gets plain frames


def test_daphne_builds_its_websocket_factory_with_compression() -> None:
    import daphne.server

    import config.asgi  # noqa: F401  (the daphne command imports it before starting the server)
    from games.runtime import wscompress

    assert daphne.server.WebSocketFactory is wscompress.CompressingWebSocketFactory
    factory = daphne.server.WebSocketFactory(None)
    assert factory.perMessageCompressionAccept is wscompress.accept


def test_daphnes_deflate_compresses_at_our_level_and_any_client_inflates_it() -> None:
    import zlib

    from autobahn.websocket.compress import PERMESSAGE_COMPRESSION_EXTENSION, PerMessageDeflateOffer

    import config.asgi  # noqa: F401  (installs it, as when daphne starts)
    from games.runtime import wscompress

    offer = PerMessageDeflateOffer(accept_no_context_takeover=True, accept_max_window_bits=True)
    accepted = wscompress.accept([offer])
    assert accepted is not None
    pmce_class = PERMESSAGE_COMPRESSION_EXTENSION[accepted.EXTENSION_NAME]["PMCE"]
    assert pmce_class is wscompress.FastDeflate
    pmce = pmce_class.create_from_offer_accept(True, accepted)
    payload = ("<div class='br-dash'>" + "lane 3, row 12 · $1,200 · ") * 300 + "</div>"
    pmce.start_compress_message()
    wire = pmce.compress_message_data(payload.encode()) + pmce.end_compress_message()
    level = zlib.compressobj(wscompress.COMPRESS_LEVEL, zlib.DEFLATED, -wscompress.WINDOW_BITS, wscompress.MEM_LEVEL)
    assert wire == (level.compress(payload.encode()) + level.flush(zlib.Z_SYNC_FLUSH))[:-4]
    default = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -wscompress.WINDOW_BITS)
    assert wire != (default.compress(payload.encode()) + default.flush(zlib.Z_SYNC_FLUSH))[:-4]
    inflate = zlib.decompressobj(-15)  # a browser's inflater, with the largest window
    assert inflate.decompress(wire + b"\x00\x00\xff\xff").decode() == payload


def test_a_message_sent_alike_to_many_sockets_is_compressed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 8: a move's shared part goes byte for byte to every seat's socket; with no context taken
    over its compressed form depends on nothing else, so a process compresses it once. Small
    messages are not kept, nor more than the latest few large ones."""
    import zlib

    from autobahn.websocket.compress import PerMessageDeflateOffer

    import config.asgi  # noqa: F401  (installs it, as when daphne starts)
    from games.runtime import wscompress

    compressions = count_calls(monkeypatch, wscompress.zlib, "compressobj")
    monkeypatch.setattr(wscompress, "_deflated", {})
    accepted = wscompress.accept([PerMessageDeflateOffer(accept_no_context_takeover=True, accept_max_window_bits=True)])
    assert accepted is not None
    sockets = [wscompress.FastDeflate.create_from_offer_accept(True, accepted) for _ in range(5)]
    part = '{"type": "part", "frags": ["' + "<g id='br-cars'>lane 3, row 12</g>" * 200 + '"]}'
    wires = []
    for socket in sockets:
        socket.start_compress_message()
        payload = part.encode()  # each socket's own bytes, as daphne encodes each message
        wires.append(socket.compress_message_data(payload) + socket.end_compress_message())
    assert len(compressions) == 1, "compressed once for five sockets"
    assert len(set(wires)) == 1
    assert zlib.decompressobj(-15).decompress(wires[0] + b"\x00\x00\xff\xff").decode() == part
    small = b'{"type": "answer"}'
    assert wscompress.deflate(small) == wscompress.deflate(small) and len(compressions) == 3, "small: not kept"
    for n in range(wscompress.DEFLATED_KEPT + 1):
        wscompress.deflate(part.encode() + str(n).encode())
    assert len(wscompress._deflated) <= wscompress.DEFLATED_KEPT
    # A message handed over in pieces (autobahn's streaming frames) is compressed whole at its end.
    socket = sockets[0]
    socket.start_compress_message()
    pieces = [socket.compress_message_data(chunk) for chunk in (b"<p>one ", b"two ", b"three</p>")]
    end = socket.end_compress_message()
    assert zlib.decompressobj(-15).decompress(b"".join(pieces) + end + b"\x00\x00\xff\xff") == b"<p>one two three</p>"


@pytest.mark.parametrize(("marked", "compressed"), [(True, True), (False, False), (None, False)])
def test_daphne_compresses_only_the_messages_marked_as_holding_no_secret(
    monkeypatch: pytest.MonkeyPatch, marked: bool | None, compressed: bool
) -> None:
    from autobahn.websocket import protocol as autobahn_protocol

    from games.runtime.wscompress import DEFLATE, SelectiveDeflateProtocol

    sent = []
    monkeypatch.setattr(
        autobahn_protocol.WebSocketProtocol,
        "sendMessage",
        lambda self, payload, isBinary=False, fragmentSize=None, sync=False, doNotCompress=False: sent.append(
            (payload, doNotCompress)
        ),
    )
    proto = SelectiveDeflateProtocol()
    proto.state = proto.STATE_OPEN
    proto.client_addr = ["127.0.0.1", 50000]
    message: dict[str, Any] = {"type": "websocket.send", "text": "<p>board</p>"}
    if marked is not None:
        message[DEFLATE] = marked
    proto.handle_reply(message)
    assert sent == [(b"<p>board</p>", not compressed)]


class _Reactor:
    """What a connection asks of its reactor when it starts or stops waiting to write, written down."""

    def __init__(self) -> None:
        self.writers: list[object] = []

    def addWriter(self, writer: object) -> None:
        self.writers.append(writer)

    def removeWriter(self, writer: object) -> None:
        if writer in self.writers:
            self.writers.remove(writer)


def _protocol_on(ours: Any, *, closing: bool = False) -> tuple[Any, Any, _Reactor]:
    """daphne's WebSocket protocol, open, on one end of a real socket pair: (protocol, its Twisted
    connection, the reactor it asks to wait for writing)."""
    from autobahn.websocket import protocol as autobahn_protocol
    from twisted.internet import tcp

    from games.runtime.wscompress import SelectiveDeflateProtocol

    ours.setblocking(False)
    proto = SelectiveDeflateProtocol()
    proto.state = proto.STATE_OPEN
    proto.send_queue = deque()
    proto.trafficStats = autobahn_protocol.TrafficStats()
    proto.logOctets = False
    proto.client_addr = ["127.0.0.1", 50000]
    reactor = _Reactor()
    connection = tcp.Connection(ours, proto, reactor=cast(Any, reactor))
    connection.connected = True
    connection.disconnecting = closing
    proto.transport = connection
    return proto, connection, reactor


def _frame(text: bytes) -> bytes:
    return bytes([0x81, len(text)]) + text  # a short unmasked text frame, as a server sends it


@pytest.mark.parametrize("closing", [False, True])
def test_a_reply_leaves_for_the_client_at_once_not_at_the_reactors_next_turn(
    monkeypatch: pytest.MonkeyPatch, closing: bool
) -> None:
    """Each system call and turn of the loop can wait a switch interval beside a rendering writer
    thread (docs/decisions/0013-frames-sent-at-once.md): a frame for an idle socket is sent at once, without the poller.
    A connection that is closing is left to the reactor, which ends it once its buffer is out."""
    import socket

    from autobahn.websocket import protocol as autobahn_protocol

    monkeypatch.setattr(
        autobahn_protocol.WebSocketProtocol,
        "sendMessage",
        lambda self, payload, isBinary=False, fragmentSize=None, sync=False, doNotCompress=False: self.sendData(
            _frame(payload)
        ),
    )
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    proto, connection, reactor = _protocol_on(ours, closing=closing)
    try:
        proto.handle_reply({"type": "websocket.send", "text": "<p>board</p>"})
        if closing:
            with pytest.raises(BlockingIOError):
                theirs.recv(100)
            assert connection._tempDataLen == len(_frame(b"<p>board</p>")), "left in the buffer for the reactor"
            assert reactor.writers == [connection]
        else:
            assert theirs.recv(100) == _frame(b"<p>board</p>")
            assert connection._tempDataLen == 0 and not connection.dataBuffer
            assert reactor.writers == [], "the poller was never asked"
            assert proto.trafficStats.outgoingOctetsWireLevel == len(_frame(b"<p>board</p>"))
    finally:
        ours.close()
        theirs.close()


def test_what_a_full_socket_does_not_take_waits_for_the_reactor_and_later_frames_queue_behind_it() -> None:
    import socket

    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    proto, connection, reactor = _protocol_on(ours)
    big, small = b"a" * 1_000_000, b"after"
    try:
        proto.sendData(big)
        assert 0 < connection._tempDataLen < len(big), "the kernel took part, the rest is buffered"
        assert reactor.writers == [connection]
        proto.sendData(small)  # the socket is not idle: this one waits behind the rest
        assert connection._tempDataLen < len(big) + len(small)
        received = bytearray()
        while len(received) < len(big) + len(small):
            try:
                received += theirs.recv(1 << 20)
            except BlockingIOError:
                connection.doWrite()  # as the reactor does when the socket is writable again
        assert bytes(received) == big + small
    finally:
        ours.close()
        theirs.close()
