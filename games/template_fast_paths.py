"""Two fast paths through Django's template engine, for what a board's fragments render most.

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
"""

from __future__ import annotations

import html
from typing import Any

from django.template import base
from django.template.base import FilterExpression, Variable
from django.template.context import Context
from django.templatetags.i18n import TranslateNode
from django.utils import translation
from django.utils.safestring import SafeString

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
    key = (translation.get_language(), bool(context.autoescape))
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


def install() -> None:
    """Install both fast paths (called once, when the app is ready). ``VariableNode`` finds the value
    renderer in its module's globals; the translate tag is a method of its node."""
    if base.render_value_in_context is render_value_in_context:
        return
    TranslateNode.render = render  # type: ignore[method-assign, assignment]  # a function, bound as a method
    base.render_value_in_context = render_value_in_context
