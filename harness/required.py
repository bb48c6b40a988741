"""The groups of tests every run must have executed, each derived from its data.

A group is named by the table or corpus it covers, never by a hand-typed count:
one node id per row of the frame table, the subset gate and the harness FSM, per
cell of the permission matrix, per case of the hostile-narration corpus, per
probe; one per test function of the browser specs, the MCP conformance test and
the ``beacon verify`` self-tests (found by parsing their files). A row added to a
table is a test the check then requires; a row whose test did not run fails it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from beacon.adjudication.subset_gate import GATE_TABLE
from beacon.loop.frame_table import FRAME_TABLE
from beacon.policy.capabilities import matrix_cells
from harness.fsm import HARNESS_TABLE

FRAME_ROWS = "suites/unit/test_frame_table.py::test_each_row_is_enforced_by_the_emitter"
SUBSET_ROWS = "suites/unit/test_subset_gate.py::test_each_row_of_the_table_holds"
FSM_ROWS = "suites/harness/test_fsm.py::test_each_row_of_the_harness_fsm_holds"
MATRIX_CELLS = (
    "suites/e2e/test_permission_matrix.py::test_a_call_is_allowed_only_with_a_verified_capability"
)
HOSTILE_CASES = (
    "suites/e2e/test_narration_guard.py::test_a_hostile_narration_never_reaches_the_user"
)
HOSTILE_CORPUS = "suites/e2e/narration/hostile.yaml"
PROBE_CASES = "suites/harness/test_probes.py::test_each_probe_reproduces_its_case"
# Whole files whose every test function must run: (group, glob under the root).
FILE_GROUPS: tuple[tuple[str, str], ...] = (
    ("browser-specs", "suites/browser/test_spec_*.py"),
    ("mcp-conformance", "suites/contract/test_conformance.py"),
    ("verify-self-tests", "suites/harness/test_verify_*.py"),
)


@dataclass(frozen=True, slots=True)
class GroupNode:
    group: str
    node: str  # an exact node id, or a function id standing for all its cases


def _rows(group: str, function: str, ids: Iterable[str]) -> list[GroupNode]:
    return [GroupNode(group, f"{function}[{row_id}]") for row_id in ids]


def test_functions(path: Path, root: Path) -> list[str]:
    """``file::test_name`` for every top-level test function of a test file, by parsing."""
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{rel}::{node.name}"
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    ]


def corpus_ids(root: Path) -> list[str]:
    data = yaml.safe_load((root / HOSTILE_CORPUS).read_text(encoding="utf-8"))
    return [str(case["id"]) for case in data["cases"]]


def _probe_names() -> list[str]:
    from harness.probes import PROBES  # the probes module starts stacks: import on demand

    return list(PROBES)


def required_groups(root: Path) -> list[GroupNode]:
    """Every node the required groups name; a file group with no test in it names the file,
    so a deleted spec file is a shortfall, never an empty group."""
    nodes = [
        *_rows("frame-table", FRAME_ROWS, (r.id for r in FRAME_TABLE)),
        *_rows("subset-gate", SUBSET_ROWS, (r.id for r in GATE_TABLE)),
        *_rows("harness-fsm", FSM_ROWS, (r.id for r in HARNESS_TABLE)),
        *_rows("permission-matrix", MATRIX_CELLS, (c.id for c in matrix_cells())),
        *_rows("hostile-narration", HOSTILE_CASES, corpus_ids(root)),
        *_rows("probes", PROBE_CASES, _probe_names()),
    ]
    for group, pattern in FILE_GROUPS:
        files = sorted(root.glob(pattern))
        functions = [f for path in files for f in test_functions(path, root)]
        nodes += [GroupNode(group, f) for f in functions] or [GroupNode(group, pattern)]
    return nodes
