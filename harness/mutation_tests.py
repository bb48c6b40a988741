"""The mutation run's test selection, derived from the package instead of kept by hand.

mutmut mutates ``beacon.adjudication`` and ``beacon.policy`` and judges each mutant by
the unit tests that import them (``suites/unit``, imports found by parsing). A test
that locates a module's file (``module.__file__``, ``getattr(m, "__file__")``,
``inspect.getsource``) reads its source, which mutmut rewrites: it is not selected.

``python -m harness.mutation_tests --write`` rewrites the list in ``pyproject.toml``
(``[tool.mutmut] pytest_add_cli_args_test_selection``); ``--check`` exits 1 when the
committed list differs from the derived one.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tomllib
from pathlib import Path

UNIT = "suites/unit"
MUTATED = ("beacon.adjudication", "beacon.policy")
KEY = "pytest_add_cli_args_test_selection"
COMMAND = "python -m harness.mutation_tests --write"
_SOURCE_READERS = frozenset({"getsource", "getsourcefile", "getsourcelines", "getfile"})


def _mutated(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in MUTATED)


def imports_mutated(tree: ast.AST) -> bool:
    """The file imports ``beacon.adjudication`` or ``beacon.policy`` (or a module of theirs)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(_mutated(a.name) for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if _mutated(node.module):
                return True
            if any(_mutated(f"{node.module}.{a.name}") for a in node.names):
                return True
    return False


def reads_source(tree: ast.AST) -> bool:
    """The file locates a module's file (its own ``__file__`` is a bare name, not this)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in {"__file__", *_SOURCE_READERS}:
            return True
        if isinstance(node, ast.Name) and node.id in _SOURCE_READERS:
            return True
        if isinstance(node, ast.Constant) and node.value == "__file__":
            return True
    return False


def derived(root: Path) -> list[str]:
    """The unit test files that import the mutated packages and do not read source."""
    found = []
    for path in sorted((root / UNIT).glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if imports_mutated(tree) and not reads_source(tree):
            found.append(path.relative_to(root).as_posix())
    return found


def committed(root: Path) -> list[str]:
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return list(data["tool"]["mutmut"][KEY])


def rewritten(text: str, tests: list[str]) -> str:
    """``pyproject.toml``'s text with only the selection list replaced."""
    pattern = re.compile(rf"^{KEY} = \[\n(?:  .*\n)*?\]\n", re.MULTILINE)
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"pyproject.toml has no single multi-line `{KEY} = [` list")
    body = "".join(f'  "{test}",\n' for test in tests)
    return pattern.sub(lambda _match: f"{KEY} = [\n{body}]\n", text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.mutation_tests")
    parser.add_argument("--root", type=Path, default=Path("."))
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite the pyproject list")
    action.add_argument("--check", action="store_true", help="exit 1 when it is stale")
    args = parser.parse_args(argv)
    tests = derived(args.root)
    if args.write:
        path = args.root / "pyproject.toml"
        path.write_text(rewritten(path.read_text(encoding="utf-8"), tests), encoding="utf-8")
        print(f"{len(tests)} test files selected")
        return 0
    if committed(args.root) != tests:
        print(f"the mutation test list is stale: run `{COMMAND}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
