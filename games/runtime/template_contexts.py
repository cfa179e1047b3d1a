"""Django template contexts made the way Django's own code makes them, with fewer steps.

Both lean on what Django's template engine keeps undocumented: a ``Context``'s attributes, its
``_reset_dicts`` and its ``RenderContext``; and the steps by which the backend's ``Template.render``
binds a context to a template (``make_context``, ``RenderContext.push_state``,
``Context.bind_template``).

**A spectator's context beside a board's** (:func:`new_context`): a shared fragment is rendered
from the spectator's values in a context bound to the board's template (so that an
``{% include %}`` in it resolves). ``Context.new`` makes it through ``copy.copy``, whose general
path copies three times: made as ``Context.__copy__`` makes it, it costs 3.3 µs instead of 10.8
(docs/performance.md, section 34).

**A kept board's context bound only when needed** (:class:`TemplateBinding`): a kept board renders
its fragments alone (:mod:`games.push.shell_memo`), in the board's template context bound as a
walk of the board binds it; most kept boards render none of them, so the binding is made on the
first fragment that needs it.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from django import template
from django.template.context import RenderContext, make_context


def new_context(context: template.Context, values: dict[str, Any]) -> template.Context:
    """``context.new(values)``: a context holding only ``values``, bound to the same template. For a
    plain ``Context`` (a board's, :mod:`games.push.shell_memo`) made as its ``__copy__`` makes it,
    without the ``copy`` module's general path (its three copies cost three quarters of it)."""
    if type(context) is not template.Context:
        return context.new(values)
    new = template.Context.__new__(template.Context)
    new.__dict__.update(context.__dict__)
    render_context = RenderContext.__new__(RenderContext)
    render_context.__dict__.update(context.render_context.__dict__)
    render_context.dicts = context.render_context.dicts[:]
    new.render_context = render_context
    new._reset_dicts(values)  # type: ignore[attr-defined]  # BaseContext's, missing from the stubs
    return new


class TemplateBinding:
    """A template's context bound as the backend's ``Template.render`` binds it (so that an
    ``{% include %}`` in a fragment resolves), made on the first :meth:`bound`; :meth:`close`
    unbinds it."""

    def __init__(self, template: Any, context: dict[str, Any]) -> None:
        self._template = template
        self._context = context
        self._stack = ExitStack()
        self._bound: Any = None

    def bound(self) -> Any:
        if self._bound is None:
            proxy = self._template.template  # the backend's wrapper holds the partial
            bound = make_context(self._context, None, autoescape=self._template.backend.engine.autoescape)
            self._stack.enter_context(bound.render_context.push_state(proxy))
            self._stack.enter_context(bound.bind_template(proxy))
            self._bound = bound
        return self._bound

    def close(self) -> None:
        self._stack.close()
