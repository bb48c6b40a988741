"""No test depends on how long the suite runs: the clock is read when it is needed.

A token minted "ten minutes in the future" from a time taken at import was in the
past by the time a loaded run (10 min 23 s) checked it, and two rejection cases
failed. A module-level name bound to the clock is that bug waiting: this scan
fails on one anywhere in the suites, the harness, the bench or the stubs.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("suites", "harness", "bench", "stub_server", "gates")
# Calls that read the wall clock or the monotonic clock.
CLOCK_CALLS = frozenset(
    {
        ("time", "time"),
        ("time", "monotonic"),
        ("time", "perf_counter"),
        ("datetime", "now"),
        ("datetime", "utcnow"),
        ("date", "today"),
    }
)


def _reads_the_clock(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Lambda):
            return False  # called later, when the case runs
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and (_name(inner.func.value), inner.func.attr) in CLOCK_CALLS
        ):
            return True
    return False


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def clock_read_at_import(source: str) -> list[int]:
    """Lines of module-level assignments whose value reads a clock."""
    return [
        statement.lineno
        for statement in ast.parse(source).body
        if isinstance(statement, ast.Assign | ast.AnnAssign)
        and statement.value is not None
        and _reads_the_clock(statement.value)
    ]


def test_no_module_binds_the_clock_at_import() -> None:
    found = {
        path.relative_to(ROOT).as_posix(): lines
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "__pycache__" not in path.parts
        and (lines := clock_read_at_import(path.read_text(encoding="utf-8")))
    }
    assert not found, f"read the clock when the value is used, not at import: {found}"


def test_the_scan_sees_a_clock_bound_at_import_and_not_one_read_later() -> None:
    source = (
        "import time\nimport datetime as dt\n"
        "NOW = int(time.time())\n"
        "TODAY = dt.date.today()\n"
        "LATER = lambda: time.time()\n"
        "def now():\n    return time.time()\n"
        "CASES = [now]\n"
    )
    assert clock_read_at_import(source) == [3, 4]
