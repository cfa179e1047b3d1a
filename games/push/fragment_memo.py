"""Board fragments rendered again only when what they show changed (issue 8, item 3).

A game may declare, per fragment, a function of the context that returns everything the fragment
reads (``FRAGMENT_INPUTS`` in its ``games.boards.<game>`` module, see :func:`games.boards.fragment_inputs`).
A fragment with declared inputs is kept per viewer (or per match, for a shared one) and digest of
those inputs; a render whose inputs have a kept digest reuses the HTML instead of running the
template. After a heist move most panels are the same for most seats, and the Django template
engine is most of a move's cost.

The digest is taken of the inputs' pickle (three times faster than their ``repr``, which it once
was): a snapshot, so an engine state changed in place later cannot make old inputs look current.
Equal inputs that pickle differently (a set built in another order, an object shared in one and
copied in the other) only cost a render; so does anything that cannot be pickled, which matches
nothing. Translated text may pickle as what it is a translation of: the language is in
every key. Inputs that leave out something the fragment reads would show a stale panel:
with ``settings.HIDEOUT_CHECK_FRAGMENT_INPUTS`` (on in the tests) every reuse is rendered anyway and
compared, and a difference is an error naming the fragment.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.safestring import SafeString

from games.engines.kept import KeptByIdentity
from games.play.bounded_cache import BoundedCache

# fragments: a heist board has about a dozen per viewer and eight shared
_kept: BoundedCache[tuple[Any, ...], SafeString] = BoundedCache(16384)


class StaleInputs(AssertionError):
    """A fragment reused for the same inputs differs from a fresh render: its inputs miss something."""


# A pickle this short is its own digest, cheaper than hashing it (most panels' inputs are a few
# flags and digests of the model's parts); one of a hash's 16 bytes is hashed, so none equals a hash.
_OWN_DIGEST_BYTES = 64


def digest(inputs: Any) -> bytes:
    try:
        data = pickle.dumps(inputs, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # e.g. a lock: a digest that matches nothing (a repr's address can be reused)
        return os.urandom(16)
    if len(data) <= _OWN_DIGEST_BYTES and len(data) != 16:
        return data
    return hashlib.blake2b(data, digest_size=16).digest()


_kept_digests: KeptByIdentity[bytes] = KeptByIdentity(512)

_checking: bool | None = None  # settings.HIDEOUT_CHECK_FRAGMENT_INPUTS, read once and on each change


def checking() -> bool:
    """Whether every reuse is rendered anyway and compared (``settings.HIDEOUT_CHECK_FRAGMENT_INPUTS``).

    Kept in the module: asked for each fragment of each seat's board, where reading the setting
    through Django's lazy settings object cost more than the rest of a kept fragment's lookup."""
    global _checking
    if _checking is None:
        _checking = bool(getattr(settings, "HIDEOUT_CHECK_FRAGMENT_INPUTS", False))
    return _checking


@receiver(setting_changed)
def _check_setting_changed(*, setting: str, **kwargs: Any) -> None:
    global _checking
    if setting == "HIDEOUT_CHECK_FRAGMENT_INPUTS":
        _checking = None  # read again: the new value, or the settings' own once an override ends


def kept_digest(value: object) -> bytes:
    """``digest(value)``, kept for ``value`` itself (found by identity) for the latest few hundred.

    Only for a value that is never changed once made, that many viewers' inputs hold: a part of a
    board model kept for a match state and shared by every viewer of it (bridge_race's dashboards).
    """
    return _kept_digests.get(value, digest)


def rendered(key: tuple[Any, ...], inputs: Any, render: Callable[[], SafeString]) -> SafeString:
    """The fragment kept under ``key`` for these ``inputs``, else ``render()``, kept.

    Each set of inputs has its own slot under ``key``: a panel whose inputs go back to what they were
    a few moves ago (whose turn it is, whether an offer may be made, heist's phases coming round
    again) is found again instead of rendered again, and where ``key`` names the fragment for every
    viewer of a game whose views are all public, viewers whose inputs are the same share the HTML (a
    dashboard is "yours" for one seat and alike for the four others). In a game with secrets
    ``key`` names the viewer (or the spectator, for a shared fragment): inputs that missed what one
    seat may see must never give it to another.
    """
    slot = (*key, digest(inputs))
    kept = _kept.get(slot)
    if kept is not None:
        if checking() and render() != kept:
            raise StaleInputs(f"fragment {key[-2:]!r} shows something its declared inputs do not cover")
        return kept
    html = render()
    _kept.put(slot, html)
    return html


def forget() -> None:
    """Drop every kept fragment (tests start from nothing: their match ids repeat)."""
    _kept.clear()
    _kept_digests.clear()
