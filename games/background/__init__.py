"""Work that runs outside a request: Celery tasks, time-outs, live timers, automatic moves.

``tasks`` are the Celery tasks (automatic steps, the deadline sweep, reminders); ``livetimers`` wakes
a live match on time; ``autoplay`` keeps automatic moves from being lost with a worker; ``devbeat`` stands
in for Celery beat on the embedded defaults; ``followups`` takes the work the write path hands over
(``games.play.followups``). This package calls the write path; the write path never imports it.
"""
