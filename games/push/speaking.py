"""The language the site is rendering in, known without asking Django's translation machinery each time.

Django keeps the active language in an asgiref ``Local``: each ``translation.get_language()`` takes a
lock, reads a context variable and checks the thread, about 2 µs (twice that in a
``sync_to_async`` thread). A bridge_race move's pushes asked it about a hundred times: for every
seat's names, log, board model, memo keys and constant labels.

``speaking(language)`` activates ``language`` as ``translation.override`` does and also notes it in a
plain context variable, which :func:`current_language` reads first. The two agree because this site
switches language only through ``speaking``: ``games`` has no ``translation.override``, its
templates no ``{% language %}``, and the one ``activate`` (the profile's language, in
``games.web.middleware``) runs as a request starts, outside any block. Outside a block (a request's
pages) :func:`current_language` asks Django.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import translation

# (the language asked for, the language as Django names it once active: "zh-Hant" reads back "zh-hant")
_speaking: ContextVar[tuple[str, str] | None] = ContextVar("hideout_speaking", default=None)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """``translation.override(language)``, with :func:`current_language` told.

    Inside a ``speaking`` block of the same language it changes nothing: a move's pushes render
    each seat in its player's language inside the mover's, mostly the same one, and activating a
    language (twice: in and out) costs as much as a dozen lookups."""
    spoken = _speaking.get()
    if spoken is not None and spoken[0] == language:
        yield
        return
    with translation.override(language):
        token = _speaking.set((language, translation.get_language()))
        try:
            yield
        finally:
            _speaking.reset(token)


def current_language() -> str:
    """``translation.get_language()``, read from the innermost ``speaking`` block when there is one."""
    spoken = _speaking.get()
    if spoken is not None:
        return spoken[1]
    return translation.get_language()


# (language, message) -> its translation: the catalogues do not change while the process runs.
_translated: dict[tuple[str | None, str], str] = {}
_plurals: dict[tuple[str | None, str, str, int], str] = {}
TRANSLATIONS_KEPT = 8192


def gettext(message: str) -> str:
    """``translation.gettext(message)``, kept per language.

    Django's looks the message up in each of the active language's catalogues in turn (about 2 µs,
    3 in Chinese); a push words a few dozen messages per move, most of them the same every move
    (a car's title, a die's name, the status line's phrases). The language is the current one
    (:func:`current_language`), which is the one Django translates into.
    """
    key = (current_language(), message)
    found = _translated.get(key)
    if found is None:
        found = translation.gettext(message)
        if len(_translated) >= TRANSLATIONS_KEPT:
            _translated.clear()  # simpler than an LRU: a site has a few thousand messages
        _translated[key] = found
    return found


def ngettext(singular: str, plural: str, number: int) -> str:
    """``translation.ngettext(singular, plural, number)``, kept per language (see :func:`gettext`)."""
    key = (current_language(), singular, plural, number)
    found = _plurals.get(key)
    if found is None:
        found = translation.ngettext(singular, plural, number)
        if len(_plurals) >= TRANSLATIONS_KEPT:
            _plurals.clear()
        _plurals[key] = found
    return found


_separators: dict[str, str] = {}


def list_separator() -> str:
    """What joins the items of a list in the reader's language (", " in English, "、" in Chinese)."""
    language = current_language()
    found = _separators.get(language)
    if found is None:
        found = _separators[language] = translation.pgettext("list separator", ", ")
    return found
