"""The sweep: deterministic, fast, and it records what it swept."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness.sweep
from harness.callers import find_callers
from harness.fanin import audit
from harness.sweep import content_hash, freshness, run_sweep, write_record
from harness.workspace import git

ROOT = Path(__file__).resolve().parents[2]


def _stable(record: dict[str, object]) -> dict[str, object]:
    boundaries = record["boundaries"]
    assert isinstance(boundaries, list)
    return {
        **{k: v for k, v in record.items() if k not in ("swept_at", "wall_seconds", "boundaries")},
        "boundaries": [{k: v for k, v in b.items() if k != "seconds"} for b in boundaries],
    }


def test_the_whole_registry_sweeps_green_in_seconds_and_twice_alike(repo: Path) -> None:
    first, second = run_sweep(repo), run_sweep(repo)
    assert first["ok"], [b for b in first["boundaries"] if b["verdict"] != "pass"]
    assert first["count"] == 103 and first["wall_seconds"] < 20
    assert _stable(first) == _stable(second)
    assert first["commit"] == git(repo, "rev-parse", "HEAD")
    assert first["paths"]["beacon/adjudication/counts.py"] == content_hash(
        repo, "beacon/adjudication/counts.py"
    )


def test_a_written_record_is_fresh_until_a_guarded_path_changes(repo: Path) -> None:
    write_record(repo, run_sweep(repo))
    assert freshness(repo).fresh
    (repo / "stub_server/faults.py").write_text("# changed\n", encoding="utf-8")
    stale = freshness(repo)
    assert not stale.fresh and stale.reasons == ("stub_server/faults.py changed since the sweep",)


def test_every_gate_and_probe_has_a_caller_in_ci() -> None:
    report = find_callers(ROOT)
    assert report.orphans == ()
    assert report.callers["gate observe"] == ("Makefile:test", "gate promote")
    assert report.callers["gate promote"] == (".ci/run",)
    assert report.callers["probe boot-smoke"] == ("gate promote",)


def test_an_uncalled_probe_is_an_orphan(repo: Path) -> None:
    promote = repo / "gates/promote.py"
    promote.write_text(promote.read_text().replace('"probe --all"', '"probe boot-smoke"'))
    ci = repo / ".ci/run"
    ci.write_text(ci.read_text())
    import importlib
    import sys

    saved = list(sys.path)
    sys.path.insert(0, str(repo))
    module = sys.modules.pop("gates.promote", None)
    gates_pkg = sys.modules.pop("gates", None)
    try:
        importlib.invalidate_caches()
        orphans = find_callers(repo).orphans
    finally:
        sys.path[:] = saved
        sys.modules.pop("gates.promote", None)
        sys.modules.pop("gates", None)
        if gates_pkg is not None:
            sys.modules["gates"] = gates_pkg
        if module is not None:
            sys.modules["gates.promote"] = module
    assert "probe turn-loop" in orphans and "probe boot-smoke" not in orphans


def test_the_fan_in_audit_names_the_items_behind_each_gate() -> None:
    report = {g.gate: g for g in audit(ROOT)}
    assert set(report) == {"observe", "promote"}
    promote = report["promote"]
    assert "beacon.adjudication.counts" in promote.behind
    assert "beacon.adjudication.counts" not in promote.unevidenced  # its unit tests import it
    assert set(report["observe"].behind) <= set(promote.behind)
    assert promote.level in ("ok", "warn")


def _record(ok: bool) -> dict[str, object]:
    verdict = {"id": "x", "file": "f", "field": "check", "message": "m", "verdict": "fail"}
    return {
        "ok": ok,
        "problems": [],
        "boundaries": [] if ok else [verdict],
        "by_kind": {"internal-seam": 1},
        "count": 1,
        "wall_seconds": 0.1,
        "commit": "0" * 40,
    }


@pytest.mark.parametrize("ok", [True, False])
def test_what_the_checks_print_is_shown_only_under_a_red_sweep(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ok: bool
) -> None:
    # A seam check runs the product in-process: its server's start-up line and the
    # warning of a turn failed on purpose are not the sweep's to print when it is green.
    from beacon.cli.main import app

    def sweep(root: Path) -> dict[str, object]:
        print("retention: sessions and turns 365 days", file=sys.stderr)
        return _record(ok)

    monkeypatch.setattr(harness.sweep, "run_sweep", sweep)
    monkeypatch.setattr(harness.sweep, "write_record", lambda root, record: tmp_path / "r.json")
    result = CliRunner().invoke(app, ["sweep", "--root", str(tmp_path)])
    assert result.exit_code == (0 if ok else 1), result.output
    assert result.output.startswith("swept 1 boundaries" if ok else "fail: x (f)")
    if ok:
        assert "retention" not in result.output
    else:
        assert "what the checks printed:\nretention: sessions and turns 365 days" in result.output
