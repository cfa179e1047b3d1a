"""Work every rating out again from the finished matches; ``--check`` compares without writing."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ratings.recompute import differences, recompute, store


class Command(BaseCommand):
    help = (
        "Recompute every player's rating from the finished matches and store it (run it with no match "
        "finishing meanwhile); with --check, only say where the stored ratings differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="compare with the stored ratings, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        recomputed = recompute()
        if options["check"]:
            found = differences(recomputed)
            for line in found[:50]:
                self.stdout.write(line)
            if found:
                raise CommandError(f"{len(found)} differences between the stored and the recomputed ratings")
            self.stdout.write(f"The stored ratings equal the recomputed ones ({len(recomputed.ratings)} ratings).")
            return
        store(recomputed)
        self.stdout.write(f"Stored {len(recomputed.ratings)} ratings from {len(recomputed.changes)} results.")
