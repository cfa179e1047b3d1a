"""``{% translate "…" %}`` of a constant text, translated once per language instead of at each render.

Django's ``TranslateNode`` looks its text up in the catalogue every time it renders: a catalogue
search through the active translation (a context-local lookup) and an escape. A board fragment
holds a dozen such labels ("Speed", "Durability", "you"), and a bridge_race move renders about six
fragments for its five seats: those lookups were a third of a dashboard's render. A constant text
translates to the same words for as long as the process runs (the catalogues are read once), so its
node keeps what it rendered for each language (and escaping mode) and renders that again.

Only the plain form is kept: a quoted text with no filters, no ``noop``, no ``as`` and no
``context``; every other form renders as Django renders it.
"""

from __future__ import annotations

from django.template.base import FilterExpression, Variable
from django.template.context import Context
from django.templatetags.i18n import TranslateNode
from django.utils import translation

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


def install() -> None:
    """Have every constant ``{% translate %}`` kept per language (called once, when the app is ready)."""
    TranslateNode.render = render  # type: ignore[method-assign, assignment]  # a function, bound as a method
