from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.registry import available, get_rules
from games.models import Profile

MAX_TIME_LIMIT = 365 * 86400  # seconds; also far below the column's limit (2**31)
TIME_UNITS = [("seconds", _("seconds (live)")), ("minutes", _("minutes (live)")), ("days", _("days (correspondence)"))]
UNIT_SECONDS = {"seconds": 1, "minutes": 60, "days": 86400}


def site_options(slug: str) -> list[Any]:
    """The options of ``slug`` offered on the site (an engine may have more, not offered yet)."""
    rules = get_rules(slug)
    hidden = rules.site_hidden_options
    return [option for option in rules.options if option.name not in hidden]


class CreateMatchForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=8, initial=4)
    time_amount = forms.IntegerField(label=_("Time limit per decision"), min_value=1, max_value=100000, initial=60)
    time_unit = forms.ChoiceField(label=_("Unit"), choices=TIME_UNITS, initial="seconds")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = [(slug, _(get_rules(slug).name)) for slug in available()]
        self._offer_seat_ranges()
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
        if amount and unit:
            data["time_limit"] = amount * UNIT_SECONDS[unit]
            if data["time_limit"] < 10:
                self.add_error("time_amount", _("The time limit must be at least 10 seconds."))
            elif data["time_limit"] > MAX_TIME_LIMIT:
                self.add_error("time_amount", _("The time limit can be at most 365 days."))
        return data

    def engine_options(self) -> dict[str, Any]:
        slug = self.cleaned_data["game"]
        options: dict[str, Any] = {}
        for option in site_options(slug):
            value = self.cleaned_data.get(f"{slug}__{option.name}")
            options[option.name] = bool(value) if option.kind == "bool" else (value or option.default)
        return options


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "language", "email_reminders", "turn_sound", "turn_notification"]
