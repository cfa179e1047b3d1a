"""heist's cards, drawn in Python: every card is drawn the same way on the board and the How to play
page. The art is an SVG sprite (``games/heist/_card_art.html``) included once per page; a card names
what it is in words too, so colour and picture are never the only signal."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.boards.heist.words import CARD_HELP, RESULT_NAMES, ROLE_HELP, ROLE_NAMES, STATUS_NAMES
from games.push.speaking import current_language, ngettext


def role_tip(role: Any) -> SafeString:
    """A role's name that explains the role on hover, focus or tap."""
    key = str(role)
    if key not in ROLE_NAMES:
        return format_html("{}", role)
    return _kept(("role_tip", key), lambda: _role_tip(key))


def _role_tip(key: str) -> SafeString:
    # Screen readers get the help through aria-describedby (the board's hidden role-help list),
    # so the role's visible text stays just its name.
    return format_html(
        '<span class="tip role-name" tabindex="0" data-tip="{}" aria-describedby="role-help-{}">{}</span>',
        ROLE_HELP[key],
        key.lower(),
        ROLE_NAMES[key],
    )


def card_art() -> SafeString:
    """The cards' SVG sprite, once per board: ``games/heist/_card_art.html`` holds no variable, so it
    is read once per process instead of included on every push."""
    return _card_art()


@cache
def _card_art() -> SafeString:
    return mark_safe(render_to_string("games/heist/_card_art.html"))


_role_help_html: dict[str, SafeString] = {}


def role_help_list() -> SafeString:
    """The hidden descriptions that role names point to (once per board, the same on every board)."""
    language = current_language()
    html = _role_help_html.get(language)
    if html is None:
        roles = ((role.lower(), ROLE_HELP[role]) for role in ROLE_HELP)
        spans = format_html_join("", '<span id="role-help-{}">{}</span>', roles)
        html = _role_help_html[language] = format_html("<div hidden>{}</div>", spans)
    return html


# Cards drawn, by language and what they show: a table's cards are the same from move to move (a
# seat's panel is drawn again when one of its hands changes, with all its other cards as they were).
_drawn: dict[tuple[Any, ...], SafeString] = {}
_DRAWN_KEPT = 4096


def _kept(key: tuple[Any, ...], draw: Callable[[], SafeString]) -> SafeString:
    """``draw()``, kept under ``key`` in the current language (``key`` names all it depends on)."""
    full = (current_language(), *key)
    found = _drawn.get(full)
    if found is None:
        if len(_drawn) >= _DRAWN_KEPT:
            _drawn.clear()  # simpler than an LRU: a match draws a few dozen different cards
        found = _drawn[full] = draw()
    return found


@lru_cache(maxsize=64)
def _art(classes: str, art: str) -> SafeString:
    """A picture of the sprite, decorative: the words beside it say what it is."""
    return format_html(
        '<svg class="{}" viewBox="0 0 40 40" aria-hidden="true" focusable="false"><use href="#hc-{}"></use></svg>',
        classes,
        art,
    )


def _card(classes: str, art: str, name: Any, sub: Any = "", attrs: str | SafeString = "") -> SafeString:
    return format_html(
        '<span class="hcard {}"{}>{}<span class="hcard-name">{}</span>{}</span>',
        classes,
        attrs,
        _art("hcard-art", art),
        name,
        format_html('<span class="hcard-sub">{}</span>', sub) if sub else "",
    )


def role_card(role: Any, sub: Any = "", extra: str = "", tip: bool = True) -> SafeString:
    """A role card face up (the five roles of section 2.1); with ``tip`` its name explains the role."""
    key = str(role)
    if key not in ROLE_NAMES:
        return format_html("{}", role)
    name = role_tip(key) if tip else ROLE_NAMES[key]
    return _card(f"role role-{key.lower()} {extra}".strip(), key.lower(), name, sub)


def card_back(sub: Any = "", extra: str = "", name: Any = None) -> SafeString:
    """A card face down: its back says nothing about the role."""
    return _card(f"back {extra}".strip(), "back", _("face down") if name is None else name, sub)


def hand_card(hand: dict[str, Any], heist: int, hands_per_player: int) -> SafeString:
    """One hand on the table (R-4): face down until revealed, with its status and stake."""
    shown = tuple(hand.get(name) for name in ("seat", "slot", "status", "stake", "result", "role"))
    return _kept(("hand", heist, hands_per_player, shown), lambda: _hand_card(hand, heist, hands_per_player))


def _hand_card(hand: dict[str, Any], heist: int, hands_per_player: int) -> SafeString:
    parts = [f"#{hand['slot']}"] if hands_per_player == 2 else []
    parts.append(str(STATUS_NAMES.get(hand["status"], hand["status"])))
    parts.append(f"{hand['stake']}M")
    if hand.get("result"):
        parts.append(str(RESULT_NAMES.get(hand["result"], hand["result"])))
    sub = " · ".join(parts)
    classes = f"hand {hand['status']}"
    if hand.get("result"):
        classes += f" {hand['result']}"
    face = "up" if hand.get("role") else "down"
    attrs = format_html(' data-card="{}-{}-{}" data-face="{}"', heist, hand["seat"], hand["slot"], face)
    if face == "up":
        role = str(hand["role"])
        return _card(f"role role-{role.lower()} {classes}", role.lower(), role_tip(role), sub, attrs)
    return _card(f"back {classes}", "back", _("secret role"), sub, attrs)


def loot_card(loot: dict[str, Any]) -> SafeString:
    """The heist's loot card (R-13): total, stake per hand and the bonus role."""
    sub = format_html("{}", _("stake %(s)sM per hand") % {"s": loot["stake"]})
    if loot.get("bonus"):
        sub = format_html("{}<br>{} {} +1M", sub, _("bonus:"), ROLE_NAMES.get(str(loot["bonus"]), loot["bonus"]))
    return _card(
        "loot tip", "loot", f"{loot['total']}M", sub, format_html(' tabindex="0" data-tip="{}"', CARD_HELP["loot"])
    )


def boss_card() -> SafeString:
    return _kept(("boss",), _boss_card)


def _boss_card() -> SafeString:
    return _card("boss small tip", "boss", _("Boss"), "", format_html(' tabindex="0" data-tip="{}"', CARD_HELP["boss"]))


def threat_cards(count: int) -> SafeString:
    """A seat's threat cards (section 2.6, earned by R-32), drawn small; the count is said in words too."""
    return _kept(("threats", count), lambda: _threat_cards(count))


def _threat_cards(count: int) -> SafeString:
    words = ngettext("%(n)s threat card", "%(n)s threat cards", count) % {"n": count}
    if not count:
        return format_html('<span class="threats none">{}</span>', words)
    cards = format_html_join("", "{}", ((_card("threat mini", "threat", ""),) for _i in range(min(count, 4))))
    return format_html(
        '<span class="threats tip" tabindex="0" data-tip="{}">{}<span class="threat-count">{}</span></span>',
        CARD_HELP["threat"],
        cards,
        words,
    )


def pool_cards(pool: dict[str, int]) -> SafeString:
    """The pool (R-17): one face-up card per counted role, in reveal order, and the one set aside."""
    cards = [role_card(role, "", "pool-card") for role, count in pool.items() for _i in range(count)]
    cards.append(card_back("", "set-aside", _("set aside")))
    return format_html('<div class="card-row">{}</div>', format_html_join("", "{}", ((c,) for c in cards)))


def role_icon(role: Any) -> SafeString:
    """A role's picture alone, beside its name in words (the result panel)."""
    key = str(role).lower()
    return _art(f"role-icon role-{key}", key)
