"""The profile page's vacation panel (issue 56, part 5): start one within the year's allowance, or
end the current one early. The clocks it stops and restarts are :mod:`games.play.vacations`'."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.play import vacations
from games.play.errors import ServiceError


class VacationForm(forms.Form):
    # No upper bound here: the allowance left is the bound, and the service says so in its refusal.
    days = forms.IntegerField(label=gettext_lazy("Days away"), min_value=1, initial=7)
    action = forms.CharField(widget=forms.HiddenInput, initial="start")


def until_text(moment: Any) -> str:
    """The end of a vacation as the player reads it: the date and time, in the page's language."""
    return formats.date_format(moment, "DATETIME_FORMAT")


def panel_context(user: Any, form: VacationForm | None = None) -> dict[str, Any]:
    """What the profile page's vacation panel shows ``user``: their current vacation, or the form
    to start one with what is left of the year's allowance."""
    current = vacations.current(user)
    return {
        "vacation": current,
        "vacation_until": until_text(current.ends_at) if current is not None else "",
        "vacation_form": form or VacationForm(),
        "vacation_left": vacations.days_left(user),
        "vacation_allowance": vacations.ALLOWANCE_DAYS,
    }


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    """Start a vacation of the days asked for, or (``action=end``) end the current one now."""
    from games.web.forms import ProfileForm

    user = request.user
    form = VacationForm(request.POST)
    try:
        if request.POST.get("action") == "end":
            vacations.end(user)
            messages.success(request, _("Welcome back: your clocks are running again."))
            return redirect("profile")
        if form.is_valid():
            done = vacations.start(user, form.cleaned_data["days"])
            messages.success(request, _("You are on vacation until %(until)s.") % {"until": until_text(done.ends_at)})
            return redirect("profile")
    except ServiceError as exc:
        form.add_error(None if request.POST.get("action") == "end" else "days", exc.message)
    context = {"form": ProfileForm(instance=user.profile), **panel_context(user, form)}  # type: ignore[union-attr]
    return render(request, "games/profile.html", context, status=400)
