"""Browser tests against the real stack, started here as plain subprocesses.

``live_site`` (one for all the browser tests, stopped after the last of them) gives them a site as
users get it: its own fresh database (a new PostgreSQL database when ``DATABASE_URL`` points to
PostgreSQL, else a temporary SQLite file), ``manage.py migrate``, daphne serving
``config.asgi:application`` and, when ``REDIS_URL`` is set, a real Celery worker and beat; without
Redis the in-process dev beat stands in for beat.
E-mail goes to files (``EMAIL_FILE_PATH``) so a test can read the verification link.

Nothing here uses pytest-django's test database: the servers are separate processes with their
own ``DATABASE_URL``.

The browser is Debian's chromium (``apt-get install chromium``), never a Playwright download.
Without it the tests are skipped, except under ``CI=true`` where that is a failure.
``HIDEOUT_E2E_KEEP=1`` keeps the run's temporary folder (server logs, e-mail files).
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import pluggy

BASE_DIR = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SKIP_REASON = "browser tests skipped: Debian chromium not installed (apt-get install chromium)"
START_TIMEOUT = 60.0


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def browser_unavailable() -> str | None:
    """Why browser tests cannot run here (one line), or None; under CI=true that is a failure."""
    if not os.path.exists(CHROMIUM):
        reason = SKIP_REASON
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "browser tests skipped: the playwright Python package is not installed"
        else:
            return None
    if _ci():
        pytest.fail(f"CI=true, so no skipping: {reason.removeprefix('browser tests skipped: ')}", pytrace=False)
    return reason


def _require_browser() -> None:
    reason = browser_unavailable()
    if reason:
        pytest.skip(reason)


def _bin(name: str) -> str:
    """An executable of the running interpreter's environment (the project's .venv)."""
    for folder in (Path(sys.executable).parent, Path(sys.prefix) / "bin", BASE_DIR / ".venv" / "bin"):
        candidate = folder / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found next to {sys.executable}")
    return found


def migrate_database(env: dict[str, str]) -> None:
    """``manage.py migrate`` on the database of ``env`` (its ``DATABASE_URL``); its output if it fails."""
    migrate = subprocess.run(
        [_bin("python"), "manage.py", "migrate", "--noinput"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if migrate.returncode != 0:
        raise RuntimeError(f"manage.py migrate failed ({migrate.returncode}):\n{migrate.stdout}\n{migrate.stderr}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- databases ---------------------------------------------------------------------------------

POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql", "postgis", "psql"}


def _is_postgres(url: str) -> bool:
    return urllib.parse.urlsplit(url).scheme.lower() in POSTGRES_SCHEMES


def _with_database(url: str, name: str, scheme: str | None = None) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((scheme or parts.scheme, parts.netloc, "/" + name, parts.query, ""))


def _libpq_url(url: str, name: str) -> str:
    """The same server as a URL libpq understands, with the query options django-environ ignores dropped."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.urlencode(
        [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k in ("sslmode", "sslrootcert", "connect_timeout")]
    )
    return urllib.parse.urlunsplit(("postgresql", parts.netloc, "/" + name, query, ""))


def _postgres_admin(url: str, wait: float = 60.0) -> Any:
    """An autocommit connection to the server of ``url`` (its own database, else ``postgres``).

    A shared server may be out of connections for a while ("too many clients"): keep trying.
    """
    import psycopg

    own = urllib.parse.urlsplit(url).path.lstrip("/") or "postgres"
    deadline = time.monotonic() + wait
    while True:
        last: Exception | None = None
        for name in dict.fromkeys((own, "postgres", "template1")):
            try:
                return psycopg.connect(_libpq_url(url, name), autocommit=True, connect_timeout=10)
            except psycopg.OperationalError as exc:
                last = exc
        if time.monotonic() > deadline:
            raise RuntimeError(f"cannot reach the PostgreSQL server of DATABASE_URL: {last}")
        time.sleep(1.0)


class E2EDatabase:
    """A database of the e2e run's own, removed at the end."""

    def __init__(self, tmp: Path) -> None:
        source = os.environ.get("DATABASE_URL", "")
        self.postgres = bool(source) and _is_postgres(source)
        self.source = source
        if self.postgres:
            from psycopg import sql

            self.name = f"hideout_e2e_{secrets.token_hex(6)}"
            with _postgres_admin(source) as conn:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))
            self.url = _with_database(source, self.name)
        else:
            self.name = str(tmp / "e2e.sqlite3")
            self.url = f"sqlite:///{self.name}"

    def drop(self) -> None:
        if not self.postgres:
            return
        from psycopg import errors, sql

        with _postgres_admin(self.source) as conn:
            try:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name)))
            except errors.SyntaxError:  # PostgreSQL < 13
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(self.name)))


# --- a private Celery broker database --------------------------------------------------------


class PrivateBroker:
    """An empty Redis database of the same server, claimed for this run's Celery queue.

    Channels and the cache use ``REDIS_URL`` itself. Only the broker moves: a worker of somebody
    else's run on the same Redis (another e2e run, a ``worker`` test, a dev server) would otherwise
    take this run's tasks and run them against its own database, and ours would take theirs.
    ``CELERY_BROKER_URL`` (read by config/settings.py) points daphne, worker and beat at it.
    """

    LOCK = "hideout:e2e:broker"

    def __init__(self, redis_url: str) -> None:
        import redis

        parts = urllib.parse.urlsplit(redis_url)
        base_db = int(parts.path.lstrip("/") or 0) if parts.path.lstrip("/").isdigit() else 0
        self.token = secrets.token_hex(8)
        self.client: Any = None
        self.url = ""
        for db in range(1, 16):
            if db == base_db:
                continue
            url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, ""))
            client = redis.Redis.from_url(url)
            try:
                if client.dbsize() == 0 and client.set(self.LOCK, self.token, nx=True, ex=3600):
                    self.client, self.url = client, url
                    break
            except redis.ResponseError:  # no such database on this server
                break
        if self.client is None:
            raise RuntimeError(f"no empty Redis database left on {parts.netloc} for the e2e broker")

    def release(self) -> None:
        if self.client is None:
            return
        if self.client.get(self.LOCK) == self.token.encode():
            for pattern in ("celery*", "_kombu*", "unacked*"):
                for key in self.client.scan_iter(pattern):
                    self.client.delete(key)
            self.client.delete(self.LOCK)
        self.client.close()


# --- processes ---------------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def text(self, limit: int = 40_000) -> str:
        try:
            data = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return data[-limit:]

    def stop(self) -> None:
        if self.popen.poll() is not None:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                return
            self.popen.wait(timeout=10)


class ManageShell:
    """A running ``tests/e2e/manage_server.py`` with ``env``: ``manage.py`` commands without a process
    each (about 1.5 s of CPU apiece to start Django)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.popen = subprocess.Popen(
            [_bin("python"), str(Path(__file__).with_name("manage_server.py"))],
            cwd=BASE_DIR,
            env={**env, "PYTHONPATH": str(BASE_DIR)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, args: tuple[str, ...], timeout: float) -> subprocess.CompletedProcess[str]:
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.popen.stdin.write(json.dumps(list(args)) + "\n")
        self.popen.stdin.flush()
        ready, _, _ = select.select([self.popen.stdout], [], [], timeout)
        if not ready:
            self.close()
            raise AssertionError(f"manage.py {' '.join(args)} took more than {timeout:.0f} s")
        answer = json.loads(self.popen.stdout.readline() or '{"returncode": -1, "stdout": "", "stderr": "exited"}')
        return subprocess.CompletedProcess(
            ["manage.py", *args], answer["returncode"], answer["stdout"], answer["stderr"]
        )

    def close(self) -> None:
        if self.popen.poll() is None:
            assert self.popen.stdin is not None
            self.popen.stdin.close()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()


@dataclass
class LiveSite:
    """The running site: its URL, where its e-mail lands, and its processes (for logs)."""

    url: str
    mail_dir: Path
    database: str
    redis: bool
    procs: list[Proc] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # the servers' environment (DATABASE_URL, ...)
    shell: ManageShell | None = None  # where set, the commands run in it instead of a process each

    def manage(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``manage.py *args`` against this site's database (and broker); fails on a non-zero exit."""
        if self.shell is not None:
            done = self.shell.run(args, timeout)
        else:
            done = subprocess.run(
                [_bin("python"), "manage.py", *args],
                cwd=BASE_DIR,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        if done.returncode != 0:
            command = " ".join(args)
            raise AssertionError(f"manage.py {command} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def logs(self) -> str:
        return "\n".join(f"===== {p.name} (exit {p.popen.poll()}) =====\n{p.text()}" for p in self.procs)

    def check_alive(self) -> None:
        dead = [p for p in self.procs if p.popen.poll() is not None]
        if dead:
            raise AssertionError(f"{', '.join(p.name for p in dead)} exited\n{self.logs()}")

    # -- e-mail --------------------------------------------------------------------------------

    def messages_to(self, address: str) -> list[email.message.EmailMessage]:
        found = []
        for path in sorted(self.mail_dir.glob("*.log")):
            for chunk in re.split(rb"\n-{79}\n", path.read_bytes()):
                if not chunk.strip():
                    continue
                message = email.message_from_bytes(chunk.lstrip(b"\n"), policy=email.policy.default)
                if address.lower() in str(message.get("To", "")).lower():
                    found.append(message)
        return found

    def link_in_mail(self, address: str, pattern: str, timeout: float = 15.0) -> str:
        """The first URL matching ``pattern`` in an e-mail to ``address`` (waits for it to arrive)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            for message in self.messages_to(address):
                for part in message.walk():
                    if part.get_content_maintype() != "text":
                        continue
                    match = regex.search(part.get_content())
                    if match:
                        return match.group(0)
            if time.monotonic() > deadline:
                raise AssertionError(f"no e-mail to {address} with a link matching {pattern!r} in {self.mail_dir}")
            time.sleep(0.2)


def session_setup(username: str) -> str:
    """``manage.py shell`` code making the user ``username`` (at example.com), a 4-seat heist of theirs
    (an hour a decision) and a signed-in session of theirs; it prints the match's id and the session key
    last. For a test that talks to a site's server as that user without a browser's login."""
    return f"""
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils.module_loading import import_string
from games.play import services

user = get_user_model().objects.create_user({username!r}, {username + "@example.com"!r}, "a-long-secret-9")
match = services.do_create_match(user, "heist", 4, {{}}, 3600)
store = import_string(settings.SESSION_ENGINE + ".SessionStore")()
store[SESSION_KEY] = str(user.pk)
store[BACKEND_SESSION_KEY] = "games.web.auth.ProfileModelBackend"
store[HASH_SESSION_KEY] = user.get_session_auth_hash()
store.create()
print(match.pk, store.session_key)
"""


def _spawn(name: str, args: list[str], env: dict[str, str], tmp: Path) -> Proc:
    log = tmp / f"{name}.log"
    handle = log.open("wb")
    popen = subprocess.Popen(
        args,
        cwd=BASE_DIR,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=handle,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, stopped as one
    )
    handle.close()
    return Proc(name, popen, log)


def _wait_http(url: str, site: LiveSite, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        site.check_alive()
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except urllib.error.HTTPError as exc:
            if exc.code < 500:
                return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s\n{site.logs()}")


def _wait_log(proc: Proc, needle: str, site: LiveSite, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        site.check_alive()
        if needle in proc.text():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{proc.name} did not log {needle!r} within {timeout:.0f} s\n{site.logs()}")


def _site_env(database_url: str, port: int, mail_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "EMAIL_FILE_PATH": str(mail_dir),
            # Empty turns allauth's rate limits off (config/settings.py): runs may sign up many users.
            "ACCOUNT_RATE_LIMITS": "",
            # Hundreds of accounts made and signed in: the hash that costs nothing (config/settings.py).
            "PASSWORD_HASHERS": "django.contrib.auth.hashers.MD5PasswordHasher",
            "SITE_URL": f"http://127.0.0.1:{port}",
            "SECURE_SSL": "false",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if env.get("REDIS_URL"):
        env.pop("HIDEOUT_DEV_BEAT", None)
    else:
        env.pop("REDIS_URL", None)
        env.pop("CELERY_BROKER_URL", None)
        env["HIDEOUT_DEV_BEAT"] = "1"
    return env


@pytest.fixture(scope="package")
def live_site() -> Iterator[LiveSite]:
    _require_browser()
    tmp = Path(tempfile.mkdtemp(prefix="hideout-e2e-"))
    mail_dir = tmp / "mail"
    mail_dir.mkdir()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    redis_url = os.environ.get("REDIS_URL", "")
    broker: PrivateBroker | None = None
    database: E2EDatabase | None = None
    site = LiveSite(url=url, mail_dir=mail_dir, database="", redis=bool(redis_url))
    ok = False
    try:
        database = E2EDatabase(tmp)
        site.database = database.url
        env = _site_env(database.url, port, mail_dir)
        if redis_url and not os.environ.get("CELERY_BROKER_URL"):
            broker = PrivateBroker(redis_url)
            env["CELERY_BROKER_URL"] = broker.url
        site.env = env

        migrate_database(env)

        site.procs.append(
            _spawn("daphne", [_bin("daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env, tmp)
        )
        if redis_url:
            celery = _bin("celery")
            node = f"hideout-e2e-{secrets.token_hex(4)}@%h"
            worker_args = "-A config worker -P solo -l info --without-gossip --without-mingle --without-heartbeat"
            worker = _spawn("celery-worker", [celery, *worker_args.split(), "-n", node], env, tmp)
            site.procs.append(worker)
            beat_args = ["-A", "config", "beat", "-l", "info", "-s", str(tmp / "beat-schedule")]
            beat_args += ["--pidfile", str(tmp / "beat.pid")]
            site.procs.append(_spawn("celery-beat", [celery, *beat_args], env, tmp))
            _wait_log(worker, " ready.", site)
        _wait_http(url + "/", site)
        site.shell = ManageShell(env)
        ok = True
        yield site
        site.check_alive()
    finally:
        if site.shell is not None:
            site.shell.close()
        if not ok and site.procs:
            print(f"\n[e2e] the site did not start; logs:\n{site.logs()}", file=sys.stderr)
        for proc in reversed(site.procs):
            proc.stop()
        if broker is not None:
            broker.release()
        if database is not None:
            database.drop()
        if os.environ.get("HIDEOUT_E2E_KEEP") == "1":
            print(f"\n[e2e] kept {tmp} (server logs, e-mail)", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


# --- the browser -------------------------------------------------------------------------------


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Chromium, for the browser tests; closed after the last of them. Playwright's synchronous API
    runs an event loop on the main thread while it is open, and Django refuses database work where
    a loop runs: CI's second pass runs its database tests after these (``pytest_collection_modifyitems``)."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield _RecordingBrowser(chromium)
        finally:
            chromium.close()
    finally:
        playwright.stop()


# --- order ---------------------------------------------------------------------------------------


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In CI's second pass (``make test-backends``) the browser tests run first.

    CI runs its two passes at once, one core each, and a browser with its site needs more than one:
    two at once slow each other and starve a live game's page. The first pass runs its browser tests
    last, so these run first. pytest-django moves the tests that use no database (these) after those
    that do, so the order is set after its sort (``trylast``).
    """
    if os.environ.get("HIDEOUT_BACKENDS_PASS") != "1":
        return
    browser = [item for item in items if item.nodeid.startswith("tests/e2e/")]
    if browser:
        items[:] = browser + [item for item in items if not item.nodeid.startswith("tests/e2e/")]


# --- server logs and socket frames in failure reports ----------------------------------------

# The last socket frames of the running test's pages, each page numbered in the order it opened:
# a failure shows what its pages sent and were told (what a live game's page waited for, say).
_frames: deque[str] = deque(maxlen=400)
_pages_opened = 0
_test_started = 0.0


def _record_sockets(page: Any) -> None:
    global _pages_opened
    _pages_opened += 1
    number = _pages_opened

    def on_socket(socket: Any) -> None:
        def note(what: str, payload: Any) -> None:
            _frames.append(f"{time.monotonic() - _test_started:8.3f} page {number} {what} {str(payload)[:240]}")

        note("open", socket.url)
        socket.on("framesent", lambda payload: note("sent", payload))
        socket.on("framereceived", lambda payload: note("recv", payload))
        socket.on("close", lambda _socket: note("closed", socket.url))

    page.on("websocket", on_socket)


class _RecordingBrowser:
    """The browser, whose contexts' pages have their socket frames recorded."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.on("page", _record_sockets)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def pytest_runtest_setup(item: pytest.Item) -> None:
    global _pages_opened, _test_started
    _frames.clear()
    _pages_opened, _test_started = 0, time.monotonic()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and "live_site" in getattr(item, "fixturenames", ()):
        site = item.funcargs.get("live_site") if hasattr(item, "funcargs") else None
        if isinstance(site, LiveSite):
            report.sections.append(("hideout server logs", site.logs()))
    if report.failed and _frames:
        report.sections.append(("socket frames (seconds into the test)", "\n".join(_frames)))


AXE_DIR = Path(__file__).parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, installed from the npm registry into tests/e2e/axe on first use."""
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        done = (
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"], cwd=AXE_DIR, capture_output=True, text=True, timeout=300
            )
            if npm
            else None
        )
        if not AXE_JS.exists():
            why = "npm is not installed" if done is None else f"npm ci failed: {done.stderr.strip()[-300:]}"
            if _ci():
                pytest.fail(f"CI=true, so no skipping: axe-core unavailable ({why})", pytrace=False)
            pytest.skip(f"accessibility check skipped: axe-core unavailable ({why})")
    return AXE_JS.read_text(encoding="utf-8")
