from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import path

from games.sockets.consumers import MatchConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern

# channels routes ASGI consumers with Django's path(), which django-stubs types for views only
# (arg-type), returning the URLPattern that types-channels calls _ExtendedURLPattern (list-item).
websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),  # type: ignore[arg-type, list-item]
]
