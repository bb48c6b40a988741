"""One turn's OpenTelemetry spans, captured with the SDK's in-memory exporter from a
chat server in this process (the stubs are the stack's processes): the span tree,
the caller's ``traceparent`` as the turn's parent, and the trace context carried on
to the MCP upstream and the model endpoint (the stubs' request logs keep it)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from beacon.server.app import create_app
from beacon.server.settings import settings_from_env
from beacon.telemetry.tracing import use_provider
from harness.chat_process import chat_env
from harness.inproc import serving
from harness.stack import Stack
from harness.turn_streams import frames_of

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


@pytest.fixture
def traced_chat(stack: Stack, tmp_path: Path) -> Iterator[tuple[str, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    use_provider(provider)
    try:
        settings = settings_from_env(chat_env(stack, tmp_path))
        with serving(lambda _origin: create_app(settings)) as chat:
            yield chat, exporter
    finally:
        use_provider(None)


def _tree(spans: tuple[ReadableSpan, ...]) -> list[str]:
    """The spans as indented lines, children in start order: name [key attributes]."""
    by_parent: dict[int | None, list[ReadableSpan]] = {}
    ids = {s.context.span_id for s in spans}
    for span in sorted(spans, key=lambda s: s.start_time or 0):
        parent = span.parent.span_id if span.parent is not None else None
        by_parent.setdefault(parent if parent in ids else None, []).append(span)
    keys = ("beacon.round", "beacon.tool", "beacon.verdict", "beacon.grade", "beacon.purpose")
    lines: list[str] = []

    def walk(parent: int | None, depth: int) -> None:
        for span in by_parent.get(parent, []):
            attrs = span.attributes or {}
            shown = " ".join(f"{k.removeprefix('beacon.')}={attrs[k]}" for k in keys if k in attrs)
            lines.append("  " * depth + span.name + (f" [{shown}]" if shown else ""))
            walk(span.context.span_id, depth + 1)

    walk(None, 0)
    return lines


def _requests(origin: str, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def test_one_turn_is_one_span_tree_under_the_callers_traceparent(
    stack: Stack, traced_chat: tuple[str, InMemorySpanExporter]
) -> None:
    chat, exporter = traced_chat
    reply = httpx.post(
        f"{chat}/v1/turns",
        json={"message": PHOTOS},
        headers={
            "Authorization": f"Bearer {stack.token()}",
            "Accept": "text/event-stream",
            "traceparent": f"00-{TRACE_ID}-{CALLER_SPAN}-01",
        },
        timeout=60,
    )
    frames = frames_of(reply.content)
    assert frames[-1].event == "done"
    turn_id = frames[0].json()["turn_id"]
    # The turn's span ends once its upstream session is closed, just after `done`.
    deadline = time.monotonic() + 10
    while not any(s.name == "beacon.turn" for s in exporter.get_finished_spans()):
        assert time.monotonic() < deadline, "the turn span never ended"
        time.sleep(0.02)
    spans = exporter.get_finished_spans()
    assert _tree(spans) == [
        "beacon.turn",
        "  beacon.round [round=0]",
        "    beacon.tool_call [tool=list_projects verdict=ok grade=EXACT]",
        "  beacon.round [round=1]",
        "    beacon.model_request [purpose=plan]",
        "    beacon.tool_call [tool=search_photos verdict=ok grade=LOWER_BOUND]",
        # The planner wrote READY beside its call: no second plan request.
        "  beacon.answer",
        "    beacon.model_request [purpose=answer]",
    ]
    # One trace, the caller's: the turn span's parent is the caller's span.
    assert {format(s.context.trace_id, "032x") for s in spans} == {TRACE_ID}
    (turn,) = [s for s in spans if s.name == "beacon.turn"]
    assert turn.parent is not None and format(turn.parent.span_id, "016x") == CALLER_SPAN
    assert all((s.attributes or {}).get("beacon.turn_id") == turn_id for s in spans)
    assert (turn.attributes or {})["beacon.terminal"] == "done"

    # The MCP session carries the turn span's context; each model request its own span's.
    turn_parent = f"00-{TRACE_ID}-{format(turn.context.span_id, '016x')}-01"
    mcp = _requests(stack.mcp_origin, turn_id)
    assert [e["tool"] for e in mcp] == ["list_projects", "search_photos"]
    assert {e["traceparent"] for e in mcp} == {turn_parent}
    model_spans = [s for s in spans if s.name == "beacon.model_request"]
    expected = [f"00-{TRACE_ID}-{format(s.context.span_id, '016x')}-01" for s in model_spans]
    llm = _requests(stack.llm_url.removesuffix("/v1"), turn_id)
    assert sorted(e["traceparent"] for e in llm) == sorted(expected)
