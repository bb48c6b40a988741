"""The answer derives each thing from the turn's evidence once (issue 31, item 8).

The anchors the answer call is shown and the anchors the guard judges by were two
derivations of the same evidence; the counted calls, the released scope and the
host's list at its cap were each read twice. Each is now derived once
(``answer.derive``) and handed to every reader: a second call site fails here.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import beacon.loop.answer

SOURCE = Path(beacon.loop.answer.__file__).read_text()
ONCE = ("anchor_records", "view_list_at_cap", "released")


def _called(tree: ast.AST) -> Counter[str]:
    names: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names[func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")] += 1
    return names


def _counted_filters(tree: ast.AST) -> int:
    """Comprehensions that filter the evidence down to its counted calls."""
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            for gen in node.generators:
                if any(
                    isinstance(c, ast.Attribute) and c.attr == "counted" for c in gen.ifs
                ) and "evidence" in ast.unparse(gen.iter):
                    found += 1
    return found


@pytest.mark.parametrize("name", ONCE)
def test_each_derivation_from_the_evidence_has_one_call_site(name: str) -> None:
    assert _called(ast.parse(SOURCE))[name] == 1


def test_the_answer_call_is_shown_records_not_a_second_derivation() -> None:
    # anchors_message(evidence, …) derives the records again; records_message does not.
    called = _called(ast.parse(SOURCE))
    assert called["anchors_message"] == 0 and called["records_message"] == 1


def test_the_counted_calls_are_filtered_once() -> None:
    assert _counted_filters(ast.parse(SOURCE)) == 1
