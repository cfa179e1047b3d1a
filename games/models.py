"""Matches persist as an event log (MatchEvent) replayed into engine state."""

from __future__ import annotations

import secrets
from functools import cache
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engines.base import Event


def new_seed() -> str:
    return secrets.token_hex(16)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, default="en")
    # What reaches a player away from the match page (games.notify), one setting per kind of e-mail.
    email_reminders = models.BooleanField(_("e-mail me when it is my turn"), default=True)
    email_digest = models.CharField(
        _("digest of the matches waiting for me"),
        max_length=8,
        choices=[
            ("off", _("No digest")),
            ("hourly", _("At most one e-mail an hour")),
            ("daily", _("At most one e-mail a day")),
        ],
        default="off",
    )
    email_low_time = models.BooleanField(_("e-mail me when my time is running out"), default=True)
    email_invitations = models.BooleanField(_("e-mail me invitations to matches and rematches"), default=True)
    # Issue 10, item 6: signals on an open match page, off by default.
    turn_sound = models.BooleanField(_("play a sound when it becomes my turn"), default=False)
    turn_notification = models.BooleanField(
        _("show a browser notification when it becomes my turn and the page is in the background"), default=False
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return player_name(self.user, self.display_name)


def player_name(user: Any, display_name: str) -> str:
    """What a player is called: the name they chose, else their email's first part, else their username."""
    return display_name or user.email.split("@")[0] or user.get_username()


class MatchQuerySet(models.QuerySet["Match"]):
    def without_snapshot(self) -> MatchQuerySet:
        """The rows with every column but ``snapshot`` (a state's whole JSON, read only to rebuild a
        state). As ``only()`` of the other fields by name: ``defer("snapshot")`` makes Django walk
        every field and reverse relation of the model on each query (a tenth of a match row's read)."""
        return self.only(*_fields_but_snapshot())


@cache
def _fields_but_snapshot() -> tuple[str, ...]:
    return tuple(field.name for field in Match._meta.concrete_fields if field.name != "snapshot")


class Match(models.Model):
    objects = MatchQuerySet.as_manager()

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    game = models.CharField(_("game"), max_length=32, db_index=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.LOBBY, db_index=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_matches")
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    time_limit = models.PositiveIntegerField(_("time limit (seconds)"), default=60)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    version = models.PositiveIntegerField(default=0)
    chat_version = models.PositiveIntegerField(default=0)
    # Rises with every change a page shows (moves, seats joining, an abort); pages and sockets
    # compare it to know whether what they show is current. ``version`` counts events only.
    revision = models.PositiveIntegerField(default=0)
    # The writes whose every event was private (T-18, H-2: the thief's placement, the auto-escape
    # flag), as [revision, [seats told]]: the other viewers are shown a revision that skips them
    # (games.push.presenter.shown_revision), so that such a write moves nothing they see.
    quiet_writes = models.JSONField(default=list, blank=True, editable=False)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(default=0, editable=False)
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Denormalised from the seats so that a move needs no extra queries: bot seat numbers, and
    # for each seat the game waits on, a key naming the decision ({"0": "planning:1700000000.0"}).
    bot_seats = models.JSONField(default=list, blank=True, editable=False)
    waiting = models.JSONField(default=dict, blank=True, editable=False)
    outcome = models.JSONField(null=True, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of", editable=False
    )
    # Who ended it before the end: its host, cancelling it while it waited for players (else a moderator).
    cancelled_by_host = models.BooleanField(default=False, editable=False)
    # The platform's side of the clocks (games.play.clock_policy): a time bank's settings and each
    # seat's reserve, and the time credited to a decision while its player is on vacation. Empty for
    # a match with neither, which is then timed by its engine's deadlines alone.
    clock = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def game_name(self) -> str:
        """The game's name in the reader's language ("Bridge Race", not its slug)."""
        from django.utils.translation import gettext

        from games.engines.registry import get_rules

        try:
            return gettext(get_rules(self.game).name)
        except KeyError:
            return self.game

    def invite_url(self) -> str:
        return reverse("match_invite", args=[self.invite_code])

    @property
    def is_live(self) -> bool:
        return self.time_limit < 24 * 3600


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    resigned = models.BooleanField(_("resigned"), default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    waiting_key = models.CharField(max_length=80, blank=True, default="", editable=False)
    waiting_since = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    open_sockets = models.IntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    # When this turn's "your turn" browser push was claimed; earlier than ``waiting_since``: not yet
    # for this turn (games.background.tasks.sweep_turn_pushes; the write path never touches it).
    turn_pushed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A bot keeps the name it had in the lobby ("Bot 2") after the seats are shuffled at the start.
    bot_number = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.number + 1}: {self.display_name}"

    @property
    def display_name(self) -> str:
        if self.is_bot:
            return str(_("Bot %(n)s") % {"n": self.bot_number or self.number + 1})
        if self.user is None:
            return str(_("Empty seat"))
        # From the user, not through profile.user: the seats' profiles do not point back (games.play.seat_rows).
        profile = getattr(self.user, "profile", None)
        return player_name(self.user, profile.display_name) if profile else self.user.get_username()


class RematchInvite(models.Model):
    """A former player asked to a rematch (issue 54, item 9): seated only on accepting.

    ``number`` is the lobby seat kept for them while the answer is awaited (the rematch's options
    that name a seat were written for it); a declined invitation frees it and stays for the host to see.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematch_invites")
    number = models.PositiveSmallIntegerField(_("seat"))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rematch invitation")
        verbose_name_plural = _("rematch invitations")
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_invite_per_user")]

    def __str__(self) -> str:
        return f"{self.match} invite {self.user_id}: {self.status}"

    @property
    def display_name(self) -> str:
        profile = getattr(self.user, "profile", None)
        return player_name(self.user, profile.display_name) if profile else self.user.get_username()


class PushSubscription(models.Model):
    """One browser's permission to be sent Web Push notifications for its signed-in player.

    Made from the profile page of that browser (per device); deleted when the player turns it off
    there or the push service answers that it is gone (games.notify.webpush).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} · {self.endpoint[:40]}"


class MatchEvent(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    actor = models.SmallIntegerField(help_text="seat number, or -1 for the server")
    type = models.CharField(max_length=48)
    data = models.JSONField(default=dict)
    secret = models.JSONField(null=True, blank=True)
    visible_to = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.type}"

    def to_event(self) -> Event:
        return Event(type=self.type, data=self.data, secret=self.secret, visible_to=tuple(self.visible_to))


class ActionReceipt(models.Model):
    """The answer to an action, kept so that a resubmitted idempotency key is answered, not re-applied."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="receipts")
    seat = models.SmallIntegerField()
    key = models.CharField(max_length=64)
    action = models.CharField(max_length=40, blank=True, default="", help_text="digest of the action sent")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # A key is the seat's own: another seat's reuse of it is a different action, not a resubmission.
        constraints = [models.UniqueConstraint(fields=["match", "seat", "key"], name="unique_action_key_per_seat")]


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    seat = models.SmallIntegerField(help_text="author's seat number")
    to_seat = models.SmallIntegerField(null=True, blank=True, help_text="private message to this seat")
    text = models.CharField(_("message"), max_length=500)
    hidden = models.BooleanField(_("hidden by a moderator"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["match", "created_at", "pk"]

    def __str__(self) -> str:
        return self.text[:40]

    def visible_to_seat(self, seat: int | None) -> bool:
        if self.hidden:
            return False
        if self.to_seat is None:
            return True
        return seat is not None and seat in (self.seat, self.to_seat)


class Presence(models.Model):
    """One open socket of a user in a match, refreshed by a heartbeat while the socket lives.

    ``Seat.open_sockets`` is kept equal to the number of fresh records by the presence sweep, so a
    socket that died without saying so (a killed daphne, a crashed consumer) stops counting once
    its record goes stale, and its player gets turn reminders again.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(db_index=True)


class NotificationClaim(models.Model):
    """One e-mail of a kind that must go once only, claimed before it is sent (games.notify).

    ``key`` names what it is for: a digest's period ("hourly:2026-12-02T01") or a waiting decision
    ("<match>:<seat>:<waiting key>") for the low-time alarm. The unique constraint makes the claim
    the one guard: two workers racing for the same e-mail both insert, and only one succeeds.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_claims")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=120)
    claimed_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("notification sent")
        verbose_name_plural = _("notifications sent")
        constraints = [models.UniqueConstraint(fields=["user", "kind", "key"], name="one_notification_per_claim")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"


class Vacation(models.Model):
    """A player's absence (issue 56): while it runs, the clocks of their correspondence matches stop
    for the decisions that wait on them (games.play.vacations). ``ends_at`` is the planned end, moved
    earlier when the player comes back early; ``days`` is what it takes from the year's allowance
    (counted in the year it starts)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["user", "-starts_at"]
        indexes = [models.Index(fields=["ends_at"], name="vacation_ends_at")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} - {self.ends_at:%Y-%m-%d}"


class Rating(models.Model):
    """A player's rating in one game: openskill's Plackett–Luce ``mu`` and ``sigma`` (games.ratings).

    ``ordinal`` (``mu - 3 sigma``, the rating a player is ranked by) is kept beside them so that a
    leaderboard is one indexed query; ``matches`` counts the rated matches, few of them mark the
    rating provisional.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """What a rated match did to one player's rating, written with the move that finished it.

    The unique ``(match, user)`` makes a match count once, whatever races to finish it.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=32)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_rating_change_per_player"),
            models.UniqueConstraint(fields=["match", "seat"], name="one_rating_change_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}"


class ReplayIndex(models.Model):
    """What a finished match's replay needs besides a few events, stored once (games.replay.timeline):
    each event's time in seconds and the steps that end a decision. With its :class:`ReplayState`
    rows, a replay's first request in a process reads a few rows instead of replaying the whole log.
    ``version`` is the match's version it was built at (a match's log only grows)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="replay_index")
    version = models.PositiveIntegerField()
    times = models.JSONField()
    decision_ends = models.JSONField()

    class Meta:
        verbose_name = _("replay index")
        verbose_name_plural = _("replay indexes")

    def __str__(self) -> str:
        return f"{self.match_id} at {self.version}"


class ReplayState(models.Model):
    """A finished match's engine state (``rules.state_to_json``) after its first ``step`` events,
    stored every few steps so that any step is a few ``evolve`` calls from one."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="replay_states")
    step = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        verbose_name = _("replay state")
        verbose_name_plural = _("replay states")
        constraints = [models.UniqueConstraint(fields=["match", "step"], name="one_replay_state_per_step")]

    def __str__(self) -> str:
        return f"{self.match_id} after {self.step}"
