"""The write path: the one place a match changes.

``services`` holds the ``do_*`` functions, the only writers of matches, seats, events and chat;
``payloads`` reads a move the same way from a form POST or a socket message; ``store`` loads a
match's engine state (snapshot + events, version-checked cache); ``guarded`` writes a move in one
statement on PostgreSQL; ``writers`` are the threads that write moves sent over sockets;
``seat_rows`` reads a match's seats in one query; ``archive`` turns a match into a JSON document and
back; ``clock`` is the server's clock; ``bounded_cache`` and ``render_ahead`` are the per-process
caches and the renders held until a write confirms them; ``latency_trace`` marks a move's stages
for the load benchmark.
"""
