"""A declared upstream contract (YAML, ``boundaries/upstream_contract.schema.json``) read
as tool-table rows: the data form of ``beacon.wire.tools``.

``beacon audit-upstream --contract-out`` writes one for any MCP server; Beacon's
own stub is described by ``contracts/stub.yaml``, which a test holds equal to the
tool table, row for row. Pure: a parsed document in, rows out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib.resources import files
from typing import Any

import yaml

from beacon.wire.tools import AT_HOURS, FilterAxis, RecordKind, ToolSpec

STUB_CONTRACT = "contracts/stub.yaml"


def stub_contract() -> dict[str, Any]:
    """The stub's declared contract, from the package."""
    text = files("beacon.wire").joinpath(STUB_CONTRACT).read_text(encoding="utf-8")
    document = yaml.safe_load(text)
    assert isinstance(document, dict)
    return document


def _axis(entry: Mapping[str, Any]) -> FilterAxis:
    axis = FilterAxis(str(entry["axis"]), tuple(str(a) for a in entry["arguments"]))
    # A time of day rides the date axis; the row keeps the one object that says so.
    return AT_HOURS if entry.get("hours") and axis == AT_HOURS else axis


def tool_spec_of(name: str, tool: Mapping[str, Any]) -> ToolSpec:
    return ToolSpec(
        name,
        str(tool["capability"]),
        tool["result_kind"],
        filter_axes=tuple(_axis(e) for e in tool.get("offers", ())),
        narrowed_page=tool.get("narrowed_page"),
        cites=tuple(RecordKind(str(c["kind"]), str(c["id_prefix"])) for c in tool.get("cites", ())),
        intent=tool.get("intent"),
        applies=tuple(_axis(e) for e in tool.get("applies", ())),
    )


def tool_specs_of(document: Mapping[str, Any]) -> tuple[ToolSpec, ...]:
    """Every tool of a contract as a row, in the document's order (skipped tools and
    tools whose capability is not filled in have no row: hidden and blocked)."""
    return tuple(
        tool_spec_of(name, tool)
        for name, tool in document["tools"].items()
        if tool["kind"] != "skipped" and tool.get("capability")
    )


def drift(document: Mapping[str, Any], listed: Iterable[str]) -> tuple[list[str], list[str]]:
    """(tools the contract names that the upstream no longer lists, tools it lists that
    the contract does not name)."""
    named, live = set(document["tools"]), set(listed)
    return sorted(named - live), sorted(live - named)
