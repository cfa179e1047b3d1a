"""police_alarm engine tests are pure Python (no Django, no DB).

The root conftest has autouse fixtures for the Django platform tests; here they are replaced by
no-ops so that this directory runs with ``-p no:django`` as well as with pytest-django.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest


@pytest.fixture
def settings() -> Any:
    """A stand-in for pytest-django's fixture (engine tests never touch Django settings)."""
    return SimpleNamespace()


@pytest.fixture(autouse=True)
def _eager_celery() -> Iterator[None]:
    yield


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    return None


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> Iterator[None]:
    yield
