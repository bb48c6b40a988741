"""One verify run path (issue 31, item 8): ``beacon verify`` and the promote gate both
call ``harness.verify.verify`` (usage check, run, reports); neither spells the steps out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gates
import harness

STEPS = frozenset({"usage_problem", "run_verify", "write_reports"})
PACKAGES = (Path(harness.__file__).parent, Path(gates.__file__).parent)


def _modules() -> list[Path]:
    verify = PACKAGES[0] / "verify"
    return sorted(p for root in PACKAGES for p in root.rglob("*.py") if verify not in p.parents)


def _steps_imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness.verify"):
            found |= {a.name for a in node.names} & STEPS
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(p.parents[1])))
def test_no_caller_spells_out_the_verify_run(path: Path) -> None:
    assert _steps_imported(path) == set()


def test_the_cli_and_the_gate_both_take_the_one_path() -> None:
    for name in ("cli.py", "gating.py"):
        source = ast.parse((PACKAGES[0] / name).read_text())
        imported = {
            a.name
            for n in ast.walk(source)
            if isinstance(n, ast.ImportFrom) and n.module == "harness.verify"
            for a in n.names
        }
        assert "verify" in imported, name
