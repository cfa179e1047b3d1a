"""Every game's presentation is one package, ``games.boards.<game>``, with the same parts in the same
places, and the boards import nothing from the template tags (which import them)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from games.web.guides import GUIDES

BOARDS = Path(__file__).resolve().parents[2] / "games" / "boards"
GAMES = sorted(GUIDES)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_parts_in_the_same_places(game: str) -> None:
    package = importlib.import_module(f"games.boards.{game}")
    assert callable(package.board_context)
    for part in ("context", "words", "guide", "chart"):
        assert (BOARDS / game / f"{part}.py").is_file(), (game, part)
    assert package.chart is importlib.import_module(f"games.boards.{game}.chart").chart
    assert GUIDES[game] is importlib.import_module(f"games.boards.{game}.guide").guide_context
    if (BOARDS / game / "fragments.py").is_file():
        fragments = importlib.import_module(f"games.boards.{game}.fragments")
        assert package.FRAGMENT_INPUTS is fragments.FRAGMENT_INPUTS
        assert package.SHELL_INPUTS is fragments.SHELL_INPUTS


def test_template_tags_hold_nothing_of_a_game() -> None:
    tags = BOARDS.parent / "templatetags"
    assert sorted(p.name for p in tags.glob("*.py")) == ["__init__.py", "hideout.py"]


def test_boards_import_no_template_tags() -> None:
    for path in BOARDS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(name.startswith("games.templatetags") for name in names), path
