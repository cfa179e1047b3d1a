"""The language a push renders in (games.push.speaking): what Django says, known without asking it."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.models import Seat
from games.play import services
from games.push import pushes
from games.push.speaking import current_language, speaking

from .helpers import started_match


def test_the_language_spoken_is_djangos_in_every_block_and_after_it() -> None:
    with translation.override("en"):
        assert current_language() == translation.get_language() == "en"
        with speaking("zh-Hant"):
            assert current_language() == translation.get_language() == "zh-hant"
            with speaking("en"):
                assert current_language() == translation.get_language() == "en"
                with speaking("en"):
                    assert current_language() == translation.get_language() == "en"
            assert current_language() == translation.get_language() == "zh-hant"
        assert current_language() == translation.get_language() == "en"
        with translation.override("zh-hant"):  # outside any speaking block, Django is asked
            assert current_language() == "zh-hant"


def test_the_language_spoken_already_is_not_activated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    activated: list[str | None] = []
    real = translation.activate

    def activate(language: str) -> None:
        activated.append(language)
        real(language)

    before = translation.get_language()
    monkeypatch.setattr(translation, "activate", activate)
    with speaking("en"):
        with speaking("en"), speaking("en"):
            assert translation.gettext("Speed") == "Speed"
        with speaking("zh-hant"):
            assert translation.gettext("Speed") == "車速"
    # into English once (not for the blocks inside), into Chinese and back, then back to what was
    assert activated == ["en", "zh-hant", "en", before]


def test_the_language_spoken_is_dropped_when_its_block_fails() -> None:
    with translation.override("en"):
        with pytest.raises(RuntimeError), speaking("zh-hant"):
            raise RuntimeError
        assert current_language() == translation.get_language() == "en"


@pytest.mark.django_db(transaction=True)
def test_a_move_reaches_each_seat_in_its_players_language(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats of one table in two languages, the mover's first: each seat's push is in its own."""
    match, users = started_match(make_user, "bridge_race", players=3, seed="speaking")
    for number in (1, 2):
        profile = users[number].profile
        profile.language = "zh-hant" if number == 1 else "en"
        profile.save()
    users[0].profile.language = "zh-hant"
    users[0].profile.save()
    Seat.objects.filter(match=match).update(open_sockets=1)
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(pushes, "send_many", lambda messages: sent.extend(messages))
    from games.play.store import load_state, rules_for

    match.refresh_from_db()
    state = load_state(match)
    rules = rules_for(match)
    seat = sorted(rules.actors(state))[0]
    action = rules.legal_actions(state, seat)[0]
    with speaking(users[seat].profile.language):
        services.do_submit_action(match.pk, seat, action, expected_version=match.version)
    parts = {
        part["seat"]: part for _group, message in sent if message["type"] == "seats.update" for part in message["seats"]
    }
    assert set(parts) == {0, 1, 2}
    for number, part in parts.items():
        text = " ".join(part["frags"].values()) + part["log_add"]
        chinese = users[number].profile.language == "zh-hant"
        assert ("回合" in text or "車速" in text) == chinese, (number, text[:300])
        assert ("Speed" in text or "Round" in text) != chinese, (number, text[:300])


def test_kept_translations_are_djangos_in_each_language_and_bounded(monkeypatch: Any) -> None:
    """games.push.speaking.gettext/ngettext keep Django's answer per language: the same text Django gives,
    in the language active when asked, and no more than TRANSLATIONS_KEPT of them."""
    from django.utils import translation

    from games.push import speaking

    monkeypatch.setattr(speaking, "_translated", {})
    message = "You are watching this match."
    for language in ("zh-hant", "en", "zh-hant"):
        with speaking.speaking(language):
            assert speaking.gettext(message) == translation.gettext(message)
            for n in (1, 2):
                expected = translation.ngettext("%(n)s day", "%(n)s days", n)
                assert speaking.ngettext("%(n)s day", "%(n)s days", n) == expected
        with translation.override(language):  # outside a speaking block: Django's own language
            assert speaking.gettext(message) == translation.gettext(message)
    with speaking.speaking("zh-hant"):
        assert speaking.gettext(message) != message, "translated (compilemessages ran)"
    monkeypatch.setattr(speaking, "TRANSLATIONS_KEPT", 3)
    for n in range(10):
        speaking.gettext(f"not a message {n}")
    assert len(speaking._translated) <= 3
