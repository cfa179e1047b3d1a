from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from games import signals  # noqa: F401
        from games.background import followups
        from games.moderation import admin  # noqa: F401  (registers the models with the admin site)
        from games.runtime import template_fast_paths
        from games.web.sitename import sync_site

        template_fast_paths.install()
        followups.connect()  # the write path's automatic moves and timers go to Celery and this process

        post_migrate.connect(sync_site, sender=self)
