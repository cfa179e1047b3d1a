"""The real daphne deflates its WebSocket pushes when the client offers it, as every browser does.

A push is rendered HTML (a bridge_race board is ~58 KB); permessage-deflate (RFC 7692) makes it
several times smaller on the wire (games/runtime/wscompress.py). This connects to the site's daphne as a
signed-in player, the way a browser does, and checks the handshake and the first push.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import LiveSite, session_setup

pytestmark = pytest.mark.e2e

SETUP = session_setup("deflate")


async def _first_push(site: LiveSite, match_id: int, session_key: str) -> tuple[str, dict[str, object]]:
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    url = site.url.replace("http://", "ws://") + f"/ws/match/{match_id}/"
    async with connect(
        url,
        additional_headers={"Cookie": f"sessionid={session_key}"},
        origin=Origin(site.url),
        compression="deflate",
        max_size=None,
        open_timeout=15,
    ) as ws:
        assert ws.response is not None  # set once the handshake is done
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        message = json.loads(await asyncio.wait_for(ws.recv(), 15))
    return extensions, message


def test_pushes_are_deflated_for_a_client_that_offers_it(live_site: LiveSite) -> None:
    match_id, session_key = live_site.manage("shell", "-c", SETUP).stdout.split()[-2:]
    # In a thread of its own: the browser tests leave Playwright's event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        extensions, message = pool.submit(asyncio.run, _first_push(live_site, int(match_id), session_key)).result()
    assert extensions.startswith("permessage-deflate")
    assert "client_max_window_bits=12" in extensions
    assert message["type"] == "update"
    assert 'id="board"' in str(message["html"])
