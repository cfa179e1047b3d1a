"""The write path: the one place a match changes.

``services`` holds the ``do_*`` functions, the only writers of matches, seats, events and chat;
``decision`` decides a move (the checks, the engine, the new state's changes) and ``write_paths``
writes it, by one ``guarded`` statement on PostgreSQL or under the row lock; ``followups`` is what a
committed change sets going (pushes, timers, automatic moves), through the background's interface;
``errors`` are the refusals; ``payloads`` reads a move the same way from a form POST or a socket
message; ``store`` loads a match's engine state (snapshot + events, version-checked cache);
``writers`` are the threads that write moves sent over sockets; ``seat_rows`` reads a match's seats
in one query; ``archive`` turns a match into a JSON document and back; ``clock`` is the server's
clock; ``clock_policy`` moves an engine's due time for a vacation or a time bank, and ``vacations``
starts and ends a player's absences; ``bounded_cache`` and ``render_ahead`` are the per-process
caches and the renders held until a write confirms them; ``latency_trace`` marks a move's stages for the load benchmark.
"""
