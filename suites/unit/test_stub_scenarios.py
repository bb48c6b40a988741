"""Scenario files: kebab-case names, known modes, per-call order with the last mode repeating."""

from __future__ import annotations

import pytest

from stub_server.scenarios import (
    CallCounter,
    InvalidScenario,
    Mode,
    UnknownScenario,
    available_scenarios,
    load_scenario,
    parse_scenario,
)


def test_the_canonical_stub_scenarios_ship() -> None:
    shipped = set(available_scenarios())
    assert {
        "default",
        "legacy-upstream",
        "inband-502",
        "auth-empty",
        "zero-hits",
        "cursor-drift",
    } <= shipped
    for name in shipped:
        assert load_scenario(name).name == name


def test_legacy_upstream_applies_to_every_tool_and_drops_output_schemas() -> None:
    legacy = load_scenario("legacy-upstream")
    assert legacy.modes_for("query_data") == (Mode.LEGACY,)
    assert not legacy.declares_output_schema("search_photos")
    assert load_scenario("default").declares_output_schema("search_photos")


@pytest.mark.parametrize(
    "name", ["nope", "../default", "Default", "default.yaml", "a--b", ""], ids=repr
)
def test_an_unknown_or_malformed_name_is_a_typed_error(name: str) -> None:
    with pytest.raises(UnknownScenario):
        load_scenario(name)


def test_per_call_modes_run_in_order_and_the_last_one_repeats() -> None:
    scenario = parse_scenario("s", {"name": "s", "tools": {"search_photos": ["inband_502", "ok"]}})
    counter = CallCounter()
    seen = [counter.next_mode(scenario, "search_photos") for _ in range(3)]
    assert seen == [Mode.INBAND_502, Mode.OK, Mode.OK]
    assert counter.next_mode(scenario, "query_data") is Mode.OK
    counter.reset()
    assert counter.next_mode(scenario, "search_photos") is Mode.INBAND_502


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({"name": "other"}, id="name-differs-from-file"),
        pytest.param({"name": "s", "tools": {"x": "explode"}}, id="unknown-mode"),
        pytest.param({"name": "s", "tools": {"x": []}}, id="empty-mode-list"),
        pytest.param(["not", "a", "mapping"], id="not-a-mapping"),
    ],
)
def test_a_malformed_scenario_is_refused(data: object) -> None:
    with pytest.raises(InvalidScenario):
        parse_scenario("s", data)
