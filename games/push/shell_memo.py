"""A board's shell kept per viewer, so that a push does not walk the board's template (issue 8, item 3).

The shell is the board partial with each fragment replaced by its placeholder (see
``games.push.pushes.render_seat``). After a heist move the shell of every seat is the same as before: only
fragments changed. A game that names what its shell reads outside its fragments (``SHELL_INPUTS`` in
its ``games.boards.<game>`` module: a function of the viewer's context) has the shell kept per
viewer with a digest of those inputs. The next render with the same digest takes the kept shell
and renders only its fragments, from the list of fragments the walk met (each still kept or
rendered again under its own inputs, :mod:`games.push.fragment_memo`), instead of running the shell's
template around them.

A fragment can be rendered on its own only where the walk met it in the board's own context: a
plain fragment inside a loop or a ``{% with %}`` (or after a tag set a variable for it) reads
variables only the walk had, so a shell with one is never kept. A shared fragment is rendered from
the spectator's context and its key, wherever it sits. The opening tag carries the revision and
the game version, which change with every move: it is kept with them written in and they are
replaced. With ``settings.HIDEOUT_CHECK_FRAGMENT_INPUTS`` (on in the tests) every reuse is walked
anyway and compared, and a difference is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString

from games import boards
from games.models import Match
from games.play.bounded_cache import BoundedCache
from games.push import fragment_memo
from games.runtime.template_contexts import TemplateBinding
from games.templatetags.hideout import DrawnFragmentNode, FragmentNode, SharedFragmentNode, kept_key

BOARD_TEMPLATE = "games/match.html#board"

ShellInputs = Callable[[Any], object]
Plan = tuple[tuple[FragmentNode, Any], ...]  # the fragments of a shell, with their keys, in order


@dataclass(frozen=True)
class Board:
    shell: str
    body_digest: str  # of the shell after its opening tag
    frags: dict[str, str]
    shared: frozenset[str] = frozenset()  # the fragments rendered from the spectator's context


def _shared(plan: Iterable[tuple[Any, ...]]) -> frozenset[str]:
    """The names of the shared fragments among ``plan``'s: what every viewer sees alike."""
    return frozenset(entry[0].fragment_name(entry[1]) for entry in plan if isinstance(entry[0], SharedFragmentNode))


@dataclass(frozen=True)
class _Kept:
    inputs: bytes
    head: str  # the opening tag, as rendered at `stamp`
    stamp: str
    body: str
    body_digest: str
    plan: Plan
    shared: frozenset[str]
    template: Any  # the board's template, whose nodes the plan holds: found once, not per reuse
    names: tuple[str, ...]  # the plan's fragments' names, in its order
    shared_plan: tuple[tuple[str, Any], ...]  # the shared fragments' names and keys, in the plan's order
    fragment_inputs: tuple[Any, ...]  # each plain fragment's declared inputs (boards.fragment_inputs), else None


_kept: BoundedCache[tuple[Any, ...], _Kept] = BoundedCache(4096)

# (match id, seed, revision, language, a plan's shared fragments) -> their HTML, in the plan's order.
# A shared fragment is the same for every viewer of a revision (SharedFragmentNode): the first board
# of a push looks each one up, the others find them all with one lookup.
_shared_sets: BoundedCache[tuple[Any, ...], tuple[str, ...]] = BoundedCache(512, revision_keyed=True)


def forget() -> None:
    """Drop every kept shell (tests start from nothing: their match ids repeat)."""
    _kept.clear()
    _shared_sets.clear()


def _stamp(context: dict[str, Any]) -> str:
    # What match.html#board writes into its opening tag from the context.
    return f'data-version="{context["revision"]}" data-game-version="{context["version"]}"'


def _inputs(game_inputs: ShellInputs, context: dict[str, Any]) -> object:
    match = context["match"]
    # What match.html#board reads outside its fragments and its opening tag, then the game's board.
    # Not the status itself: what changes as a match ends is in fragments, so that the end of a
    # match is pushed as a diff, not as whole boards (a lobby's board is never kept).
    aborted = match.status == Match.Status.ABORTED and context.get("aborted_notice")
    return (aborted, context["seat"], context["board_template"]), game_inputs(context)


def render_board(context: dict[str, Any], digest: Callable[[str], str]) -> Board:
    """The board partial of ``context`` (a viewer's match context) split into its shell and fragments;
    ``digest`` digests the shell's body."""
    match = context["match"]
    game_inputs: ShellInputs | None = boards.shell_inputs(match.game)
    # A lobby (no view yet) shows its seats and options, not a board: it is walked every time.
    if game_inputs is None or not context.get("view") or context.get("request") is not None or context.get("error"):
        return _walk(context, digest)[0]
    key = (match.id, match.seed, context["render_language"], context["seat"])
    wanted = fragment_memo.digest(_inputs(game_inputs, context))
    kept = _kept.get(key)
    if kept is not None and kept.inputs == wanted:
        reused = _reuse(kept, context)
        if fragment_memo.checking():
            _check(reused, _walk(context, digest)[0], key)
        return reused
    board, plan = _walk(context, digest)
    stamp = _stamp(context)
    head, close, body = board.shell.partition(">")
    if plan is not None and stamp in head:
        template = get_template(BOARD_TEMPLATE)
        names = tuple(node.fragment_name(key_value) for node, key_value in plan)
        shared_plan = tuple((node.name, key_value) for node, key_value in plan if isinstance(node, SharedFragmentNode))
        fragment_inputs = tuple(
            None if isinstance(node, SharedFragmentNode) else boards.fragment_inputs(match.game, node.name)
            for node, _key_value in plan
        )
        _kept.put(
            key,
            _Kept(
                wanted,
                head + close,
                stamp,
                body,
                board.body_digest,
                plan,
                board.shared,
                template,
                names,
                shared_plan,
                fragment_inputs,
            ),
        )
    return board


def _walk(context: dict[str, Any], digest: Callable[[str], str]) -> tuple[Board, Plan | None]:
    frags: dict[str, str] = {}
    plan: list[tuple[FragmentNode, Any, bool]] = []
    context["fragments"] = frags  # each fragment lands here, a placeholder in the shell
    context["fragment_plan"] = plan
    try:
        shell: str = render_to_string(BOARD_TEMPLATE, context)
    finally:
        del context["fragment_plan"]
    board = Board(shell, digest(shell.partition(">")[2]), frags, _shared(plan))
    if not all(alone for _node, _key, alone in plan):
        return board, None
    return board, tuple((node, key) for node, key, _alone in plan)


def _reuse(kept: _Kept, context: dict[str, Any]) -> Board:
    stamp = _stamp(context)
    head = kept.head.replace(kept.stamp, stamp, 1)
    frags: dict[str, str] = {}
    match = context["match"]
    language = context["render_language"]
    shared_key = (match.id, match.seed, match.revision, language, kept.shared_plan)
    found = _shared_sets.get(shared_key)
    shared = iter(found) if found is not None else None  # else looked up one by one, and kept together
    drawn: list[str] = []
    memo_key = kept_key(context)  # what FragmentNode.fragment_html keys each fragment under, found once
    binding = TemplateBinding(kept.template, context)
    try:
        for (node, key_value), name, inputs in zip(kept.plan, kept.names, kept.fragment_inputs, strict=True):
            if isinstance(node, DrawnFragmentNode):
                frags[name] = node.draw(context)
            elif inputs is not None:
                frags[name] = fragment_memo.rendered(
                    (*memo_key, node.name, key_value),
                    inputs(context, key_value),
                    partial(_render_alone, node, binding, key_value),
                )
            elif not isinstance(node, SharedFragmentNode):
                frags[name] = node.fragment_html(binding.bound(), key_value, context)
            elif shared is not None:
                frags[name] = next(shared)
            else:
                frags[name] = node.fragment_html(binding.bound(), key_value, context)
                drawn.append(frags[name])
    finally:
        binding.close()
    if drawn:
        _shared_sets.put(shared_key, tuple(drawn))
    return Board(head + kept.body, kept.body_digest, frags, kept.shared)


def _render_alone(node: FragmentNode, binding: TemplateBinding, key_value: Any) -> SafeString:
    return node.render_alone(binding.bound(), key_value)


def _check(reused: Board, walked: Board, key: tuple[Any, ...]) -> None:
    if reused != walked:
        raise fragment_memo.StaleInputs(f"the board shell of {key!r} shows something its declared inputs do not cover")
