"""The mutation run's test list is derived from the package, and the committed one is it."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from harness.mutation_tests import (
    COMMAND,
    KEY,
    committed,
    derived,
    imports_mutated,
    reads_source,
    rewritten,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_mutation_test_list_is_the_one_derived_from_the_package() -> None:
    assert committed(ROOT) == derived(ROOT), f"the mutation test list is stale: run `{COMMAND}`"


def test_a_unit_test_importing_a_mutated_package_is_selected_unless_it_reads_source() -> None:
    assert imports_mutated(ast.parse("from beacon.adjudication.counts import grade_count"))
    assert imports_mutated(ast.parse("from beacon import policy"))
    assert imports_mutated(ast.parse("import beacon.policy.pep as pep"))
    assert not imports_mutated(ast.parse("from beacon.loop import answer"))
    assert reads_source(ast.parse("import beacon.policy.pep as pep\nPath(pep.__file__)"))
    assert reads_source(ast.parse('Path(getattr(module, "__file__"))'))
    assert reads_source(ast.parse("inspect.getsource(module)"))
    assert not reads_source(ast.parse("Path(__file__).with_name('corpus')"))


def test_rewriting_the_list_leaves_the_rest_of_pyproject_byte_identical() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed = rewritten(text, ["suites/unit/test_a.py"])
    assert tomllib.loads(changed)["tool"]["mutmut"][KEY] == ["suites/unit/test_a.py"]
    assert rewritten(changed, committed(ROOT)) == text


def test_the_mutation_runs_own_pytest_collects_every_test_it_selects() -> None:
    """``make mutation`` runs pytest with mutmut's arguments (xdist off, among them):
    every selected module must collect there, or no mutant is ever judged."""
    mutmut = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q"]
        + mutmut["pytest_add_cli_args"]
        + mutmut[KEY],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert " tests collected" in ran.stdout
