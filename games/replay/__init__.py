"""The replay of a match: its log read back step by step, each step's state, view, board and log
lines, as one seat saw them or with every secret shown. Read-only: nothing here writes a match.

- ``timeline``: a match's events with their actors and times, the decisions they group into, and
  states kept every few events so that any step is a short replay away (kept per process);
- ``steps``: what one step shows: the view a viewpoint may see, the board built by the game's own
  board package, and the log window up to the step.
"""
