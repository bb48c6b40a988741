"""The executed-test check: a green runner exit is not proof the named tests ran."""

from __future__ import annotations

import os
from pathlib import Path

from harness.executed import Requirement, check_executed, junit_cases
from harness.workspace import pytest_in

ROOT = Path(__file__).resolve().parents[2]
TARGET = "suites/unit/test_stitch.py::test_no_pages_is_not_a_stitch"


def _pytest(junit: Path, *args: str, env: dict[str, str] | None = None) -> int:
    return pytest_in(ROOT, junit, *args, env=env)


def test_a_deselected_evidence_test_fails_the_check_although_pytest_exited_0(
    tmp_path: Path,
) -> None:
    junit = tmp_path / "junit.xml"
    assert _pytest(junit, "suites/unit/test_stitch.py", "--deselect", TARGET) == 0
    report = check_executed(junit_cases(junit), [Requirement(TARGET, "mirror:page-cap")])
    assert not report.ok
    assert "did not run" in report.shortfalls[0].problem


def test_a_skipped_evidence_test_fails_the_check_although_pytest_exited_0(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    # a real skip, forced from outside the test by a plugin: the runner still exits 0
    (tmp_path / "skip_everything.py").write_text(
        "import pytest\n"
        "def pytest_collection_modifyitems(items):\n"
        "    for item in items:\n"
        "        item.add_marker(pytest.mark.skip(reason='skipped by the check test'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    assert _pytest(junit, "-p", "skip_everything", TARGET, env=env) == 0
    cases = junit_cases(junit)
    assert cases[TARGET] == "skipped"
    report = check_executed(cases, [Requirement(TARGET, "mirror:page-cap")])
    assert not report.ok and report.shortfalls[0].problem.startswith("skipped")


def test_a_run_that_executed_the_test_passes_the_check(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    assert _pytest(junit, TARGET) == 0
    assert check_executed(junit_cases(junit), [Requirement(TARGET, "mirror:page-cap")]).ok


def test_a_group_needs_its_every_row(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    node = "suites/harness/test_fsm.py::test_each_row_of_the_harness_fsm_holds"
    assert _pytest(junit, node, "-k", "starting") == 0
    report = check_executed(junit_cases(junit), [Requirement(node, "fsm", 36)])
    assert not report.ok and "36 required" in report.shortfalls[0].problem


def test_a_failed_test_fails_the_check() -> None:
    cases = {TARGET: "failed"}
    report = check_executed(cases, [Requirement(TARGET, "x")])
    assert report.shortfalls[0].problem == f"failed: {TARGET}"
