"""Print a new VAPID key pair for browser push notifications (games.notify.webpush)."""

from typing import Any

from django.core.management.base import BaseCommand

from games.notify.webpush import new_key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair, as the lines to put in the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
