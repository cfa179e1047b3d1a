"""Every rule id of every game's spec is cited by a test of that game.

The specs live beside the repository, in ``../shared/rules/<game>.md`` (``HIDEOUT_RULES`` names
another folder). A rule id is a capital letter, a hyphen and a number, with an optional lower-case
sub-rule letter: R-12, T-18, N-10, D-4, R-24a. A test of the game is a ``test_*.py`` file under
tests/ with the game's name in its path; it cites an id in its text (a docstring or a comment
beside the assertion, e.g. "R-12") or in a test's name (``test_R12_…``, ``test_R21b_…``). A
sub-rule cites its rule as well: R-24a cites R-24.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"(?<![\w-])([A-Z])-(\d+)([a-z]?)(?![\w-])")
TEST_NAME = re.compile(r"def (test_\w+)")
ID_IN_NAME = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])(\d+)([a-z]?)(?=_|$)")


def rules_folder() -> Path:
    return Path(os.environ.get("HIDEOUT_RULES") or REPO.parent / "shared" / "rules")


def ids_of(spec: str) -> set[str]:
    return {f"{letter}-{number}{sub}" for letter, number, sub in RULE_ID.findall(spec)}


def cited_in(text: str) -> set[str]:
    """The ids a test file cites, each sub-rule also as its rule."""
    found = [(letter, number, sub) for letter, number, sub in RULE_ID.findall(text)]
    for name in TEST_NAME.findall(text):
        found += [(letter.upper(), number, sub) for letter, number, sub in ID_IN_NAME.findall(name[len("test_") :])]
    return {f"{letter}-{number}{sub}" for letter, number, sub in found} | {
        f"{letter}-{number}" for letter, number, _ in found
    }


def test_every_rule_id_of_every_spec_is_cited_by_a_test_of_its_game() -> None:
    folder = rules_folder()
    if not folder.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true, so no skipping: no rules folder at {folder}", pytrace=False)
        pytest.skip(f"rule coverage skipped: no rules folder at {folder}")
    specs = sorted(folder.glob("*.md"))
    assert specs, f"no spec in {folder}"
    tests = sorted((REPO / "tests").rglob("test_*.py"))
    uncited = {}
    for spec in specs:
        game = spec.stem
        cited: set[str] = set()
        for path in tests:
            if game in path.relative_to(REPO / "tests").as_posix():
                cited |= cited_in(path.read_text(encoding="utf-8"))
        missing = ids_of(spec.read_text(encoding="utf-8")) - cited
        if missing:
            uncited[game] = sorted(missing, key=lambda rule: (rule[0], int(re.sub(r"\D", "", rule[2:])), rule))
    assert not uncited, f"rule ids that no test of their game cites: {uncited}"
