"""The kinds of e-mail a player can receive, and their setting for each (fields of ``Profile``)."""

from __future__ import annotations

from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.models import Profile

TURN: Final = "turn"
LOW_TIME: Final = "low_time"
INVITATIONS: Final = "invitations"
DIGEST: Final = "digest"
KINDS: Final = (TURN, LOW_TIME, INVITATIONS, DIGEST)

# The kinds about a decision waiting on the player: not sent while they are away.
ABOUT_WAITING: Final = frozenset({TURN, LOW_TIME, DIGEST})

DIGEST_OFF: Final = "off"
DIGEST_FREQUENCIES: Final = ("hourly", "daily")

# What each kind is called where a player turns it off (the unsubscribe page).
LABELS: Final[dict[str, Promise]] = {
    TURN: _("e-mails when it is your turn"),
    LOW_TIME: _("e-mails when your time is running out"),
    INVITATIONS: _("invitations to matches and rematches"),
    DIGEST: _("the digest of matches waiting for you"),
}


def wants(profile: Profile, kind: str) -> bool:
    """Whether the player asked for e-mails of ``kind``.

    A digest replaces the e-mail for each turn: with a digest chosen, no turn e-mail goes."""
    if kind == TURN:
        return profile.email_reminders and profile.email_digest == DIGEST_OFF
    if kind == LOW_TIME:
        return profile.email_low_time
    if kind == INVITATIONS:
        return profile.email_invitations
    if kind == DIGEST:
        return profile.email_digest in DIGEST_FREQUENCIES
    raise ValueError(f"unknown kind of e-mail: {kind!r}")


def turn_off(profile: Profile, kind: str) -> None:
    """Stop e-mails of ``kind`` for this player (saved)."""
    fields = {
        TURN: ("email_reminders", False),
        LOW_TIME: ("email_low_time", False),
        INVITATIONS: ("email_invitations", False),
        DIGEST: ("email_digest", DIGEST_OFF),
    }
    if kind not in fields:
        raise ValueError(f"unknown kind of e-mail: {kind!r}")
    name, value = fields[kind]
    setattr(profile, name, value)
    profile.save(update_fields=[name])
