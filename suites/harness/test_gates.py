"""Gate outcomes, each produced by a real situation in a throwaway copy of the tree.

0 open, 1 failing evidence, 2 usage, 5 stale sweep — and 5 means nothing else.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

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
    stamp = evidence["bypass"]
    assert isinstance(stamp, dict) and (stamp["used"], stamp["reason"]) == (True, REASON)
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
    ran = pytest_in(empty, junit, "--rootdir", str(empty), str(empty), bare=True)
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


# Real pytest runs, one per shape a red (or green) record takes, in a scratch folder.
_SCRATCH = {
    "fails": "def test_red():\n    assert 1 == 2\n",
    "errors-at-collection": "import a_module_that_is_not_there_at_all\n\ndef test_x():\n    pass\n",
    "errors-in-a-fixture": (
        "import pytest\n\n@pytest.fixture\ndef broken():\n    raise RuntimeError('setup')\n\n"
        "def test_uses_it(broken):\n    pass\n"
    ),
    "skips": "import pytest\n\n@pytest.mark.skip(reason='not here')\ndef test_later():\n    pass\n",
    "passes": "def test_green():\n    assert 1 == 1\n",
}
# What observe must answer for each, with pytest's own exit code beside it.
_EXPECTED = {
    "fails": (1, 1),
    "errors-at-collection": (2, 1),
    "errors-in-a-fixture": (1, 1),
    "skips": (0, 0),
    "passes": (0, 0),
}


def _real_junit(tmp_path: Path, shape: str) -> tuple[int, Path]:
    folder = tmp_path / shape
    folder.mkdir()
    (folder / f"test_{shape.replace('-', '_')}.py").write_text(_SCRATCH[shape])
    junit = tmp_path / f"{shape}.xml"
    return pytest_in(folder, junit, "--rootdir", str(folder), str(folder), bare=True), junit


def _joined(repo: Path, extra: Path) -> Path:
    """The repo's all-green record with a real run's suites appended to it."""
    import xml.etree.ElementTree as ET

    green = junit_for_everything(repo, E2E_RAN)
    tree = ET.parse(green)
    for suite in ET.parse(extra).getroot().iter("testsuite"):
        tree.getroot().append(suite)
    joined = repo / "reports" / "joined.xml"
    tree.write(joined)
    return joined


# Five real pytest runs and their gate runs: minutes on a loaded 2-core machine.
@pytest.mark.timeout(600)
def test_observe_and_check_executed_read_the_whole_junit_of_real_runs(
    beacon: Beacon, repo: Path, tmp_path: Path
) -> None:
    assert sweep_in(repo)
    for shape, (pytest_code, gate_code) in _EXPECTED.items():
        ran, junit = _real_junit(tmp_path, shape)
        assert ran == pytest_code, shape
        joined = _joined(repo, junit)
        code, out = gate_in(repo, "observe", "--junit", str(joined))
        assert code == gate_code, (shape, out)
        facts = _evidence(repo)["facts"]
        assert isinstance(facts, dict) and set(facts["junit"]) >= {"passed", "failed", "errored"}
        checked = beacon("check-executed", "--junit", str(joined))
        assert checked.returncode == gate_code, (shape, checked.stdout)
        if gate_code:
            assert "the suite is red" in out and "the run is red" in checked.stdout


def test_a_file_that_is_not_junit_is_failing_evidence(beacon: Beacon, repo: Path) -> None:
    assert sweep_in(repo)
    other = repo / "reports" / "not-junit.xml"
    other.parent.mkdir(parents=True, exist_ok=True)
    other.write_text("<coverage><packages/></coverage>")
    code, out = gate_in(repo, "observe", "--junit", str(other))
    assert code == 1 and "is not a JUnit XML file" in out


def test_a_suite_level_error_no_case_carries_is_failing_evidence(
    beacon: Beacon, repo: Path
) -> None:
    assert sweep_in(repo)
    green = junit_for_everything(repo, E2E_RAN)
    text = green.read_text().replace(
        '<testsuite name="pytest">', '<testsuite name="pytest" errors="1">'
    )
    green.write_text(text)
    code, out = gate_in(repo, "observe")
    assert code == 1 and "declares errors=1, 0 carried by cases" in out


def test_a_bypass_on_red_evidence_is_refused_in_one_line_and_stamps_nothing(
    beacon: Beacon, repo: Path, tmp_path: Path
) -> None:
    assert sweep_in(repo)
    stitch = repo / "beacon/adjudication/stitch.py"
    stitch.write_text(stitch.read_text() + "\n# edit: the sweep is stale\n")
    _, junit = _real_junit(tmp_path, "fails")
    joined = _joined(repo, junit)
    code, out = gate_in(repo, "observe", "--junit", str(joined), "--bypass", REASON)
    assert code == 1, out
    assert (
        f"bypass refused: it overrides a stale sweep only; 1 failed and 0 errored in {joined}"
        in out
    )
    assert "bypass used" not in out and "BYPASSED" not in out
    assert "stale sweep (not bypassed): beacon/adjudication/stitch.py changed" in out
    assert _evidence(repo)["bypass"] == {"used": False, "reason": None}


def test_a_bypass_of_a_stale_sweep_stamps_who_why_and_when(
    beacon: Beacon, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    junit_for_everything(repo, E2E_RAN)
    assert sweep_in(repo)
    stitch = repo / "beacon/adjudication/stitch.py"
    stitch.write_text(stitch.read_text() + "\n# edit\n")
    monkeypatch.setenv("BEACON_GATE_BY", "release-bot")
    code, out = gate_in(repo, "observe", "--bypass", REASON)
    assert code == 0, out
    stamp = _evidence(repo)["bypass"]
    assert isinstance(stamp, dict)
    assert (stamp["used"], stamp["reason"], stamp["by"]) == (True, REASON, "release-bot")
    assert str(stamp["at"]).startswith("20")


def test_a_bypass_on_a_fresh_sweep_is_not_used_and_stamps_nothing(
    beacon: Beacon, repo: Path
) -> None:
    junit_for_everything(repo, E2E_RAN)
    assert sweep_in(repo)
    code, out = gate_in(repo, "observe", "--bypass", REASON)
    assert code == 0 and "bypass not used: the sweep is fresh" in out
    assert _evidence(repo)["bypass"] == {"used": False, "reason": None}
