"""The executed-test check: a green runner exit is not proof the named tests ran.

From the run's JUnit XML, every test a boundary names as evidence, and every
node of the required groups (``harness/required.py``), must have executed and
passed. Skipped, deselected or missing tests fail the check even when pytest
exited 0.

And the whole record must be green (``read_junit``): a failed or errored test
case anywhere, an error or failure a suite declares that no case carries (a
collection error, a crashed worker), or a file that is not JUnit at all makes
the record red, whichever tests it concerns — a gate that opens on red evidence
is "done" on a foundation that did not run.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from boundaries import Registry
from harness.checks.seams import crossing_tests
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


@dataclass(frozen=True, slots=True)
class JunitRecord:
    """What a run's JUnit file says, whole: each case's outcome and the suites' own word."""

    cases: dict[str, str]  # node id → passed | failed | errored | skipped (worst of reruns)
    suite_problems: tuple[str, ...]  # errors and failures a suite declares beyond its cases

    def count(self, status: str) -> int:
        return sum(1 for s in self.cases.values() if s == status)

    @property
    def red_cases(self) -> list[str]:
        return sorted(n for n, s in self.cases.items() if s in ("failed", "errored"))

    @property
    def red(self) -> bool:
        return bool(self.red_cases or self.suite_problems)

    def counts(self) -> dict[str, int]:
        statuses = ("passed", "failed", "errored", "skipped")
        return {s: self.count(s) for s in statuses} | {"suite_errors": len(self.suite_problems)}

    def summary(self) -> str:
        parts = [f"{n} {s}" for s, n in self.counts().items() if n]
        return ", ".join(parts) or "no test cases"

    def outcomes(self) -> dict[str, str]:
        """node id → passed | failed | skipped: an errored case counts as failed."""
        return {n: "failed" if s == "errored" else s for n, s in self.cases.items()}

    def problems(self, limit: int = 5) -> list[str]:
        """The first red cases and suite problems, each named."""
        named = [f"{n} ({self.cases[n]})" for n in self.red_cases]
        return [*named, *self.suite_problems][:limit]


_ORDER = {"errored": 3, "failed": 2, "skipped": 1, "passed": 0}
_ROOTS = ("testsuites", "testsuite")


def _status(case: ET.Element) -> str:
    tags = {child.tag for child in case}
    if "error" in tags:
        return "errored"  # a fixture or collection error: the test never ran its body
    if "failure" in tags:
        return "failed"
    return "skipped" if "skipped" in tags else "passed"


def _declared(suite: ET.Element, attribute: str) -> int:
    try:
        return int(suite.get(attribute) or 0)
    except ValueError:
        return 0


def _suite_problems(suite: ET.Element) -> list[str]:
    """What a suite declares that its cases do not carry: its own <error>/<failure>
    children, or ``errors=``/``failures=`` larger than the red cases it holds."""
    name = suite.get("name") or "testsuite"
    found = [
        f"{name}: suite-level {child.tag}: {(child.get('message') or '').strip()[:120]}"
        for child in suite
        if child.tag in ("error", "failure")
    ]
    cases = [_status(c) for c in suite.iter("testcase")]
    for attribute, status in (("errors", "errored"), ("failures", "failed")):
        declared, carried = _declared(suite, attribute), cases.count(status)
        if declared > carried:
            found.append(f"{name}: declares {attribute}={declared}, {carried} carried by cases")
    return found


def read_junit(path: Path) -> JunitRecord:
    """The whole record; a file that cannot be read or is not JUnit raises ``JunitError``."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError) as exc:
        raise JunitError(f"cannot read JUnit XML at {path}: {exc}") from exc
    root = tree.getroot()
    if root.tag not in _ROOTS:
        raise JunitError(f"{path} is not a JUnit XML file (its root element is <{root.tag}>)")
    cases: dict[str, str] = {}
    for case in root.iter("testcase"):
        node = _node_id(case.get("classname", ""), case.get("name", ""))
        status = _status(case)
        # a test run twice (rerun) keeps its worst outcome
        if _ORDER[status] >= _ORDER.get(cases.get(node, "passed"), 0):
            cases[node] = status
    suites = list(root.iter("testsuite"))  # the root itself when it is one
    problems = [p for suite in suites for p in _suite_problems(suite)]
    return JunitRecord(cases, tuple(problems))


def junit_cases(path: Path) -> dict[str, str]:
    """node id → passed | failed | skipped (an errored case counts as failed here)."""
    return read_junit(path).outcomes()


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
