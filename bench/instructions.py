"""Instructions per move, counted by valgrind's callgrind: a cost that a slow or busy machine does not change.

Timed runs of ``move_cost.py`` drift with the machine (its speed differed fourfold between days
of issue 8, and run to run by ±5 %), which hides changes of a few per cent. This script runs
``move_cost.py`` twice under callgrind (four tables, the same 40 warm-up moves), with ``--few`` and
with ``--many`` measured moves, side by side on two cores, and prints

    (instructions of the longer run − instructions of the shorter) / (many − few)

the instructions of a move with set-up, migrations and warm-up taken out. The count is the whole
process's: the benchmark's fake sockets and SQLite are in it (with ``--db pg``, PostgreSQL's own
work is another process's and is not). So is the benchmark's own choice of
each move (``move_cost.harness``: it reads the match row and rebuilds the state twice a move), which
grows with the row. ``--server`` runs the pair again counting that choice alone (callgrind's
``--toggle-collect`` on ``operator.call``, which only the harness calls) and prints the server's
part, the rest: what ``move_cost.py`` times. Compare checkouts by running each one's copy (see
README.md). About 5 minutes, 10 with ``--server`` (callgrind runs Python some 50 times slower).

    .venv/bin/python bench/instructions.py --game bridge_race
    .venv/bin/python bench/instructions.py --game heist --live --server
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, log, table


def count(
    game: str, moves: int, live: bool, out_dir: Path, harness: bool = False, db: str = "sqlite"
) -> subprocess.Popen[bytes]:
    """A callgrind run of ``moves`` measured moves; ``harness``: counting only the benchmark's choice
    of moves (its ``operator.call``), not the server's work."""
    out = out_dir / f"callgrind.{moves}{'.harness' if harness else ''}.out"
    only_harness = ["--collect-atstart=no", "--toggle-collect=_operator_call"] if harness else []
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        *only_harness,
        sys.executable,
        str(ROOT / "bench" / "move_cost.py"),
        "--game",
        game,
        "--moves",
        str(moves),
        "--tables",
        "4",
        "--db",
        db,
        "--no-stages",  # the stage clock's own instructions are not the server's
        *(["--live"] if live else []),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def total(out: Path) -> int:
    found = re.search(r"^totals:\s+(\d+)", out.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"callgrind wrote no totals in {out}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["heist", "bridge_race"], default="bridge_race")
    parser.add_argument("--live", action="store_true", help="as move_cost.py --live: moves pushed as JSON events")
    parser.add_argument("--few", type=int, default=40)
    parser.add_argument("--many", type=int, default=140)
    parser.add_argument("--server", action="store_true", help="also count the benchmark's own part, and print the rest")
    parser.add_argument(
        "--db", choices=["sqlite", "pg"], default="sqlite", help="pg: this process's part only, not PostgreSQL's"
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.many <= args.few:
        raise SystemExit("--many must be more than --few")
    with tempfile.TemporaryDirectory(prefix="hideout-callgrind-") as tmp:
        out_dir = Path(tmp)
        live = " --live" if args.live else ""
        log(f"callgrind: move_cost.py --game {args.game}{live} --db {args.db}, {args.few} and {args.many} moves")
        moves_of = (args.few, args.many)
        totals = _counted(args, out_dir, moves_of, harness=False)
        per_move = (totals[args.many] - totals[args.few]) / (args.many - args.few)
        rows = [[f"{moves} moves (after 40 warm-up)", f"{totals[moves] / 1e9:,.3f} G"] for moves in moves_of]
        rows.append(["per move", f"{per_move / 1e6:,.2f} M"])
        if args.server:
            chosen = _counted(args, out_dir, moves_of, harness=True)
            harness_per_move = (chosen[args.many] - chosen[args.few]) / (args.many - args.few)
            if harness_per_move <= 0:
                raise SystemExit("callgrind counted nothing in operator.call: is this Python built without symbols?")
            rows.append(["  of which the benchmark's choice of moves", f"{harness_per_move / 1e6:,.2f} M"])
            rows.append(["  the server's part", f"{(per_move - harness_per_move) / 1e6:,.2f} M"])
    print(table(["instructions (callgrind)", ""], rows, title=f"instructions per move: {args.game}"))


def _counted(args: argparse.Namespace, out_dir: Path, moves_of: tuple[int, int], *, harness: bool) -> dict[int, int]:
    """The two runs' totals, side by side on two cores."""
    runs = {moves: count(args.game, moves, args.live, out_dir, harness, args.db) for moves in moves_of}
    for moves, run in runs.items():
        if run.wait() != 0:
            raise SystemExit(f"the run of {moves} moves failed (exit {run.returncode})")
    suffix = ".harness" if harness else ""
    return {moves: total(out_dir / f"callgrind.{moves}{suffix}.out") for moves in runs}


if __name__ == "__main__":
    main()
