"""Hardening item 15: the production topology of deploy/ starts and survives losing a daphne.

nginx (Debian's package, with deploy/nginx/hideout.conf) in front of the two daphnes, the worker
and the beat of deploy/Procfile, on PostgreSQL + Redis. Four players' sockets go through nginx
and land on the match's daphne (nginx routes sockets by match); their moves are POSTed through
nginx to both daphnes, so pushes also come from the other one; the sockets' daphne is killed
mid-match; the players reconnect through nginx to the other and finish with every move and every
push accounted for.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import (
    BASE_DIR,
    LiveSite,
    PrivateBroker,
    Proc,
    _bin,
    _free_port,
    _site_env,
    _spawn,
    _wait_http,
    _wait_log,
    migrate_database,
)

from .stack import fresh_database, postgres_server, redis_server, skip_or_fail

CSRF_IN_PAGE = re.compile(r'"X-CSRFToken":\s*"([A-Za-z0-9]+)"')
DEPLOY = BASE_DIR / "deploy"


def procfile() -> dict[str, list[str]]:
    commands = {}
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            commands[name.strip()] = shlex.split(command)
    return commands


def command(args: list[str], **replace: str) -> list[str]:
    """A Procfile command with this interpreter's tools and the test's ports and paths."""
    out = []
    for arg in args:
        if arg.startswith(".venv/bin/"):
            arg = _bin(arg.removeprefix(".venv/bin/"))
        out.append(replace.get(arg, arg))
    return out


def nginx_conf(tmp: Path, port: int, web_ports: list[int], static_root: Path) -> Path:
    site = (DEPLOY / "nginx" / "hideout.conf").read_text()
    assert "listen 80;" in site and "127.0.0.1:8001" in site and "127.0.0.1:8002" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    site = site.replace("127.0.0.1:8001", f"127.0.0.1:{web_ports[0]}").replace(
        "127.0.0.1:8002", f"127.0.0.1:{web_ports[1]}"
    )
    site = site.replace("/srv/hideout/staticfiles/", f"{static_root}/")
    temp = "".join(
        f"    {kind}_temp_path {tmp / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"worker_processes 1;\npid {tmp / 'nginx.pid'};\nerror_log {tmp / 'nginx-error.log'} warn;\ndaemon off;\n"
        "events { worker_connections 512; }\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    access_log {tmp / 'nginx-access.log'};\n{temp}{site}\n}}\n"
    )
    return conf


class Referee:
    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [_bin("python"), "-m", "tests.deploy.referee"],
            cwd=BASE_DIR,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def ask(self, **command: Any) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=20)


class Sock:
    """A player's socket through nginx, read on a thread: the newest revision it was pushed."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        self.ws = connect(url, additional_headers={"Cookie": cookie}, origin=Origin(origin), open_timeout=15)
        self.revision = -1
        self.closed = False
        self.first = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                message = json.loads(raw)
                if message.get("type") == "update":
                    self.revision = max(self.revision, int(message.get("revision", -1)))
                    self.first.set()
        except Exception:
            pass
        self.closed = True
        self.first.set()

    def close(self) -> None:
        self.ws.close()


class Player:
    def __init__(self, base: str, match_id: int, session: str) -> None:
        self.base, self.match_id, self.session = base, match_id, session
        self.http = httpx.Client(base_url=base, cookies={"sessionid": session}, timeout=30)
        page = self.http.get(f"/m/{match_id}/")
        assert page.status_code == 200
        found = CSRF_IN_PAGE.search(page.text)
        assert found
        self.csrf = found.group(1)
        self.sock: Sock | None = None
        self.reconnects = 0

    def connect(self) -> None:
        cookie = f"sessionid={self.session}; csrftoken={self.http.cookies.get('csrftoken')}"
        ws_url = self.base.replace("http://", "ws://") + f"/ws/match/{self.match_id}/"
        for _ in range(10):
            try:
                sock = Sock(ws_url, self.base, cookie)
            except Exception:
                time.sleep(0.5)
                continue
            if sock.first.wait(15) and not sock.closed:
                self.sock = sock
                return
            time.sleep(0.5)
        raise AssertionError(f"player could not reconnect through nginx to match {self.match_id}")

    def move(self, action: dict[str, Any], version: int) -> tuple[int, str]:
        """POST a move; a transport failure or a 502 is resent with the same idempotency key."""
        key = uuid.uuid4().hex
        data = {"action": json.dumps(action), "version": str(version), "key": key}
        headers = {"X-CSRFToken": self.csrf, "HX-Request": "true"}
        for _ in range(8):
            try:
                response = self.http.post(f"/m/{self.match_id}/action/", data=data, headers=headers)
            except httpx.TransportError:
                time.sleep(0.3)
                continue
            if response.status_code in (502, 503, 504):
                time.sleep(0.3)
                continue
            return response.status_code, key
        return 0, key


def ws_connects(proc: Proc) -> int:
    """Sockets the daphne accepted (its access log also writes "WSCONNECTING" for each handshake)."""
    return proc.text().count("WSCONNECT ")


def http_posts(proc: Proc) -> int:
    return proc.text().count("POST /m/")


@pytest.fixture
def stack() -> Iterator[dict[str, Any]]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        skip_or_fail("deploy test skipped: nginx not installed (apt-get install nginx)")
    server, redis_url = postgres_server(), redis_server()
    tmp = Path(tempfile.mkdtemp(prefix="hideout-deploy-"))
    tmp.chmod(0o755)  # nginx's workers read the static files
    database = fresh_database(tmp, server)
    broker = PrivateBroker(redis_url)
    web_ports, port = [_free_port(), _free_port()], _free_port()
    site = LiveSite(url=f"http://127.0.0.1:{port}", mail_dir=tmp, database=database.url, redis=True)
    try:
        env = _site_env(database.url, port, tmp)
        env.pop("HIDEOUT_DEV_BEAT", None)
        env.update(
            {
                "REDIS_URL": redis_url,
                "CELERY_BROKER_URL": broker.url,
                "CHANNEL_LAYER_PREFIX": f"deploytest-{secrets.token_hex(4)}",
                "TRUSTED_PROXIES": "127.0.0.1",
                "STATIC_ROOT": str(tmp / "static"),
                "DB_POOL": "true",
            }
        )
        migrate_database(env)
        collect = subprocess.run(
            [_bin("python"), "manage.py", "collectstatic", "--noinput", "-v0"], cwd=BASE_DIR, env=env, timeout=180
        )
        assert collect.returncode == 0
        processes = procfile()
        for name, web_port in zip(("web1", "web2"), web_ports, strict=True):
            args = command(processes[name], **{"8001": str(web_port), "8002": str(web_port)})
            site.procs.append(_spawn(name, args, env, tmp))
        worker = _spawn("worker", command(processes["worker"]), env, tmp)
        site.procs.append(worker)
        beat = command(processes["beat"], **{"var/celerybeat-schedule": str(tmp / "beat-schedule")})
        site.procs.append(_spawn("beat", beat, env, tmp))
        conf = nginx_conf(tmp, port, web_ports, tmp / "static")
        site.procs.append(_spawn("nginx", [nginx, "-e", str(tmp / "nginx-early.log"), "-c", str(conf)], env, tmp))
        for web_port in web_ports:
            _wait_http(f"http://127.0.0.1:{web_port}/", site)
        _wait_http(site.url + "/", site)
        _wait_log(worker, " ready.", site)
        yield {"site": site, "env": env, "web_ports": web_ports}
    finally:
        for proc in reversed(site.procs):
            proc.stop()
        broker.release()
        database.drop()
        if os.environ.get("HIDEOUT_E2E_KEEP") == "1":
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def test_item15_topology_survives_a_daphne_killed_mid_match(stack: dict[str, Any]) -> None:
    site: LiveSite = stack["site"]
    web1, web2 = (next(p for p in site.procs if p.name == name) for name in ("web1", "web2"))

    # No Server banner detail: nginx without its version, the daphnes without any.
    front = httpx.get(site.url + "/")
    assert front.status_code == 200 and front.headers.get("server") == "nginx"
    assert "server" not in httpx.get(f"http://127.0.0.1:{stack['web_ports'][0]}/").headers
    static = httpx.get(site.url + "/static/css/site.css")
    assert static.status_code == 200 and "public" in static.headers.get("cache-control", "")

    referee = Referee(stack["env"])
    try:
        setup = referee.ask(cmd="setup")
        match_id = setup["match"]
        players = {int(seat): Player(site.url, match_id, key) for seat, key in setup["sessions"].items()}
        for player in players.values():
            player.connect()
        # One daphne holds the match's sockets: a push after a move stays in its process.
        sockets_on = {proc.name: ws_connects(proc) for proc in (web1, web2)}
        assert sorted(sockets_on.values()) == [0, len(players)], f"sockets by daphne: {sockets_on}"
        holder = web1 if sockets_on["web1"] else web2

        accepted: list[str] = []
        rounds, killed_at = 0, None
        while rounds < 800:
            rounds += 1
            decision = referee.ask(cmd="decide", match=match_id)
            if decision["over"]:
                break
            for seat, action in decision["actions"].items():
                status, key = players[int(seat)].move(action, decision["version"])
                assert status in (200, 409), f"move answered {status}\n{site.logs()[-4000:]}"
                if status == 200:
                    accepted.append(key)
            if killed_at is None and len(accepted) >= 6:
                # The moves went round robin: pushes came from both daphnes, through Redis too.
                assert http_posts(web1) and http_posts(web2), site.logs()[-4000:]
                os.killpg(holder.popen.pid, signal.SIGKILL)  # mid-match, every socket open on it
                holder.popen.wait(timeout=10)
                killed_at = len(accepted)
            for player in players.values():
                if player.sock is None or player.sock.closed:
                    player.reconnects += 1
                    player.connect()
        assert killed_at is not None, "the match ended before a daphne could be killed"
        assert sum(p.reconnects for p in players.values()) >= 1, "no socket was on the killed daphne"

        result = referee.ask(cmd="final", match=match_id)
        assert result["status"] == "finished"
        assert result["events"] == result["version"]
        assert set(accepted) <= set(result["keys"]), "an accepted move is missing"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(
            p.sock is None or p.sock.revision < result["revision"] for p in players.values()
        ):
            time.sleep(0.2)
        seen = {seat: p.sock.revision if p.sock else None for seat, p in players.items()}
        assert all(r == result["revision"] for r in seen.values()), f"pushes lost: {seen} vs {result['revision']}"
        # Every page closes; the killed daphne's sockets never said goodbye. Their counts linger
        # until their presence records go stale, then the sweep puts every seat back at zero.
        for player in players.values():
            if player.sock is not None:
                player.sock.close()
        time.sleep(1.0)
        counts = referee.ask(cmd="presence", match=match_id)
        assert any(n > 0 for n in counts["before"].values()), f"no socket was left counted: {counts}"
        assert set(counts["after"].values()) == {0}, f"presence after the sweep: {counts}"
        print(
            f"{len(accepted)} moves, daphne killed after {killed_at}, reconnects "
            f"{ {s: p.reconnects for s, p in players.items()} }"
        )
    finally:
        referee.close()
