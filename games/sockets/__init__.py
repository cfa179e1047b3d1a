"""The match WebSocket: consumers and their transport.

``consumers`` is the socket of ``/ws/match/<id>/`` (authenticate, listen, take moves and chat, send
each socket only what changed); ``livesocket`` what a live game's socket does besides; ``socket_turns``
serves a socket's messages one at a time; ``presence`` records which players have a page open;
``routing`` maps the URL to the consumer.
"""
