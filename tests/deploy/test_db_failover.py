"""Hardening item 6: after PostgreSQL drops every connection, the next requests still succeed."""

from __future__ import annotations

import shutil
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.conftest import LiveSite, _bin, _free_port, _site_env, _spawn, _wait_http, migrate_database

from .stack import fresh_database, postgres_server, terminate_connections


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_item6_fault_terminated_database_connections_cost_no_request() -> None:
    server = postgres_server()
    tmp = Path(tempfile.mkdtemp(prefix="hideout-failover-"))
    database = fresh_database(tmp, server)
    port = _free_port()
    site = LiveSite(url=f"http://127.0.0.1:{port}", mail_dir=tmp, database=database.url, redis=False)
    try:
        env: dict[str, Any] = _site_env(database.url, port, tmp)
        env.update({"DB_POOL": "true", "DB_POOL_MIN": "4", "DB_POOL_MAX": "4", "CONN_MAX_AGE": "0"})
        migrate_database(env)
        site.procs.append(
            _spawn("daphne", [_bin("daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env, tmp)
        )
        _wait_http(site.url + "/", site)
        for _ in range(8):  # every pooled connection has served
            assert get(site.url + "/") == 200
        assert terminate_connections(database.url) >= 1
        codes = [get(site.url + "/") for _ in range(8)]
        assert codes == [200] * 8, f"{codes}\n{site.logs()[-3000:]}"
    finally:
        for proc in site.procs:
            proc.stop()
        database.drop()
        shutil.rmtree(tmp, ignore_errors=True)
