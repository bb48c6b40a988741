"""``python -m bench``: each bench recorded with the machine's state before it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bench.__main__ as bench_main
from bench import gauge


def _fake(ok: bool) -> tuple[str, Any, Any]:
    return ("fake", lambda: {"ok": ok, "answer": 42}, lambda figures: [f"fake {figures['answer']}"])


def test_each_bench_is_recorded_with_the_load_and_a_cores_pace_before_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_main, "BENCHES", (_fake(True),))
    monkeypatch.setattr(gauge, "core_ms", lambda: 123.4)
    assert bench_main.main(["--json-dir", str(tmp_path)]) == 0
    written = json.loads((tmp_path / "fake.json").read_text())
    assert written["core_ms_before"] == 123.4
    assert len(written["load_average_before"]) == 3
    out = capsys.readouterr().out
    assert "fake 42" in out
    assert "a core's pace before 123.4 ms for 2,000,000 steps" in out


def test_a_run_that_was_not_valid_fails_the_whole_bench(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_main, "BENCHES", (_fake(False),))
    monkeypatch.setattr(gauge, "core_ms", lambda: 1.0)
    assert bench_main.main([]) == 1
    assert "invalid bench runs: fake" in capsys.readouterr().err


def test_a_cores_pace_is_the_best_of_its_tries() -> None:
    # Three tries lasting 0.5, 0.2 and 0.9 s on a scripted clock: the pace is the fastest.
    ticks: Iterator[float] = iter([0.0, 0.5, 1.0, 1.2, 2.0, 2.9])
    assert gauge.core_ms(steps=10, tries=3, clock=lambda: next(ticks)) == 200.0


@pytest.mark.parametrize(("steps", "tries"), [(0, 3), (10, 0), (-1, 1)])
def test_a_pace_of_no_work_is_refused(steps: int, tries: int) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        gauge.core_ms(steps=steps, tries=tries)
