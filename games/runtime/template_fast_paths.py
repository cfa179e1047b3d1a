"""Three fast paths through Django's template engine, for what a board's fragments render most.

Each gives exactly what Django's own code gives (tested side by side); only the work differs.
They are installed when the app is ready, over the functions Django's nodes call.

**A constant ``{% translate "…" %}``, translated once per language.** Django's ``TranslateNode``
looks its text up in the catalogue every time it renders: a search through the active translation
(a context-local lookup) and an escape. A board fragment
holds a dozen such labels ("Speed", "Durability", "you"), and a bridge_race move renders about six
fragments for its five seats: those lookups were a third of a dashboard's render. A constant text
translates to the same words for as long as the process runs (the catalogues are read once), so its
node keeps what it rendered for each language (and escaping mode) and renders that again.

Only the plain form is kept: a quoted text with no filters, no ``noop``, no ``as`` and no
``context``; every other form renders as Django renders it.

**A string value, escaped without the round of checks.** ``{{ value }}`` goes through
``render_value_in_context``: a time-zone check, a locale check, then ``conditional_escape`` and its
lazy-string wrapper, for each of the thirty-odd values of a shop panel (a third of its render). A
value that is a plain ``str`` or a ``SafeString`` passes those checks unchanged, so it is escaped (or
not) at once; any other value takes Django's way.

**A ``{% blocktranslate %}`` message looked up once per language (and count).** Django's
``BlockTranslateNode`` rebuilds its message from its tokens and looks it up in the catalogue at every
render, though both are the same each time for a language (and, with ``count``, for a number). A
bridge_race status line holds half a dozen such messages. The node keeps the translated message
and the names it reads; the values are put in as Django puts them. Only the forms without
``context`` and ``as``; those, a ``count`` that is not a number and a message that does not format
render as Django renders them.
"""

from __future__ import annotations

import html
from decimal import Decimal
from typing import Any

from django.template import base
from django.template.base import FilterExpression, Variable
from django.template.context import Context
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils import translation
from django.utils.safestring import SafeString

from games.push.speaking import current_language

_django_render = TranslateNode.render
_KEPT = "_hideout_kept"  # the attribute of a node holding its renders: {(language, autoescape): text}


def _constant(node: TranslateNode) -> bool:
    expression = node.filter_expression
    return (
        not node.noop
        and node.asvar is None
        and node.message_context is None
        and isinstance(expression, FilterExpression)
        and not expression.filters
        and isinstance(expression.var, Variable)
        and expression.var.lookups is None  # a quoted text, not a variable
    )


def render(node: TranslateNode, context: Context) -> str:
    if not _constant(node):
        rendered: str = _django_render(node, context)
        return rendered
    kept: dict[tuple[str | None, bool], str] = node.__dict__.setdefault(_KEPT, {})
    key = (current_language(), bool(context.autoescape))
    text = kept.get(key)
    if text is None:
        text = kept[key] = _django_render(node, context)
    return text


_django_value = base.render_value_in_context


def render_value_in_context(value: Any, context: Context) -> str:
    """``django.template.base.render_value_in_context``, at once for a ``str`` or a ``SafeString``."""
    kind = type(value)
    if kind is SafeString:
        return value
    if kind is str:
        return SafeString(html.escape(value)) if context.autoescape else value
    return _django_value(value, context)


_django_block_render = BlockTranslateNode.render
_KEPT_BLOCK = "_hideout_kept_messages"  # {(language, count): (translated message, the names it reads)}
_COUNTS_KEPT = 64  # per node: a count is a number of steps or tokens, never many different ones


def block_render(node: BlockTranslateNode, context: Context, nested: bool = False) -> str:
    """``BlockTranslateNode.render``, with the message translated once per language and count."""
    if nested or node.message_context is not None or node.asvar is not None:
        rendered: str = _django_block_render(node, context, nested)
        return rendered
    counter, countervar = node.counter, node.countervar
    counted = False
    context.update({var: value.resolve(context) for var, value in node.extra_context.items()})
    count: Any = None
    if node.plural and countervar and counter is not None:
        counted = True
        count = counter.resolve(context)
        if not isinstance(count, Decimal | float | int):
            context.pop()
            refused: str = _django_block_render(node, context)  # which says what is wrong
            return refused
        context[countervar] = count
    kept: dict[tuple[str | None, Any], tuple[str, tuple[str, ...]]] = node.__dict__.setdefault(_KEPT_BLOCK, {})
    key = (current_language(), count)
    message = kept.get(key)
    if message is None:
        singular, names = node.render_token_list(node.singular)
        if counted:
            plural, plural_names = node.render_token_list(node.plural)
            text = translation.ngettext(singular, plural, count)
            names.extend(plural_names)
        else:
            text = translation.gettext(singular)
        message = (text, tuple(names))
        if len(kept) < _COUNTS_KEPT:
            kept[key] = message
    text, wanted = message
    default = context.template.engine.string_if_invalid if context.template is not None else ""
    data = {}
    for name in wanted:
        if name in context:
            value = context[name]
        else:
            value = default % name if "%s" in default else default
        data[name] = render_value_in_context(value, context)
    context.pop()
    try:
        return text % data
    except (KeyError, ValueError):  # a translation that does not format: Django's way, with its fallback
        fallback: str = _django_block_render(node, context)
        return fallback


def install() -> None:
    """Install the fast paths (called once, when the app is ready). ``VariableNode`` finds the value
    renderer in its module's globals; the translate tags are methods of their nodes."""
    if base.render_value_in_context is render_value_in_context:
        return
    TranslateNode.render = render  # type: ignore[method-assign, assignment]  # a function, bound as a method
    BlockTranslateNode.render = block_render  # type: ignore[method-assign, assignment]
    base.render_value_in_context = render_value_in_context
