"""Resolve ``module:attr.path`` references and normalise values for comparison.

Checks name code by import path, never by line number, so a file that is
edited around a symbol still sweeps the same way.
"""

from __future__ import annotations

import ast
import importlib
import re
import typing
from collections.abc import Mapping
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any


class CheckFailed(Exception):
    """A check's verdict is "no": ``field`` names the registry field it concerns."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def resolve(ref: str, field: str = "check.ref") -> Any:
    module_name, sep, attr_path = ref.partition(":")
    if not sep or not module_name or not attr_path:
        raise CheckFailed(field, f"{ref!r} is not of the form module:attribute")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise CheckFailed(field, f"cannot import {module_name}: {exc}") from exc
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            raise CheckFailed(field, f"{module_name} has no {attr_path} (missing {part!r})")
        obj = getattr(obj, part)
    return obj


def normalize(value: Any) -> Any:
    """Values as a YAML file can state them: enums by value, sets sorted, tuples as lists."""
    if isinstance(value, Enum):
        return normalize(value.value)
    if isinstance(value, type) and issubclass(value, Enum):
        return [normalize(member) for member in value]
    if typing.get_origin(value) is typing.Literal:
        return [normalize(v) for v in typing.get_args(value)]
    if isinstance(value, Mapping):
        return {str(normalize(k)): normalize(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(normalize(v) for v in value)
    if isinstance(value, list | tuple):
        return [normalize(v) for v in value]
    return value


def require(params: Mapping[str, Any], key: str) -> Any:
    if key not in params:
        raise CheckFailed(f"check.{key}", "missing parameter")
    return params[key]


def module_file(module_name: str, root: Path) -> Path:
    base = root / Path(*module_name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise CheckFailed("check", f"no source file for module {module_name} under {root}")


def imported_modules(source: Path) -> set[str]:
    """Every module a file imports (``from a.b import c`` yields ``a.b`` and ``a.b.c``)."""
    return set(_imports_in(source.read_text(encoding="utf-8")))


@lru_cache(maxsize=4096)
def _imports_in(text: str) -> frozenset[str]:
    # By the text: the fan-in audit reads every test file once per gate decision, and a
    # gate run decides several times over the same unchanged files.
    tree = ast.parse(text)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(found)


def defined_names(source: Path) -> set[str]:
    """Top-level names a Python file defines, and ``Class.member`` for class bodies."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: set[str] = set()

    def targets(node: ast.stmt) -> list[str]:
        if isinstance(node, ast.Assign):
            return [t.id for t in node.targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return [node.name]
        return []

    for node in tree.body:
        names.update(targets(node))
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                names.update(f"{node.name}.{n}" for n in targets(member))
    return names


_JS_ARRAY = r"export\s+const\s+{name}\s*=\s*(?:Object\.freeze\()?\[(?P<body>[^\]]*)\]"


def js_string_array(path: Path, name: str) -> list[str]:
    """The string literals of ``export const NAME = [...]`` (optionally frozen) in a JS file."""
    match = re.search(_JS_ARRAY.format(name=re.escape(name)), path.read_text(encoding="utf-8"))
    if match is None:
        raise CheckFailed("check", f"{path.name} exports no array {name}")
    return re.findall(r"[\"']([^\"']*)[\"']", match.group("body"))
