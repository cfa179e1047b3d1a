"""The Django admin as moderators use it. Every action on a match calls the ``play`` services.

``admin`` registers the models; ``event_log`` shows a match's events as sentences; ``reveal`` keeps
hidden information out of sight while a match runs; ``users`` (de)activates players.
"""
