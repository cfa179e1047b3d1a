"""Players' ratings per game: openskill's Plackett–Luce model over finished, rated matches.

``scale`` is the model and how a rating is shown, ``rated`` which matches count and in what
order, ``record`` the update written in the transaction of the move that finishes a match, and
``recompute`` the same ratings worked out again from every finished match (the management
command ``recompute_ratings``). Imports: ``models`` only (and openskill).
"""
