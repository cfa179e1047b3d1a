"""A board's shell is kept per viewer and reused while its declared inputs hold (games.push.shell_memo)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from django.template import Context, Template

from games.play import services
from games.push import fragment_memo, pushes, shell_memo
from games.runtime import template_contexts

from .helpers import started_match


def _boards(match_type: Any, match_pk: int, by_seat: dict[int, Any]) -> dict[int, pushes.Rendered]:
    match = match_type.objects.get(pk=match_pk)
    return {seat: pushes.render_seat(match, user, {"board"}) for seat, user in by_seat.items()}


@pytest.mark.django_db
def test_a_heist_move_reuses_every_shell_and_gives_the_board_a_walk_gives(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, fragment_inputs_unchecked: None
) -> None:
    match, by_seat = started_match(make_user, "heist", 4)
    _boards(type(match), match.pk, by_seat)
    walks: list[int] = []
    real_walk = shell_memo._walk

    def counted_walk(context: dict[str, Any], digest: Any) -> Any:
        walks.append(context["seat"])
        return real_walk(context, digest)

    monkeypatch.setattr(shell_memo, "_walk", counted_walk)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    walks.clear()  # the push after the move rendered the seats with sockets (and the mover)
    shell_memo.forget()
    first = _boards(type(match), match.pk, by_seat)
    assert sorted(walks) == [0, 1, 2, 3], "nothing kept: every shell is walked"
    reused = _boards(type(match), match.pk, by_seat)
    assert sorted(walks) == [0, 1, 2, 3], "the same inputs: no shell is walked again"
    for seat, board in reused.items():
        assert board.board_html() == first[seat].board_html()
        assert board.shell_digest == first[seat].shell_digest
        assert f'data-version="{board.revision}"' in board.shell

    services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["GOON"]})
    walks.clear()
    after_move = _boards(type(match), match.pk, by_seat)
    assert walks == [], "a choice changes fragments, not the shell"
    pushes.forget_rendered()  # and a walk of everything from nothing gives the same boards
    fragment_memo.forget()
    walked = _boards(type(match), match.pk, by_seat)
    for seat, board in after_move.items():
        assert board.board_html() == walked[seat].board_html()
        assert board.revision == walked[seat].revision > first[seat].revision


@pytest.mark.django_db
def test_a_kept_board_binds_its_template_only_for_a_fragment_it_renders(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, fragment_inputs_unchecked: None
) -> None:
    """A kept shell whose fragments are all kept renders none, and so binds no template context
    (bridge_race declares the inputs of every plain fragment); one whose inputs changed renders
    it in the board's bound context, as a walk does, and the boards are the ones a walk gives."""
    from games.engines.registry import get_rules
    from games.play.store import load_state

    match, by_seat = started_match(make_user, "bridge_race", 3, seed="kept-board")
    _boards(type(match), match.pk, by_seat)  # walked: the shells are kept
    first = _boards(type(match), match.pk, by_seat)  # kept: the shared fragments are kept together
    bound: list[bool] = []  # for each fragment rendered: whether its context was bound to the board's template
    real_bound = template_contexts.TemplateBinding.bound

    def counted(binding: Any) -> Any:
        context = real_bound(binding)
        bound.append(context.template is not None)
        return context

    monkeypatch.setattr(template_contexts.TemplateBinding, "bound", counted)
    again = _boards(type(match), match.pk, by_seat)
    assert bound == [], "every fragment kept: nothing bound"
    assert {seat: b.board_html() for seat, b in again.items()} == {seat: b.board_html() for seat, b in first.items()}
    rules, state = get_rules("bridge_race"), load_state(match)
    seat = next(iter(rules.actors(state)))
    services.do_submit_action(match.pk, seat, rules.bot_action(state, seat, random.Random(1)))
    bound.clear()
    after = _boards(type(match), match.pk, by_seat)
    assert bound and all(bound), "a changed fragment is rendered in the bound board context"
    pushes.forget_rendered()
    fragment_memo.forget()
    shell_memo.forget()
    walked = _boards(type(match), match.pk, by_seat)
    assert {seat: b.board_html() for seat, b in after.items()} == {seat: b.board_html() for seat, b in walked.items()}


@pytest.mark.django_db
def test_the_tests_check_catches_a_shell_its_inputs_do_not_cover(make_user: Any, settings: Any) -> None:
    settings.HIDEOUT_CHECK_FRAGMENT_INPUTS = True
    match, by_seat = started_match(make_user, "heist", 3)
    _boards(type(match), match.pk, by_seat)
    for key, kept in list(shell_memo._kept._entries.items()):  # as if the shell had changed unseen
        shell_memo._kept.put(key, dataclasses.replace(kept, body=kept.body.replace("heist", "heist stale", 1)))
    with pytest.raises(fragment_memo.StaleInputs):
        _boards(type(match), match.pk, by_seat)


def test_a_plain_fragment_in_a_loop_cannot_be_rendered_alone() -> None:
    """It reads the loop's variables, which only a walk of the shell has: such a shell is not kept."""
    template = Template(
        "{% load hideout %}{% fragment 'top' %}<p id='top'>{{ x }}</p>{% endfragment %}"
        "{% for i in items %}{% fragment 'row' i %}<p id='row-{{ i }}'>{{ i }}</p>{% endfragment %}{% endfor %}"
    )
    plan: list[Any] = []
    frags: dict[str, str] = {}
    shell = template.render(Context({"x": 1, "items": [1, 2], "fragments": frags, "fragment_plan": plan}))
    assert shell == "<!--fragment:top--><!--fragment:row-1--><!--fragment:row-2-->"
    assert frags == {"top": "<p id='top'>1</p>", "row-1": "<p id='row-1'>1</p>", "row-2": "<p id='row-2'>2</p>"}
    assert [(node.fragment_name(key), alone) for node, key, alone in plan] == [
        ("top", True),
        ("row-1", False),
        ("row-2", False),
    ]


@pytest.mark.django_db
def test_the_end_of_a_match_changes_fragments_not_the_shell(make_user: Any) -> None:
    """Issue 8, item 3: a full board goes only on connect, reconnect or a gap. What a seat's board
    loses as its match ends (the resign button) is a fragment, so the last push is a diff."""
    from django.db.models import F

    from games.models import Match

    match, by_seat = started_match(make_user, "heist", 4)
    playing = _boards(Match, match.pk, by_seat)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, revision=F("revision") + 1)
    ended = _boards(Match, match.pk, by_seat)
    for seat, board in ended.items():
        assert board.revision > playing[seat].revision
        assert board.shell_digest == playing[seat].shell_digest, f"seat {seat}'s shell changed as the match ended"
        assert board.digests.keys() == playing[seat].digests.keys()
        assert "Resign" in playing[seat].frags["resign"] and "Resign" not in board.frags["resign"]


def test_a_kept_fragment_is_kept_for_its_seat_unless_every_view_of_the_game_is_public() -> None:
    """heist's panels hold a seat's secrets: kept per seat; bridge_race's views are public (R-89)."""
    from games.engines.registry import get_rules
    from games.templatetags.hideout import kept_for

    assert kept_for({"rules": get_rules("heist"), "seat": 2}) == 2
    assert kept_for({"rules": get_rules("heist"), "seat": None}) is None  # the spectator's own
    assert kept_for({"rules": get_rules("bridge_race"), "seat": 2}) == "any viewer"
    assert kept_for({"seat": 1}) == 1  # no rules: never shared


@pytest.mark.django_db
def test_a_kept_board_draws_its_turn_line_afresh_and_binds_nothing_for_it(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, fragment_inputs_unchecked: None
) -> None:
    """The viewer's own line (``{% drawn_fragment "turn" %}``) is drawn from the plain context on
    every render of a kept board, never kept: a clock that moved shows at once, and drawing it
    binds no template context (decision 0019)."""
    from games.play import clock_policy

    match, by_seat = started_match(make_user, "bridge_race", 3, seed="drawn-turn")
    _boards(type(match), match.pk, by_seat)  # walked: the shells are kept
    first = _boards(type(match), match.pk, by_seat)
    bound: list[object] = []
    real_bound = template_contexts.TemplateBinding.bound

    def counted(binding: Any) -> Any:
        bound.append(binding)
        return real_bound(binding)

    monkeypatch.setattr(template_contexts.TemplateBinding, "bound", counted)
    real_dues = clock_policy.effective_dues
    monkeypatch.setattr(clock_policy, "effective_dues", lambda *a: [due + 3600 for due in real_dues(*a)])
    pushes._rendered.clear()  # the same revision rendered again, with the clocks an hour later
    later = _boards(type(match), match.pk, by_seat)
    assert bound == [], "nothing but the turn line changed: nothing bound"
    for seat, board in later.items():
        assert board.frags["turn"] != first[seat].frags["turn"], "the clock moved"
        assert board.frags["turn"].startswith('<div id="turn">')
        assert {n: h for n, h in board.frags.items() if n != "turn"} == {
            n: h for n, h in first[seat].frags.items() if n != "turn"
        }


def test_a_drawn_fragment_names_one_the_boards_draw_and_is_the_whole_element() -> None:
    from django.template import TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError, match="turn"):
        Template('{% load hideout %}{% drawn_fragment "no-such-panel" %}')
    watching = Template('{% load hideout %}{% drawn_fragment "turn" %}').render(
        Context({"match": type("M", (), {"status": "active"})(), "seat": None})
    )
    assert watching == '<div id="turn"><p class="notice">You are watching this match.</p></div>'
