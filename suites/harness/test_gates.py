"""Gate outcomes, each produced by a real situation in a throwaway copy of the tree.

0 open, 1 failing evidence, 2 usage, 5 stale sweep — and 5 means nothing else.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from harness.workspace import gate_in, junit_for_everything, pytest_in, sweep_in

Beacon = Callable[..., subprocess.CompletedProcess[str]]
REASON = "release train 42: sweep host down, approved by on-call"

# The e2e group ran and passed (promote reads it).
E2E_RAN = [("suites.e2e.test_cli", "test_e2e_ran")]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=h", "-c", "user.email=h@localhost", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        timeout=60,
    )


def _evidence(repo: Path, gate: str = "observe") -> dict[str, object]:
    loaded = json.loads((repo / f"reports/gates/{gate}.json").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_no_sweep_record_refuses_with_5(beacon: Beacon, repo: Path) -> None:
    code, out = gate_in(repo, "observe")
    assert code == 5, out
    assert "no sweep record" in out
    assert _evidence(repo)["outcome"] == "stale_sweep"


def test_editing_a_guarded_file_after_the_sweep_refuses_with_5(beacon: Beacon, repo: Path) -> None:
    assert sweep_in(repo)
    junit_for_everything(repo, E2E_RAN)
    assert gate_in(repo, "observe")[0] == 0
    stitch = repo / "beacon/adjudication/stitch.py"
    stitch.write_text(stitch.read_text() + "\n# an edit after the sweep\n")
    code, out = gate_in(repo, "observe")
    assert code == 5, out
    assert "beacon/adjudication/stitch.py changed since the sweep" in out
    assert sweep_in(repo)  # uncommitted, but swept as it is now: fresh again
    assert gate_in(repo, "observe")[0] == 0


def test_a_sweep_of_another_commit_refuses_with_5(beacon: Beacon, repo: Path) -> None:
    assert sweep_in(repo)
    (repo / "NOTES.txt").write_text("unrelated\n")
    _git(repo, "add", "NOTES.txt")
    _git(repo, "commit", "-q", "-m", "another commit")
    code, out = gate_in(repo, "observe")
    assert code == 5 and "the tree is at" in out


def test_the_bypass_lets_a_stale_sweep_through_and_stamps_its_reason(
    beacon: Beacon, repo: Path
) -> None:
    junit_for_everything(repo, E2E_RAN)
    assert sweep_in(repo)
    stitch = repo / "beacon/adjudication/stitch.py"
    stitch.write_text(stitch.read_text() + "\n# edit\n")
    code, out = gate_in(repo, "observe", "--bypass", REASON)
    assert code == 0, out
    evidence = _evidence(repo)
    assert evidence["bypass"] == {"used": True, "reason": REASON}
    assert any("BYPASSED stale sweep" in w for w in evidence["warnings"])  # type: ignore[attr-defined]


def test_usage_errors_exit_2(beacon: Beacon) -> None:
    assert beacon("gate", "observe", "--bypass", "because").returncode == 2  # no real reason
    assert beacon("gate", "observe", "--no-such-flag").returncode == 2
    assert beacon("gate", "promote", "--from", "dev", "--to", "prod").returncode == 2
    assert beacon("gate", "promote", "--from", "dev").returncode == 2


def test_missing_junit_is_failing_evidence_not_staleness(beacon: Beacon, repo: Path) -> None:
    assert sweep_in(repo)
    code, out = gate_in(repo, "observe", "--junit", "reports/none.xml")
    assert code == 1 and "cannot read JUnit XML" in out


def test_pytest_exit_5_never_passes_through_the_gate(
    beacon: Beacon, repo: Path, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    junit = tmp_path / "junit.xml"
    ran = pytest_in(empty, junit, "--rootdir", str(empty), str(empty))
    assert ran == 5  # pytest's "no tests collected"
    assert sweep_in(repo)
    code, out = gate_in(repo, "observe", "--junit", str(junit))
    assert code == 1, out
    assert "did not run" in out


def test_a_red_sweep_is_failing_evidence(beacon: Beacon, repo: Path) -> None:
    counts = repo / "beacon/adjudication/counts.py"
    counts.write_text(
        counts.read_text().replace("DEFAULT_SENTINEL = 3000", "DEFAULT_SENTINEL = 3001")
    )
    junit_for_everything(repo, E2E_RAN)
    assert beacon("sweep").returncode == 1  # a process in the copy imports the edited module
    code, out = gate_in(repo, "observe")
    assert code == 1 and "mirror:row-cap-sentinel" in out


def test_promoting_to_prod_needs_the_same_artifact_promoted_to_qa(
    beacon: Beacon, repo: Path
) -> None:
    assert sweep_in(repo)
    junit_for_everything(repo, E2E_RAN)
    code, out = gate_in(repo, "promote", "--from", "qa", "--to", "prod")
    assert code == 1
    assert "no qa promotion of this exact commit" in out
    assert _evidence(repo, "promote")["outcome"] == "failing_evidence"


def test_an_orphan_gate_fails_observe(beacon: Beacon, repo: Path) -> None:
    ci = repo / ".ci/run"
    ci.write_text(ci.read_text().replace("gate promote", "gate promoted-nowhere"))
    assert not sweep_in(repo)  # the gate:gate-callers boundary sees it in the sweep already
    record = json.loads((repo / "reports/sweep/latest.json").read_text())
    assert [b["id"] for b in record["boundaries"] if b["verdict"] != "pass"] == [
        "gate:gate-callers"
    ]
    junit_for_everything(repo, E2E_RAN)
    code, out = gate_in(repo, "observe")
    assert code == 1
    assert "orphan: nothing in CI, the Makefile or a gate invokes `beacon gate promote`" in out
