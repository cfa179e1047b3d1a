"""Where a server process spends its Python time, by layer: a py-spy sampling of the process.

``py-spy record --gil`` samples only the thread holding the interpreter lock, so the samples are
the process's Python work (waits for the database or the network do not hold the lock). Each
sample counts for the layer (library) its innermost frame belongs to: the time spent in that
layer's own code, not in what it calls.

py-spy is not in requirements.txt (the site does not need it): ``.venv/bin/pip install py-spy``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from _common import table

# (layer, path fragments of its code). A sample counts for the layer of its innermost frame that
# belongs to one of them (the standard library counts for whoever called it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Hideout's own code (games/, config/)", ("games/", "config/")),
    ("Django templates", ("django/template", "template_partials/")),
    ("Django ORM", ("django/db/",)),
    ("Django translation", ("django/utils/translation",)),
    (
        "Django request handling, middleware, other Django",
        ("django/", "allauth/", "axes/", "django_htmx/", "whitenoise/"),
    ),
    ("database driver (psycopg, pool)", ("psycopg",)),
    ("channel layer (channels_redis, redis, msgpack)", ("channels_redis/", "redis/", "msgpack")),
    ("Channels (consumers, routing, auth)", ("channels/",)),
    ("asgiref: sync/async thread hops, locals", ("asgiref/",)),
    ("daphne + Twisted + autobahn: HTTP and WebSocket", ("daphne/", "twisted/", "autobahn/")),
    ("asyncio event loop, threads", ("asyncio/", "threading.py", "concurrent/")),
)


def py_spy() -> str | None:
    here = Path(sys.executable).parent / "py-spy"
    return str(here) if here.exists() else shutil.which("py-spy")


def start(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """Start sampling ``pid`` for ``seconds`` into ``out``; None (and a line saying why) without py-spy."""
    exe = py_spy()
    if exe is None:
        print("  (--spy: py-spy is not installed; .venv/bin/pip install py-spy)")
        return None
    cmd = [
        exe,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, int(seconds))),
        "--rate",
        "200",
        "--gil",
        "--format",
        "raw",
        "--output",
        str(out),
        "--nonblocking",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def layers(raw: str) -> tuple[Counter[str], int]:
    """Samples per layer in py-spy's raw (collapsed stacks) output, and the total."""
    counts: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        total += int(n)
        counts[_layer_of(stack.split(";"))] += int(n)
    return counts, total


def _layer_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        where = frame.rpartition("(")[2]
        for name, parts in LAYERS:
            if any(part in where for part in parts):
                return name
    return "other (standard library)"


def report(proc: subprocess.Popen[bytes] | None, out: Path, title: str) -> None:
    if proc is None:
        return
    _, err = proc.communicate()
    if proc.returncode != 0 or not out.exists():
        print(f"  (--spy: py-spy failed: {err.decode(errors='replace').strip()[:300]})")
        return
    counts, total = layers(out.read_text())
    if not total:
        print("  (--spy: no samples)")
        return
    names = [name for name, _ in LAYERS] + ["other (standard library)"]
    rows = [[name, counts[name], 100.0 * counts[name] / total] for name in names if counts[name]]
    print(table(["layer (whose own code was running)", "samples", "% of Python time"], rows, title=title))
