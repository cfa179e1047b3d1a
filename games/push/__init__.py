"""What a change sends: per-seat board fragments, shared fragments, live JSON events, and delivery.

``pushes`` renders each connected seat's fragments after a write and publishes them, handing the
messages to the channel layer from synchronous code; ``presenter`` builds what a seat sees (the
match page's context, its partials); ``fragment_memo`` and ``shell_memo`` keep rendered fragments
and board shells until what they show changes; ``speaking`` tracks the language being rendered.
"""
