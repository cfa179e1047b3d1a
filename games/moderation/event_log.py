"""The match admin's event log: one readable line per event, as spectators read it, a page at a time.

Moderators used to get every event inline as raw JSON (hundreds of KB for a long match). Raw JSON
stays available per event (:class:`games.moderation.admin.MatchEventAdmin`) once the match is over, and a
running match's secrets only through the logged reveal view.
"""

from __future__ import annotations

import threading
from typing import Any

from django.contrib import admin
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Match, MatchEvent
from games.play.store import rules_for
from games.push.presenter import event_for, render_param, seat_names

EVENTS_PER_PAGE = 50
_current = threading.local()


def readable_lines(match: Match, events: list[MatchEvent]) -> list[tuple[MatchEvent, str]]:
    """Each event with its log sentences as a spectator sees them (secrets left out)."""
    rules = rules_for(match)
    names = seat_names(match)
    terms = rules.terms
    out = []
    for row in events:
        texts = []
        for line in rules.log_lines(event_for(row.to_event(), None, False)):
            params = {k: render_param(k, v, names, terms) for k, v in line.params.items()}
            try:
                texts.append(_(line.message) % params if params else _(line.message))
            except (KeyError, ValueError, TypeError):
                texts.append(line.message)
        out.append((row, " ".join(texts) or row.type))
    return out


class EventLogMixin:
    """Adds the paginated, readable ``event_log`` field to the match admin (``?log_page=N``)."""

    def change_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        _current.request = request
        try:
            response: HttpResponse = super().change_view(request, *args, **kwargs)  # type: ignore[misc]
            render = getattr(response, "render", None)
            if render is not None:  # a TemplateResponse renders lazily: render it while the request is known
                render()
            return response
        finally:
            _current.request = None

    @admin.display(description=gettext_lazy("Event log"))
    def event_log(self, obj: Match) -> SafeString:
        request = getattr(_current, "request", None)
        number = request.GET.get("log_page", "1") if request is not None else "1"
        events = MatchEvent.objects.filter(match=obj).order_by("seq")
        page = Paginator(events, EVENTS_PER_PAGE).get_page(number)
        names = seat_names(obj)
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (row.seq, names.get(row.actor, _("the server")), row.created_at.strftime("%Y-%m-%d %H:%M:%S"), text)
                for row, text in readable_lines(obj, list(page.object_list))
            ),
        )
        links = []
        if page.has_previous():
            links.append(format_html('<a href="?log_page={}">{}</a>', page.previous_page_number(), _("earlier")))
        links.append(
            format_html(
                "<span>{}</span>",
                _("page %(page)s of %(pages)s") % {"page": page.number, "pages": page.paginator.num_pages},
            )
        )
        if page.has_next():
            links.append(format_html('<a href="?log_page={}">{}</a>', page.next_page_number(), _("later")))
        raw = reverse("admin:games_matchevent_changelist") + f"?match__id__exact={obj.pk}"
        return format_html(
            '<table class="event-log"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>'
            '<tbody>{}</tbody></table><p class="event-log-pages">{} · <a href="{}">{}</a></p>',
            _("by"),
            _("when"),
            _("what happened"),
            rows,
            format_html_join(" · ", "{}", ((link,) for link in links)),
            raw,
            _("events one by one"),
        )
