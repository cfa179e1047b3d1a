"""The move-stage trace (bench/load_bench.py --trace) writes nothing unless it is asked to."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.play import latency_trace


def test_a_trace_is_written_only_to_the_folder_it_was_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(latency_trace, "DIRECTORY", None)
    latency_trace.mark("received", 1, "key", 2)
    assert latency_trace._lines == []

    monkeypatch.setattr(latency_trace, "DIRECTORY", str(tmp_path))
    for revision in range(latency_trace._FLUSH_EVERY):
        latency_trace.mark("rendered", 7, revision)
    (written,) = tmp_path.glob("*.trace")
    lines = written.read_text(encoding="ascii").splitlines()
    assert len(lines) == latency_trace._FLUSH_EVERY and latency_trace._lines == []
    at, stage, match, ref, seat = lines[-1].split()
    assert (stage, match, ref, seat) == ("rendered", "7", str(latency_trace._FLUSH_EVERY - 1), "-")
    assert int(at) >= int(lines[0].split()[0])
