"""WebSocket clients for the platform tests: a socket opened as a given user on a match (with the page
its first update shows), and the messages a client sends and waits for."""

from __future__ import annotations

import json
from typing import Any, cast

from asgiref.typing import WebSocketScope
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.sockets.routing import websocket_urlpatterns

from .pagesim import Page


def as_user(user: Any) -> Any:
    """The site's socket routes, seen by ``user`` (as AuthMiddlewareStack would have set it)."""
    router = URLRouter(websocket_urlpatterns)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # The communicator's websocket scope, with the user AuthMiddlewareStack would have added.
        return await router(cast("WebSocketScope", {**scope, "user": user}), receive, send)

    return app


async def first_update(user: Any, match_id: int) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A socket of ``user`` on the match, connected, and the first update it got."""
    communicator = WebsocketCommunicator(as_user(user), f"/ws/match/{match_id}/")
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "update"
    return communicator, first


async def connect(user: Any, match_id: int) -> WebsocketCommunicator:
    """A socket of ``user`` on the match, connected, its first update read."""
    communicator, _first = await first_update(user, match_id)
    return communicator


async def open_page(user: Any, match_id: int) -> tuple[WebsocketCommunicator, Page]:
    """A socket of ``user`` on the match and the page its first update shows: a full board."""
    communicator, first = await first_update(user, match_id)
    assert "base" not in first  # a full board on connect
    return communicator, Page(first["html"])


async def answer_to(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """The next answer to a move the socket sent, past any push before it."""
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == "answer":
            return message


def act(action: dict[str, Any], version: Any, key: str, **fields: list[str]) -> dict[str, Any]:
    """The message that sends a move over the socket."""
    return {"type": "act", "action": json.dumps(action), "fields": fields, "version": version, "key": key}


async def messages(communicator: WebsocketCommunicator, wait: float = 0.3) -> list[dict[str, Any]]:
    """Every message the socket receives until it has been quiet for ``wait`` seconds."""
    out = []
    while not await communicator.receive_nothing(timeout=wait, interval=0.01):
        out.append(await communicator.receive_json_from(timeout=5))
    return out
