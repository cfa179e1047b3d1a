"""The replay of a match (``/m/<id>/replay/?step=N&as=<seat|all>``) and its record for download.

Who may see what: a finished match replays for every signed-in user, as any seat saw it (``as`` is
the seat's number as players read it, from 1) or with everything revealed (``as=all``, the default).
While a match runs (or after it was aborted) only its players may replay it, and only as their
own seat; everybody else is refused, and so is everybody for a live game that did not finish (its
private events' very existence is secret until the end). The record (every event, secrets included) is
offered to the match's players once it is finished, and refused before.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import boards
from games.models import Match
from games.play.archive import export_match
from games.play.store import rules_for
from games.push.presenter import seat_names, viewer_for
from games.replay.steps import step_context
from games.replay.timeline import Timeline, timeline_of
from games.web.views import HtmxHttpRequest

REPLAY_TEMPLATE = "games/replay/replay.html"
ALL = "all"


def _refused(request: HtmxHttpRequest, explanation: str, status: int = 403) -> HttpResponse:
    return render(
        request, "games/replay/refused.html", {"heading": _("Not allowed"), "explanation": explanation}, status=status
    )


def replay_url(match_id: int, step: int, viewpoint: str) -> str:
    """The address of one step of a replay, to share: ``viewpoint`` is ``"all"`` or a seat from 1."""
    return reverse("match_replay", args=[match_id]) + "?" + urlencode({"step": step, "as": viewpoint})


def _viewpoint(raw: str | None, default: str, seat_count: int) -> str | None:
    """``raw`` as a viewpoint (``"all"`` or a seat from 1), ``default`` if absent; ``None`` if malformed."""
    if raw is None or raw == "":
        return default
    if raw == ALL or (raw.isdigit() and 1 <= int(raw) <= seat_count):
        return raw
    return None


@login_required
@require_GET
def match_replay(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    if match.status == Match.Status.LOBBY or match.version == 0:
        raise Http404
    rules = rules_for(match)
    viewer = viewer_for(match, request.user)
    finished = match.status == Match.Status.FINISHED
    if not finished:
        if viewer.seat is None:
            return _refused(request, _("Only its players may replay a match that has not ended."))
        if rules.live:  # its private events are secret until it ends, the more so if it never does
            return _refused(request, _("A live match can be replayed once it is over."))
    own = str(viewer.seat + 1) if viewer.seat is not None else ALL
    default = ALL if finished else own
    error = None
    viewpoint = _viewpoint(request.GET.get("as"), default, match.seat_count)
    if viewpoint is None:
        error, viewpoint = _("There is no such seat to see the match as."), default
    if not finished and viewpoint != own:
        return _refused(request, _("Until the match is over you may replay it only as your own seat."))
    timeline = timeline_of(match)
    step = timeline.last
    raw_step = request.GET.get("step", "")
    if raw_step:
        if raw_step.isdigit():
            step = min(max(int(raw_step), 1), timeline.last)
        else:
            error = _("The step must be a whole number.")
    seat = None if viewpoint == ALL else int(viewpoint) - 1
    context = step_context(match, timeline, step, seat)
    context.update(_controls(match.pk, timeline, step, viewpoint))
    context.update(
        # Not as ``match``: a board's shared fragments would draw that match's present state.
        replay_match=match,
        game_name=_(rules.name),
        error=error,
        live=rules.live,
        finished=finished,
        viewpoints=_viewpoints(match, viewpoint, finished, own),
        export_url=reverse("match_export", args=[match.pk]) if finished and viewer.seat is not None else "",
        match_url=reverse("match", args=[match.pk]),
        replay_base=reverse("match_replay", args=[match.pk]),
    )
    status = 400 if error else 200
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, f"{REPLAY_TEMPLATE}#body", context, status=status)
    first = timeline.times[0] if timeline.times else 0.0
    context["times_ms"] = [round((t - first) * 1000) for t in timeline.times]
    # The whole game's chart beside the steps (issue 55: in the replay too), from its final state:
    # outside the part a step swaps, so a step does not draw it again.
    final = timeline.state_at(timeline.last)
    if rules.outcome(final) is not None:
        context["chart"] = boards.chart_for(match.game, rules.view(final, None), context["names"])
    return render(request, REPLAY_TEMPLATE, context, status=status)


def _controls(match_id: int, timeline: Timeline, step: int, viewpoint: str) -> dict[str, Any]:
    """The step and the addresses of the steps the controls go to (none where there is no such step)."""
    last = timeline.last

    def url(to: int) -> str:
        return replay_url(match_id, to, viewpoint)

    return {
        "step": step,
        "last": last,
        "viewpoint": viewpoint,
        "step_url": url(step),
        "first_url": url(1) if step > 1 else "",
        "back_url": url(step - 1) if step > 1 else "",
        "forward_url": url(step + 1) if step < last else "",
        "last_url": url(last) if step < last else "",
        "decision_back_url": url(timeline.previous_decision(step)) if step > 1 else "",
        "decision_forward_url": url(timeline.next_decision(step)) if step < last else "",
    }


def _viewpoints(match: Match, chosen: str, finished: bool, own: str) -> list[dict[str, Any]]:
    """The viewpoints the viewer may pick: every seat and everything once the match is over, else its own."""
    names = seat_names(match)
    choices = [(ALL, _("Everything revealed"))] if finished else []
    for number in range(match.seat_count):
        value = str(number + 1)
        if finished or value == own:
            choices.append((value, _("As %(player)s saw it") % {"player": names.get(number, value)}))
    return [{"value": value, "label": label, "selected": value == chosen} for value, label in choices]


@login_required
@require_GET
def match_export(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """A finished match's record (options, seed, every event with its secret) for one of its players,
    in the format ``import_match`` reads."""
    match = get_object_or_404(Match, pk=match_id)
    viewer = viewer_for(match, request.user)
    if viewer.seat is None:
        return _refused(request, _("Only the players of a match may download its record."))
    if match.status != Match.Status.FINISHED:
        return _refused(request, _("The record of a match can be downloaded once it is over."))
    body = json.dumps(export_match(match), indent=1)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="hideout-match-{match.pk}.json"'
    return response
