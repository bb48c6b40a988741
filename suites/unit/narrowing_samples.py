"""The stub corpus the narrowing tests read: a stub tool's context and its output
adjudicated, and the arguments a tool's input schema declares.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from beacon.loop.evidence import Evidence, adjudicate
from beacon.upstream.mcp_client import ToolOutcome
from stub_server.corpus import build_corpus
from stub_server.faults import enveloped
from stub_server.tools import StubSettings, ToolContext

HARBOR = "prj-harbor-tower"
PANORAMAS = "List all panoramas in Harbor Tower"
CORPUS = build_corpus()
LOCALES = ("en", "ko", "ja", "de", "es")


def tool_context(**settings: int) -> ToolContext:
    return ToolContext(CORPUS, StubSettings(**settings), "http://127.0.0.1:1")


def adjudicated_result(tool: str, arguments: dict[str, Any], output: Any) -> Evidence:
    result = enveloped(output).model_dump(mode="json", by_alias=True, exclude_none=True)
    return adjudicate(
        ToolOutcome(tool, arguments, result, 200, 0),
        call_id="call_1",
        slot="c1",
        sentinel=3000,
        project_id=HARBOR,
    )


def declared_arguments(model: type[BaseModel]) -> set[str]:
    return set(model.model_json_schema()["properties"])
