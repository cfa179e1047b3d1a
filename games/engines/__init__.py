"""Pure-Python game engines. Nothing here imports Django.

The public protocol lives in :mod:`games.engines.base`; the registry of games in
:mod:`games.engines.registry` (``get_rules(slug)``).
"""
