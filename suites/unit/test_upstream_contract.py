"""The stub's declared upstream contract is the tool table's data form: schema-valid,
row for row equal to beacon/wire/tools.py, and a drift is named."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from beacon.server.settings import SettingsError, settings_from_env
from beacon.store.crypto import new_key_slot
from beacon.wire.contract import (
    ContractError,
    drift,
    parse_contract,
    schema_digest,
    stub_contract,
    tool_specs_of,
)
from beacon.wire.tools import AT_HOURS, tool_spec, tool_specs

SCHEMA = Path(__file__).resolve().parents[2] / "boundaries" / "upstream_contract.schema.json"


def test_the_stubs_contract_is_valid_against_the_published_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator(schema).validate(stub_contract())


def test_the_tool_table_is_the_stubs_contract_row_for_row() -> None:
    assert tool_specs_of(stub_contract()) == tool_specs()


def test_a_changed_argument_in_the_contract_is_a_different_table() -> None:
    changed = copy.deepcopy(stub_contract())
    changed["tools"]["list_annotations"]["applies"][0]["arguments"] = ["projectId"]
    assert tool_specs_of(changed) != tool_specs()


def test_a_time_of_day_axis_is_the_tables_own_hours_axis() -> None:
    (row,) = [r for r in tool_specs_of(stub_contract()) if r.name == "query_data"]
    assert row.applying("date", hours=True) is AT_HOURS
    assert row == tool_spec("query_data")


def test_a_skipped_tool_or_one_without_a_capability_gets_no_row() -> None:
    document = copy.deepcopy(stub_contract())
    document["tools"]["list_levels"]["kind"] = "skipped"
    document["tools"]["get_capture"]["capability"] = None
    names = [row.name for row in tool_specs_of(document)]
    assert "list_levels" not in names and "get_capture" not in names
    assert len(names) == len(tool_specs()) - 2


def test_drift_names_the_tools_gone_and_the_tools_new() -> None:
    contract = stub_contract()
    live = [name for name in contract["tools"] if name != "get_capture"] + ["delete_everything"]
    found = drift(contract, live)
    assert (found.gone, found.changed, found.unknown) == (
        ("get_capture",),
        (),
        ("delete_everything",),
    )
    assert found.drifted == ("get_capture",)


def test_a_schema_other_than_the_one_the_contract_was_written_against_is_a_drift() -> None:
    contract = copy.deepcopy(stub_contract())
    listed = {"name": "list_levels", "inputSchema": {"type": "object", "properties": {}}}
    contract["tools"]["list_levels"]["schema_digest"] = schema_digest(listed)
    others = [n for n in contract["tools"] if n != "list_levels"]
    assert drift(contract, [*others, listed]).drifted == ()
    renamed = {**listed, "inputSchema": {"type": "object", "properties": {"projectId": {}}}}
    found = drift(contract, [*others, renamed])
    assert found.changed == ("list_levels",) and "list_levels" in found.describe()
    # A reworded description is not a drift: callers depend on the schemas only.
    assert drift(contract, [*others, {**listed, "description": "new words"}]).drifted == ()


def _both_accept(document: object) -> tuple[bool, bool]:
    """(the published JSON Schema accepts it, the server's parser accepts it)."""
    schema = json.loads(SCHEMA.read_text())
    by_schema = jsonschema.Draft202012Validator(schema).is_valid(document)
    try:
        parse_contract(document)
    except ContractError:
        return by_schema, False
    return by_schema, True


def _mutations() -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
    def tool(doc: dict[str, Any]) -> dict[str, Any]:
        entry: dict[str, Any] = doc["tools"]["query_data"]
        return entry

    return [
        ("as published", lambda d: None),
        ("a filled fixed argument", lambda d: tool(d).update(fixed_arguments={"repo": "/r"})),
        ("a null digest", lambda d: tool(d).update(schema_digest=None)),
        ("a key nobody defined", lambda d: tool(d).update(colour="red")),
        ("a short digest", lambda d: tool(d).update(schema_digest="abc")),
        ("a location not a pointer", lambda d: tool(d).update(total="structuredContent/total")),
        ("an unknown kind", lambda d: tool(d).update(kind="writer")),
        ("a capability in capitals", lambda d: tool(d).update(capability="Core")),
        ("no applies", lambda d: tool(d).pop("applies")),
        ("an unknown axis", lambda d: tool(d)["applies"].append({"axis": "x", "arguments": ["a"]})),
        ("a page cap of 0", lambda d: tool(d).update(page_cap=0)),
        ("a list as a fixed argument", lambda d: tool(d).update(fixed_arguments={"r": [1]})),
        ("version 2", lambda d: d.update(version=2)),
        ("no tools", lambda d: d.update(tools={})),
    ]


@pytest.mark.parametrize("name", [name for name, _ in _mutations()])
def test_the_servers_parser_and_the_published_schema_agree_on_what_a_contract_is(
    name: str,
) -> None:
    document = copy.deepcopy(stub_contract())
    dict(_mutations())[name](document)
    by_schema, by_parser = _both_accept(document)
    assert by_schema == by_parser, (name, by_schema, by_parser)
    assert by_parser == (name in {"as published", "a filled fixed argument", "a null digest"})


def test_a_contract_file_that_does_not_parse_refuses_the_start_with_its_path(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text("version: 1\ntarget: t\ntools: {x: {kind: writer}}\n")
    env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks",
        "BEACON_DB": str(tmp_path / "db"),
        "BEACON_KEYS": new_key_slot("k1"),
        "BEACON_UPSTREAM_CONTRACT": str(bad),
    }
    with pytest.raises(SettingsError, match=r"BEACON_UPSTREAM_CONTRACT: .*c\.yaml: .*tools/x"):
        settings_from_env(env)
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(stub_contract()))
    env["BEACON_UPSTREAM_CONTRACT"] = str(good)
    env["BEACON_UPSTREAM_DISABLED"] = "query_data,no_such_tool"
    with pytest.raises(SettingsError, match="no_such_tool"):
        settings_from_env(env)
    env["BEACON_UPSTREAM_DISABLED"] = "query_data"
    settings = settings_from_env(env)
    assert settings.upstream_disabled == {"query_data"} and settings.upstream_token is None
