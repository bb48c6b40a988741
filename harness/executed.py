"""The executed-test check: a green runner exit is not proof the named tests ran.

From the run's JUnit XML, every test a boundary names as evidence, and every
node of the required groups (``harness/required.py``), must have executed and
passed. Skipped, deselected or missing tests fail the check even when pytest
exited 0.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from boundaries import Registry
from harness.checks import crossing_tests
from harness.required import required_groups


@dataclass(frozen=True, slots=True)
class Requirement:
    node: str  # a node id, or a function id standing for all its parametrizations
    why: str  # the boundary id or group that requires it
    min_cases: int = 1


@dataclass(frozen=True, slots=True)
class Shortfall:
    node: str
    why: str
    problem: str

    def __str__(self) -> str:
        return f"{self.node} ({self.why}): {self.problem}"


@dataclass(frozen=True, slots=True)
class ExecutedReport:
    required: int
    cases_seen: int
    shortfalls: tuple[Shortfall, ...]

    @property
    def ok(self) -> bool:
        return not self.shortfalls


class JunitError(Exception):
    """The JUnit file is missing or unreadable: nothing proves any test ran."""


def _node_id(classname: str, name: str) -> str:
    parts = classname.split(".")
    # pytest writes ``suites.unit.test_x`` or ``suites.unit.test_x.TestClass``.
    split = next(
        (i for i in range(len(parts), 0, -1) if parts[i - 1].startswith("test_")), len(parts)
    )
    module = "/".join(parts[:split]) + ".py"
    return "::".join([module, *parts[split:], name])


def junit_cases(path: Path) -> dict[str, str]:
    """node id → passed | failed | skipped."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError) as exc:
        raise JunitError(f"cannot read JUnit XML at {path}: {exc}") from exc
    cases: dict[str, str] = {}
    for case in tree.iter("testcase"):
        node = _node_id(case.get("classname", ""), case.get("name", ""))
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            status = "failed"
        elif "skipped" in tags:
            status = "skipped"
        else:
            status = "passed"
        # a test run twice (rerun) keeps its worst outcome
        order = {"failed": 2, "skipped": 1, "passed": 0}
        if order[status] >= order.get(cases.get(node, "passed"), 0):
            cases[node] = status
    return cases


def requirements(registry: Registry, root: Path) -> list[Requirement]:
    found = [Requirement(node, b.id) for b in registry.boundaries for node in b.evidence]
    for boundary in registry.boundaries:
        if boundary.kind == "internal-seam":
            crossings = crossing_tests(root, boundary.id)
            found += [Requirement(node, f"{boundary.id} crossing") for node in crossings]
            if not crossings:
                found.append(Requirement(f"crossing({boundary.id})", boundary.id))
    # Every row, cell, case and spec of the required groups (harness/required.py),
    # one requirement each: a group is as large as its data, never a typed count.
    return found + [Requirement(g.node, g.group) for g in required_groups(root)]


def _matching(node: str, cases: dict[str, str]) -> list[str]:
    if "[" in node:
        return [node] if node in cases else []
    return [c for c in cases if c == node or c.startswith(node + "[")]


def check_executed(cases: dict[str, str], required: Iterable[Requirement]) -> ExecutedReport:
    shortfalls: list[Shortfall] = []
    needed = list(required)
    for req in needed:
        matched = _matching(req.node, cases)
        if not matched:
            shortfalls.append(Shortfall(req.node, req.why, "did not run (missing or deselected)"))
            continue
        bad = sorted(c for c in matched if cases[c] != "passed")
        if bad:
            shortfalls.append(Shortfall(req.node, req.why, f"{cases[bad[0]]}: {bad[0]}"))
        elif len(matched) < req.min_cases:
            shortfalls.append(
                Shortfall(req.node, req.why, f"{len(matched)} cases ran, {req.min_cases} required")
            )
    unique = {(s.node, s.problem): s for s in shortfalls}
    return ExecutedReport(len({r.node for r in needed}), len(cases), tuple(unique.values()))
