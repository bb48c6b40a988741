"""The executed-test check: a green runner exit is not proof the named tests ran."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from harness.executed import Requirement, check_executed, junit_cases
from harness.required import HOSTILE_CORPUS, required_groups
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


# ------------------------------------------------------------ the required groups

# Figures restated from SPEC §4/§5/§6 and the files themselves (not read from the tables):
# 6 states × 10 events of frames, 6 × 6 of the harness, 6 capabilities × 10 tools × 2.
GROUP_SIZES = {"frame-table": 60, "harness-fsm": 36, "permission-matrix": 120}


def _group_nodes() -> dict[str, list[str]]:
    nodes: dict[str, list[str]] = {}
    for item in required_groups(ROOT):
        nodes.setdefault(item.group, []).append(item.node)
    return nodes


def test_every_group_the_issue_names_is_required_row_by_row() -> None:
    nodes = _group_nodes()
    assert set(nodes) == {
        "frame-table",
        "subset-gate",
        "harness-fsm",
        "permission-matrix",
        "hostile-narration",
        "probes",
        "browser-specs",
        "mcp-conformance",
        "verify-self-tests",
    }
    assert {g: len(nodes[g]) for g in GROUP_SIZES} == GROUP_SIZES
    assert len(nodes["subset-gate"]) >= 20 and len(nodes["probes"]) >= 17
    assert all(len(set(n)) == len(n) for n in nodes.values())
    hostile = yaml.safe_load((ROOT / "suites/e2e/narration/hostile.yaml").read_text())["cases"]
    assert len(nodes["hostile-narration"]) == len(hostile) > 0
    assert (
        "suites/e2e/test_permission_matrix.py::"
        + ("test_a_call_is_allowed_only_with_a_verified_capability[photo_ai-search_photos-hint]")
        in nodes["permission-matrix"]
    )
    spec_files = sorted(ROOT.glob("suites/browser/test_spec_*.py"))
    assert {n.split("::")[0] for n in nodes["browser-specs"]} == {
        p.relative_to(ROOT).as_posix() for p in spec_files
    }
    assert nodes["mcp-conformance"] == [
        "suites/contract/test_conformance.py::"
        "test_the_stub_passes_the_protocol_scenarios_of_the_conformance_suite",
        "suites/contract/test_conformance.py::"
        "test_a_missing_node_fails_the_conformance_test_in_ci_and_skips_it_elsewhere",
    ]
    verify_files = {n.split("::")[0] for n in nodes["verify-self-tests"]}
    assert verify_files == {
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("suites/harness/test_verify_*.py")
    }


@pytest.mark.parametrize("group", sorted(_group_nodes()))
def test_a_junit_missing_one_node_of_a_group_fails_the_check(group: str) -> None:
    required = [Requirement(g.node, g.group) for g in required_groups(ROOT)]
    # a passed case for every node (a function node ran as one parametrized case)
    cases = {r.node if "[" in r.node else f"{r.node}[case]": "passed" for r in required}
    assert check_executed(cases, required).ok
    dropped = _group_nodes()[group][-1]
    partial = {c: s for c, s in cases.items() if c not in (dropped, f"{dropped}[case]")}
    report = check_executed(partial, required)
    assert [(s.node, s.why) for s in report.shortfalls] == [(dropped, group)]
    skipped = {**cases, next(c for c in cases if c.startswith(dropped)): "skipped"}
    assert not check_executed(skipped, required).ok


def test_a_real_run_of_the_frame_table_that_leaves_out_one_row_fails_naming_it(
    tmp_path: Path,
) -> None:
    frame = [
        Requirement(g.node, g.group) for g in required_groups(ROOT) if g.group == "frame-table"
    ]
    junit = tmp_path / "junit.xml"
    assert _pytest(junit, "suites/unit/test_frame_table.py") == 0
    assert check_executed(junit_cases(junit), frame).ok
    left_out = frame[7].node.partition("[")[2].rstrip("]")
    assert _pytest(junit, "suites/unit/test_frame_table.py", "--deselect", frame[7].node) == 0
    report = check_executed(junit_cases(junit), frame)
    assert [s.node for s in report.shortfalls] == [frame[7].node]
    assert left_out in str(report.shortfalls[0])


def test_a_deleted_browser_spec_file_leaves_its_group_unmet(tmp_path: Path) -> None:
    (tmp_path / "suites/browser").mkdir(parents=True)
    (tmp_path / "suites/e2e/narration").mkdir(parents=True)
    shutil.copy(ROOT / HOSTILE_CORPUS, tmp_path / HOSTILE_CORPUS)
    nodes = {g.group: g.node for g in required_groups(tmp_path) if g.group == "browser-specs"}
    assert nodes == {"browser-specs": "suites/browser/test_spec_*.py"}
