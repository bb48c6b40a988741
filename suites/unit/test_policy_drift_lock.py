"""Drift lock: the PEP and the catalog read the one shared map and define none of their own.

A second map would drift: the catalog could hide a tool the PEP still lets
through, or the reverse. So both modules are parsed, and any tool, capability
or tier name written into them — a dict, a set, a comparison, anything — fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import beacon.policy.capabilities as capabilities
import beacon.policy.catalog as catalog
import beacon.policy.pep as pep

SHARED = "beacon.policy.capabilities"
NAMES = frozenset(capabilities.TOOLS) | frozenset(capabilities.CAPABILITIES)
NAMES |= frozenset(capabilities.TIERS)
GUARDED = [pytest.param(pep, id="pep"), pytest.param(catalog, id="catalog")]


def tree(module: object) -> ast.Module:
    return ast.parse(Path(str(getattr(module, "__file__", ""))).read_text("utf-8"))


def inline_names(module_tree: ast.Module) -> list[str]:
    """Every string constant that is a tool, capability or tier name, with its line."""
    return [
        f"line {node.lineno}: {node.value!r}"
        for node in ast.walk(module_tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES
    ]


MAPPING_FACTORIES = ("dict", "MappingProxyType", "frozendict", "ChainMap", "defaultdict")


def own_mappings(module_tree: ast.Module) -> list[str]:
    """Module-level assignments that build a mapping, whatever its contents."""
    found = []
    for node in module_tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Dict | ast.DictComp) or (
            isinstance(value, ast.Call) and ast.unparse(value.func).endswith(MAPPING_FACTORIES)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)[:60]}")
    return found


def shared_imports(module_tree: ast.Module) -> set[str]:
    return {
        alias.name
        for node in module_tree.body
        if isinstance(node, ast.ImportFrom) and node.module == SHARED
        for alias in node.names
    }


@pytest.mark.parametrize("module", GUARDED)
def test_no_tool_capability_or_tier_name_is_written_inline(module: object) -> None:
    assert inline_names(tree(module)) == []


@pytest.mark.parametrize("module", GUARDED)
def test_no_mapping_of_its_own_is_built_at_module_level(module: object) -> None:
    assert own_mappings(tree(module)) == []


@pytest.mark.parametrize("module", GUARDED)
def test_the_map_is_imported_from_the_shared_module(module: object) -> None:
    assert "TOOL_CAPABILITY" in shared_imports(tree(module))
    assert module.TOOL_CAPABILITY is capabilities.TOOL_CAPABILITY  # type: ignore[attr-defined]


def test_the_lock_sees_an_inline_map() -> None:
    """The checks above are only worth something if they catch the thing they guard."""
    smuggled = ast.parse('_MAP = {"search_photos": "photo_ai"}\nfrom beacon.wire import x\n')
    assert inline_names(smuggled) and own_mappings(smuggled)
    assert "TOOL_CAPABILITY" not in shared_imports(smuggled)
    assert own_mappings(ast.parse("_M = MappingProxyType(dict(a=1))"))
