"""HTTP goes to Django, /ws/ to the Channels consumers (authenticated by the session cookie)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.limits import HttpConcurrencyLimit  # noqa: E402
from games.runtime import gc_tuning, wscompress  # noqa: E402
from games.sockets.routing import websocket_urlpatterns  # noqa: E402

wscompress.install()  # pushes are HTML: deflate them for the phones
# What is loaded by now lives as long as the process: out of the collector's reach, and fewer,
# larger young passes for the short-lived objects of a push (games.runtime.gc_tuning).
gc_tuning.tune(settings.HIDEOUT_GC_TUNING)

application = ProtocolTypeRouter(
    {
        "http": HttpConcurrencyLimit(django_asgi_app, settings.HTTP_CONCURRENCY),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

if os.environ.get("HIDEOUT_DEV_BEAT") == "1" and settings.CELERY_TASK_ALWAYS_EAGER:
    from games.background import devbeat

    devbeat.start()
