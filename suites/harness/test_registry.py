"""The boundary registry: counts per kind, the floor, bad input named by file and field."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from boundaries import EXPECTED_COUNTS, KINDS, load_registry
from harness.checks import CHECKS, run_check
from harness.checks.base import CheckContext
from harness.checks.seams import crossing_tests
from harness.recorded import llm_requests, recorded_frames, served_openapi
from harness.refs import CheckFailed
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


# ------------------------------------------------ each boundary guards something of its own

VALUE_PINS = ("python-constant", "same-value", "transition-table")


def _pinned_refs(check: dict[str, object]) -> list[str]:
    refs = check.get("refs")
    if check["type"] == "same-value" and isinstance(refs, list):
        return [str(r) for r in refs]
    return [str(check["ref"])] if check["type"] in VALUE_PINS else []


def test_kinds_name_every_kind_the_schema_and_the_counts_know() -> None:
    schema = json.loads((ROOT / "boundaries/schema.json").read_text())
    assert set(KINDS) == set(schema["properties"]["kind"]["enum"]) == set(EXPECTED_COUNTS)
    assert len(KINDS) == 5 and "gate-contract" in KINDS


def test_the_schema_has_a_parameter_schema_for_every_check_the_sweep_runs() -> None:
    schema = json.loads((ROOT / "boundaries/schema.json").read_text())
    check = schema["properties"]["check"]
    branches = {b["if"]["properties"]["type"]["const"]: b["then"] for b in check["allOf"]}
    assert set(branches) == set(check["properties"]["type"]["enum"]) == set(CHECKS)
    assert all(then["additionalProperties"] is False for then in branches.values())


def test_every_check_type_guards_at_least_one_boundary() -> None:
    used = {b.check["type"] for b in load_registry(ROOT).boundaries}
    assert used == set(CHECKS)


def test_no_two_boundaries_run_the_same_check_or_pin_the_same_value() -> None:
    registry = load_registry(ROOT)
    checks = [json.dumps(b.check, sort_keys=True) for b in registry.boundaries]
    assert len(set(checks)) == len(checks)
    refs = [ref for b in registry.boundaries for ref in _pinned_refs(b.check)]
    assert sorted(r for r, n in Counter(refs).items() if n > 1) == []
    assert len(refs) >= 20  # the pins are checked, not absent


def test_a_pin_of_a_re_export_fails_naming_where_the_value_is_defined() -> None:
    ctx = CheckContext(ROOT, "mirror:test")
    # beacon.server.openapi imports SCENARIO_HEADER from beacon.wire.headers
    reexport = {
        "type": "same-value",
        "refs": ["beacon.wire.headers:SCENARIO_HEADER", "beacon.server.openapi:SCENARIO_HEADER"],
    }
    with pytest.raises(CheckFailed) as caught:
        run_check(reexport, ctx)
    assert caught.value.field == "check.refs[1]" and "imported there" in caught.value.message
    defined = {
        "type": "python-constant",
        "ref": "beacon.wire.headers:SCENARIO_HEADER",
        "equals": "X-Beacon-Scenario",
    }
    run_check(defined, ctx)


@pytest.mark.parametrize(
    ("edit", "field", "says"),
    [
        pytest.param(
            {"colour": "red"}, "check.colour", "Additional properties", id="unknown-param"
        ),
        pytest.param({"rows": "sixty"}, "check.rows", "is not of type 'integer'", id="wrong-type"),
        pytest.param({"rows": None}, "check.rows", "'rows' is a required property", id="missing"),
    ],
)
def test_a_check_parameter_its_type_does_not_take_is_named(
    tmp_path: Path, edit: dict[str, object], field: str, says: str
) -> None:
    repo = tmp_path / "registry"
    shutil.copytree(ROOT / "boundaries", repo / "boundaries")
    path = repo / "boundaries/registry/pinned-mirror/frame-table-rows.yaml"
    data = yaml.safe_load(path.read_text())
    data["check"].update(edit)
    data["check"] = {k: v for k, v in data["check"].items() if v is not None}
    path.write_text(yaml.safe_dump(data))
    problems = [p for p in load_registry(repo).problems if p.file.endswith("frame-table-rows.yaml")]
    assert [p.field for p in problems] == [field], problems
    assert says in problems[0].message


@pytest.mark.parametrize(
    ("check", "field"),
    [
        pytest.param(
            {"type": "transition-table", "ref": "harness.fsm:HARNESS_TABLE", "rows": 35},
            "check.rows",
            id="a-row-count-off-by-one",
        ),
        pytest.param(
            {
                "type": "transition-table",
                "ref": "harness.fsm:HARNESS_TABLE",
                "rows": 36,
                "named_illegal": ["no-such-row"],
            },
            "check.named_illegal",
            id="a-named-illegal-row-missing",
        ),
        pytest.param(
            {
                "type": "route",
                "file": "stub_server/dev_routes.py",
                "method": "POST",
                "path": "/dev/tokens",
                "called_from": ["beacon/cli/up.py"],
            },
            "check.called_from[0]",
            id="a-caller-that-does-not-call-the-route",
        ),
        pytest.param(
            {
                "type": "symbol-exists",
                "symbols": [{"ref": "beacon.adjudication:grade_count", "params": ["result"]}],
            },
            "check.symbols[0].params",
            id="a-public-signature-that-changed",
        ),
        pytest.param(
            {"type": "gate-exit", "gate": "observe", "cases": [{"argv": [], "exit": 0}]},
            "check.cases[0]",
            id="a-gate-that-opens-on-an-empty-root",
        ),
        pytest.param(
            {
                "type": "recorded-frame",
                "frame": "done",
                "schema": {"type": "object", "required": ["total"]},
            },
            "check.schema",
            id="a-frame-the-server-sent-without-a-pinned-field",
        ),
        pytest.param(
            {
                "type": "served-openapi",
                "method": "post",
                "path": "/v1/answers",
                "schema": "TurnRequest",
            },
            "check.path",
            id="an-operation-the-server-does-not-serve",
        ),
        pytest.param(
            {
                "type": "served-openapi",
                "method": "post",
                "path": "/v1/turns",
                "schema": "TurnRequest",
                "rejects": [{"message": "How many?"}],
            },
            "check.rejects[0]",
            id="a-served-schema-that-accepts-what-it-should-refuse",
        ),
        pytest.param(
            {"type": "recorded-llm-request", "schema": {"not": {"required": ["tools"]}}},
            "check.schema (request 1)",
            id="a-model-request-outside-the-pinned-schema",
        ),
        pytest.param(
            {
                "type": "stub-tool-result",
                "tool": "query_data",
                "arguments": {
                    "project_id": "prj-harbor-tower",
                    "question": "List all panoramas in Harbor Tower",
                },
                "schema": {"type": "object"},
                "matches": [
                    {
                        "pointer": "/structuredContent/total",
                        "ref": "beacon.adjudication.stitch:DEFAULT_PAGE_CAP",
                    }
                ],
            },
            "check.matches[0]",
            id="an-upstream-value-that-differs-from-our-constant",
        ),
        pytest.param(
            {"type": "gate-callers", "called_by": {"observe": ".ci/run"}},
            "check.called_by.observe",
            id="a-gate-its-named-caller-does-not-call",
        ),
    ],
)
def test_the_new_check_types_fail_on_what_they_guard(check: dict[str, object], field: str) -> None:
    with pytest.raises(CheckFailed) as caught:
        run_check(check, CheckContext(ROOT, "mirror:test"))
    assert caught.value.field == field


def test_the_recorded_exchange_holds_every_frame_type_and_both_kinds_of_model_call() -> None:
    frames = recorded_frames()
    spec_frames = {"start", "plan", "tool_call", "tool_result", "references", "delta", "notice"}
    spec_frames |= {"heartbeat", "done", "error"}  # SPEC §4's ten, restated
    assert {f.event for f in frames} == spec_frames
    terminals = [
        (f.scenario, f.event, f.data.get("code")) for f in frames if f.event in ("done", "error")
    ]
    assert terminals == [
        ("default", "done", None),
        ("zero-hits", "done", None),
        ("model-401", "error", "llm_refused"),
    ]
    requests = llm_requests()
    assert any(r.get("tools") for r in requests) and any(not r.get("tools") for r in requests)
    assert "/v1/turns" in served_openapi()["paths"]
