"""HTTP goes to Django, /ws/ to the Channels consumers (authenticated by the session cookie)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import wscompress  # noqa: E402
from config.limits import HttpConcurrencyLimit  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

wscompress.install()  # pushes are HTML: deflate them for the phones
# What is loaded by now lives as long as the process: kept out of the collector's full passes,
# which otherwise walk it all and pause every socket of the process (~100 ms measured under load).
gc.freeze()
# A push allocates many short-lived objects: with the default thresholds (700, 10, 10) the
# collector ran about once per seat rendered and moved what was alive mid-render into the older
# generations, whose passes then cost more than a move. Fewer, larger young passes: in
# bench/move_cost.py the collector's time per move fell by ~45 % and the full passes went away.
gc.set_threshold(10_000, 20, 20)

application = ProtocolTypeRouter(
    {
        "http": HttpConcurrencyLimit(django_asgi_app, settings.HTTP_CONCURRENCY),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

if os.environ.get("HIDEOUT_DEV_BEAT") == "1" and settings.CELERY_TASK_ALWAYS_EAGER:
    from games import devbeat

    devbeat.start()
