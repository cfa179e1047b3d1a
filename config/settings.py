"""Settings from the environment (12-factor).

With nothing set, the site runs on the embedded defaults: SQLite, the in-memory channel layer,
Celery in eager mode and the console e-mail backend. ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL, the Redis channel layer and a real Celery broker.
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

from config.deployment import caches_for, redis_prefix, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = secret_key(
    env.str("SECRET_KEY", default=""),
    debug=DEBUG,
    local=env.bool("HIDEOUT_LOCAL_KEY", default=False),
    local_path=Path(env.str("SECRET_KEY_FILE", default=str(BASE_DIR / ".secret_key"))),
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "axes",
    "games",
]

MIDDLEWARE = [
    "games.web.clientip.trusted_proxy_middleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last on purpose: it is synchronous only, so under ASGI every middleware above runs in one
    # worker thread, instead of hopping between the event loop and threads once per middleware.
    "games.web.middleware.UserLanguageMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # Each game's own template library lives in its board package (games/boards/<game>/tags.py).
            "libraries": {
                "bridge_race": "games.boards.bridge_race.tags",
                "heist": "games.boards.heist.tags",
            },
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (daphne, a worker) may share the file: wait for the lock, don't fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    # A file, not memory, so that the tests' real Celery worker process can share it.
    DATABASES["default"]["TEST"] = {
        "NAME": env.str("TEST_SQLITE_PATH", default=str(Path(tempfile.gettempdir()) / f"hideout-test-{os.getpid()}.db"))
    }
elif env.bool("DB_POOL", default=True):
    # Daphne runs each request in a thread of its own, so per-thread persistent connections would
    # pile up; a pool per process shares a few connections instead.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=1),
        # HTTP_CONCURRENCY requests, the SOCKET_WRITER_THREADS that keep theirs (games.play.writers),
        # and the sockets' own database thread.
        "max_size": env.int("DB_POOL_MAX", default=12),
        "timeout": env.int("DB_POOL_TIMEOUT", default=20),
    }
    # With a pool this makes Django pass psycopg_pool's check_connection: each connection is tested
    # as it is handed out (one round trip), so after a restart or failover of PostgreSQL the dead
    # ones are dropped and replaced instead of costing a 500 each.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The move's guarded statement (games.play.guarded) is the one prepared statement the site sends
    # (Django's own queries are bound on the client and never prepared, whatever these say). Planned
    # anew for each move it cost PostgreSQL more than running it (0.39 vs 0.22 ms a move); its
    # generic plan is the same index lookups. Django turns preparing off by default for the sake of
    # PgBouncer's transaction mode, which this deployment does not use (psycopg_pool is in-process).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 5
    DATABASES["default"]["OPTIONS"]["options"] = "-c plan_cache_mode=force_generic_plan"

# HTTP requests one server process works on at once (each holds a thread and a database
# connection); keep it at most DB_POOL_MAX - SOCKET_WRITER_THREADS - 1 (see the pool). The rest wait
# their turn in the event loop.
HTTP_CONCURRENCY = env.int("HTTP_CONCURRENCY", default=8)
# Threads of a server process that write the moves sent over its sockets, each with a kept database
# connection (games.play.writers): 1 gives a lightly loaded machine's moves their opponents sooner, 3 a
# saturated machine more moves a second (docs/decisions/0014-writer-threads.md).
SOCKET_WRITER_THREADS = env.int("SOCKET_WRITER_THREADS", default=3)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# Redis pub/sub ignores the DB number, so deployments sharing a Redis server (staging and
# production) are kept apart by this prefix; by default it follows the DB number of REDIS_URL.
CHANNEL_LAYER_PREFIX = env.str("CHANNEL_LAYER_PREFIX", default="") or redis_prefix(REDIS_URL)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.runtime.channel_layer.SharedDecodeChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.runtime.channel_layer.LoopInMemoryChannelLayer"}}
CACHES = caches_for(REDIS_URL)

# Celery: eager (in-process) unless a broker is configured.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://localhost/")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Processes that share a broker but not a database (the worker tests, a second site) keep apart by it.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.background.tasks.sweep_deadlines", "schedule": timedelta(seconds=2)},
    "sweep-reminders": {"task": "games.background.tasks.sweep_reminders", "schedule": timedelta(seconds=60)},
    "sweep-presence": {"task": "games.background.tasks.sweep_presence", "schedule": timedelta(seconds=30)},
    "sweep-low-time": {"task": "games.background.tasks.sweep_low_time", "schedule": timedelta(seconds=60)},
    # A digest goes in the first sweep of its period that finds a match waiting: within 5 minutes.
    "sweep-digests": {"task": "games.background.tasks.sweep_digests", "schedule": timedelta(minutes=5)},
    # A finished match's replay index (its first replay reads a few rows instead of its whole log).
    "sweep-replay-indexes": {"task": "games.background.tasks.sweep_replay_indexes", "schedule": timedelta(seconds=60)},
}

# A player with no open socket this long after their turn began gets one e-mail.
REMINDER_AFTER = timedelta(seconds=env.int("REMINDER_AFTER_SECONDS", default=15 * 60))

# Browser push notifications (Web Push, games.notify.webpush): off unless both VAPID keys are set
# (`manage.py vapid_keys` prints a new pair). The subject tells push services whom to contact.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")
if VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY:  # "your turn" pushes: games.background.tasks.sweep_turn_pushes
    CELERY_BEAT_SCHEDULE["sweep-turn-pushes"] = {
        "task": "games.background.tasks.sweep_turn_pushes",
        "schedule": timedelta(seconds=3),
    }
# A "your turn" push goes only for a turn begun less than this long ago (a worker that was down does
# not wake players for turns long over).
WEBPUSH_TURN_WINDOW = timedelta(seconds=env.int("WEBPUSH_TURN_WINDOW_SECONDS", default=10 * 60))
# The push services a browser's subscription may point at (host names, a leading dot for any
# subdomain): the server posts to the endpoint a browser gives, so it must not be any address.
WEBPUSH_ENDPOINT_HOSTS = env.list(
    "WEBPUSH_ENDPOINT_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        ".push.services.mozilla.com",
        ".notify.windows.com",
        "web.push.apple.com",
    ],
)
# Devices one player may have notifications on at once; the oldest goes when a new one is added.
WEBPUSH_MAX_DEVICES = 10

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# PASSWORD_HASHERS (dotted paths, comma-separated) replaces Django's list: a deployment may put Argon2
# first; the browser-test stacks name the MD5 hasher, as Django advises for tests (a PBKDF2 hash costs
# about 0.3 s of CPU per account made and per log-in).
if env.str("PASSWORD_HASHERS", default="").strip():
    PASSWORD_HASHERS = [path.strip() for path in env.str("PASSWORD_HASHERS").split(",") if path.strip()]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "games.web.auth.ProfileModelBackend",
    "games.web.auth.ProfileAllauthBackend",
    # Sessions signed in before the two above existed name these; they stay valid.
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# Sessions are read from the cache (Redis when configured) and written through to the database;
# while the cache fails, the database alone serves them (games.web.sessions).
SESSION_ENGINE = "games.web.sessions"

SITE_ID = 1
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USER_MODEL_USERNAME_FIELD = "username"
# allauth's own rate limits stay on; ACCOUNT_RATE_LIMITS=off (or empty) turns them off for test stacks.
# Failed log-ins are counted per address + account (games.runtime.allauth_login_attempts), the account first so that a
# refused attempt does not also use up the address's budget that others behind it share.
ACCOUNT_ADAPTER = "games.runtime.allauth_login_attempts.AccountAdapter"
ACCOUNT_RATE_LIMITS: dict[str, str] | bool = {"login_failed": "5/300s/key,30/m/ip"}
if env.str("ACCOUNT_RATE_LIMITS", default="on").strip().lower() in ("", "off", "0", "false"):
    ACCOUNT_RATE_LIMITS = False
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby"
ACCOUNT_LOGOUT_REDIRECT_URL = "lobby"

# Axes guards the admin login (allauth guards its own forms): failures there only, per account
# and address together, forgotten after the cool-off.
AXES_FAILURE_LIMIT = 10
AXES_ONLY_ADMIN_SITE = True
AXES_HANDLER = "games.web.auth.AdminLoginAxesHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_CLIENT_IP_CALLABLE = "games.web.clientip.client_ip"

# Addresses (or networks) of the reverse proxies whose client-address header is believed.
TRUSTED_PROXIES = tuple(env.list("TRUSTED_PROXIES", default=[]))
PROXY_CLIENT_HEADER = env.str("PROXY_CLIENT_HEADER", default="X-Forwarded-For")
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
if env.str("EMAIL_FILE_PATH", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Hideout <noreply@hideout.local>")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hant", _("Traditional Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

SECURE_SSL = env.bool("SECURE_SSL", default=False)
if SECURE_SSL:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Scripts and styles from our own files only. Inline style attributes stay allowed (style-src-attr)
# for the per-player colours the bridge_race board sets with style="--car:…"; scripts never inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Hideout's own switches, each defined here even at its default: Django's settings keep what they
# found, but a setting read with getattr(settings, name, default) that is not defined costs an
# exception on every read, and a push reads the first of these once per panel it reuses.
HIDEOUT_CHECK_FRAGMENT_INPUTS = False  # the tests turn it on: games.push.fragment_memo, games.push.shell_memo
HIDEOUT_GUARDED_WRITE = True  # on PostgreSQL, a move is written by one statement: games.play.guarded
HIDEOUT_LIVE_TIMERS = True  # a live game's countdowns fire in this process: games.background.livetimers
HIDEOUT_GC_TUNING = env.bool("HIDEOUT_GC_TUNING", default=True)  # games.runtime.gc_tuning

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
