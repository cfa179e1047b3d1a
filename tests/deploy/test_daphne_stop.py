"""Issue 54, item 27: a daphne that is stopped (SIGTERM, as systemd or a deploy stops it) closes its
sockets with 1012 ("service restart", which the page answers by reconnecting at once) and clears
its presence records, instead of dropping the connections (1006) and leaving the players counted
as present until the sweep, minutes later."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.e2e.conftest import LiveSite, _bin, _free_port, _site_env, _spawn, _wait_http, migrate_database
from tests.own_loop import run_on_its_own_loop

from .stack import SETUP, shell

PRESENCE = """
from games.models import Presence, Seat
print(Presence.objects.count(), sum(Seat.objects.values_list("open_sockets", flat=True)))
"""


async def _socket_through_a_stop(site: LiveSite, env: dict[str, str], match_id: str, session: str) -> Any:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    url = site.url.replace("http://", "ws://") + f"/ws/match/{match_id}/"
    async with connect(
        url, additional_headers={"Cookie": f"sessionid={session}"}, origin=Origin(site.url), open_timeout=15
    ) as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 15))["type"] == "update"
        counted = await asyncio.to_thread(shell, env, PRESENCE)
        assert counted == ["1", "1"], "the open socket is counted in"
        site.procs[0].popen.send_signal(signal.SIGTERM)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 15)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else 1006


def test_a_stopped_daphne_closes_its_sockets_with_1012_and_clears_their_presence() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="hideout-stop-"))
    port = _free_port()
    database = f"sqlite:///{tmp / 'stop.sqlite3'}"
    site = LiveSite(url=f"http://127.0.0.1:{port}", mail_dir=tmp, database=database, redis=False)
    try:
        env = _site_env(database, port, tmp)
        migrate_database(env)
        site.procs.append(
            _spawn("daphne", [_bin("daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env, tmp)
        )
        _wait_http(site.url + "/", site)
        match_id, session = shell(env, SETUP)
        code = run_on_its_own_loop(lambda: _socket_through_a_stop(site, env, match_id, session))
        assert code == 1012, f"closed with {code}\n{site.logs()[-3000:]}"
        deadline = time.monotonic() + 15
        while site.procs[0].popen.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert site.procs[0].popen.poll() is not None, "daphne stopped"
        assert shell(env, PRESENCE) == ["0", "0"], f"presence cleared\n{site.logs()[-3000:]}"
    finally:
        for proc in site.procs:
            proc.stop()
        shutil.rmtree(tmp, ignore_errors=True)
