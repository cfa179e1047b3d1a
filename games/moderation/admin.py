"""Moderators' tools. Every action on a match goes through the services, so it leaves events."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.models import (
    ChatMessage,
    Match,
    MatchEvent,
    Profile,
    PushSubscription,
    Rating,
    RatingChange,
    Seat,
    Vacation,
)
from games.moderation.event_log import EventLogMixin
from games.moderation.reveal import RevealForModerationMixin, is_running
from games.moderation.users import ModeratedUserAdmin
from games.play import services, vacations
from games.play.errors import ServiceError
from games.play.store import rules_for
from games.push.presenter import option_rows, seat_names

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "is_bot", "resigned", "waiting_since", "open_sockets")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameFilter(admin.SimpleListFilter):
    """The matches of one game, by the game's name."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        games = Match.objects.order_by().values_list("game", flat=True).distinct()
        return sorted(((slug, Match(game=slug).game_name) for slug in games), key=lambda pair: pair[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        return queryset.filter(game=self.value()) if self.value() else queryset


class ActionsOnlyAdmin(admin.ModelAdmin):
    """Rows the site makes and moderators change only through its actions, each a service call per
    row, so that it leaves events: none is added here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def act_on_each(
        self, request: HttpRequest, queryset: QuerySet[Any], act: Callable[[Any], object], done: StrOrPromise
    ) -> None:
        """``act`` on every selected row, then tell how many: ``done`` with ``%(n)s``."""
        for row in queryset:
            act(row)
        self.message_user(request, done % {"n": queryset.count()})


@admin.register(Match)
class MatchAdmin(EventLogMixin, RevealForModerationMixin, ActionsOnlyAdmin):
    list_display = ("id", "game_label", "players", "status", "time_limit", "next_deadline", "created_at")
    list_filter = (GameFilter, "status")
    search_fields = ("id", "host__email")
    # Moderators read; nothing of a match is edited here (its changes go through the actions).
    fields = (
        "game_label",
        "players",
        "status",
        "host",
        "seat_count",
        "options_shown",
        "time_limit",
        "invite_code",
        "next_deadline",
        "outcome",
        "created_at",
        "started_at",
        "finished_at",
        "version",
        "chat_version",
        "revision",
        "reveal_link",
        "event_log",
    )
    readonly_fields = fields
    inlines = [SeatInline]
    actions = ["abort_matches", "force_timeouts"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).prefetch_related("seats__user__profile")

    @admin.display(description=_("game"), ordering="game")
    def game_label(self, obj: Match) -> str:
        return obj.game_name

    @admin.display(description=_("players"))
    def players(self, obj: Match) -> str:
        return ", ".join(name for _number, name in sorted(seat_names(obj).items()))

    @admin.display(description=_("options"))
    def options_shown(self, obj: Match) -> SafeString:
        try:
            rows = option_rows(obj, rules_for(obj))
        except KeyError:  # a game no longer on the site
            return format_html_join("", "<div>{}: {}</div>", sorted(obj.options.items()))
        return format_html_join("", "<div>{}: {}</div>", ((row["label"], row["value"]) for row in rows))

    @admin.action(description=_("Abort the selected matches"), permissions=["change"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self.act_on_each(
            request, queryset, lambda match: services.do_abort_match(match.pk), _("Aborted %(n)s matches.")
        )

    @admin.action(description=_("Apply the current time-out now"), permissions=["change"])
    def force_timeouts(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            try:
                services.do_force_timeout(match.pk)
            except services.ServiceError as exc:
                self.message_user(request, f"#{match.pk}: {exc.message}", level=messages.WARNING)
            else:
                self.message_user(request, _("Time-out applied in match #%(id)s.") % {"id": match.pk})


@admin.register(Seat)
class SeatAdmin(ActionsOnlyAdmin):
    list_display = ("match", "number", "user", "is_bot", "resigned", "waiting_since")
    list_filter = ("is_bot", "resigned", "match__game")
    readonly_fields = ("match", "number", "user", "is_bot", "resigned", "waiting_since", "reminded_at")
    actions = ["replace_with_bot"]

    @admin.action(description=_("Replace the selected players with bots"), permissions=["change"])
    def replace_with_bot(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        self.act_on_each(
            request,
            queryset,
            lambda seat: services.do_replace_with_bot(seat.match_id, seat.number),
            _("Replaced %(n)s players with bots."),
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the site writes and moderators only read: the event log, derived rows (ratings,
    recomputable with ``manage.py recompute_ratings``), a player's own choices."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "actor", "type", "created_at")
    list_filter = ("type", "match__game")
    readonly_fields = ("match", "seq", "actor", "type", "data", "secret", "visible_to", "created_at")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A running match's secrets only through the logged "reveal for moderation" view.
        # The raw JSON of a running match's events neither: its readable line is on the match page.
        fields = list(self.readonly_fields)
        if obj is not None and is_running(obj.match):
            fields.remove("secret")
            fields.remove("data")
        return fields


@admin.register(ChatMessage)
class ChatMessageAdmin(ActionsOnlyAdmin):
    list_display = ("match", "seat", "to_seat", "text", "hidden", "created_at")
    list_filter = ("hidden",)
    search_fields = ("text",)
    readonly_fields = ("match", "seat", "to_seat", "text", "hidden", "created_at")
    actions = ["hide_messages"]

    @admin.action(description=_("Hide the selected messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        self.act_on_each(request, queryset, lambda message: services.do_hide_chat(message.pk), _("Hid %(n)s messages."))


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "email_reminders", "turn_sound", "turn_notification")
    search_fields = ("user__email", "display_name")


@admin.register(Vacation)
class VacationAdmin(ReadOnlyAdmin):
    list_display = ("user", "starts_at", "ends_at", "days")
    search_fields = ("user__username", "user__email")
    date_hierarchy = "starts_at"
    actions = ["end_now"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Django's own check (the change permission), for the action alone: every field is read-only.
        return admin.ModelAdmin.has_change_permission(self, request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("user", "starts_at", "ends_at", "days", "created_at")

    @admin.action(description=_("End the selected vacations now"), permissions=["change"])
    def end_now(self, request: HttpRequest, queryset: QuerySet[Vacation]) -> None:
        ended = 0
        for vacation in queryset.select_related("user"):
            try:
                vacations.end(vacation.user)  # the clocks that waited on the player run again
            except ServiceError:
                continue  # already over
            ended += 1
        self.message_user(request, _("Ended %(n)s vacations.") % {"n": ended})


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "ordinal", "mu", "sigma", "matches", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__email")
    ordering = ("game", "-ordinal")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "seat", "game", "mu_before", "mu_after")
    list_filter = ("game",)
    search_fields = ("user__username",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    """A device's push subscription: who and when, never its keys. A moderator may delete one (the
    device stops getting notifications until its player turns them on again)."""

    list_display = ("user", "push_service", "created_at", "last_used")
    search_fields = ("user__username", "user__email")
    fields = ("user", "push_service", "created_at", "last_used")
    readonly_fields = fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)  # Django's own check

    @admin.display(description=_("push service"))
    def push_service(self, obj: PushSubscription) -> str:
        return urlsplit(obj.endpoint).hostname or ""


User = get_user_model()
admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)
