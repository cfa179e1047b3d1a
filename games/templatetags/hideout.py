"""Template helpers shared by every game's board template.

``{% action_button payload label %}`` renders a one-button form that posts ``payload`` (a dict)
as the seat's action. For a form with inputs, write the ``<form {% action_form_attrs %}>`` yourself,
put ``{% action_fields payload %}`` inside it, and name your inputs after payload keys: their
values are merged into the payload.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from functools import lru_cache
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import FilterExpression, TextNode
from django.templatetags.l10n import LocalizeNode
from django.templatetags.static import static
from django.utils.safestring import SafeString

from games import boards
from games.boards import common as board_common
from games.boards.forms import action_button, action_fields, action_form_attrs
from games.boards.lookups import get, has_type, numbered, of_type
from games.play.bounded_cache import BoundedCache
from games.push import fragment_memo
from games.push.speaking import current_language

register = template.Library()

register.simple_tag(action_form_attrs, takes_context=True)
register.simple_tag(action_fields, takes_context=True)
register.simple_tag(action_button, takes_context=True)
register.filter(get)
register.filter(numbered)
register.filter(of_type)
register.filter(has_type)


@register.simple_tag
def static_url(path: str) -> str:
    """``{% static %}``, kept per path: every push renders each board's stylesheet link, and the
    storage's lookup (manifest, URL join, app registry) was a twentieth of a board's rendering."""
    return _static_url(path)


@lru_cache(maxsize=128)
def _static_url(path: str) -> str:
    return static(path)


@receiver(setting_changed)
def _static_settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting in ("STATIC_URL", "STORAGES", "STATIC_ROOT", "INSTALLED_APPS"):
        _static_url.cache_clear()


@register.simple_tag
def log_items(lines: list[dict[str, Any]]) -> SafeString:
    """The log's lines, newest first, as ``<li>`` items (a push renders every seat's log; a line's
    text is plain text, escaped as ``format_html`` would)."""
    return SafeString("".join(f"<li>{board_common.escape_text(line['text'])}</li>" for line in reversed(lines)))


@register.filter
def with_seat(items: Any, seat: Any) -> Any:
    """The item of ``items`` (dicts) whose ``"seat"`` is ``seat``:
    ``{% with p=board.players|with_seat:fragment_key %}``."""
    return next((item for item in items or () if item.get("seat") == seat), None)


@register.filter
def plus_one(value: int) -> int:
    return int(value) + 1


@register.simple_tag(takes_context=True)
def player_name(context: template.Context, seat: Any) -> str:
    return board_common.seat_name(context.get("names"), seat)


# --- fragments every viewer shares ------------------------------------------------------------------

_shared: BoundedCache[tuple[Any, ...], SafeString] = BoundedCache(1024, revision_keyed=True)


def _numbers_plain(nodelist: template.NodeList) -> template.NodeList:
    """``nodelist`` inside ``{% localize off %}``: a number is written as Python writes it.

    A board's numbers (money, counts, dice, coordinates, due times) read the same in both of the
    site's languages, which group no thousands and write a decimal point; asking the locale for its
    separators for each of them was 3 % of the calls in rendering a bridge_race board. Every
    fragment, shared or not, is parsed so, and every path that renders one (the page, a push, a
    kept shell) renders this node list, so they stay alike.
    """
    return template.NodeList([LocalizeNode(_compact(nodelist), use_l10n=False)])


_LINE_BREAK_IN_SPACE = re.compile(r"[ \t\r\n]*\n[ \t\r\n]*")


def _compact(nodelist: template.NodeList) -> template.NodeList:
    """``nodelist`` with each run of spaces that holds a line break cut to the line break.

    A browser shows such a run as one space (boards hold no preformatted text), so the page reads
    the same; a pushed fragment is sent without the templates' indentation, a tenth of a heist
    move's bytes. Done once, as the template is parsed. Translated text is not a ``TextNode``
    and is left alone (its catalogue entries must match).
    """
    for node in nodelist.get_nodes_by_type(TextNode):
        if isinstance(node, TextNode):  # for the type checker: it is one
            node.s = _LINE_BREAK_IN_SPACE.sub("\n", node.s)
    return nodelist


def render_language(context: template.Context | Mapping[str, Any]) -> str:
    """The language ``context`` is rendered in: what games.push.presenter.match_context wrote in it (the
    current language when it was built), else the current language."""
    found = context.get("render_language")
    return found if isinstance(found, str) else current_language()


def shared_html(
    context: template.Context, name: str, key_value: Any, nodelist: template.NodeList, values: Any
) -> SafeString:
    """``nodelist`` rendered from the spectator's context with ``shared_key``, once per match
    revision and language, without surrounding whitespace (see :class:`SharedFragmentNode`).
    ``values``: what the lookups read, the viewer's ``context`` or the same as one dict (see
    ``FragmentNode.fragment_html``)."""
    match = values.get("match")
    if match is None:  # a board drawn from a bare view (a preview, a test): no spectator but its own
        with context.push(shared_key=key_value):
            alone = nodelist.render(context)
        return SafeString(alone.strip())
    # The seed too: a reused primary key (a database flushed between tests, a restore) is another match.
    language = render_language(values)
    key = (match.id, match.seed, match.revision, language, name, key_value)
    html = _shared.get(key)
    if html is None:
        html = _render_shared(context, match, language, name, key_value, nodelist)
        _shared.put(key, html)
    return html


def _render_shared(
    context: template.Context, match: Any, language: str, name: str, key_value: Any, nodelist: template.NodeList
) -> SafeString:
    """The shared fragment ``name`` (``key_value``) from the spectator's context (a fragment's first
    viewer of a revision: each further one finds it in ``_shared``)."""
    from games.push.presenter import public_context

    public_values = public_context(match)

    def render() -> SafeString:
        public = context.new(public_values)
        public["shared_key"] = key_value
        html = nodelist.render(public)
        return SafeString(html.strip())

    inputs = boards.fragment_inputs(match.game, name)
    if inputs is None:
        return render()
    # The same panel as at an earlier revision is not rendered again.
    memo_key = (match.id, match.seed, language, "shared", name, key_value)
    return fragment_memo.rendered(memo_key, inputs(public_values, key_value), render)


def forget_shared() -> None:
    """Drop every shared or kept fragment of this process (tests start from nothing)."""
    _shared.clear()
    fragment_memo.forget()


def _name_and_key(parser: Any, bits: list[str], usage: str) -> tuple[str, FilterExpression | None]:
    if len(bits) not in (2, 3):
        raise template.TemplateSyntaxError(f"usage: {usage}")
    return bits[1].strip("\"'"), parser.compile_filter(bits[2]) if len(bits) == 3 else None


# --- named fragments of a board ------------------------------------------------------------------


class FragmentNode(template.Node):
    """``{% fragment "name" %}<div id="name">…</div>{% endfragment %}``: a part of the board pushed alone.

    Its content must be one element whose id is the fragment's name. When the push code renders a
    board it passes a dict as ``fragments`` in the context; each fragment records its HTML there,
    so a socket can be sent only the fragments that changed since its last update
    (:mod:`games.push.pushes`); the board then holds a placeholder in its place.
    ``{% fragment "name" key %}`` is one of a loop's: its name (and id) is ``name-key``. With
    ``{% fragment "name" key by_key %}`` it promises to read nothing of its loop but its key, as
    ``fragment_key`` (finding its item with it, e.g. ``board.players|with_seat:fragment_key``), so
    that it can be rendered without its loop (a kept shell, :mod:`games.push.shell_memo`).
    Fragments are never nested. A fragment whose game declares its inputs is rendered again only
    when they changed for its viewer (:mod:`games.push.fragment_memo`); so is a shared one.
    """

    def __init__(
        self, name: str, key: FilterExpression | None, nodelist: template.NodeList, *, by_key: bool = False
    ) -> None:
        self.name = name
        self.key = key
        self.nodelist = nodelist
        self.by_key = by_key

    def render(self, context: template.Context) -> SafeString:
        key_value = None if self.key is None else self.key.resolve(context)
        html = self._html(context, key_value, context)
        found = context.get("fragments")
        if isinstance(found, dict):
            # Split mode (games.push.shell_memo): the fragment goes to the dict and the board keeps a
            # placeholder, so the board comes out as its shell with no search to cut it.
            name = self.fragment_name(key_value)
            found[name] = html
            plan = context.get("fragment_plan")
            if isinstance(plan, list):
                plan.append((self, key_value, self._alone(context)))
            return SafeString(placeholder(name))
        return html

    def fragment_name(self, key_value: Any) -> str:
        return self.name if self.key is None else f"{self.name}-{key_value}"

    def fragment_html(
        self, context: template.Context, key_value: Any, values: Mapping[str, Any] | None = None
    ) -> SafeString:
        """The fragment alone, in ``context`` (the board's own: see :mod:`games.push.shell_memo`).

        ``values``: the same context as one plain dict, if the caller has it (a kept shell does): a
        kept fragment is found with a few lookups of it, cheaper than through the template
        context's levels. It is only read; the template context renders."""
        return self._html(context, key_value, context if values is None else values)

    def render_alone(self, context: template.Context, key_value: Any) -> SafeString:
        """The fragment rendered in ``context`` (the board's own), never kept: what a kept one is the copy of."""
        with context.push(fragment_key=key_value) if self.by_key else nullcontext():
            return SafeString(self.nodelist.render(context).strip())

    def _alone(self, context: template.Context) -> bool:
        """Whether the fragment reads nothing but the board's own context here: nothing a loop, a
        ``{% with %}`` or a tag's ``as`` put above it (an ``{% include %}`` pushes an empty level)."""
        if self.by_key:
            return True  # it reads its loop's item through its key (see the class)
        levels = context.dicts
        base = next((i for i, level in enumerate(levels) if "fragments" in level), len(levels))
        return not any(levels[base + 1 :])

    def _html(self, context: template.Context, key_value: Any, values: Any) -> SafeString:
        """The fragment, rendered in ``context`` unless kept; ``values`` is what its lookups read
        (``context`` itself, or the same context as one dict: see :meth:`fragment_html`)."""

        def render() -> SafeString:
            return self.render_alone(context, key_value)

        match = values.get("match")
        # A page answering a request carries a CSRF token and fresh keys in its forms: never kept.
        if match is None or values.get("request") is not None:
            return render()
        inputs = boards.fragment_inputs(match.game, self.name)
        if inputs is None:
            return render()
        memo_key = (*kept_key(values), self.name, key_value)
        return fragment_memo.rendered(memo_key, inputs(values, key_value), render)


class SharedFragmentNode(FragmentNode):
    """``{% shared_fragment "name" [key] %}<div id="name">…</div>{% endshared_fragment %}``: a fragment
    every viewer sees alike, the whole of it (its element too).

    It is rendered from the *spectator's* context (``presenter.public_context``), never from the
    viewer's own, so it cannot carry a secret; and it is rendered once per match revision and
    language, then reused for every seat: a push costs each further seat a lookup, not a walk of
    the fragment's template. ``key`` (one of a loop's, a seat's panel) is resolved in the viewer's
    context, and only it, as ``shared_key``, reaches the spectator's context, so it must be
    something every viewer may know (a seat number).
    """

    def _html(self, context: template.Context, key_value: Any, values: Any) -> SafeString:
        return shared_html(context, self.name, key_value, self.nodelist, values)

    def _alone(self, context: template.Context) -> bool:
        return True  # rendered from the spectator's context and its key, wherever it sits


class DrawnFragmentNode(FragmentNode):
    """``{% drawn_fragment "name" %}``: a fragment drawn whole by a Python function of the viewer's
    context (``games.boards.common.DRAWN_FRAGMENTS``), with no template of its own, and drawn on
    every render, never kept: a kept shell (:mod:`games.push.shell_memo`) draws it from its plain
    context, without binding the board's template context for it or digesting its inputs
    (decision 0019)."""

    def __init__(self, name: str, draw: Callable[[Any], SafeString]) -> None:
        super().__init__(name, None, template.NodeList())
        self.draw = draw

    def render_alone(self, context: template.Context, key_value: Any) -> SafeString:
        return self.draw(context)

    def _html(self, context: template.Context, key_value: Any, values: Any) -> SafeString:
        return self.draw(values)

    def _alone(self, context: template.Context) -> bool:
        return True  # it reads the viewer's context and nothing else


def kept_key(values: Mapping[str, Any]) -> tuple[Any, ...]:
    """The part of a kept fragment's key (:func:`games.push.fragment_memo.rendered`) that ``values`` (a
    viewer's context, with its match) give, before the fragment's name and loop key. One place for
    both ways a kept fragment is found: :meth:`FragmentNode._html` and :mod:`games.push.shell_memo`."""
    match = values["match"]
    return match.id, match.seed, render_language(values), kept_for(values)


def kept_for(values: Mapping[str, Any]) -> Any:
    """Whom a fragment rendered from ``values`` (a viewer's context) is kept for: its seat, or every
    viewer in a game whose views are all public (R-89 for bridge_race), whose fragments' inputs
    name the viewer where the fragment shows it (:func:`kept_key`): a key that named nobody in a game
    with secrets would hand one seat's panel to another."""
    rules = values.get("rules")
    return "any viewer" if rules is not None and rules.views_public is True else values.get("seat")


def placeholder(name: str) -> str:
    """Where fragment ``name`` sits in a board's shell."""
    return f"<!--fragment:{name}-->"


@register.tag("shared_fragment")
def shared_fragment(parser: Any, token: Any) -> SharedFragmentNode:
    usage = '{% shared_fragment "name" [key] %}…{% endshared_fragment %}'
    name, key = _name_and_key(parser, token.split_contents(), usage)
    nodelist = _numbers_plain(parser.parse(("endshared_fragment",)))
    parser.delete_first_token()
    return SharedFragmentNode(name, key, nodelist)


@register.tag("fragment")
def fragment(parser: Any, token: Any) -> FragmentNode:
    usage = '{% fragment "name" [key [by_key]] %}…{% endfragment %}'
    bits = token.split_contents()
    by_key = len(bits) == 4 and bits[-1] == "by_key"
    name, key = _name_and_key(parser, bits[:-1] if by_key else bits, usage)
    if by_key and key is None:
        raise template.TemplateSyntaxError(f"usage: {usage}")
    nodelist = _numbers_plain(parser.parse(("endfragment",)))
    parser.delete_first_token()
    return FragmentNode(name, key, nodelist, by_key=by_key)


@register.tag("drawn_fragment")
def drawn_fragment(parser: Any, token: Any) -> DrawnFragmentNode:
    bits = token.split_contents()
    name = bits[1].strip("\"'") if len(bits) == 2 else None
    if name not in board_common.DRAWN_FRAGMENTS:
        names = sorted(board_common.DRAWN_FRAGMENTS)
        raise template.TemplateSyntaxError(f'usage: {{% drawn_fragment "name" %}}, the name one of {names}')
    return DrawnFragmentNode(name, board_common.DRAWN_FRAGMENTS[name])


register.simple_tag(board_common.match_status, takes_context=True)
