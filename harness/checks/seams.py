"""Checks of seams, found by parsing: a route still declared and still called, an import
seam still wired with every emitted value handled, and the crossing tests that name a
boundary (``@pytest.mark.crossing("id")``)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.checks.base import CheckContext
from harness.refs import (
    CheckFailed,
    imported_modules,
    js_string_array,
    module_file,
    normalize,
    require,
    resolve,
)

CROSSING_DIRS = ("suites",)


_ROUTE_METHODS = {"get", "post", "put", "patch", "delete"}


def _declared_routes(source: Path) -> frozenset[tuple[str, str]]:
    """(METHOD, path) pairs declared as ``@app.post("/x")`` or ``Route("/x", methods=[...])``."""
    return _routes_in(source.read_text(encoding="utf-8"))


# The parses below are kept by the file's text: a gate run sweeps and decides several times
# over the same unchanged files (and the suite over many copies of one tree).
@lru_cache(maxsize=256)
def _routes_in(text: str) -> frozenset[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _ROUTE_METHODS:
            found.add((func.attr.upper(), first.value))
        elif isinstance(func, ast.Name) and func.id == "Route":
            methods = next((k.value for k in node.keywords if k.arg == "methods"), None)
            names = (
                [m.value for m in methods.elts if isinstance(m, ast.Constant)]
                if isinstance(methods, ast.List)
                else ["GET"]
            )
            found.update((str(m).upper(), first.value) for m in names)
    return frozenset(found)


def route(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The module still declares the route (found by parsing, wherever it moved in the file),
    and each ``called_from`` file, the other side of the wire, still calls that path."""
    file, method, path = require(params, "file"), require(params, "method"), require(params, "path")
    source = ctx.root / file
    if not source.is_file():
        raise CheckFailed("check.file", f"{file} does not exist")
    if (str(method).upper(), path) not in _declared_routes(source):
        raise CheckFailed("check.path", f"{file} declares no {method} {path}")
    for index, caller in enumerate(params.get("called_from", ())):
        called = ctx.root / caller
        if not called.is_file() or f'{path}"' not in called.read_text(encoding="utf-8"):
            raise CheckFailed(f"check.called_from[{index}]", f"{caller} no longer calls {path}")


def _crossing_marks(path: Path) -> tuple[tuple[str, str], ...]:
    """(test function, boundary id) for every ``@pytest.mark.crossing("id")`` in a file."""
    return _crossing_marks_in(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=2048)
def _crossing_marks_in(text: str) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for node in ast.parse(text).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for deco in node.decorator_list:
            if (
                isinstance(deco, ast.Call)
                and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "crossing"
            ):
                found += [
                    (node.name, a.value)
                    for a in deco.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
    return tuple(found)


@lru_cache(maxsize=8)
def _crossing_index(root: Path, stamp: tuple[tuple[str, int], ...]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for rel, _mtime in stamp:
        for name, boundary_id in _crossing_marks(root / rel):
            index.setdefault(boundary_id, []).append(f"{rel}::{name}")
    return index


def crossing_tests(root: Path, boundary_id: str) -> list[str]:
    """Test functions carrying ``@pytest.mark.crossing("<boundary_id>")``, found by parsing."""
    files = [p for top in CROSSING_DIRS for p in sorted((root / top).rglob("test_*.py"))]
    stamp = tuple((p.relative_to(root).as_posix(), p.stat().st_mtime_ns) for p in files)
    return list(_crossing_index(root, stamp).get(boundary_id, []))


def _values(ref: str, root: Path, field: str) -> set[str]:
    if ref.endswith(".js") or ".js:" in ref:
        path, _, name = ref.partition(":")
        return set(js_string_array(root / path, name))
    value = normalize(resolve(ref, field))
    items = value.keys() if isinstance(value, dict) else value
    return {str(v) for v in items}


def seam(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Both sides exist; an import seam is really wired; the values one side emits are
    all handled by the other; and a crossing test names this boundary."""
    producer, consumer = require(params, "producer"), require(params, "consumer")
    via = params.get("via", "import")
    for field, ref in (("check.producer", producer), ("check.consumer", consumer)):
        if not (ref.endswith(".js") or ".js:" in ref):
            resolve(ref, field)
        elif not (ctx.root / ref.partition(":")[0]).is_file():
            raise CheckFailed(field, f"{ref} does not exist")
    if via == "import":
        consumer_module = consumer.partition(":")[0]
        producer_module = producer.partition(":")[0]
        imports = imported_modules(module_file(consumer_module, ctx.root))
        if not any(i == producer_module or i.startswith(producer_module + ".") for i in imports):
            raise CheckFailed("check.via", f"{consumer_module} no longer imports {producer_module}")
    if "emits" in params:
        emitted = _values(params["emits"], ctx.root, "check.emits")
        handled = _values(require(params, "handles"), ctx.root, "check.handles")
        handled |= set(params.get("also_handled", ()))
        unhandled = sorted(emitted - handled)
        if unhandled:
            raise CheckFailed("check.handles", f"emitted but not handled: {', '.join(unhandled)}")
        if params.get("exact") and handled - emitted:
            extra = ", ".join(sorted(handled - emitted))
            raise CheckFailed("check.handles", f"handled but never emitted: {extra}")
    if not crossing_tests(ctx.root, ctx.boundary_id):
        raise CheckFailed("check", f"no test is marked crossing({ctx.boundary_id!r})")
