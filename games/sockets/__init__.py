"""The match WebSocket: consumers and their transport.

``consumers`` is the socket of ``/ws/match/<id>/`` (authenticate, listen, take moves and chat, send
each socket only what changed); ``livesocket`` what a live game's socket does besides; ``presence``
records which players have a page open; ``routing`` maps the URL to the consumer. A socket's messages
are served one at a time by :mod:`games.runtime.channels_dispatch`.
"""
