"""bridge_race's panels that a push renders for most moves, written in Python instead of templates.

The status line changes with every move and is rendered twice a move (for the seat taking its turn
and for the others), a dashboard for about every move; the Django template engine spent about
0.2 ms on each, most of it resolving variables and looking up the same messages. Here each is
built from the board model (:func:`games.templatetags.bridge_tags.bridge_model`) with the same
messages (so the catalogues' translations apply as they are) and the same escaping as the template
gave: a translated text is escaped, a message's own text is not (``{% blocktranslate %}``) but the
values put in it are.
Numbers are written as Python writes them, as inside a board fragment (``{% localize off %}``).
The fixed words are translated once per language (:func:`_words`).
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from games.speaking import current_language

from .bridge_tags import order_items, pips, speed_bar

register = template.Library()


def _value(value: Any) -> str:
    """``{{ value }}`` in a board fragment: escaped unless marked safe."""
    if isinstance(value, SafeData):
        return str(value)
    return escape(str(value))


_WORDS: dict[str | None, dict[str, str]] = {}


def _words() -> dict[str, str]:
    """The panels' fixed words in the current language, translated and escaped once per language:
    ``{% translate "…" %}`` as the templates had it (a translation, escaped)."""
    language = current_language()
    words = _WORDS.get(language)
    if words is None:
        translated = {
            "your_turn": gettext("Your turn"),
            "bought_this_turn": gettext("bought this turn"),
            "end_of_the_round": gettext("End of the round"),
            "the_race_is_over": gettext("The race is over."),
            "turn_order_this_round": gettext("Turn order this round"),
            "finish_order": gettext("Finish order:"),
            "arrested": gettext("Arrested:"),
            "steering_tokens_left_this": gettext("Steering tokens left this turn"),
            "pool": gettext("Pool"),
            "speed": gettext("Speed"),
            "free_steering_tokens_at": gettext("Free steering tokens at this speed"),
            "free_tokens": gettext("Free tokens"),
            "durability": gettext("Durability"),
            "reversed": gettext("reversed"),
            "acting": gettext("acting"),
            "resigned": gettext("resigned"),
            "debt": gettext("debt"),
            "you": gettext("you"),
            "balance": gettext("Balance"),
            "place_adventure": gettext("Your turn to place an adventure tile (a trap) on the bridge."),
            "choose_car": gettext("Choose your character and your start cell."),
        }
        words = _WORDS[language] = {key: escape(text) for key, text in translated.items()}
    return words


def _whose_turn(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None) -> str:
    words = _words()
    turn = view.get("turn") or {}
    stage = turn.get("stage")
    if turn.get("seat") == seat:
        who = f'<strong class="br-you">{words["your_turn"]}</strong>'
    else:
        who = gettext("<strong>%(name)s</strong>'s turn (%(char)s)") % {
            "name": _value(board.get("turn_name", "")),
            "char": _value(board.get("turn_char", "")),
        }
    line = f'<p class="br-whose">\n{who}\n— {_value(board.get("stage", ""))}'
    if stage == "move":
        steps: int = turn.get("steps_left") or 0
        line += ": " + ngettext("%(n)s step left", "%(n)s steps left", steps) % {"n": _value(steps)}
    line += "\n"
    if stage in ("move", "after"):
        pool: int = turn.get("pool") or 0
        line += " · " + ngettext("%(n)s steering token", "%(n)s steering tokens", pool) % {"n": _value(pool)}
    line += "\n"
    if stage == "roll":
        used = {"used": _value(turn.get("rerolls")), "max": _value(turn.get("max_rerolls"))}
        line += " · " + gettext("rerolls %(used)s/%(max)s") % used
    line += "\n"
    if turn.get("pending_slowdown"):
        slowdown = gettext("caltrops: −%(n)s mph when the movement ends") % {"n": _value(turn["pending_slowdown"])}
        line += f' · <span class="br-warn">{slowdown}</span>'
    line += "\n"
    if turn.get("bought"):
        line += " · " + words["bought_this_turn"]
    line += "\n</p>\n"
    if view.get("prompt") and board.get("prompt_name"):
        choose = gettext("%(name)s must choose: %(q)s") % {
            "name": _value(board["prompt_name"]),
            "q": _value(board.get("prompt_question", "")),
        }
        line += f'<p class="br-whose br-warn">{choose}</p>'
    return line + "\n"


def _placing(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None, mine: str, theirs: str) -> str:
    """Whose turn it is to place an adventure tile or to choose a car: ``mine`` (translated) for the
    viewer's own, else ``theirs`` (a translated message naming the one acting)."""
    if view.get("active_seat") == seat:
        words = f'<strong class="br-you">{mine}</strong>'
    else:
        words = theirs % {"name": _value(board["active_name"])}
    return f'<p class="br-whose">{words}</p>\n'


def _phase_lines(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None) -> str:
    words = _words()
    phase = view.get("phase")
    if phase == "turn" and board.get("turn_name"):
        return _whose_turn(view, board, seat)
    if phase == "adventure" and board.get("active_name"):
        return _placing(
            view,
            board,
            seat,
            words["place_adventure"],
            gettext("<strong>%(name)s</strong> is placing an adventure tile."),
        )
    if phase == "choose_car" and board.get("active_name"):
        return _placing(
            view,
            board,
            seat,
            words["choose_car"],
            gettext("<strong>%(name)s</strong> is choosing a car."),
        )
    if phase == "round_end":
        steps = "".join(
            f'<li class="{"current" if s.get("current") else "done" if s.get("done") else ""}">'
            f"{_value(s.get('name', ''))}</li>"
            for s in board.get("end_strip") or ()
        )
        return f'<ol class="br-endsteps" aria-label="{words["end_of_the_round"]}">\n{steps}\n</ol>\n'
    if phase == "over":
        over = words["the_race_is_over"]
        return f'<p class="br-whose"><strong>{over}</strong> {_value(board.get("end_reason", ""))}</p>\n'
    return ""


@register.simple_tag(takes_context=True)
def status_line(context: Any) -> SafeString:
    """The status line (``#br-status``): the round and phase, whose turn it is and how far it got, the
    turn order, and who finished or was arrested. ``seat`` is the viewer's (``None``: a spectator)."""
    words = _words()
    view: Mapping[str, Any] = context.get("view") or {}
    board: Mapping[str, Any] = context.get("board") or {}
    seat = context.get("seat")
    round_no = view.get("round")
    headline = f"<strong>{gettext('Round %(n)s') % {'n': _value(round_no)}}</strong> · " if round_no else ""
    out = [
        '<div class="br-status" role="status">\n<p class="br-headline">\n',
        f"{headline}{_value(board.get('phase', ''))}\n",
        f'<span class="br-mode">· {_value(board.get("mode", ""))}</span>\n</p>\n',
        _phase_lines(view, board, seat),
    ]
    if board.get("order"):
        order = order_items(board["order"])
        out.append(f'<ol class="br-order" aria-label="{words["turn_order_this_round"]}">\n{order}\n</ol>\n')
    if board.get("finish"):
        chips = "".join(
            f'<span class="br-chip gold">{_value(f.get("place", ""))}. {_value(f.get("name", ""))}</span> '
            for f in board["finish"]
        )
        out.append(f'<p class="br-finish">{words["finish_order"]} {chips}</p>\n')
    if board.get("arrested"):
        chips = "".join(f'<span class="br-chip">{_value(f.get("name", ""))}</span> ' for f in board["arrested"])
        out.append(f'<p class="br-finish">{words["arrested"]} {chips}</p>\n')
    out.append("</div>")
    return mark_safe("".join(out))


def _gauges(p: Mapping[str, Any]) -> str:
    words = _words()
    pool = ""
    if p.get("pool") is not None:
        pool = (
            f'<div title="{words["steering_tokens_left_this"]}">'
            f'<span class="br-label">{words["pool"]}</span> <strong>{_value(p["pool"])}</strong></div>'
        )
    return (
        '<div class="br-gauges">\n'
        f'<div class="br-speed-gauge" title="{words["speed"]}">\n'
        f'<span class="br-label">{words["speed"]}</span>\n'
        f'<span class="br-speed-bar" aria-hidden="true">{speed_bar(p.get("speed_steps") or [])}</span>\n'
        f"<strong>{_value(p.get('speed', ''))}</strong> mph\n</div>\n"
        f'<div title="{words["free_steering_tokens_at"]}">'
        f'<span class="br-label">{words["free_tokens"]}</span> '
        f"<strong>{_value(p.get('free_tokens', ''))}</strong></div>\n"
        f"{pool}\n"
        f'<div class="br-dur" title="{words["durability"]}">\n'
        f'<span class="br-label">{words["durability"]}</span>\n'
        f'<span class="br-pips" aria-hidden="true">{pips(p.get("pips") or [])}</span>\n'
        f"<strong>{_value(p.get('durability', ''))}/{_value(p.get('max_durability', ''))}</strong>\n</div>\n</div>\n"
    )


def _car_state(p: Mapping[str, Any]) -> str:
    words = _words()
    line = f"<span>{_value(p.get('status_text', ''))}</span>"
    if p.get("reversed"):
        line += f' · <span class="br-warn">{words["reversed"]}</span>'
    if p.get("leg"):
        line += f" · {_value(p['leg'])}"
    line += f"\n· <span>{_value(p.get('ramp_text', ''))}</span>"
    if p.get("turn_pos"):
        line += " · " + gettext("turn order %(n)s") % {"n": _value(p["turn_pos"])}
    return f'<p class="br-state">\n{line}\n</p>\n'


def _tiles(p: Mapping[str, Any]) -> str:
    if not (p.get("tiles") or p.get("active_tiles")):
        return ""
    held = "".join(
        f'<span class="br-chip {_value(t.get("colour", ""))}" title="{_value(t.get("effect", ""))} '
        f'({_value(t.get("colour_name", ""))}: {_value(t.get("colour_hint", ""))})">{_value(t.get("name", ""))}</span> '
        for t in p.get("tiles") or ()
    )
    active = "".join(
        f'<span class="br-chip blue active" title="{_value(t.get("effect", ""))}">'
        f"⚡ {_value(t.get('name', ''))}</span> "
        for t in p.get("active_tiles") or ()
    )
    return f'<p class="br-tiles">\n{held}\n{active}\n</p>\n'


@register.simple_tag
def dashboard(p: Mapping[str, Any]) -> SafeString:
    """A car's dashboard (``#br-dash-<seat>``), from its entry of the board model's ``players``: its
    driver and character, balance, speed, steering tokens, durability, state and tiles. The same for
    every viewer (the viewer's own is marked "yours" around it, in the board's shell)."""
    words = _words()
    classes = (" active" if p.get("active") else "") + (" off" if p.get("status") not in ("board", "none") else "")
    label = gettext("Dashboard of %(name)s") % {"name": _value(p.get("name", ""))}
    marks = ' <span class="br-turnmark">' + words["acting"] + "</span>" if p.get("active") else ""
    if p.get("resigned"):
        marks += f" <em>({words['resigned']})</em>"
    colour = f" <small>({_value(p['colour_name'])})</small>" if p.get("colour_name") else ""
    debt = f"<small>{words['debt']}</small>" if p.get("debt") else ""
    fill, number = _value(p.get("fill", "")), _value(p.get("number", ""))
    header = (
        "<header>\n"
        '<svg class="br-mini-car" viewBox="0 0 40 40" aria-hidden="true"><use href="#br-s-car" width="40" height="40" '
        f'fill="{fill}" stroke="{_value(p.get("outline", ""))}" stroke-width="1.5"/>'
        f'<text x="20" y="27" text-anchor="middle" fill="{_value(p.get("ink", ""))}" font-size="14" font-weight="700">'
        f"{number}</text></svg>\n"
        f"<div>\n<strong>{_value(p.get('name', ''))}</strong> "
        f'<span class="badge br-own">{words["you"]}</span>{marks}\n'
        f'<div class="br-char" title="{_value(p.get("ability", ""))}">#{number} · {_value(p.get("char_name", ""))}'
        f"{colour}</div>\n</div>\n"
        f'<div class="br-balance{" debt" if p.get("debt") else ""}" title="{words["balance"]}">'
        f"{_value(p.get('balance_text', ''))}{debt}</div>\n</header>\n"
    )
    return mark_safe(
        f'<article id="br-dash-{_value(p.get("seat", ""))}" class="br-dash{classes}" style="--car:{fill}" '
        f'aria-label="{label}">\n{header}{_gauges(p)}{_car_state(p)}{_tiles(p)}</article>'
    )
