"""bridge_race engine tests are pure Python: neutralise the root conftest's Django fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ROOT_CONFTEST = (HERE.parent.parent / "conftest.py").resolve()


@pytest.fixture(autouse=True)
def _eager_celery() -> Iterator[None]:
    yield


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> Iterator[None]:
    yield


@pytest.fixture(autouse=True)
def _fast_passwords() -> Iterator[None]:
    yield


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Drop any other autouse fixture of the root conftest (they need pytest-django)."""
    for item in items:
        if HERE not in Path(str(item.fspath)).resolve().parents:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        keep = []
        for name in item.fixturenames:
            defs = info.name2fixturedefs.get(name) or ()
            last = defs[-1] if defs else None
            src = getattr(getattr(last, "func", None), "__code__", None)
            if src is not None and Path(src.co_filename).resolve() == ROOT_CONFTEST:
                continue
            keep.append(name)
        item.fixturenames[:] = keep
