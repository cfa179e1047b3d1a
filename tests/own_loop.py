"""Running a coroutine to its end from a synchronous test, whatever ran before it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_on_its_own_loop(coroutine: Callable[[], Coroutine[Any, Any, T]], timeout: float = 60) -> T:
    """``coroutine()`` run on a new event loop in a new thread: its result, or what it raised. The
    browser tests' Playwright keeps a loop marked running in the main thread for the rest of the
    session, where ``asyncio.run`` refuses to start."""
    results: list[T] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            results.append(asyncio.run(coroutine()))
        except BaseException as exc:  # re-raised below, in the test's thread
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=timeout)
    if failures:
        raise failures[0]
    if not results:
        raise TimeoutError(f"the coroutine did not end within {timeout:.0f} s")
    return results[0]
