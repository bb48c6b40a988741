"""Drift lock: everyone who knows something about a tool reads it from the one tool table.

A second table would drift: the catalog could hide a tool the PEP still lets
through (or the reverse), narrowing could offer an axis the tool does not take,
a card could be cut for a kind the tool never returns. So each reader is parsed
— a tool name written into it (a dict, a set, a comparison, anything) fails, and
the PEP and the catalog may not even name a capability or a tier — and then one
row of the table is changed at run time to show that every reader follows it.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from types import MappingProxyType, ModuleType

import pytest

import beacon.adjudication.narrowing as narrowing
import beacon.adjudication.tools as result_contract
import beacon.loop.citations as citations
import beacon.loop.intent as intent
import beacon.loop.narrowing_state as narrowing_state
import beacon.policy.capabilities as capabilities
import beacon.policy.catalog as catalog
import beacon.policy.pep as pep
import beacon.wire.tools as tool_table
from beacon.adjudication import GateState

SHARED = "beacon.wire.tools"
TOOL_NAMES = frozenset(tool_table.TOOL_SPECS)
POLICY_NAMES = TOOL_NAMES | frozenset(capabilities.CAPABILITIES) | frozenset(capabilities.TIERS)
# Every module that decides something per tool, and the names it may not write.
READERS = [
    pytest.param(pep, POLICY_NAMES, id="pep"),
    pytest.param(catalog, POLICY_NAMES, id="catalog"),
    pytest.param(capabilities, TOOL_NAMES, id="capabilities"),
    pytest.param(result_contract, TOOL_NAMES, id="result-contract"),
    pytest.param(narrowing, TOOL_NAMES, id="narrowing"),
    pytest.param(narrowing_state, TOOL_NAMES, id="narrowing-state"),
    pytest.param(intent, TOOL_NAMES, id="intent"),
    pytest.param(citations, TOOL_NAMES, id="citations"),
]
GUARDED = [pytest.param(pep, id="pep"), pytest.param(catalog, id="catalog")]


def tree(module: object) -> ast.Module:
    return ast.parse(Path(str(getattr(module, "__file__", ""))).read_text("utf-8"))


def inline_names(module_tree: ast.Module, names: frozenset[str]) -> list[str]:
    """Every string constant that is one of ``names``, with its line."""
    return [
        f"line {node.lineno}: {node.value!r}"
        for node in ast.walk(module_tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
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


@pytest.mark.parametrize(("module", "names"), READERS)
def test_no_reader_writes_a_tool_name_inline(module: ModuleType, names: frozenset[str]) -> None:
    assert inline_names(tree(module), names) == []


@pytest.mark.parametrize("module", GUARDED)
def test_no_mapping_of_its_own_is_built_at_module_level(module: object) -> None:
    assert own_mappings(tree(module)) == []


@pytest.mark.parametrize(("module", "names"), READERS)
def test_every_reader_reads_its_rows_through_the_tables_lookups(
    module: ModuleType, names: frozenset[str]
) -> None:
    """Through ``tool_spec``/``tool_specs``, called at decision time: never a copy."""
    imported = shared_imports(tree(module))
    assert imported & {"tool_spec", "tool_specs"}
    assert "TOOL_SPECS" not in imported


def test_the_lock_sees_an_inline_map() -> None:
    """The checks above are only worth something if they catch the thing they guard."""
    smuggled = ast.parse('_MAP = {"search_photos": "photo_ai"}\nfrom beacon.wire import x\n')
    assert inline_names(smuggled, POLICY_NAMES) and own_mappings(smuggled)
    assert inline_names(ast.parse('if tool == "get_capture": pass'), TOOL_NAMES)
    assert not shared_imports(smuggled)
    assert own_mappings(ast.parse("_M = MappingProxyType(dict(a=1))"))


# --- the table changed at run time: every reader follows -------------------------------

SCOPE = {"level_number": 3, "status": "open", "limit": 7}
DOC_RECORD = {"id": "doc-000001", "title": "Spec 03 30 00"}
PHOTO_RECORD = {"id": "ph-000001", "title": "Rebar"}


def _answers() -> dict[str, object]:
    """What each reader says about ``search_photos``, asked the way the loop asks."""
    active = narrowing_state.Narrowing(
        state=GateState.NARROWED, tool="search_photos", scope=dict(SCOPE)
    )
    return {
        "pep allows with photo_ai": pep.decide_granted(
            "search_photos", frozenset({"photo_ai"}), capability_hint=None
        ).allowed,
        "pep allows with bim": pep.decide_granted(
            "search_photos", frozenset({"bim"}), capability_hint=None
        ).allowed,
        "catalog keeps for bim": bool(
            catalog.scope_catalog([{"name": "search_photos"}], frozenset({"bim"}))
        ),
        "capability": capabilities.capability_of("search_photos"),
        "counted": result_contract.has_result_contract("search_photos"),
        "offerable": narrowing.offerable_axes("search_photos", ("level", "status")),
        "scoped": narrowing_state.scoped_arguments("search_photos", {}, active),
        "needed for photos": intent.needed_tools("photos of rebar"),
        "needed for kittens": intent.needed_tools("kittens on level 3"),
        "document card": citations.card_fields("search_photos", DOC_RECORD, "p") is not None,
        "photo card": citations.card_fields("search_photos", PHOTO_RECORD, "p") is not None,
    }


def test_a_row_changed_in_the_table_changes_every_reader() -> None:
    before = {
        "pep allows with photo_ai": True,
        "pep allows with bim": False,
        "catalog keeps for bim": False,
        "capability": "photo_ai",
        "counted": True,
        "offerable": ("level",),
        "scoped": {"level_number": 3, "limit": 7},
        "needed for photos": ("search_photos",),
        "needed for kittens": (),
        "document card": False,
        "photo card": True,
    }
    assert _answers() == before

    row = tool_table.TOOL_SPECS["search_photos"]
    changed = dataclasses.replace(
        row,
        capability="bim",
        result_kind=None,
        filter_axes=(tool_table.STATUS,),
        narrowed_page=None,
        cites=(tool_table.DOCUMENT,),
        intent=r"\bkittens?\b",
    )
    swapped = MappingProxyType({**tool_table.TOOL_SPECS, "search_photos": changed})
    # The table every reader sees is the fronted one (a contract's, at start-up).
    with tool_table.fronting(swapped.values()):
        changed_answers = _answers()
    assert _answers() == before, "the table is back once the block ends"
    assert changed_answers == {
        "pep allows with photo_ai": False,
        "pep allows with bim": True,
        "catalog keeps for bim": True,
        "capability": "bim",
        "counted": False,
        "offerable": ("status",),
        "scoped": {"status": "open"},
        "needed for photos": (),
        "needed for kittens": ("search_photos",),
        "document card": True,
        "photo card": False,
    }


# --- the whole product, not a hand-kept list of readers ---------------------------------

PRODUCT = Path(tool_table.__file__).resolve().parents[1]
TABLE = Path(tool_table.__file__).resolve()


def _product_modules() -> list[Path]:
    return sorted(p for p in PRODUCT.rglob("*.py") if p.resolve() != TABLE)


@pytest.mark.parametrize(
    "path", _product_modules(), ids=lambda p: p.relative_to(PRODUCT.parent).as_posix()
)
def test_no_module_of_the_product_but_the_table_names_a_tool(path: Path) -> None:
    """Nouns, relations, the aggregate, context and levels tools: all in the rows now
    (ToolSpec.noun / relation / role). A tool name anywhere else is a second table."""
    assert inline_names(ast.parse(path.read_text("utf-8")), TOOL_NAMES) == [], path


def test_the_whole_product_scan_covers_the_readers_and_more() -> None:
    scanned = {p.resolve() for p in _product_modules()}
    listed = {Path(str(getattr(m.values[0], "__file__", ""))).resolve() for m in READERS}
    assert listed < scanned and len(scanned) > 100
