"""The stub's declared upstream contract is the tool table's data form: schema-valid,
row for row equal to beacon/wire/tools.py, and a drift is named."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema

from beacon.wire.contract import drift, stub_contract, tool_specs_of
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
    assert (found.gone, found.changed, found.unknown) == (("get_capture",), (), ("delete_everything",))
    assert found.drifted == ("get_capture",)
