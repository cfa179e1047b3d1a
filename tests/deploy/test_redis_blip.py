"""Issue 54, item 22 (its last clause): after a Redis blip, the match sockets work again.

A Redis server of this test's own (so that stopping it disturbs nobody else's) serves daphne's
channel layer and cache. A player's socket is open when Redis goes away for a few seconds and
comes back. A chat line posted meanwhile (written, its publish lost) and one posted afterwards
(from another process, through Redis) must reach the player, on the same socket or on one the
client opened again as the page does (any close code but the page's "stop" codes, 4401 and 4404).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LiveSite, _bin, _free_port, _site_env, _spawn, _wait_http, migrate_database
from tests.own_loop import run_on_its_own_loop

from .stack import SETUP, shell

CHAT = """
from games.play import services
try:
    services.do_post_chat({match}, 0, "{text}")
except Exception as exc:  # written, but not published: Redis is away
    print("unpublished:", type(exc).__name__)
import time
time.sleep(1.5)  # the push is published from a daemon thread (games.push.pushes.send_many): let it go out
print("posted", "ok")
"""


class PrivateRedis:
    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(args, cwd=self.tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


async def _chat_reaches_the_player_after_a_blip(
    site: LiveSite, env: dict[str, str], redis: PrivateRedis, match_id: str, session: str
) -> list[Any]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    url = site.url.replace("http://", "ws://") + f"/ws/match/{match_id}/"
    closes: list[Any] = []

    async def opened() -> Any:
        ws = await connect(
            url, additional_headers={"Cookie": f"sessionid={session}"}, origin=Origin(site.url), open_timeout=15
        )
        assert json.loads(await asyncio.wait_for(ws.recv(), 15))["type"] == "update"
        return ws

    ws = await opened()
    redis.stop()
    # A line posted while Redis is away: written, but its push is lost with the publish.
    await asyncio.to_thread(shell, env, CHAT.format(match=match_id, text="during the blip"))
    redis.start()
    wanted = ["during the blip"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            if wanted and wanted[0] in json.dumps(message):
                if wanted.pop(0) == "during the blip":  # then one posted once Redis is back
                    wanted.append("after the blip")
                    await asyncio.to_thread(shell, env, CHAT.format(match=match_id, text="after the blip"))
                if not wanted:
                    await ws.close()
                    return closes
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            closes.append(code)
            assert code not in (4401, 4404), f"the page would stop reconnecting ({code})"
            while time.monotonic() < deadline:  # as the page does: again, until it is taken
                try:
                    ws = await opened()
                    break
                except (OSError, ConnectionClosed, TimeoutError, AssertionError):
                    await asyncio.sleep(0.5)
        except TimeoutError:
            break
    lines = [line for line in site.logs().splitlines() if "channel layer" in line or "Error" in line or "WS" in line]
    pytest.fail(f"{wanted} never reached the player (closes: {closes})\n{lines}")


def test_sockets_work_again_after_a_redis_blip() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    tmp = Path(tempfile.mkdtemp(prefix="hideout-blip-"))
    redis = PrivateRedis(tmp)
    port = _free_port()
    database = f"sqlite:///{tmp / 'blip.sqlite3'}"
    site = LiveSite(url=f"http://127.0.0.1:{port}", mail_dir=tmp, database=database, redis=True)
    try:
        redis.start()
        env = _site_env(database, port, tmp)
        env.update(
            {
                "REDIS_URL": f"redis://127.0.0.1:{redis.port}/7",
                "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis.port}/8",
                "CELERY_TASK_ALWAYS_EAGER": "true",
            }
        )
        env.pop("HIDEOUT_DEV_BEAT", None)
        migrate_database(env)
        site.procs.append(
            _spawn("daphne", [_bin("daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env, tmp)
        )
        _wait_http(site.url + "/", site)
        match_id, session = shell(env, SETUP)
        run_on_its_own_loop(lambda: _chat_reaches_the_player_after_a_blip(site, env, redis, match_id, session))
        site.check_alive()
    finally:
        for proc in site.procs:
            proc.stop()
        redis.stop()
        shutil.rmtree(tmp, ignore_errors=True)
