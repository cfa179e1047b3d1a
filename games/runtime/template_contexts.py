"""A kept board's template context, bound as Django's backend binds one, only when needed.

A kept board renders its fragments alone (:mod:`games.push.shell_memo`), in the board's template
context bound as a walk of the board binds it, so that an ``{% include %}`` in a fragment resolves.
That binding is what the backend's ``Template.render`` does, by steps Django keeps undocumented
(``make_context``, ``RenderContext.push_state``, ``Context.bind_template``, the backend wrapper's
``template`` and ``backend.engine``). Most kept boards render none of their fragments, so the
binding is made on the first fragment that needs it (docs/decisions/0006-shell-memo.md).
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from django.template.context import make_context


class TemplateBinding:
    """A template's context bound as the backend's ``Template.render`` binds it, made on the first
    :meth:`bound`; :meth:`close` unbinds it."""

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
