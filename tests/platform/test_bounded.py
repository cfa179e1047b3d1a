"""The per-process caches' container: least recently used dropped first, reads without a lock."""

from __future__ import annotations

import threading

from games.play import render_ahead as speculation
from games.play.bounded_cache import BoundedCache


def test_the_least_recently_stored_or_read_entry_is_dropped_first() -> None:
    cache: BoundedCache[str, int] = BoundedCache(3)
    for n, key in enumerate("abc"):
        cache.put(key, n)
    assert cache.get("a") == 0  # read: now the most recent
    cache.put("d", 3)
    assert cache.get("b") is None, "b was the least recently used"
    assert [cache.get(key) for key in "acd"] == [0, 2, 3]
    assert len(cache) == 3


def test_get_or_build_builds_only_what_is_not_kept_and_keeps_it() -> None:
    cache: BoundedCache[str, list[int]] = BoundedCache(2)
    built: list[str] = []

    def build(key: str) -> list[int]:
        built.append(key)
        return [len(built)]

    first = cache.get_or_build("a", lambda: build("a"))
    assert cache.get_or_build("a", lambda: build("a")) is first and built == ["a"]
    cache.get_or_build("b", lambda: build("b"))
    cache.get_or_build("c", lambda: build("c"))  # drops "a", the least recently used
    assert cache.get_or_build("a", lambda: build("a")) == [4] and built == ["a", "b", "c", "a"]


def test_put_many_stores_in_order_under_one_lock_and_keeps_the_bound() -> None:
    cache: BoundedCache[str, int] = BoundedCache(3)
    cache.put("old", 0)
    cache.put_many([("a", 1), ("b", 2), ("old", 9), ("c", 3)])
    assert [cache.get(key) for key in ("a", "b", "old", "c")] == [None, 2, 9, 3], "a was the least recent"
    assert len(cache) == 3


def test_reads_racing_puts_that_drop_entries_never_fail() -> None:
    """A read takes no lock: an entry dropped by another thread between its lookup and its move to
    the end is simply not moved."""
    cache: BoundedCache[int, int] = BoundedCache(8)
    errors: list[BaseException] = []
    stop = threading.Event()

    def churn() -> None:
        n = 0
        while not stop.is_set():
            cache.put(n % 64, n)
            n += 1

    def read() -> None:
        try:
            for n in range(50_000):
                found = cache.get(n % 64)
                assert found is None or found % 64 == n % 64
        except BaseException as exc:  # reported below: an exception in a thread is otherwise lost
            errors.append(exc)

    writers = [threading.Thread(target=churn) for _ in range(2)]
    readers = [threading.Thread(target=read) for _ in range(2)]
    for thread in writers + readers:
        thread.start()
    for thread in readers:
        thread.join()
    stop.set()
    for thread in writers:
        thread.join()
    assert errors == []
    assert len(cache) <= 8


def test_a_thread_that_never_rendered_ahead_is_in_no_render() -> None:
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(speculation.current()))
    thread.start()
    thread.join()
    assert seen == [None]
    with speculation.rendering() as ahead:
        assert speculation.current() is ahead
    assert speculation.current() is None
