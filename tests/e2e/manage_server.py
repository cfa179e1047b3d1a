"""One long-lived ``manage.py``: the commands a browser test runs against its site, one per line.

Each command is a JSON list of ``manage.py`` arguments on stdin; its answer is one JSON line on
stdout: ``{"returncode": …, "stdout": …, "stderr": …}``, as the command's own process would have
given them. A ``manage.py`` process costs about 1.5 s of CPU to start Django; the browser tests run
dozens of commands per session. The database connections are closed after every command, so each
one sees what the site wrote since. It exits when its stdin closes.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    from django.db import connections

    # The answers get a descriptor of their own; anything else written to stdout (a logging handler
    # holding the original stream, a C extension) goes to stderr instead of into an answer.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    django.setup()
    for line in sys.stdin:
        args = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        returncode = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                call_command(*args)
            except SystemExit as exit_:
                returncode = exit_.code if isinstance(exit_.code, int) else 1
            except Exception:
                traceback.print_exc()
                returncode = 1
            finally:
                connections.close_all()
        answers.write(json.dumps({"returncode": returncode, "stdout": out.getvalue(), "stderr": err.getvalue()}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
