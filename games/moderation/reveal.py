"""Hidden information in the admin: kept out of sight while a match runs, shown only through an
explicit "reveal for moderation" step that asks for a reason and is logged."""

from __future__ import annotations

import logging
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Match, MatchEvent

log = logging.getLogger("games.moderation")
RUNNING = (Match.Status.LOBBY, Match.Status.ACTIVE)


def is_running(match: Match) -> bool:
    return match.status in RUNNING


class RevealForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, widget=forms.Textarea(attrs={"rows": 3}))


class RevealForModerationMixin:
    """For ``MatchAdmin``: the ``reveal/`` view and a link to it on the match page."""

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.reveal_view)  # type: ignore[attr-defined]
        name = f"{Match._meta.app_label}_{Match._meta.model_name}_reveal"
        return [path("<path:object_id>/reveal/", view, name=name), *super().get_urls()]  # type: ignore[misc]

    @admin.display(description=gettext_lazy("Hidden information"))
    def reveal_link(self, obj: Match) -> str:
        url = reverse("admin:games_match_reveal", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Reveal for moderation (logged)"))

    def reveal_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = get_object_or_404(Match, pk=object_id)
        if not self.has_change_permission(request, match):  # type: ignore[attr-defined]
            raise PermissionDenied
        form = RevealForm(request.POST or None)
        events = None
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]
            message = f"Revealed hidden information for moderation. Reason: {reason}"
            self.log_change(request, match, message)  # type: ignore[attr-defined]
            log.warning("user %s revealed hidden information of match %s: %s", request.user.pk, match.pk, reason)
            events = MatchEvent.objects.filter(match=match, secret__isnull=False).order_by("seq")
        elif request.method not in ("GET", "POST"):
            raise Http404
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": _("Reveal hidden information of %(match)s") % {"match": match},
            "opts": Match._meta,
            "original": match,
            "form": form,
            "events": events,
        }
        return TemplateResponse(request, "admin/games/match/reveal.html", context)
