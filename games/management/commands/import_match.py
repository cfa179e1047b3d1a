import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from games.play.archive import import_match


class Command(BaseCommand):
    help = "Load a match document written by export_match; seats go to the given e-mails (or 'bot')."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("players", nargs="+", help="one e-mail address (or 'bot') per seat, in seat order")
        parser.add_argument("--time-limit", type=int, default=None, help="seconds per decision (default: as stored)")

    def handle(self, *args: Any, **options: Any) -> None:
        with open(options["file"]) as handle:
            document = json.load(handle)
        users = [
            None if who == "bot" else get_user_model().objects.get(email__iexact=who) for who in options["players"]
        ]
        match = import_match(document, users, time_limit=options["time_limit"])
        self.stdout.write(f"match {match.pk} at version {match.version}: {match.get_absolute_url()}")
