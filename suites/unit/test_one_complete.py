""" "Complete" has one definition (beacon.adjudication.counts.is_complete, with
is_wholly_shown beside it): exact, a number, nothing beyond it. A second one written
anywhere else in the product — an EXACT grade and-ed with has-more, or with a count
of what is on screen — fails here; so does a panel that works it out from the grade."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import beacon
from beacon.adjudication import Basis, CountVerdict, Grade

PRODUCT = Path(beacon.__file__).resolve().parent
HOME = PRODUCT / "adjudication" / "counts.py"
ON_SCREEN = {"shown", "displayed", "citations", "returned", "cards"}


def _mentions_exact(node: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Attribute) and n.attr == "EXACT")
        or (isinstance(n, ast.Constant) and n.value == "EXACT")
        for n in ast.walk(node)
    )


def _names(node: ast.AST) -> set[str]:
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            found.add(n.id)
        elif isinstance(n, ast.Attribute):
            found.add(n.attr)
    return found


def second_definitions(source: str) -> list[str]:
    """Every ``and`` that tests an EXACT grade together with has-more or with what is
    on screen: a definition of "complete" of its own."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
            continue
        if not any(_mentions_exact(v) for v in node.values):
            continue
        names = _names(node)
        if "has_more" in names or names & ON_SCREEN:
            found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PRODUCT.rglob("*.py") if p.resolve() != HOME.resolve())


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(PRODUCT).as_posix())
def test_no_module_but_the_counts_module_defines_complete(path: Path) -> None:
    assert second_definitions(path.read_text("utf-8")) == []


def test_the_scan_catches_the_definitions_it_replaced() -> None:
    for smuggled in (
        "c = v.grade is Grade.EXACT and not v.has_more",
        "c = item.verdict.grade is Grade.EXACT and len(item.citations) == item.returned",
        'c = x.grade == "EXACT" and x.total == x.displayed',
    ):
        assert second_definitions(smuggled), smuggled
    assert second_definitions(HOME.read_text("utf-8")), "the home itself defines it"


def test_the_panel_reads_complete_from_the_count_entry() -> None:
    state = (PRODUCT / "panel" / "reducer.js").read_text("utf-8")
    sample = re.search(r"function isSample\(state\) \{(.*?)\n\}", state, re.DOTALL)
    assert sample is not None
    assert "primary.complete" in sample.group(1)
    assert '"EXACT"' not in sample.group(1)


@pytest.mark.parametrize(
    ("grade", "value", "has_more", "shown", "complete", "whole"),
    [
        (Grade.EXACT, 4, False, 4, True, True),
        (Grade.EXACT, 4, False, 3, True, False),
        (Grade.EXACT, 65, True, 10, False, False),
        (Grade.EXACT, None, False, 0, False, False),
        (Grade.LOWER_BOUND, 10, True, 10, False, False),
        (Grade.SHOWN, 5, False, 5, False, False),
        (Grade.UNKNOWN, None, False, 0, False, False),
        (Grade.EXACT, 0, False, 0, True, True),
    ],
)
def test_complete_is_exact_a_number_and_nothing_beyond(
    grade: Grade, value: int | None, has_more: bool, shown: int, complete: bool, whole: bool
) -> None:
    verdict = CountVerdict(grade, value, has_more, shown, "t", Basis.TOTAL)
    assert (verdict.complete, verdict.wholly_shown(shown)) == (complete, whole)
