"""What reaches players away from the match page: e-mails (turn, low time, invitations, digest) and
browser pushes (``webpush``).

``send.notify`` is the one entry for e-mails: it checks the player's setting for the kind
(``preferences``) and whether they are away (``away``), then sends through ``emails`` (HTML and
text, in the player's language, with the one-click unsubscribe headers of ``unsubscribe``).
``waiting`` reads the decisions a player's matches wait on and their time left; ``digest`` and
``lowtime`` pick what the beat's sweeps send, each e-mail claimed once in ``claims`` before it goes.
``webpush`` sends the browser notifications (your turn, low time, invitations) to each device a
player turned on. The Celery tasks that call them stay thin in ``games.background``.
"""
