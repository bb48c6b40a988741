"""Rooms a newcomer can find: no module over 400 lines, no dataclass silent about `frozen`.

A module past 400 lines holds more than one concern (the last ones that grew there —
the turn store, the app's nested routes, the panel's one file — each turned out to
hold four or five). Exceptions are listed here with their reason; none is listed
today. A dataclass states ``frozen``: ``True`` for a record, ``False`` with a comment
saying why the object must change — so a mutable record is a decision, not a default.
"""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Every folder of code the repository ships or tests with.
CODE_DIRS = ("beacon", "harness", "stub_server", "gates", "bench", "reports", "suites")
SKIPPED_PARTS = frozenset({"node_modules", "__pycache__", ".venv"})
MAX_LINES = 400
# path (from the root) → why it may be longer. Empty: every module fits.
LONGER_ALLOWED: dict[str, str] = {}


def _modules(*suffixes: str) -> Iterator[Path]:
    """The repository's own files (tracked, or new and not ignored): never a virtual
    environment or an installed copy a run left under reports/."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *CODE_DIRS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in sorted(set(listed)):
        path = ROOT / name
        if (
            path.suffix in suffixes
            and path.is_file()
            and not SKIPPED_PARTS.intersection(path.parts)
        ):
            yield path


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _is_dataclass_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id == "dataclass"
    return isinstance(target, ast.Attribute) and target.attr == "dataclass"


def _silent_dataclasses(source: str) -> list[str]:
    """The classes decorated ``@dataclass`` without a ``frozen=`` argument."""
    silent = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for decorator in node.decorator_list:
            if not _is_dataclass_decorator(decorator):
                continue
            keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
            if not any(keyword.arg == "frozen" for keyword in keywords):
                silent.append(f"{node.name} (line {node.lineno})")
    return silent


def test_the_scan_reaches_every_code_folder() -> None:
    # A walk that found nothing would pass every check below.
    reached = {_rel(path).split("/")[0] for path in _modules(".py", ".js")}
    assert reached >= {"beacon", "harness", "stub_server", "gates", "bench", "suites"}


def test_no_module_is_longer_than_four_hundred_lines() -> None:
    too_long = {
        _rel(path): lines
        for path in _modules(".py", ".js")
        if (lines := _line_count(path)) > MAX_LINES and _rel(path) not in LONGER_ALLOWED
    }
    assert not too_long, (
        f"split these by concern (or list one in LONGER_ALLOWED with its reason): {too_long}"
    )


def test_every_listed_exception_is_still_long_and_still_there() -> None:
    # A stale exception would let its module grow back unnoticed.
    stale = [
        path
        for path in LONGER_ALLOWED
        if not (ROOT / path).is_file() or _line_count(ROOT / path) <= MAX_LINES
    ]
    assert not stale


def test_every_dataclass_states_whether_it_is_frozen() -> None:
    silent = {
        _rel(path): found
        for path in _modules(".py")
        if (found := _silent_dataclasses(path.read_text(encoding="utf-8")))
    }
    assert not silent, f"state frozen=True, or frozen=False with a why-comment: {silent}"


def test_the_frozen_scan_sees_each_spelling_of_the_decorator() -> None:
    source = (
        "import dataclasses\nfrom dataclasses import dataclass\n"
        "@dataclass\nclass A: pass\n"
        "@dataclass(slots=True)\nclass B: pass\n"
        "@dataclasses.dataclass(eq=False)\nclass C: pass\n"
        "@dataclass(frozen=True)\nclass D: pass\n"
        "@dataclasses.dataclass(frozen=False)  # mutated by its owner\nclass E: pass\n"
        "@other\nclass F: pass\n"
    )
    assert _silent_dataclasses(source) == ["A (line 4)", "B (line 6)", "C (line 8)"]
