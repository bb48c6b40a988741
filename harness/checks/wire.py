"""Checks of wire shapes against what the stub and the chat server really produce: a
stub tool's result, a producer's output, a recorded frame, a recorded model request,
the served OpenAPI document — each against its pinned JSON Schema."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from harness import producers
from harness.checks.base import CheckContext, defined_where_named, validate
from harness.refs import CheckFailed, normalize, require, resolve


def stub_tool_result(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The stub's real result for one call (in-process) against the pinned wire schema,
    and (``matches``) a value in it against the constant our side keeps for it."""
    result = producers.tool_result(
        require(params, "tool"), dict(params.get("arguments", {})), params.get("mode", "ok")
    )
    judge_tool_result(result, params, ctx)


def pinned_value(ref: str, field: str) -> Any:
    return normalize(resolve(ref, field))


def judge_tool_result(
    result: Any,
    params: Mapping[str, Any],
    ctx: CheckContext,
    ours_for: Callable[[str, str], Any] = pinned_value,
) -> None:
    """One tool result, however it was had (in-process here, over HTTP in
    ``harness.live_sweep``), against a ``stub-tool-result`` row's schema and matches."""
    # The matches first: "upstream sent 4000 at /structuredContent/total, the sentinel is
    # 3000" says what moved; the schema's first error (has_more) only that something did.
    for index, pair in enumerate(params.get("matches", ())):
        field = f"check.matches[{index}]"
        produced: Any = result
        for key in str(pair["pointer"]).strip("/").split("/"):
            if not isinstance(produced, dict) or key not in produced:
                raise CheckFailed(field, f"the result has no {pair['pointer']}")
            produced = produced[key]
        defined_where_named(pair["ref"], ctx, f"{field}.ref")
        ours = ours_for(pair["ref"], f"{field}.ref")
        if produced != ours:
            raise CheckFailed(
                field, f"upstream sent {produced!r} at {pair['pointer']}, {pair['ref']} is {ours!r}"
            )
    validate(result, require(params, "schema"), "check.schema")


def produced_shape(params: Mapping[str, Any], ctx: CheckContext) -> None:
    name = require(params, "producer")
    if name not in producers.PRODUCERS:
        raise CheckFailed("check.producer", f"unknown producer {name!r}")
    validate(producers.PRODUCERS[name](), require(params, "schema"), "check.schema")


def recorded_frame(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The first frame of one type a running chat server sent (``harness.recorded``)
    against the pinned schema of its data."""
    from harness.recorded import TURNS, first_frame

    frame = require(params, "frame")
    found = first_frame(frame)
    if "missing" in found:
        asked = ", ".join(scenario for scenario, _ in TURNS)
        raise CheckFailed("check.frame", f"no {frame} frame in the recorded turns ({asked})")
    validate(found["data"], require(params, "schema"), "check.schema")


def recorded_llm_request(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Every request body the running chat server sent the model (``harness.recorded``)
    against the pinned schema; both kinds of call must have been made (``kinds``)."""
    from harness.recorded import llm_requests

    bodies = llm_requests()
    for index, body in enumerate(bodies):
        validate(body, require(params, "schema"), f"check.schema (request {index + 1})")
    made = {"with_tools" if body.get("tools") else "without_tools" for body in bodies}
    missing = sorted(set(params.get("kinds", ())) - made)
    if missing:
        raise CheckFailed("check.kinds", f"no recorded request {', '.join(missing)}")


def served_openapi(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The operation the running chat server serves in its ``/openapi.json``, and its request
    body schema (resolved in that document) against required fields and examples."""
    from harness.recorded import served_openapi as served

    document = served()
    method, path = str(require(params, "method")).lower(), require(params, "path")
    operation = document.get("paths", {}).get(path, {}).get(method)
    if operation is None:
        raise CheckFailed("check.path", f"the served document has no {method.upper()} {path}")
    name = require(params, "schema")
    components = document.get("components", {})
    if name not in components.get("schemas", {}):
        raise CheckFailed("check.schema", f"the served document has no schema {name!r}")
    schema = {"$ref": f"#/components/schemas/{name}", "components": components}
    required = set(components["schemas"][name].get("required", ()))
    missing = sorted(set(params.get("requires", ())) - required)
    if missing:
        raise CheckFailed("check.requires", f"{name} no longer requires {', '.join(missing)}")
    for index, example in enumerate(params.get("examples", ())):
        validate(example, schema, f"check.examples[{index}]")
    for index, example in enumerate(params.get("rejects", ())):
        try:
            validate(example, schema, f"check.rejects[{index}]")
        except CheckFailed:
            continue
        raise CheckFailed(f"check.rejects[{index}]", "the served schema accepts a shape it forbids")
