from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engines.registry import available, get_rules
from games.models import Profile
from games.play import clock_policy

DEFAULT_TIME_LIMIT = 60  # seconds: the column's default, for a game on its own clock
MAX_TIME_LIMIT = 365 * 86400  # seconds; also far below the column's limit (2**31)
TIME_UNITS = [("seconds", _("seconds (live)")), ("minutes", _("minutes (live)")), ("days", _("days (correspondence)"))]
UNIT_SECONDS = {"seconds": 1, "minutes": 60, "days": 86400}


def site_options(slug: str) -> list[Any]:
    """The options of ``slug`` offered on the site (an engine may have more, not offered yet)."""
    rules = get_rules(slug)
    hidden = rules.site_hidden_options
    return [option for option in rules.options if option.name not in hidden]


def option_seat(slug: str, name: str) -> int | None:
    """The seat an option belongs to (``per_seat_options``: a police_alarm handicap), else ``None``."""
    rules = get_rules(slug)
    for pattern in rules.per_seat_options:
        for seat in range(rules.max_players):
            if pattern.format(seat=seat) == name:
                return seat
    return None


class CreateMatchForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=8, initial=4)
    # Required of a game that runs on them only (``uses_time_limit``): the others keep their own clocks.
    time_amount = forms.IntegerField(
        label=_("Time limit per decision"), min_value=1, max_value=100000, initial=60, required=False
    )
    time_unit = forms.ChoiceField(label=_("Unit"), choices=TIME_UNITS, initial="seconds", required=False)
    # A correspondence clock for the games that can have one (``time_bank``): it replaces the time above.
    time_bank = forms.ChoiceField(
        label=_("Clock"),
        choices=[("", clock_policy.FIXED_LABEL), *((k, _(v)) for k, v in clock_policy.BANK_LABELS.items())],
        required=False,
        help_text=_(
            "A time bank: each player's decisions draw on their own reserve, which grows by a set time a decision."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = [(slug, _(get_rules(slug).name)) for slug in available()]
        self._offer_seat_ranges()
        timed = " ".join(slug for slug in available() if get_rules(slug).uses_time_limit)
        for name in ("time_amount", "time_unit"):  # the page shows them for these games only
            self.fields[name].widget.attrs["data-games"] = timed
        banked = " ".join(slug for slug in available() if get_rules(slug).time_bank)
        self.fields["time_bank"].widget.attrs["data-games"] = banked
        for slug in available():
            for option in site_options(slug):
                name = f"{slug}__{option.name}"
                if option.kind == "bool":
                    self.fields[name] = forms.BooleanField(label=_(option.label), required=False)
                else:
                    self.fields[name] = forms.ChoiceField(
                        label=_(option.label),
                        choices=[(v, _(t)) for v, t in option.choices],
                        initial=option.default,
                        required=False,
                    )
                self.fields[name].widget.attrs["data-game"] = slug
                seat = option_seat(slug, option.name)
                if seat is not None:  # a seat's own option: the page shows those of the chosen seat count
                    self.fields[name].widget.attrs["data-seat"] = seat

    def _offer_seat_ranges(self) -> None:
        """The seats field offers the chosen game's own range (its engine's ``min_players`` to
        ``max_players``); ``data-ranges`` and ``data-help`` let the page follow a change of game."""
        ranges = {slug: (get_rules(slug).min_players, get_rules(slug).max_players) for slug in available()}
        helps = {
            slug: gettext("%(game)s: %(min)s to %(max)s players.")
            % {"game": gettext(get_rules(slug).name), "min": low, "max": high}
            for slug, (low, high) in ranges.items()
        }
        chosen = self.data.get("game") if self.is_bound else self.initial.get("game")
        if chosen not in ranges:
            chosen = next(iter(ranges))
        low, high = ranges[chosen]
        field = self.fields["seats"]
        field.help_text = helps[chosen]
        field.widget.attrs.update(
            {
                "min": low,
                "max": high,
                "data-ranges": json.dumps({slug: list(pair) for slug, pair in ranges.items()}),
                "data-help": json.dumps(helps, ensure_ascii=False),
            }
        )
        if not self.is_bound:
            self.initial["seats"] = min(max(cast(int, field.initial), low), high)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        slug = data.get("game")
        if slug:
            rules = get_rules(slug)
            seats = data.get("seats")
            if seats is not None and not rules.min_players <= seats <= rules.max_players:
                self.add_error(
                    "seats",
                    _("%(game)s needs %(min)s to %(max)s players.")
                    % {"game": _(rules.name), "min": rules.min_players, "max": rules.max_players},
                )
        amount, unit = data.get("time_amount"), data.get("time_unit")
        bank = data.get("time_bank") or ""
        if bank and slug and not get_rules(slug).time_bank:
            self.add_error("time_bank", _("This game cannot be played with a time bank."))
        elif bank and slug:
            # The bank's increment is the time limit per decision: the time fields are not read.
            data["time_limit"] = clock_policy.BANKS[bank][1]
            for name in ("time_amount", "time_unit"):
                self.errors.pop(name, None)
            amount = unit = None
        elif slug and not get_rules(slug).uses_time_limit:
            # The game keeps its own clock: the match's time limit is the column's default, unused.
            data["time_limit"] = DEFAULT_TIME_LIMIT
            for name in ("time_amount", "time_unit"):
                self.errors.pop(name, None)
            amount = unit = None
        elif slug:
            for name, value in (("time_amount", amount), ("time_unit", unit)):
                if not value and name not in self.errors:
                    self.add_error(name, forms.Field.default_error_messages["required"])
        if amount and unit:
            data["time_limit"] = amount * UNIT_SECONDS[unit]
            if data["time_limit"] < 10:
                self.add_error("time_amount", _("The time limit must be at least 10 seconds."))
            elif data["time_limit"] > MAX_TIME_LIMIT:
                self.add_error("time_amount", _("The time limit can be at most 365 days."))
        self._check_seat_choices(data)
        return data

    def _check_seat_choices(self, data: dict[str, Any]) -> None:
        """An option whose value is a seat (police_alarm's first thief) names one of the match's seats."""
        slug, seats = data.get("game"), data.get("seats")
        if not slug or seats is None:
            return
        for name in get_rules(slug).seat_options:
            value = str(data.get(f"{slug}__{name}") or "")
            if value.isdigit() and int(value) >= seats:
                self.add_error(f"{slug}__{name}", _("Choose one of the match's seats."))

    def engine_options(self) -> dict[str, Any]:
        slug = self.cleaned_data["game"]
        options: dict[str, Any] = {}
        for option in site_options(slug):
            seat = option_seat(slug, option.name)
            if seat is not None and seat >= self.cleaned_data["seats"]:
                continue  # a handicap of a seat the match does not have
            value = self.cleaned_data.get(f"{slug}__{option.name}")
            options[option.name] = bool(value) if option.kind == "bool" else (value or option.default)
        return options


# The profile's fields shown together in the page's "Notifications" fieldset; the others above it.
NOTIFICATION_FIELDS = (
    "email_reminders",
    "email_digest",
    "email_low_time",
    "email_invitations",
    "turn_sound",
    "turn_notification",
)


class ProfileForm(forms.ModelForm):
    NOTIFICATION_FIELDS = NOTIFICATION_FIELDS

    class Meta:
        model = Profile
        fields = ["display_name", "language", *NOTIFICATION_FIELDS]
        widgets = {"email_digest": forms.RadioSelect}
        help_texts = {
            "email_digest": _("A digest lists every match waiting for you, instead of one e-mail per turn."),
            "email_low_time": _("Once per turn, when a tenth of its time (at most an hour) is left."),
            "turn_notification": _("Also once per turn when your time is running out."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form sent without it (an older page, a script) keeps the default: no digest.
        self.fields["email_digest"].required = False

    def clean_email_digest(self) -> str:
        return str(self.cleaned_data.get("email_digest") or "off")

    def account_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in self.NOTIFICATION_FIELDS]

    def notification_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.NOTIFICATION_FIELDS]


def _game_choices() -> list[tuple[str, str]]:
    return [(slug, gettext(get_rules(slug).name)) for slug in available()]


class MatchFilterForm(forms.Form):
    """The filters of "My matches" (read from the query string; a field it cannot read is ignored
    and said so)."""

    STATES = [
        ("", pgettext_lazy("player records", "All")),
        ("playing", _("Waiting or in progress")),
        ("finished", _("Finished")),
    ]

    game = forms.ChoiceField(label=_("Game"), required=False)
    state = forms.ChoiceField(label=pgettext_lazy("player records", "Matches"), required=False, choices=STATES)
    my_turn = forms.BooleanField(label=_("Only where it is my turn"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = [("", gettext("All games")), *_game_choices()]
