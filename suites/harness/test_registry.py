"""The boundary registry: counts per kind, the floor, bad input named by file and field."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import yaml

from boundaries import EXPECTED_COUNTS, load_registry
from harness.checks import crossing_tests
from harness.sweep import run_sweep

ROOT = Path(__file__).resolve().parents[2]
Beacon = Callable[..., subprocess.CompletedProcess[str]]


def test_the_registry_holds_103_boundaries_41_wire_31_mirror_15_seam_12_doc_4_gate() -> None:
    registry = load_registry(ROOT)
    assert registry.problems == ()
    counts = {kind: len(items) for kind, items in registry.by_kind().items()}
    assert (
        counts
        == EXPECTED_COUNTS
        == {
            "external-wire": 41,
            "pinned-mirror": 31,
            "internal-seam": 15,
            "doc-citation": 12,
            "gate-contract": 4,
        }
    )
    assert len(registry.boundaries) == 103
    assert sorted(b.id for b in registry.boundaries) == sorted(registry.floor)


def test_boundaries_list_by_kind_prints_the_counts(beacon: Beacon) -> None:
    done = beacon("boundaries", "list", "--by-kind")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:4] == [
        "external-wire: 41",
        "pinned-mirror: 31",
        "internal-seam: 15",
        "doc-citation: 12",
    ]


def _collected_functions() -> set[str]:
    found = set()
    for path in (ROOT / "suites").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        found |= {
            f"{rel}::{node.name}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")
        }
    return found


def test_every_evidence_test_exists_and_every_crossing_names_a_registered_seam() -> None:
    registry = load_registry(ROOT)
    functions = _collected_functions()
    missing = [
        (b.id, node)
        for b in registry.boundaries
        for node in b.evidence
        if re.sub(r"\[.*\]$", "", node) not in functions
    ]
    assert missing == []
    seams = {b.id for b in registry.boundaries if b.kind == "internal-seam"}
    claimed = set()
    for path in (ROOT / "suites").rglob("test_*.py"):
        claimed |= set(
            re.findall(r"mark\.crossing\(\s*\"([^\"]+)\"", path.read_text(encoding="utf-8"))
        )
    assert claimed <= seams, claimed - seams
    assert all(crossing_tests(ROOT, seam) for seam in seams)


def _sweep_problem(repo: Path) -> str:
    record = run_sweep(repo)
    assert not record["ok"]
    lines = [f"{p['file']}: {p['field']}: {p['message']}" for p in record["problems"]]
    lines += [
        f"{b['verdict']}: {b['id']} ({b['file']}): {b['field']}: {b['message']}"
        for b in record["boundaries"]
        if b["verdict"] != "pass"
    ]
    return "\n".join(lines)


def test_removing_a_boundary_fails_the_sweep_on_the_floor(repo: Path, beacon: Beacon) -> None:
    (repo / "boundaries/registry/pinned-mirror/page-cap.yaml").unlink()
    out = _sweep_problem(repo)
    assert "boundaries/floor.txt: mirror:page-cap: pinned boundary not found" in out
    assert "30 pinned-mirror boundaries, the floor is 31" in out


def test_a_file_that_fails_its_schema_is_named_with_its_field(repo: Path, beacon: Beacon) -> None:
    path = repo / "boundaries/registry/pinned-mirror/page-cap.yaml"
    data = yaml.safe_load(path.read_text())
    del data["owner"]
    path.write_text(yaml.safe_dump(data))
    assert "pinned-mirror/page-cap.yaml: owner: 'owner' is a required property" in _sweep_problem(
        repo
    )


def test_a_duplicate_id_is_named(repo: Path, beacon: Beacon) -> None:
    src = repo / "boundaries/registry/pinned-mirror/page-cap.yaml"
    shutil.copy(src, src.with_name("page-cap-again.yaml"))
    out = _sweep_problem(repo)
    assert "id: duplicate id 'mirror:page-cap'" in out and "page-cap-again.yaml" in out


def test_a_guarded_path_that_does_not_exist_is_named(repo: Path, beacon: Beacon) -> None:
    path = repo / "boundaries/registry/pinned-mirror/page-cap.yaml"
    path.write_text(
        path.read_text().replace("beacon/adjudication/stitch.py", "beacon/adjudication/gone.py")
    )
    assert "page-cap.yaml: paths[0]: beacon/adjudication/gone.py does not exist" in _sweep_problem(
        repo
    )


def test_a_doc_citation_that_no_longer_resolves_fails_naming_the_citation(
    repo: Path, beacon: Beacon
) -> None:
    arch = repo / "ARCHITECTURE.md"
    arch.write_text(arch.read_text().replace("loop/evidence.py", "loop/judge.py"))
    out = _sweep_problem(repo)
    assert "doc:architecture:evidence" in out and "check.cites[0].text" in out


def test_a_moved_constant_fails_its_mirror(repo: Path, beacon: Beacon) -> None:
    counts = repo / "beacon/adjudication/counts.py"
    counts.write_text(
        counts.read_text().replace("DEFAULT_SENTINEL = 3000", "DEFAULT_SENTINEL = 5000")
    )
    done = beacon("sweep")  # a process in the copy imports the edited module
    assert done.returncode == 1
    out = done.stdout
    assert "fail: mirror:row-cap-sentinel" in out and "is 5000, pinned 3000" in out


def test_malformed_yaml_is_a_named_problem_not_a_crash(repo: Path, beacon: Beacon) -> None:
    (repo / "boundaries/registry/pinned-mirror/broken.yaml").write_text("id: [unclosed\n")
    assert "pinned-mirror/broken.yaml: (document): not valid YAML" in _sweep_problem(repo)
