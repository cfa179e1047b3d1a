import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.models import Match
from games.play.archive import export_match


class Command(BaseCommand):
    help = "Write a match (options, seed, event log) as JSON, to load it again with import_match."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(json.dumps(export_match(Match.objects.get(pk=options["match_id"])), indent=1))
