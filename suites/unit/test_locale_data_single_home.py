"""Locale data has one home, ``beacon/lexicon``, and the locale and the grade one definition.

Copies kept in step drift (month names were written three times, the locale list
twice, the grade twice), so the product is parsed: a table keyed by locales or a list
of month names anywhere in ``beacon/`` outside the lexicon fails, and so does a second
``Locale`` or ``Grade``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import beacon
from beacon.adjudication import Grade
from beacon.wire import frames

PRODUCT = Path(beacon.__file__).parent
HOME = PRODUCT / "lexicon"
LOCALES = frozenset({"en", "ko", "ja", "de", "es"})  # SPEC §4, by hand
# Month names of the three languages that have them, by hand (not from the lexicon).
MONTH_WORDS = frozenset({
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
    "januar", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember",
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
    "septiembre", "octubre", "noviembre", "diciembre",
})  # fmt: skip
# Locale data outside the lexicon, and why: none today. A row here names the file and
# the line's table ("beacon/x.py:NAME") and says why it cannot live in the lexicon.
EXCEPTIONS: dict[str, str] = {}


@cache
def parsed() -> tuple[tuple[Path, str, ast.Module], ...]:
    """Every module of the product: its path, its name from the repository root, its tree."""
    return tuple(
        (path, path.relative_to(PRODUCT.parent).as_posix(), ast.parse(path.read_text("utf-8")))
        for path in sorted(PRODUCT.rglob("*.py"))
    )


def product_modules() -> Iterator[tuple[str, ast.Module]]:
    for path, name, tree in parsed():
        if HOME not in path.parents:
            yield name, tree


def _strings(node: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def locale_keyed(node: ast.AST) -> bool:
    """A dict literal or ``dict(...)`` call with two or more locale keys."""
    if isinstance(node, ast.Dict):
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        keys = {k.arg for k in node.keywords}
    else:
        return False
    return len(keys & LOCALES) >= 2


def month_list(node: ast.AST) -> bool:
    """A collection or one string naming three months or more ("Januar|Februar|März")."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        words = [w for s in _strings(node) for w in re.findall(r"\w+", s.lower())]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        words = re.findall(r"\w+", node.value.lower())
    else:
        return False
    return len(set(words) & MONTH_WORDS) >= 3


def findings() -> list[str]:
    found = []
    for path, tree in product_modules():
        for node in ast.walk(tree):
            if locale_keyed(node):
                found.append(f"{path}:{getattr(node, 'lineno', 0)}: a table keyed by locales")
            elif month_list(node):
                found.append(f"{path}:{getattr(node, 'lineno', 0)}: month names")
    return found


def test_no_locale_table_or_month_names_outside_the_lexicon() -> None:
    excepted = {row.split(":")[0] for row in EXCEPTIONS}
    assert [f for f in findings() if f.split(":")[0] not in excepted] == []


def definitions(name: str) -> list[str]:
    """Where the product defines ``name``: a class, or an assignment at module level
    (an ``import ... as name`` is a use of the one definition, not another)."""
    found = []
    for _, module, tree in parsed():
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                found.append(module)
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found.append(module)
    return found


def test_the_locale_is_defined_once_in_the_lexicon() -> None:
    assert definitions("Locale") == ["beacon/lexicon/locales.py"]


def test_the_grade_is_defined_once_on_the_wire() -> None:
    """The wire below the verdicts holds the one enum; adjudication grades with it."""
    assert definitions("Grade") == ["beacon/wire/frames.py"]
    assert Grade is frames.Grade
