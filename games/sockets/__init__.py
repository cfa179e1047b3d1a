"""The match WebSocket: consumers and their transport.

``consumers`` is the socket of ``/ws/match/<id>/``, of the kind its match needs: ``base_consumer``
what every match socket does (authenticate, listen, count its presence, read frames, take chat),
``turn_consumer`` rendered boards sent as diffs and moves through the write path, ``live_consumer``
a live game's events and inputs (with ``livesocket``); ``frames`` what a socket has sent its client,
so that it sends only what changed. A socket's messages are served one at a time by
:mod:`games.runtime.channels_dispatch`; ``presence`` records which players have a page open;
``catch_up`` finds, in one query, which sockets missed something while Redis was away;
``routing`` maps the URL to the consumer.
"""
