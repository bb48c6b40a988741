"""The stub answers ``tools/list`` from listings it made once, and still lists
what the scenario of the request says: each tool's output schema where the
scenario's results keep to it, none where they do not (an older upstream's)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from pydantic import BaseModel

from stub_server.catalog import CURRENT_SCENARIO, StubTools
from stub_server.corpus import build_corpus
from stub_server.scenarios import load_scenario
from stub_server.tools import StubSettings, ToolContext


def _stub() -> Any:  # its handlers take the SDK's request context, unused here
    ctx = ToolContext(build_corpus(), StubSettings(), "http://127.0.0.1:9")
    return StubTools(ctx, load_scenario("default"))


def _list(stub: Any, scenario: str | None = None) -> dict[str, Any]:
    token = CURRENT_SCENARIO.set(load_scenario(scenario) if scenario else None)
    try:
        listed = anyio.run(stub.list_tools, None, None)
    finally:
        CURRENT_SCENARIO.reset(token)
    return {tool.name: tool for tool in listed.tools}


def test_a_second_listing_generates_no_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    stub = _stub()
    generated: list[str] = []
    original = BaseModel.model_json_schema.__func__  # type: ignore[attr-defined]

    def counting(cls: type[BaseModel], *args: Any, **kwargs: Any) -> dict[str, Any]:
        generated.append(cls.__name__)
        return original(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(BaseModel, "model_json_schema", classmethod(counting))
    first = _list(stub)
    assert len(generated) == 10  # one arguments model per tool
    again = _list(stub)
    assert len(generated) == 10
    assert {name: tool.model_dump() for name, tool in again.items()} == {
        name: tool.model_dump() for name, tool in first.items()
    }


def test_the_listing_follows_the_scenario_of_each_request() -> None:
    stub = _stub()
    declared = _list(stub)
    legacy = _list(stub, "legacy-upstream")
    declared_again = _list(stub)
    assert all(tool.output_schema is not None for tool in declared.values())
    assert all(tool.output_schema is None for tool in legacy.values())
    assert all(tool.output_schema is not None for tool in declared_again.values())
    # The same inputs either way: only the output schema follows the scenario.
    assert {n: t.input_schema for n, t in legacy.items()} == {
        n: t.input_schema for n, t in declared.items()
    }
