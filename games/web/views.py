"""Small function views: a full page, or a partial when the request comes from HTMX."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Case, Count, F, IntegerField, Q, Value, When
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games.boards import police_alarm as police_alarm_board
from games.engines.registry import available, get_rules
from games.models import Match, RematchInvite, Seat
from games.notify import webpush
from games.play import payloads, services
from games.push.presenter import ALL_PARTS, match_context, viewer_for
from games.push.pushes import board_with_error, rendered_board
from games.push.speaking import speaking
from games.web import guides, ratelimit
from games.web import vacations as vacation_views
from games.web.forms import CreateMatchForm, ProfileForm

MATCH_TEMPLATE = "games/match.html"


def signed_in(request: HttpRequest) -> User:
    """The user of a view behind ``login_required``."""
    assert isinstance(request.user, User)
    return request.user


class HtmxHttpRequest(HttpRequest):
    """A request that passed django-htmx's middleware (for type checking)."""

    htmx: HtmxDetails


def _user_matches(user: Any) -> list[Match]:
    return list(
        Match.objects.filter(seats__user=user)
        .exclude(status=Match.Status.ABORTED)
        .annotate(
            my_turn=Case(
                When(
                    Q(seats__user=user, seats__waiting_since__isnull=False, status=Match.Status.ACTIVE),
                    then=Value(0),
                ),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("my_turn", "-created_at")
        .distinct()[:50]
    )


@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, Any] = {
        # Open: waiting for players, with a seat free (a full match waits for its host to start it).
        "open_matches": Match.objects.filter(status=Match.Status.LOBBY)
        .exclude(seats__user__pk=request.user.pk or 0)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("seat_count"))[:30],
        "guide_games": _game_names(),
    }
    if request.user.is_authenticated:
        context["my_matches"] = _user_matches(request.user)
        context["rematch_invites"] = list(
            RematchInvite.objects.filter(
                user=request.user, status=RematchInvite.Status.PENDING, match__status=Match.Status.LOBBY
            ).select_related("match__host__profile")
        )
    return render(request, "games/lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def match_create(request: HtmxHttpRequest) -> HttpResponse:
    form = CreateMatchForm(request.POST or None, initial={"game": request.GET.get("game", "heist")})
    if request.method == "POST" and form.is_valid():
        try:
            ratelimit.enforce("create", request.user)
            match = services.do_create_match(
                request.user,
                form.cleaned_data["game"],
                form.cleaned_data["seats"],
                form.engine_options(),
                form.cleaned_data["time_limit"],
                form.cleaned_data.get("time_bank") or "",
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
            if isinstance(exc, ratelimit.RateLimited):
                return render(request, "games/create.html", {"form": form}, status=exc.status)
        else:
            return redirect(match)  # its waiting panel asks the host to send the invite link
    status = 400 if request.method == "POST" else 200
    return render(request, "games/create.html", {"form": form}, status=status)


@login_required
@require_GET
def match_invite(request: HtmxHttpRequest, code: str) -> HttpResponse:
    match = get_object_or_404(Match, invite_code=code)
    return redirect(match)


@login_required
@require_POST
def match_lobby_action(request: HtmxHttpRequest, match_id: int, action: str) -> HttpResponse:
    """Join, leave, add a bot to or start a match waiting for players: ``action`` is given by the
    URL (``join``, ``leave``, ``bot``, ``start``, games.urls)."""
    match = get_object_or_404(Match, pk=match_id)
    try:
        if action == "join":
            ratelimit.enforce("join", request.user)
            services.do_join_match(match.pk, request.user)
        elif action == "leave":
            if match.host_id == request.user.pk and match.status == Match.Status.LOBBY:
                return _to(request, reverse("match_cancel", args=[match.pk]))  # the host is asked first
            services.do_leave_match(match.pk, request.user)
            messages.info(request, _("You left the match."))
            return redirect("lobby")
        elif action == "bot":
            services.do_add_bot(match.pk, request.user)
        elif action == "start":
            services.do_start_match(match.pk, request.user)
            if request.htmx:
                return _started_board(request, match)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": match.get_absolute_url()})
    return redirect(match)


def _to(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Go to ``url``: a whole page, asked for with HTMX or not."""
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
def match_cancel(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The host cancels a match that waits for players: asked first (a page of its own, with or
    without JavaScript), then done by the POST of that page's form."""
    match = get_object_or_404(Match, pk=match_id)
    if match.host_id != request.user.pk or match.status != Match.Status.LOBBY:
        return _to(request, match.get_absolute_url())
    if request.method == "POST":
        try:
            services.do_leave_match(match.pk, request.user)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
            return _to(request, match.get_absolute_url())
        messages.info(request, _("You cancelled the match. Its players are told you did."))
        return _to(request, reverse("lobby"))
    seats = list(match.seats.exclude(user=request.user).select_related("user__profile"))
    context = {"match": match, "game_name": match.game_name, "others": [seat.display_name for seat in seats]}
    return render(request, "games/cancel.html", context)


def _started_board(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """The started match's board, in place of the lobby's, without reloading the page.

    A reload would close the host's socket, and a live game counts a closed socket as its player
    gone (T-23): it would pause at once and go on only after a resume countdown (T-25).
    """
    match.refresh_from_db()
    context = match_context(match, request.user, parts=frozenset({"board"}))
    return render(request, f"{MATCH_TEMPLATE}#board", context)  # the form targets #board


@login_required
@require_POST
def match_rematch(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Ask for a rematch (or find the one already asked for) and go to its page."""
    get_object_or_404(Match, pk=match_id)
    try:
        new = services.do_rematch(match_id, signed_in(request))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("match", match_id=match_id)
    if request.htmx:
        return HttpResponseClientRedirect(new.get_absolute_url())
    return redirect(new)


@login_required
@require_POST
def match_rematch_answer(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Accept (and go to the rematch) or decline (and go back to the lobby) an invitation to a rematch."""
    match = get_object_or_404(Match, pk=match_id)
    accept = request.POST.get("answer") == "accept"
    try:
        services.do_answer_rematch(match.pk, signed_in(request), accept=accept)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(match)
    if accept:
        return redirect(match)
    messages.info(request, _("You declined the rematch."))
    return redirect("lobby")


@login_required
@require_GET
def match_page(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    context = match_context(match, request.user)
    partial = request.GET.get("partial")
    if request.htmx and partial in ("board", "log", "chat"):
        return render(request, f"{MATCH_TEMPLATE}#{partial}", context)
    return render(request, MATCH_TEMPLATE, context)


def parse_payload(post: Any) -> dict[str, Any]:
    """The action JSON plus the form's other fields (named after payload keys)."""
    try:
        return payloads.from_post(post).payload
    except payloads.BadPayload as exc:
        raise services.ServiceError(exc.message) from exc


@login_required
@require_POST
def match_action(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    user = signed_in(request)
    seat = Seat.objects.filter(match_id=match_id, user=user).values_list("number", flat=True).first()
    status, error, result = 200, None, None
    if seat is None:
        get_object_or_404(Match, pk=match_id)
        status, error = 403, _("Only the players of this match can act in it.")
    else:
        try:
            sent = payloads.from_post(request.POST)
            result = services.do_submit_action(
                match_id, seat, sent.payload, expected_version=sent.expected_version, idempotency_key=sent.key
            )
        except payloads.BadPayload as exc:
            status, error = 400, exc.message
        except services.ServiceError as exc:
            status, error = exc.status, exc.message
    if request.htmx and result is not None and result.revision is not None:
        # The board this move's push rendered for this player (same user, revision and language).
        html = rendered_board(match_id, result.revision, user.pk, translation.get_language())
        if html is not None:
            return HttpResponse(html)
    match = get_object_or_404(Match, pk=match_id)
    if request.htmx:
        # Refused (stale, illegal…): the current board, if the last push already rendered it here.
        html = rendered_board(match_id, match.revision, user.pk, translation.get_language())
        if html is not None:
            return HttpResponse(board_with_error(html, error), status=status)
    parts = frozenset({"board"}) if request.htmx else ALL_PARTS  # an HTMX answer is the board only
    context = match_context(match, request.user, error=error, parts=parts)
    if request.htmx:
        return render(request, f"{MATCH_TEMPLATE}#board", context, status=status)
    if error:
        return render(request, MATCH_TEMPLATE, context, status=status)
    return HttpResponseRedirect(match.get_absolute_url())


@login_required
@require_POST
def match_chat(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    viewer = viewer_for(match, request.user)
    status, error = 200, None
    if viewer.seat is None:
        status, error = 403, _("Only the players of this match can chat in it.")
    else:
        to_raw = request.POST.get("to", "")
        try:
            to_seat = int(to_raw) if to_raw.strip() else None
            ratelimit.enforce("chat", request.user)
            services.do_post_chat(match.pk, viewer.seat, request.POST.get("text", ""), to_seat)
        except ValueError:
            status, error = 400, _("Choose another player for a private message.")
        except services.ServiceError as exc:
            status, error = exc.status, exc.message
    match.refresh_from_db()
    context = match_context(match, request.user)
    context["chat_error"] = error
    if request.htmx:
        return render(request, f"{MATCH_TEMPLATE}#chat", context, status=status)
    if error:
        messages.error(request, error)
    return redirect(match)


@login_required
@require_POST
def match_resign(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    viewer = viewer_for(match, request.user)
    if viewer.seat is None or match.status != Match.Status.ACTIVE:
        messages.error(request, _("You are not playing in this match."))
    else:
        try:
            services.do_resign(match.pk, viewer.seat)
            messages.info(request, _("You resigned. Your decisions now take their defaults."))
        except services.ServiceError as exc:
            messages.error(request, exc.message)
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": match.get_absolute_url()})
    return redirect(match)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language menu: Django's ``set_language``, and for a signed-in reader their profile
    too (the profile's language is the one their pages are served in, games.web.middleware)."""
    from django.views.i18n import set_language as django_set_language

    language = request.POST.get("language", "")
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    if profile is not None and language in dict(settings.LANGUAGES) and profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
    return django_set_language(request)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HtmxHttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=signed_in(request).profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        with speaking(form.cleaned_data["language"]):  # said in the language just chosen
            messages.success(request, _("Profile saved."))
        response = redirect("profile")
        response.set_cookie("django_language", form.cleaned_data["language"])
        return response
    # The browser-notification switch, shown only when the site can send them (games.notify.webpush).
    webpush_key = settings.VAPID_PUBLIC_KEY if webpush.enabled() else ""
    context = {"form": form, "webpush_key": webpush_key, **vacation_views.panel_context(request.user)}
    return render(request, "games/profile.html", context)


def _game_names() -> list[tuple[str, str]]:
    return [(slug, _(get_rules(slug).name)) for slug in available() if slug in guides.GUIDES]


@require_GET
def how_to_play_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/how_to_play_index.html", {"games": _game_names()})


@require_GET
def driving_school(request: HttpRequest) -> HttpResponse:
    """police_alarm's Driving school (W-15): practise driving alone, with a timer between scenes."""
    if "police_alarm" not in available():
        raise Http404(_("No such game."))
    context = {
        "board": police_alarm_board.school_context(),
        "seat": 0,
        "action_url": "",
        "game_name": _(get_rules("police_alarm").name),
    }
    return render(request, "games/police_alarm/school.html", context)


def how_to_play(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules written for players, with its pieces drawn as the board draws them."""
    if slug not in available() or slug not in guides.GUIDES:
        raise Http404(_("No such game."))
    context = {
        "slug": slug,
        "game_name": _(get_rules(slug).name),
        "guide_template": guides.template_for(slug),
        "games": _game_names(),
        **guides.GUIDES[slug](),
    }
    return render(request, "games/how_to_play.html", context)
