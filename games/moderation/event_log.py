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
from django.utils.translation import gettext_lazy, gettext_noop

from games.models import Match, MatchEvent
from games.play.store import rules_for
from games.push.presenter import event_for, render_param, seat_names

EVENTS_PER_PAGE = 50
_current = threading.local()

# Steps the players' feed leaves out (deals, shuffles, turns passing), told to moderators in words.
QUIET_STEPS = {
    # dirty_money
    "placement_deck_shuffled": gettext_noop("A placement deck was shuffled."),
    "display_dealt": gettext_noop("A placement card was put on display."),
    "currency_shuffled": gettext_noop("The currency cards were shuffled."),
    "money_deck_shuffled": gettext_noop("The money deck was shuffled."),
    "row_dealt": gettext_noop("An action card was dealt to a location."),
    "turn_ended": gettext_noop("The turn of %(seat)s ended."),
    "action_done": gettext_noop("%(seat)s finished an action."),
    "gain_settled": gettext_noop("The gains of %(seat)s were settled."),
    "round_ended": gettext_noop("The round ended."),
    # exit_memory
    "game_created": gettext_noop("The game was set up."),
    "shuffled": gettext_noop("A pile was shuffled."),
    "dealt": gettext_noop("Tiles were dealt to %(seat)s."),
    "turn_started": gettext_noop("The turn of %(seat)s began."),
    "drew": gettext_noop("%(seat)s drew from the pile."),
    "prompted": gettext_noop("%(seat)s was asked to answer the chain."),
    "ready": gettext_noop("%(seat)s is ready."),
    # bridge_race
    "CRANE": gettext_noop("The crane took its turn."),
    "END_TURN": gettext_noop("%(seat)s ended their turn."),
    "POLICE_FIRE": gettext_noop("The police fired and hit nobody."),
    "SHOP_REFRESH": gettext_noop("The shop was refilled."),
    "NEXT_ROUND": gettext_noop("The next round began."),
    # police_alarm
    "auto_escape_set": gettext_noop("%(seat)s changed the automatic escape."),
    "car_moved": gettext_noop("The police car moved."),
}
QUIET_STEP_OF_SEAT = gettext_noop("%(seat)s took a step that the players' log does not show.")
QUIET_STEP = gettext_noop("The game took a step that the players' log does not show.")


def quiet_step(row: MatchEvent, names: dict[int, str]) -> str:
    """A sentence for an event the players' log leaves out: never its type."""
    seat = (row.data or {}).get("seat", row.actor)
    who = names.get(seat) if isinstance(seat, int) and seat >= 0 else None
    message = QUIET_STEPS.get(row.type)
    if message is not None and ("%(seat)s" not in message or who is not None):
        return _(message) % {"seat": who} if who is not None else _(message)
    if who is not None:
        return _(QUIET_STEP_OF_SEAT) % {"seat": who}
    return _(QUIET_STEP)


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
        out.append((row, " ".join(texts) or quiet_step(row, names)))
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
