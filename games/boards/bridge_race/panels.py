"""bridge_race's panels that a push renders for most moves, written in Python instead of templates
(drawn by the tags of :mod:`.tags`).

The status line, the dashboards, the action panel and the shop change with most moves (the status
line twice a move: for the seat taking its turn and for the others); the Django template engine
spent 0.2-0.5 ms on each, most of it resolving variables and looking up the same messages. Here each
is built from the board model (:func:`.context.bridge_model`) with the same messages (so the
catalogues' translations apply as they are) and the same escaping as the template gave: a
translated text is escaped, a message's own text is not (``{% blocktranslate %}``) but the values
put in it are.
Numbers are written as Python writes them, as inside a board fragment (``{% localize off %}``).
The fixed words are translated once per language (:func:`_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from django.utils.safestring import SafeString

from games.boards.bridge_race.pieces import die, order_items, pips, speed_bar
from games.boards.common import shown
from games.boards.forms import action_button, action_fields, action_form_attrs
from games.push.speaking import current_language, gettext, ngettext

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
            "your_actions": gettext("Your actions"),
            "your_actions_jump": gettext("Your actions ↓"),
            "dice": gettext("Dice"),
            "your_dice": gettext("Your dice"),
            "start_of_your_turn": gettext("Start of your turn"),
            "roll_the_5_dice": gettext("Roll the 5 dice"),
            "place_your_ramp_first": gettext("Place your ramp first (only now, before rolling):"),
            "facing": gettext("Facing"),
            "towards_the_finish": gettext("towards the finish"),
            "towards_the_start": gettext("towards the start"),
            "place_the_ramp": gettext("Place the ramp"),
            "your_dice_tick": gettext("Your dice — tick the ones to keep"),
            "set_aside": gettext("set aside"),
            "keep": gettext("keep"),
            "second_chance": gettext("Second Chance: you may reroll any dice, even those set aside."),
            "kept_dice_stay": gettext("Kept dice stay set aside for the rest of the roll phase."),
            "these_dice_are_final": gettext("These dice are final"),
            "2_tokens": gettext("2 tokens"),
            "end_of_your_turn": gettext("End of your turn"),
            "handbrake": gettext("Handbrake: spend 3 tokens, turn round and stop"),
            "bury_your_mine_at": gettext("Bury your mine at"),
            "bury_the_mine": gettext("Bury the mine"),
            "sell_unused_dice": gettext("Sell unused dice for $100 each"),
            "sell": gettext("sell"),
            "don_mochico": gettext("Don Mochico: selling 2 or more dice forfeits your $200 allowance."),
            "end_the_turn": gettext("End the turn"),
            "shop": gettext("Shop"),
            "already_bought": gettext("you already bought a tile this turn"),
            "one_purchase": gettext("one purchase per turn; debt is allowed"),
            "empty": gettext("empty"),
            "tiles_and_piles": gettext("Tiles and piles"),
            "face_up_adventure_tiles": gettext("Face-up adventure tiles"),
            "discard_piles": gettext("Discard piles"),
            "adventure": gettext("Adventure:"),
            "bonus": gettext("Bonus:"),
            "resolve_the_dice": gettext("Resolve the dice: repairs and speed"),
            "spins": gettext("Durability 0: your car spins and stops!"),
            "reversed_car": gettext("Your car is reversed: it cannot speed up."),
            "quick_choices": gettext("Quick choices (fewest dice used, the rest can be sold):"),
            "choose_each_die": gettext("Or choose each die yourself:"),
            "unused_can_be_sold": gettext("unused (can be sold)"),
            "steps": gettext("steps"),
            "free_tokens_lower": gettext("free tokens"),
            "durability_lower": gettext("durability"),
            "confirm": gettext("Confirm"),
            "shoot": gettext("Shoot"),
            "fire": gettext("Fire"),
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
            "name": shown(board.get("turn_name", "")),
            "char": shown(board.get("turn_char", "")),
        }
    line = f'<p class="br-whose">\n{who}\n— {shown(board.get("stage", ""))}'
    if stage == "move":
        steps: int = turn.get("steps_left") or 0
        line += ": " + ngettext("%(n)s step left", "%(n)s steps left", steps) % {"n": shown(steps)}
    line += "\n"
    if stage in ("move", "after"):
        pool: int = turn.get("pool") or 0
        line += " · " + ngettext("%(n)s steering token", "%(n)s steering tokens", pool) % {"n": shown(pool)}
    line += "\n"
    if stage == "roll":
        used = {"used": shown(turn.get("rerolls")), "max": shown(turn.get("max_rerolls"))}
        line += " · " + gettext("rerolls %(used)s/%(max)s") % used
    line += "\n"
    if turn.get("pending_slowdown"):
        slowdown = gettext("caltrops: −%(n)s mph when the movement ends") % {"n": shown(turn["pending_slowdown"])}
        line += f' · <span class="br-warn">{slowdown}</span>'
    line += "\n"
    if turn.get("bought"):
        line += " · " + words["bought_this_turn"]
    line += "\n</p>\n"
    if view.get("prompt") and board.get("prompt_name"):
        choose = gettext("%(name)s must choose: %(q)s") % {
            "name": shown(board["prompt_name"]),
            "q": shown(board.get("prompt_question", "")),
        }
        line += f'<p class="br-whose br-warn">{choose}</p>'
    return line + "\n"


def _placing(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None, mine: str, theirs: str) -> str:
    """Whose turn it is to place an adventure tile or to choose a car: ``mine`` (translated) for the
    viewer's own, else ``theirs`` (a translated message naming the one acting)."""
    if view.get("active_seat") == seat:
        words = f'<strong class="br-you">{mine}</strong>'
    else:
        words = theirs % {"name": shown(board["active_name"])}
    return f'<p class="br-whose">{words}</p>\n'


def _phase_lines(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None) -> str:
    words = _words()
    phase = view.get("phase")
    if phase == "turn" and board.get("turn_name"):
        return _whose_turn(view, board, seat)
    if phase in ("adventure", "choose_car") and board.get("active_name"):
        if phase == "adventure":
            mine, theirs = words["place_adventure"], gettext("<strong>%(name)s</strong> is placing an adventure tile.")
        else:
            mine, theirs = words["choose_car"], gettext("<strong>%(name)s</strong> is choosing a car.")
        return _placing(view, board, seat, mine, theirs)
    if phase == "round_end":
        steps = "".join(
            f'<li class="{"current" if s.get("current") else "done" if s.get("done") else ""}">'
            f"{shown(s.get('name', ''))}</li>"
            for s in board.get("end_strip") or ()
        )
        return f'<ol class="br-endsteps" aria-label="{words["end_of_the_round"]}">\n{steps}\n</ol>\n'
    if phase == "over":
        over = words["the_race_is_over"]
        return f'<p class="br-whose"><strong>{over}</strong> {shown(board.get("end_reason", ""))}</p>\n'
    return ""


def status_line(context: Any) -> SafeString:
    """The status line (``#br-status``): the round and phase, whose turn it is and how far it got, the
    turn order, and who finished or was arrested. ``seat`` is the viewer's (``None``: a spectator)."""
    words = _words()
    view: Mapping[str, Any] = context.get("view") or {}
    board: Mapping[str, Any] = context.get("board") or {}
    seat = context.get("seat")
    round_no = view.get("round")
    headline = f"<strong>{gettext('Round %(n)s') % {'n': shown(round_no)}}</strong> · " if round_no else ""
    out = [
        '<div class="br-status" role="status">\n<p class="br-headline">\n',
        f"{headline}{shown(board.get('phase', ''))}\n",
        f'<span class="br-mode">· {shown(board.get("mode", ""))}</span>\n</p>\n',
        _phase_lines(view, board, seat),
    ]
    if board.get("order"):
        order = order_items(board["order"])
        out.append(f'<ol class="br-order" aria-label="{words["turn_order_this_round"]}">\n{order}\n</ol>\n')
    if board.get("finish"):
        chips = "".join(
            f'<span class="br-chip gold">{shown(f.get("place", ""))}. {shown(f.get("name", ""))}</span> '
            for f in board["finish"]
        )
        out.append(f'<p class="br-finish">{words["finish_order"]} {chips}</p>\n')
    if board.get("arrested"):
        chips = "".join(f'<span class="br-chip">{shown(f.get("name", ""))}</span> ' for f in board["arrested"])
        out.append(f'<p class="br-finish">{words["arrested"]} {chips}</p>\n')
    out.append("</div>")
    return SafeString("".join(out))


def _gauges(p: Mapping[str, Any]) -> str:
    words = _words()
    pool = ""
    if p.get("pool") is not None:
        pool = (
            f'<div title="{words["steering_tokens_left_this"]}">'
            f'<span class="br-label">{words["pool"]}</span> <strong>{shown(p["pool"])}</strong></div>'
        )
    return (
        '<div class="br-gauges">\n'
        f'<div class="br-speed-gauge" title="{words["speed"]}">\n'
        f'<span class="br-label">{words["speed"]}</span>\n'
        f'<span class="br-speed-bar" aria-hidden="true">{speed_bar(p.get("speed_steps") or [])}</span>\n'
        f"<strong>{shown(p.get('speed', ''))}</strong> mph\n</div>\n"
        f'<div title="{words["free_steering_tokens_at"]}">'
        f'<span class="br-label">{words["free_tokens"]}</span> '
        f"<strong>{shown(p.get('free_tokens', ''))}</strong></div>\n"
        f"{pool}\n"
        f'<div class="br-dur" title="{words["durability"]}">\n'
        f'<span class="br-label">{words["durability"]}</span>\n'
        f'<span class="br-pips" aria-hidden="true">{pips(p.get("pips") or [])}</span>\n'
        f"<strong>{shown(p.get('durability', ''))}/{shown(p.get('max_durability', ''))}</strong>\n</div>\n</div>\n"
    )


def _car_state(p: Mapping[str, Any]) -> str:
    words = _words()
    line = f"<span>{shown(p.get('status_text', ''))}</span>"
    if p.get("reversed"):
        line += f' · <span class="br-warn">{words["reversed"]}</span>'
    if p.get("leg"):
        line += f" · {shown(p['leg'])}"
    line += f"\n· <span>{shown(p.get('ramp_text', ''))}</span>"
    if p.get("turn_pos"):
        line += " · " + gettext("turn order %(n)s") % {"n": shown(p["turn_pos"])}
    return f'<p class="br-state">\n{line}\n</p>\n'


def _tiles(p: Mapping[str, Any]) -> str:
    if not (p.get("tiles") or p.get("active_tiles")):
        return ""
    held = "".join(
        f'<span class="br-chip {shown(t.get("colour", ""))}" title="{shown(t.get("effect", ""))} '
        f'({shown(t.get("colour_name", ""))}: {shown(t.get("colour_hint", ""))})">{shown(t.get("name", ""))}</span> '
        for t in p.get("tiles") or ()
    )
    active = "".join(
        f'<span class="br-chip blue active" title="{shown(t.get("effect", ""))}">⚡ {shown(t.get("name", ""))}</span> '
        for t in p.get("active_tiles") or ()
    )
    return f'<p class="br-tiles">\n{held}\n{active}\n</p>\n'


def dashboard(p: Mapping[str, Any]) -> SafeString:
    """A car's dashboard (``#br-dash-<seat>``), from its entry of the board model's ``players``: its
    driver and character, balance, speed, steering tokens, durability, state and tiles. The same for
    every viewer (the viewer's own is marked "yours" around it, in the board's shell)."""
    words = _words()
    classes = (" active" if p.get("active") else "") + (" off" if p.get("status") not in ("board", "none") else "")
    label = gettext("Dashboard of %(name)s") % {"name": shown(p.get("name", ""))}
    marks = ' <span class="br-turnmark">' + words["acting"] + "</span>" if p.get("active") else ""
    if p.get("resigned"):
        marks += f" <em>({words['resigned']})</em>"
    colour = f" <small>({shown(p['colour_name'])})</small>" if p.get("colour_name") else ""
    debt = f"<small>{words['debt']}</small>" if p.get("debt") else ""
    fill, number = shown(p.get("fill", "")), shown(p.get("number", ""))
    header = (
        "<header>\n"
        '<svg class="br-mini-car" viewBox="0 0 40 40" aria-hidden="true"><use href="#br-s-car" width="40" height="40" '
        f'fill="{fill}" stroke="{shown(p.get("outline", ""))}" stroke-width="1.5"/>'
        f'<text x="20" y="27" text-anchor="middle" fill="{shown(p.get("ink", ""))}" font-size="14" font-weight="700">'
        f"{number}</text></svg>\n"
        f"<div>\n<strong>{shown(p.get('name', ''))}</strong> "
        f'<span class="badge br-own">{words["you"]}</span>{marks}\n'
        f'<div class="br-char" title="{shown(p.get("ability", ""))}">#{number} · {shown(p.get("char_name", ""))}'
        f"{colour}</div>\n</div>\n"
        f'<div class="br-balance{" debt" if p.get("debt") else ""}" title="{words["balance"]}">'
        f"{shown(p.get('balance_text', ''))}{debt}</div>\n</header>\n"
    )
    return SafeString(
        f'<article id="br-dash-{shown(p.get("seat", ""))}" class="br-dash{classes}" style="--car:{fill}" '
        f'aria-label="{label}">\n{header}{_gauges(p)}{_car_state(p)}{_tiles(p)}</article>'
    )


# --- the action panel (``#br-act``) -----------------------------------------------------------------


def _dice_tray(view: Mapping[str, Any], board: Mapping[str, Any], seat: int | None) -> str:
    """The dice of the seat taking its turn, for everyone else (and for it while it cannot reroll)."""
    if (view.get("turn") or {}).get("seat") == seat:
        whose = _words()["your_dice"]
    else:
        whose = gettext("%(name)s's dice") % {"name": shown(board.get("turn_name", ""))}
    dice = "".join(die(d) for d in board.get("tray") or ())
    return (
        f'<section class="br-panel br-tray" aria-label="{_words()["dice"]}">\n'
        f'<h3>{whose}</h3>\n<div class="br-dice">{dice}</div>\n</section>\n'
    )


class _Forms:
    """An action form's opening attributes and hidden fields (``{% action_form_attrs %}``,
    ``{% action_fields payload %}``) in the panel's context."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.attrs = action_form_attrs(context)

    def fields(self, payload: Any) -> str:
        return str(action_fields(self.context, payload))

    def button(self, payload: Any, label: str, *, form_id: str = "", style: str = "btn", attrs: str = "") -> str:
        """A form of one submit button sending ``payload``: ``style`` is the button's classes,
        ``attrs`` its further attributes, ``label`` its (escaped) contents."""
        ident = f' id="{form_id}"' if form_id else ""
        return (
            f'<form {self.attrs}{ident} class="action-form">{self.fields(payload)}'
            f'<button type="submit" class="{style}"{attrs}>{label}</button></form>'
        )


def _cell_form(forms: _Forms, form_id: str, place: Mapping[str, Any], label: str, button: str, extra: str = "") -> str:
    """The form that places something (the ramp, the mine) on a cell picked from ``place``'s
    ``options_html``, its fields before ``button`` (the ramp's facing: ``extra``)."""
    return (
        f'<form {forms.attrs} id="{form_id}" class="br-form br-inline" data-place="cell">'
        f"{forms.fields(place.get('payload'))}\n"
        f'<label class="br-field">{label}\n'
        f'<select name="cell" data-hl-select>{shown(place.get("options_html", ""))}</select></label>\n'
        f'{extra}<button type="submit" class="btn">{button}</button>\n</form>\n'
    )


def _panel(title: str, body: str) -> str:
    """A section of the action panel: its heading ``title``, then ``body``."""
    return f'<section class="br-panel">\n<h3>{title}</h3>\n{body}</section>\n'


def _start_of_turn(act: Mapping[str, Any], forms: _Forms) -> str:
    words = _words()
    out = ""
    if act.get("roll"):
        face = (
            '<svg class="br-face" viewBox="0 0 40 40" aria-hidden="true">'
            '<use href="#br-f-DAMAGE" width="40" height="40"/></svg>'
        )
        roll = forms.button(
            act["roll"], f"{face} {words['roll_the_5_dice']}", form_id="br-roll", style="btn primary br-big"
        )
        out += roll + "\n"
    ramp = act.get("ramp")
    if ramp:
        facing = ""
        if ramp.get("closed"):
            facing = (
                f'<label class="br-field">{words["facing"]} <select name="dir">'
                f'<option value="1">{words["towards_the_finish"]}</option>'
                f'<option value="-1">{words["towards_the_start"]}</option></select></label>\n'
            )
        out += _cell_form(forms, "br-ramp", ramp, words["place_your_ramp_first"], words["place_the_ramp"], facing)
    return _panel(words["start_of_your_turn"], out)


def _reroll(reroll: Mapping[str, Any], forms: _Forms) -> str:
    words = _words()
    picks = []
    for d in reroll.get("dice") or ():
        index = shown(d.get("index", ""))
        if d.get("locked"):
            stays = gettext("Die #%(n)s stays set aside") % {"n": shown(d.get("number", ""))}
            keep = (
                f'<input type="hidden" name="keep[]" value="{index}">'
                f'<input type="checkbox" checked disabled aria-label="{stays}"> {words["set_aside"]}'
            )
        else:
            checked = " checked" if d.get("kept") else ""
            keep = f'<input type="checkbox" name="keep[]" value="{index}"{checked}> {words["keep"]}'
        picks.append(f'<label class="br-die-pick">{die(d)}\n<span class="br-keep">{keep}</span>\n</label>\n')
    left: int = reroll.get("left") or 0
    again = ngettext("Reroll the others (%(n)s reroll left)", "Reroll the others (%(n)s rerolls left)", left)
    hint = words["second_chance"] if reroll.get("free") else words["kept_dice_stay"]
    return (
        f'<form {forms.attrs} id="br-reroll" class="br-panel br-tray">{forms.fields(reroll.get("payload"))}\n'
        f'<h3>{words["your_dice_tick"]}</h3>\n<div class="br-dice">\n{"".join(picks)}</div>\n'
        f'<p class="br-hint">{hint}</p>\n'
        f'<div class="row">\n<button type="submit" class="btn">{again % {"n": shown(left)}}</button>\n'
        "</div>\n</form>\n"
    )


def _finalize(payload: Any, forms: _Forms) -> str:
    final = forms.button(payload, _words()["these_dice_are_final"], form_id="br-finalize", style="btn primary")
    return f'<div class="row br-finalize">\n{final}\n</div>\n'


def _steps(view: Mapping[str, Any], steps: list[dict[str, Any]], forms: _Forms) -> str:
    words = _words()
    turn = view.get("turn") or {}
    left: int = turn.get("steps_left") or 0
    pool: int = turn.get("pool") or 0
    drive = ngettext("Drive: %(n)s step left", "Drive: %(n)s steps left", left) % {"n": shown(left)}
    tokens = ngettext("%(n)s steering token", "%(n)s steering tokens", pool) % {"n": shown(pool)}
    buttons = []
    for s in steps:
        primary = " primary" if (s.get("payload") or {}).get("dir") == "STRAIGHT" else ""
        lit = f' data-hl="{shown(s.get("lane", ""))},{shown(s.get("row", ""))}"' if s.get("on_bridge") else ""
        cost = f" · {words['2_tokens']}" if s.get("cost") else ""
        hint = f"<em>{shown(s['hint'])}</em>" if s.get("hint") else ""
        buttons.append(
            f'<form {forms.attrs} id="{shown(s.get("form_id", ""))}" class="action-form">'
            f"{forms.fields(s.get('payload'))}\n"
            f'<button type="submit" class="btn br-step{primary}"{lit}>\n'
            f'<span class="br-arrow" aria-hidden="true">{shown(s.get("arrow", ""))}</span> '
            f"{shown(s.get('name', ''))}\n"
            f"<small>{shown(s.get('cell', ''))}{cost}</small>\n{hint}\n</button>\n</form>\n"
        )
    return _panel(f"{drive}\n<small>· {tokens}</small>", f'<div class="br-steps">\n{"".join(buttons)}</div>\n')


def _end_of_turn(act: Mapping[str, Any], forms: _Forms) -> str:
    words = _words()
    out = ""
    if act.get("handbrake"):
        out += forms.button(act["handbrake"], words["handbrake"]) + "\n"
    mine = act.get("mine")
    if mine:
        out += _cell_form(forms, "br-mine", mine, words["bury_your_mine_at"], words["bury_the_mine"])
    end = act.get("end_turn")
    if end:
        sale = ""
        if end.get("dice"):
            picks = "".join(
                f'<label class="br-die-pick">{die(d)}<span class="br-keep"><input type="checkbox" name="sell[]" '
                f'value="{shown(d.get("index", ""))}" checked> {words["sell"]}</span></label>\n'
                for d in end["dice"]
            )
            mochico = f'<p class="br-hint">{words["don_mochico"]}</p>' if end.get("mochico") else ""
            sale = (
                f'<fieldset class="br-sell">\n<legend>{words["sell_unused_dice"]}</legend>\n'
                f'<div class="br-dice">\n{picks}</div>\n</fieldset>\n{mochico}\n'
            )
        out += (
            f'<form {forms.attrs} id="br-end" class="br-form" data-endturn>{forms.fields(end.get("payload"))}\n'
            f'{sale}<button type="submit" class="btn primary">{words["end_the_turn"]} '
            '<output data-out="sell"></output></button>\n</form>\n'
        )
    return _panel(words["end_of_your_turn"], out)


def _resolve(r: Mapping[str, Any], forms: _Forms) -> str:
    """Resolving the dice (R-29: repairs, damage, speed changes): quick choices and a form per die."""
    words = _words()
    notes = ""
    if r.get("cancelled"):
        n = r["cancelled"]
        cancels = ngettext("%(n)s repair/damage pair cancels.", "%(n)s repair/damage pairs cancel.", n)
        notes += cancels % {"n": shown(n)} + " "
    notes += "\n"
    if r.get("damage"):
        n = r["damage"]
        takes = ngettext("Your car takes %(n)s damage.", "Your car takes %(n)s damage.", n)
        notes += f'<span class="br-warn">{takes % {"n": shown(n)}}</span> '
    notes += "\n"
    if r.get("spin"):
        notes += f'<span class="br-warn">{words["spins"]}</span> '
    notes += "\n"
    if r.get("reversed"):
        notes += words["reversed_car"]
    quick = ""
    if r.get("quick"):
        buttons = "".join(str(action_button(forms.context, q["payload"], q["label"], "btn small")) for q in r["quick"])
        quick = f'\n<p class="br-hint">{words["quick_choices"]}</p>\n<div class="row br-quick">{buttons}</div>\n'
    repairs = "".join(
        f'\n<label class="br-check"><input type="checkbox" name="repair[]" value="{shown(rep.get("index", ""))}" '
        f'data-units="{shown(rep.get("units", ""))}"> {shown(rep.get("label", ""))}</label>\n'
        for rep in r.get("repairs") or ()
    )
    adjusts = []
    for a in r.get("adjusts") or ():
        index, label = shown(a.get("index", "")), shown(a.get("label", ""))
        double = a.get("weight") == 2
        adjusts.append(
            f'\n<label class="br-field">{label}\n<select name="adjust[]" data-adjust="{index}" '
            f'data-weight="{shown(a.get("weight", ""))}" aria-label="{label}">\n'
            f'<option value="unused">{words["unused_can_be_sold"]}</option>\n'
            f'<option value="{index}:+10">{"+20 mph" if double else "+10 mph"}</option>\n'
            f'<option value="{index}:-10">{"−20 mph" if double else "−10 mph"}</option>\n</select></label>\n'
        )
    base, dur_after, most = shown(r.get("base", "")), shown(r.get("dur_after", "")), shown(r.get("max", ""))
    return (
        f'\n\n<section class="br-panel br-resolve-panel">\n<h3>{words["resolve_the_dice"]}</h3>\n<p>{notes}</p>\n'
        f"{quick}\n"
        f'<form {forms.attrs} id="br-resolve" class="br-form" data-resolve data-base="{base}" '
        f'data-reversed="{"1" if r.get("reversed") else "0"}" data-dur="{dur_after}" data-max="{most}" '
        f'data-tokens="{shown(r.get("tokens", ""))}">{forms.fields(r.get("payload"))}\n'
        f'<p class="br-hint">{words["choose_each_die"]}</p>\n{repairs}\n{"".join(adjusts)}\n'
        f'<p class="br-preview" aria-live="polite">{words["speed"]} <output data-out="speed">{base}</output> mph\n'
        f'· {words["steps"]} <output data-out="mp">?</output>\n'
        f'· {words["free_tokens_lower"]} <output data-out="free">?</output>\n'
        f'· {words["durability_lower"]} <output data-out="dur">{dur_after}</output>/{most}</p>\n'
        '<p class="br-warn" data-out="error" hidden></p>\n'
        f'<button type="submit" class="btn primary">{words["confirm"]}</button>\n</form>\n</section>\n\n'
    )


def _shots(shots: Sequence[Mapping[str, Any]], forms: _Forms) -> str:
    """Shooting (R-53): a button per shoot die with one direction, else a form choosing the direction."""
    words = _words()
    out = [f'\n\n<section class="br-panel">\n<h3>{words["shoot"]}</h3>\n']
    for sh in shots:
        dirs = sh.get("dirs") or []
        number = shown(sh.get("number", ""))
        if len(dirs) == 1:
            d = dirs[0]
            fire = gettext("Fire die #%(n)s %(dir)s") % {"n": number, "dir": shown(d.get("name", ""))}
            face = (
                '<svg class="br-face inline face-SHOOT" viewBox="0 0 40 40" aria-hidden="true">'
                '<use href="#br-f-SHOOT" width="40" height="40"/></svg>'
            )
            label = f"{face} {fire} <small>{shown(d.get('hint', ''))}</small>"
            ray = f' data-ray="{shown(d.get("ray", ""))}"'
            branch = f"\n\n{forms.button(d.get('payload'), label, attrs=ray)}\n\n"
        else:
            options = "".join(
                f'<option value="{shown(d.get("value", ""))}" data-ray="{shown(d.get("ray", ""))}">'
                f"{shown(d.get('name', ''))} — {shown(d.get('hint', ''))}</option>"
                for d in dirs
            )
            direction = gettext("Die #%(n)s: direction") % {"n": number}
            branch = (
                f'\n<form {forms.attrs} class="br-form br-inline">{forms.fields(sh.get("payload"))}\n'
                f'<label class="br-field">{direction}\n<select name="dir" data-ray-select>{options}</select></label>\n'
                f'<button type="submit" class="btn">{words["fire"]}</button>\n</form>\n'
            )
        out.append(f"\n{branch}\n")
    out.append("\n</section>\n\n")
    return "".join(out)


_PARTIALS = "games/bridge_race/_actions.html#"


def _partial(context: Any, name: str, act: Mapping[str, Any]) -> str:
    """One of the panel's rarer sections, from its template (``_actions.html``), in the panel's context."""
    with context.push(act=act):
        return str(context.template.engine.get_template(_PARTIALS + name).render(context))


def _actions(context: Any, view: Mapping[str, Any], board: Mapping[str, Any]) -> str:
    """The acting seat's controls, a section per kind of action it may take, in the order of a turn."""
    act: Mapping[str, Any] = board.get("act") or {}
    forms = _Forms(context)
    out = [f'<div class="br-actions" id="br-actions" aria-label="{_words()["your_actions"]}">\n']
    for name in ("choose", "choose_car", "adventure"):
        if act.get(name):
            out.append(_partial(context, name, act))
    if act.get("roll") or act.get("ramp"):
        out.append(_start_of_turn(act, forms))
    if act.get("reroll"):
        out.append(_reroll(act["reroll"], forms))
    elif board.get("tray"):
        out.append(_dice_tray(view, board, context.get("seat")))
    if act.get("finalize"):
        out.append(_finalize(act["finalize"], forms))
    if act.get("resolve"):
        out.append(_resolve(act["resolve"], forms))
    if act.get("steps"):
        out.append(_steps(view, act["steps"], forms))
    if act.get("shots"):
        out.append(_shots(act["shots"], forms))
    if act.get("handbrake") or act.get("mine") or act.get("end_turn"):
        out.append(_end_of_turn(act, forms))
    if act.get("uses") or act.get("pay_repair"):
        out.append(_partial(context, "uses", act))
    out.append("</div>\n")
    return "".join(out)


def action_panel(context: Any) -> SafeString:
    """The action panel (``#br-act``): the viewer's controls on its turn, else the dice of the seat
    taking its turn. The common sections are written here; the rarer ones render their partials."""
    view: Mapping[str, Any] = context.get("view") or {}
    board: Mapping[str, Any] = context.get("board") or {}
    if board.get("my_turn"):
        jump = f'<a class="br-jump" id="br-jump" href="#br-side">{_words()["your_actions_jump"]}</a>\n'
        return SafeString(jump + _actions(context, view, board))
    if board.get("tray"):
        return SafeString(_dice_tray(view, board, context.get("seat")))
    return SafeString("")


# --- the shop and the piles (``#br-shop``) ----------------------------------------------------------


def _slot(context: Any, s: Mapping[str, Any]) -> str:
    words = _words()
    tile = s.get("tile")
    if not tile:
        body = f'<small class="muted">{words["empty"]}</small>\n'
        colour = " empty"
    else:
        colour = f" {shown(tile.get('colour', ''))}"
        buy = ""
        if s.get("can_buy"):
            label = gettext("Buy (into debt)") if s.get("debt") else gettext("Buy")
            buy = str(action_button(context, s["payload"], label, "btn small primary"))
        body = (
            f'<strong class="br-slot-name">{shown(tile.get("name", ""))}</strong>\n'
            f'<small class="br-slot-colour">{shown(tile.get("colour_name", ""))} · '
            f"{shown(tile.get('colour_hint', ''))}</small>\n"
            f'<small class="br-effect">{shown(tile.get("effect", ""))}</small>\n{buy}\n'
        )
    return (
        f'<li class="br-slot{colour}">\n<span class="br-price">{shown(s.get("price_text", ""))}</span>\n{body}</li>\n'
    )


def _piles(view: Mapping[str, Any], board: Mapping[str, Any]) -> str:
    words = _words()
    out = f'<section class="br-panel br-piles-panel" aria-label="{words["tiles_and_piles"]}">\n'
    if board.get("face_up"):
        tiles = "".join(
            f'<li title="{shown(t.get("effect", ""))}"><svg viewBox="0 0 40 40" aria-hidden="true">'
            f'<use href="#br-s-{shown(t.get("kind", ""))}" width="40" height="40"/></svg>'
            f"{shown(t.get('label', ''))} <small>{shown(t.get('id', ''))}</small></li>"
            for t in board["face_up"]
        )
        out += f'<h3>{words["face_up_adventure_tiles"]}</h3>\n<ul class="br-faceup">\n{tiles}\n</ul>\n'
    adventure = gettext("Adventure pile: %(n)s · discarded: %(d)s") % {
        "n": shown(view.get("adventure_pile_size")),
        "d": len(view.get("adventure_discard") or ()),
    }
    bonus = ""
    if view.get("mode") != "first_game":
        bonus = "<br>" + gettext("Bonus pile: %(n)s · discarded: %(d)s") % {
            "n": shown(view.get("bonus_pile_size")),
            "d": len(view.get("bonus_discard") or ()),
        }
    out += f'<p class="br-pilesizes">\n{adventure}\n{bonus}\n</p>\n'
    adventure_discard, bonus_discard = board.get("adventure_discard"), board.get("bonus_discard")
    if adventure_discard or bonus_discard:
        out += f"<details><summary>{words['discard_piles']}</summary>\n"
        if adventure_discard:
            out += f"<p>{words['adventure']} {', '.join(shown(name) for name in adventure_discard)}</p>\n"
        if bonus_discard:
            out += f"<p>{words['bonus']} {', '.join(shown(name) for name in bonus_discard)}</p>\n"
        out += "</details>\n"
    return out + "</section>"


def shop_panel(context: Any) -> SafeString:
    """The shop (``#br-shop``): its slots with a buy button on those the viewer may buy (one purchase
    a turn), then the face-up adventure tiles and the piles' sizes and discards (R-89: all public)."""
    view: Mapping[str, Any] = context.get("view") or {}
    board: Mapping[str, Any] = context.get("board") or {}
    out = ""
    if view.get("mode") != "first_game":
        words = _words()
        turn = view.get("turn") or {}
        if turn.get("bought") and turn.get("seat") == context.get("seat"):
            note = words["already_bought"]
        else:
            note = words["one_purchase"]
        slots = "".join(_slot(context, s) for s in board.get("shop") or ())
        out = (
            f'<section class="br-panel br-shop" aria-label="{words["shop"]}">\n'
            f'<h3>{words["shop"]} <small>· {note}</small></h3>\n<ol class="br-slots">\n{slots}</ol>\n</section>\n'
        )
    return SafeString(out + _piles(view, board))
