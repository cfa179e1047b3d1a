"""Board fragments are rendered again only when their declared inputs changed (games.push.fragment_memo)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils.safestring import SafeString, mark_safe

from games.play import services
from games.push import fragment_memo, pushes
from games.templatetags import hideout

from .helpers import collector_off, started_match


def spy_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The list every fragment rendered from now on (not reused) is appended to, as
    ``<name>[-<loop key>]@<viewer>``; the fragments render as before."""
    renders: list[str] = []
    real_memo = fragment_memo.rendered

    def spy_memo(key: tuple[Any, ...], inputs: Any, render: Any, **options: Any) -> SafeString:
        def counted() -> SafeString:
            renders.append(f"{key[-2]}{'' if key[-1] is None else '-' + str(key[-1])}@{key[3]}")
            return render()

        return real_memo(key, inputs, counted, **options)

    monkeypatch.setattr(fragment_memo, "rendered", spy_memo)  # the module the template tags call too
    return renders


def render_every_board(match: Any, by_seat: dict[int, Any]) -> None:
    """Every seat's board rendered once, each on a fresh copy of the match row, to fill the memos."""
    for user in by_seat.values():
        pushes.render_seat(type(match).objects.get(pk=match.pk), user, {"board"})


def counting(html: str) -> tuple[list[int], Any]:
    calls: list[int] = []

    def render() -> SafeString:
        calls.append(1)
        return mark_safe(html)

    return calls, render


def test_same_inputs_reuse_the_fragment_and_new_inputs_render_it(fragment_inputs_unchecked: None) -> None:
    calls, render = counting("<div id='x'>1M</div>")
    key = (1, "seed", "en", 0, "x", None)
    assert fragment_memo.rendered(key, {"money": 1}, render) == "<div id='x'>1M</div>"
    assert fragment_memo.rendered(key, {"money": 1}, render) == "<div id='x'>1M</div>"
    assert len(calls) == 1
    fragment_memo.rendered(key, {"money": 2}, render)
    assert len(calls) == 2


def test_inputs_that_come_back_find_their_fragment_again(fragment_inputs_unchecked: None) -> None:
    """Each set of inputs has its own slot: a panel whose inputs go back to an earlier set (whose
    turn it is, an offer allowed again) is not rendered again; another viewer's key is another slot."""
    calls, render = counting("<p>turn</p>")
    key = (1, "seed", "en", 0, "turn", None)
    for inputs in ({"mine": True}, {"mine": False}, {"mine": True}, {"mine": False}, {"mine": True}):
        fragment_memo.rendered(key, inputs, render)
    assert len(calls) == 2
    fragment_memo.rendered((1, "seed", "en", 1, "turn", None), {"mine": True}, render)
    assert len(calls) == 3


def test_inputs_are_a_snapshot_not_a_reference(fragment_inputs_unchecked: None) -> None:
    """An engine list changed in place after the render must not look like the inputs it was."""
    calls, render = counting("<p>a</p>")
    hands = [{"seat": 0, "status": "undecided"}]
    fragment_memo.rendered((1, "s", "en", 0, "hands", None), hands, render)
    hands[0]["status"] = "withdrawn"
    fragment_memo.rendered((1, "s", "en", 0, "hands", None), hands, render)
    assert len(calls) == 2


def test_the_tests_check_catches_inputs_that_miss_what_a_fragment_shows(settings: Any) -> None:
    settings.HIDEOUT_CHECK_FRAGMENT_INPUTS = True
    shown = ["1M"]

    def render() -> SafeString:
        return mark_safe(f"<div>{shown[0]}</div>")

    fragment_memo.rendered((2, "s", "en", 0, "y", None), "same inputs", render)
    shown[0] = "2M"  # what the fragment shows changed, its declared inputs did not
    with pytest.raises(fragment_memo.StaleInputs):
        fragment_memo.rendered((2, "s", "en", 0, "y", None), "same inputs", render)


@pytest.mark.django_db
def test_a_heist_move_renders_only_the_panels_it_changed(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, fragment_inputs_unchecked: None
) -> None:
    """After one choice, the other seats' panels and the opponents' own panels are reused."""
    match, by_seat = started_match(make_user, "heist", 4)
    render_every_board(match, by_seat)
    renders = spy_renders(monkeypatch)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    after = type(match).objects.get(pk=match.pk)
    renders.clear()
    for user in by_seat.values():
        pushes.render_seat(after, user, {"board"})
    assert "heist-seat-0@shared" in renders, "the mover's public panel shows 'has chosen'"
    assert not {"heist-seat-1@shared", "heist-seat-2@shared", "heist-seat-3@shared"} & set(renders)
    assert not [r for r in renders if r.startswith(("heist-me@", "heist-final@")) and not r.endswith("@0")]


def test_a_short_pickle_is_its_own_digest_and_never_equals_a_hash() -> None:
    """Small inputs (a few flags) are told apart by their pickle itself, larger ones by its hash; a
    pickle of a hash's length is hashed, so no pickle can pass for a hash."""
    import hashlib
    import pickle

    small = (True, False, 3)
    assert fragment_memo.digest(small) == pickle.dumps(small, protocol=pickle.HIGHEST_PROTOCOL)
    assert fragment_memo.digest(small) == fragment_memo.digest((True, False, 3))
    assert fragment_memo.digest(small) != fragment_memo.digest((True, False, 4))
    large = ("x" * 100, 1)
    hashed = hashlib.blake2b(pickle.dumps(large, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).digest()
    assert fragment_memo.digest(large) == hashed
    sixteen = next(v for v in (b"", b"a", b"ab", b"abc", b"abcd", b"abcde") if len(pickle.dumps(v, protocol=5)) == 16)
    assert len(fragment_memo.digest(sixteen)) == 16
    assert fragment_memo.digest(sixteen) != pickle.dumps(sixteen, protocol=5), "a pickle of a hash's length is hashed"


def test_translated_text_and_what_cannot_be_pickled_are_digested(fragment_inputs_unchecked: None) -> None:
    """The digest is a pickle: lazy translations match themselves (the language is in the key);
    something that cannot be pickled matches nothing, not even an object at the same address."""
    from threading import Lock

    from django.utils.translation import gettext_lazy

    calls, render = counting("<p>Speed</p>")
    key = (3, "s", "en", 0, "label", None)
    fragment_memo.rendered(key, {"label": gettext_lazy("Speed")}, render)
    fragment_memo.rendered(key, {"label": gettext_lazy("Speed")}, render)
    assert len(calls) == 1
    fragment_memo.rendered(key, {"label": gettext_lazy("Durability")}, render)
    assert len(calls) == 2
    assert fragment_memo.digest([Lock()]) != fragment_memo.digest([Lock()])
    fragment_memo.rendered(key, [Lock()], render)
    fragment_memo.rendered(key, [Lock()], render)
    assert len(calls) == 4


@pytest.mark.django_db
def test_a_bridge_race_move_renders_only_the_dashboards_it_changed(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, fragment_inputs_unchecked: None
) -> None:
    """A car chosen changes its chooser's dashboard and the next chooser's (now acting), not the third's;
    a dashboard is a shared fragment, rendered once for every viewer, its own player's too."""
    from games.play.store import load_state, rules_for

    match, by_seat = started_match(make_user, "bridge_race", 3)
    render_every_board(match, by_seat)
    rules, state = rules_for(match), load_state(match)
    (mover,) = rules.actors(state)
    renders = spy_renders(monkeypatch)
    services.do_submit_action(match.pk, mover, rules.legal_actions(state, mover)[0])
    after = type(match).objects.get(pk=match.pk)
    (following,) = rules.actors(load_state(after))
    (third,) = set(by_seat) - {mover, following}
    renders.clear()
    for user in by_seat.values():
        pushes.render_seat(after, user, {"board"})
    # The board is public: a dashboard is drawn from the spectator's model, for every viewer.
    assert renders.count(f"br-dash-{mover}@shared") == 1, ("the car chosen: one dashboard for every viewer", renders)
    assert renders.count(f"br-dash-{following}@shared") == 1, "the next chooser's: one for every viewer"
    assert f"br-dash-{third}@shared" not in renders, "nothing changed on the third dashboard"
    assert "br-shop@any viewer" not in renders, "nobody bought anything"


def test_a_bridge_race_dashboards_inputs_are_worked_out_once_per_state_not_per_viewer(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Every viewer's dashboards are the spectator's (the viewer's own is marked as its own around it,
    in the shell): five viewers' boards work out each dashboard's inputs once, from the spectator's
    model, and digest each entry once."""
    from games.boards.bridge_race import fragments as bridge_race_fragments

    settings.HIDEOUT_CHECK_FRAGMENT_INPUTS = True  # a reuse whose inputs missed something fails
    match, by_seat = started_match(make_user, "bridge_race", 5)
    entries_digested: list[int] = []
    real_digest = fragment_memo.digest

    def counted(value: Any) -> bytes:
        if isinstance(value, dict) and "seat" in value:  # a dashboard's entry itself
            entries_digested.append(value["seat"])
        return real_digest(value)

    inputs: dict[tuple[int | None, int], object] = {}
    real_inputs = bridge_race_fragments._dashboard_inputs

    def recorded(context: Any, key: Any) -> object:
        found = real_inputs(context, key)
        inputs[(context["seat"], key)] = found
        return found

    monkeypatch.setattr(fragment_memo, "digest", counted)
    real_lookup = hideout.boards.fragment_inputs
    monkeypatch.setattr(
        hideout.boards, "fragment_inputs", lambda game, name: recorded if name == "br-dash" else real_lookup(game, name)
    )
    fragment_memo.forget()
    fresh = type(match).objects.get(pk=match.pk)
    for user in by_seat.values():
        pushes.render_seat(fresh, user, {"board"})
    assert sorted(inputs) == [(None, seat) for seat in range(5)], "once per dashboard, as the spectator sees it"
    assert len(set(inputs.values())) == 5, "each dashboard its own"
    assert sorted(entries_digested) == [0, 1, 2, 3, 4], "each entry once, for the five viewers"


def test_a_fragments_digest_is_its_texts_whether_kept_or_not() -> None:
    """Sockets compare digests made by other processes: a kept digest must be the text's own."""
    small, big = "<p>" + "a" * 100 + "</p>", "<g>" + "x" * 9000 + "</g>"
    for html in (small, big, small, big):
        assert pushes._fragment_digest(html) == pushes._digest(html)
    assert pushes._fragment_digest(small) != pushes._fragment_digest(small.replace("a", "b", 1))
    assert big not in pushes._fragment_digests  # a drawing layer is not held here


def test_a_large_fragment_is_hashed_once_per_string_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared layer is the same string in every seat's board of a move: hashed for the first seat
    only. Another string, even with the same text, is hashed again and gets its own text's digest."""
    hashed: list[str] = []
    real = pushes._digest

    def counted(text: str) -> str:
        hashed.append(text)
        return real(text)

    monkeypatch.setattr(pushes, "_digest", counted)
    layer = "<g>" + "y" * 9000 + "</g>"
    other = "".join(["<g>", "y" * 9000, "</g>"])  # equal text, another object
    changed = layer.replace("y", "z", 1)
    assert [pushes._fragment_digest(layer) for _seat in range(5)] == [real(layer)] * 5
    assert pushes._fragment_digest(other) == real(layer)
    assert pushes._fragment_digest(changed) == real(changed) != real(layer)
    assert len(hashed) == 3


@pytest.mark.django_db
def test_the_spectators_context_of_shared_fragments_is_kept_per_language(make_user: Any) -> None:
    """A table whose players read different languages: a shared fragment in Chinese is rendered
    from a context worded in Chinese, not from the one the first (English) seat's push built."""
    from django.utils import translation

    from games.push.presenter import public_context

    match, _by_seat = started_match(make_user, "heist", 3)
    with translation.override("en"):
        english = public_context(match)
    with translation.override("zh-hant"):
        chinese = public_context(match)
    assert english["game_name"] == "Heist"
    assert chinese["game_name"] != english["game_name"]
    assert chinese["render_language"] == "zh-hant"


@pytest.mark.django_db
def test_a_match_rendered_for_every_seat_is_freed_without_the_collector(make_user: Any) -> None:
    """The contexts a push builds are kept on its match object, never the other way round as well:
    a cycle through them would wait for the collector, whose passes pause every socket of the
    daphne (docs/decisions/0016-gc-tuning.md), with everything the contexts hold."""
    import weakref

    from games.models import Match

    started, by_seat = started_match(make_user, "heist", 4)
    match = Match.objects.get(pk=started.pk)
    for user in [*by_seat.values(), None]:
        rendered = pushes.render_seat(match, user, ["board", "log", "chat"])
        assert rendered.frags  # the board was drawn, shared fragments included
    assert getattr(match, "_public_context", None) is not None
    freed = weakref.ref(match)
    with collector_off():
        del match
        assert freed() is None, "the match object lives on in a reference cycle"


def test_a_fragment_writes_its_numbers_plain_and_the_page_around_it_stays_localized(settings: Any) -> None:
    """Numbers inside a fragment skip the locale (a board's numbers read alike in both languages);
    a locale that groups thousands shows that only numbers outside fragments go through it."""
    from django.template import Context, Template

    settings.USE_THOUSAND_SEPARATOR = True
    page = Template('{% load hideout %}{{ n }}|{% fragment "x" %}<div id="x">{{ n }} {{ due }}</div>{% endfragment %}')
    html = page.render(Context({"n": 1234567, "due": 1795711599.25}))
    assert html == '1,234,567|<div id="x">1234567 1795711599.25</div>'


def test_a_fragment_is_sent_without_the_templates_indentation_and_reads_the_same(settings: Any) -> None:
    """A run of spaces holding a line break is one space to a browser: inside a fragment it is cut
    to the line break (a tenth of a heist push's bytes); a space within a line, a non-breaking
    space, translated text and the page around the fragment keep theirs."""
    from django.template import Context, Template
    from django.utils import translation

    source = (
        "{% load hideout i18n %}<p>\n    a</p>"
        '{% fragment "x" %}<div id="x">\n      <b>one</b> <i>two</i>\u00a0\n'
        '      {% if on %}\n        <span>{% translate "Your actions" %}</span>\n      {% endif %}\n'
        "</div>{% endfragment %}"
    )
    with translation.override("en"):
        html = Template(source).render(Context({"on": True}))
    # (a tag between two runs leaves a line break on each side of it)
    assert html == '<p>\n    a</p><div id="x">\n<b>one</b> <i>two</i>\u00a0\n\n<span>Your actions</span>\n\n</div>'
